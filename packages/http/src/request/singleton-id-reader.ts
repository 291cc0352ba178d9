import type { ExternalIdScheme } from '@oqlkit/engine'
import { type EntityType, NATIVE_ID_PREFIXES } from '@oqlkit/oqo-schema'

/** The forms of id a singleton path (and a bulk lookup) takes, as messages list them. */
export const SINGLETON_ID_FORMS =
  'an OpenAlex id (short or as a URL), an external id as a URL or with its prefix (doi:, pmid:, pmcid:, orcid:, ror:, issn:, mag:, wikidata:)'

/** What the id of a singleton path names. */
export type SingletonId =
  | { readonly kind: 'random' }
  /** An OpenAlex id in any form (`W123`, `w123`, `https://openalex.org/W123`, a vocabulary code). */
  | { readonly kind: 'openalex'; readonly id: string }
  | { readonly kind: 'external'; readonly scheme: ExternalIdScheme; readonly value: string }
  /** A letter id of another entity type (`/works/A123`). */
  | { readonly kind: 'other-entity'; readonly id: string; readonly entity: EntityType }
  | { readonly kind: 'unrecognised' }

const PREFIX_SCHEMES: Readonly<Record<string, ExternalIdScheme | 'openalex'>> = {
  doi: 'doi',
  pmid: 'pmid',
  pmcid: 'pmcid',
  orcid: 'orcid',
  ror: 'ror',
  issn: 'issn',
  issn_l: 'issn',
  mag: 'mag',
  wikidata: 'wikidata',
  openalex: 'openalex',
}

// External id URLs, by host and path: the whole text goes to the adapter, which strips the prefix.
const URL_SCHEMES: ReadonlyArray<readonly [RegExp, ExternalIdScheme]> = [
  [/^https?:\/\/(?:dx\.)?doi\.org\//i, 'doi'],
  [/^https?:\/\/(?:www\.)?orcid\.org\//i, 'orcid'],
  [/^https?:\/\/(?:www\.)?ror\.org\//i, 'ror'],
  [/^https?:\/\/(?:www\.)?wikidata\.org\/(?:wiki|entity)\//i, 'wikidata'],
  [/^https?:\/\/(?:www\.)?(?:pubmed\.ncbi\.nlm\.nih\.gov\/|ncbi\.nlm\.nih\.gov\/pubmed\/)/i, 'pmid'],
  [/^https?:\/\/(?:www\.)?ncbi\.nlm\.nih\.gov\/pmc\/articles\//i, 'pmcid'],
]

const OPENALEX_URL = /^https?:\/\/(?:www\.|api\.)?openalex\.org\//i
const LETTER_ID = /^(?:https?:\/\/(?:www\.|api\.)?openalex\.org\/)?([A-Za-z])(\d+)$/
const BARE_DOI = /^10\.\d{4,9}\/\S+$/
const DIGITS = /^\d+$/

const entityOfLetter = (letter: string): EntityType | undefined =>
  (Object.entries(NATIVE_ID_PREFIXES) as [EntityType, string][]).find(
    ([, prefix]) => prefix === letter.toUpperCase(),
  )?.[0]

/**
 * Reads the id of `/{entities}/{id}`: `random`; an OpenAlex id as a short id, a full URL or
 * `openalex:…`, in any case; a bare number for letter-id entities (`/works/2741809807`); an external
 * id as a URL (`https://doi.org/…`, ORCID, ROR, Wikidata, PubMed, PMC) or in prefix form (`doi:`,
 * `pmid:`, `pmcid:`, `orcid:`, `ror:`, `issn:`, `mag:`, `wikidata:`); a bare DOI (`10.1038/…`).
 * For vocabulary entities (`/countries/us`) anything else is taken as the code.
 */
export const readSingletonId = (entity: EntityType, text: string): SingletonId => {
  const id = text.trim()
  if (id === '') return { kind: 'unrecognised' }
  if (id.toLowerCase() === 'random') return { kind: 'random' }
  const prefix = /^([a-z_]+):(?!\/\/)(.+)$/i.exec(id)
  const scheme = prefix === null ? undefined : PREFIX_SCHEMES[prefix[1]!.toLowerCase()]
  if (prefix !== null && scheme !== undefined) {
    const value = prefix[2]!.trim()
    return scheme === 'openalex' ? readSingletonId(entity, value) : { kind: 'external', scheme, value }
  }
  for (const [pattern, urlScheme] of URL_SCHEMES)
    if (pattern.test(id)) return { kind: 'external', scheme: urlScheme, value: id }
  if (BARE_DOI.test(id)) return { kind: 'external', scheme: 'doi', value: id }

  const ownLetter = (NATIVE_ID_PREFIXES as Partial<Record<EntityType, string>>)[entity]
  const letter = LETTER_ID.exec(id)
  if (letter !== null && ownLetter !== undefined) {
    const short = `${letter[1]!.toUpperCase()}${letter[2]}`
    if (letter[1]!.toUpperCase() === ownLetter) return { kind: 'openalex', id: short }
    const other = entityOfLetter(letter[1]!)
    return other === undefined ? { kind: 'unrecognised' } : { kind: 'other-entity', id: short, entity: other }
  }
  if (ownLetter !== undefined)
    return DIGITS.test(id) ? { kind: 'openalex', id: `${ownLetter}${id}` } : { kind: 'unrecognised' }
  // Vocabulary-style ids: the code, or its URL (`https://openalex.org/countries/US`).
  return OPENALEX_URL.test(id) || !id.includes('://') ? { kind: 'openalex', id } : { kind: 'unrecognised' }
}
