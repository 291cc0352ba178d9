// External ids the catalog resolves to OpenAlex ids (`/works/doi:10.1/x`, `/authors/orcid:0000-…`, …).
// Values are stored normalised: lower case, without URL prefixes. The query adapter normalises request
// input with `normalizeExternalId`; the ingest SQL applies the same prefix patterns (`EXTERNAL_ID_SCHEMES`).
import type { CatalogEntity } from './catalog-entities.ts'

export const EXTERNAL_ID_SCHEME_NAMES = [
  'doi',
  'orcid',
  'ror',
  'issn',
  'pmid',
  'pmcid',
  'mag',
  'wikidata',
] as const
export type ExternalIdScheme = (typeof EXTERNAL_ID_SCHEME_NAMES)[number]

export interface ExternalIdSchemeSpec {
  readonly scheme: ExternalIdScheme
  /**
   * Prefixes stripped before lower-casing, matched case-insensitively. Written in the regex subset RE2
   * and JavaScript share, since the ingest SQL uses the same text.
   */
  readonly prefixPattern: string
  /** Where records state the id. `list` paths hold arrays (each element is one id). */
  readonly sources: readonly ExternalIdSource[]
}

export interface ExternalIdSource {
  readonly path: string
  readonly list: boolean
  /** Only these entities are searched for the path; every entity when absent. */
  readonly entities?: readonly CatalogEntity[]
}

const scalar = (path: string): ExternalIdSource => ({ path, list: false })

export const EXTERNAL_ID_SCHEMES: readonly ExternalIdSchemeSpec[] = [
  {
    scheme: 'doi',
    prefixPattern: '^(?:https?://(?:dx\\.)?doi\\.org/|doi:)',
    sources: [scalar('$.doi'), scalar('$.ids.doi')],
  },
  {
    scheme: 'orcid',
    prefixPattern: '^(?:https?://(?:www\\.)?orcid\\.org/|orcid:)',
    sources: [scalar('$.orcid'), scalar('$.ids.orcid')],
  },
  {
    scheme: 'ror',
    prefixPattern: '^(?:https?://(?:www\\.)?ror\\.org/|ror:)',
    sources: [scalar('$.ror'), scalar('$.ids.ror')],
  },
  {
    scheme: 'issn',
    prefixPattern: '^(?:issn:)',
    sources: [
      scalar('$.issn_l'),
      scalar('$.ids.issn_l'),
      { path: '$.issn[*]', list: true, entities: ['sources'] },
      { path: '$.ids.issn[*]', list: true, entities: ['sources'] },
    ],
  },
  {
    scheme: 'pmid',
    prefixPattern:
      '^(?:https?://(?:www\\.)?(?:pubmed\\.ncbi\\.nlm\\.nih\\.gov/|ncbi\\.nlm\\.nih\\.gov/pubmed/)|pmid:)',
    sources: [scalar('$.ids.pmid')],
  },
  {
    // Records write `https://www.ncbi.nlm.nih.gov/pmc/articles/5815332` (no `PMC`), people write `PMC5815332`:
    // both normalise to the digits.
    scheme: 'pmcid',
    prefixPattern: '^(?:https?://(?:www\\.)?ncbi\\.nlm\\.nih\\.gov/pmc/articles/|pmcid:)?(?:pmc)?',
    sources: [scalar('$.ids.pmcid')],
  },
  {
    scheme: 'mag',
    prefixPattern: '^(?:mag:)',
    sources: [scalar('$.ids.mag')],
  },
  {
    scheme: 'wikidata',
    prefixPattern: '^(?:https?://(?:www\\.)?wikidata\\.org/(?:wiki|entity)/|wikidata:)',
    sources: [scalar('$.wikidata'), scalar('$.ids.wikidata')],
  },
]

const SPECS: ReadonlyMap<string, ExternalIdSchemeSpec> = new Map(
  EXTERNAL_ID_SCHEMES.map((s) => [s.scheme, s]),
)
const PREFIXES: ReadonlyMap<string, RegExp> = new Map(
  EXTERNAL_ID_SCHEMES.map((s) => [s.scheme, new RegExp(s.prefixPattern, 'i')]),
)

export function isExternalIdScheme(value: string): value is ExternalIdScheme {
  return SPECS.has(value)
}

/** An 8-character ISSN written without its hyphen gets one: `20492431` is `2049-2431`. */
export const BARE_ISSN_PATTERN = '^[0-9]{7}[0-9x]$'
const BARE_ISSN = new RegExp(BARE_ISSN_PATTERN)

/** The text without its trailing slashes: `/\/+$/` tries every slash of a long run, in time its square. */
const withoutTrailingSlashes = (text: string): string => {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end--
  return text.slice(0, end)
}

/**
 * The stored form of an external id: trimmed, prefix removed, trailing slash removed, lower case; ISSNs
 * hyphenated. `undefined` for a value that is empty once normalised.
 */
export function normalizeExternalId(scheme: ExternalIdScheme, raw: string): string | undefined {
  const stripped = withoutTrailingSlashes(raw.trim().replace(PREFIXES.get(scheme)!, '')).toLowerCase()
  const value =
    scheme === 'issn' && BARE_ISSN.test(stripped) ? `${stripped.slice(0, 4)}-${stripped.slice(4)}` : stripped
  return value === '' ? undefined : value
}
