import type { EntityType } from '../entity-types.ts'
import { closestMatches } from '../string-similarity.ts'
import continents from './continents.json' with { type: 'json' }
import countries from './countries.json' with { type: 'json' }
import domains from './domains.json' with { type: 'json' }
import fields from './fields.json' with { type: 'json' }
import indexes from './indexes.json' with { type: 'json' }
import institutionTypes from './institution-types.json' with { type: 'json' }
import languages from './languages.json' with { type: 'json' }
import licenses from './licenses.json' with { type: 'json' }
import oaStatuses from './oa-statuses.json' with { type: 'json' }
import sdgs from './sdgs.json' with { type: 'json' }
import sourceTypes from './source-types.json' with { type: 'json' }
import subfields from './subfields.json' with { type: 'json' }
import workTypes from './work-types.json' with { type: 'json' }

/** One member of a closed vocabulary: its bare code (`US`, `article`, `3`) and its display name. */
export interface VocabularyEntry {
  readonly code: string
  readonly displayName: string
}

interface RawEntry {
  readonly id: string
  readonly display_name: string
}

// institution-types.json adds `funder` to the shared vocabulary: institution records carry that type (the
// bundled sample has works whose institutions are funders), and a vocabulary that refuses a value the
// data holds makes those records unreachable by filter.
// The files keep the reference server's short ids (`countries/US`, `types/article`); the OQO value is
// the part after the first slash.
const toEntries = (raw: readonly RawEntry[]): readonly VocabularyEntry[] =>
  Object.freeze(
    raw.map((entry) =>
      Object.freeze({ code: entry.id.slice(entry.id.indexOf('/') + 1), displayName: entry.display_name }),
    ),
  )

const VOCABULARIES = {
  continents: toEntries(continents),
  countries: toEntries(countries),
  domains: toEntries(domains),
  fields: toEntries(fields),
  indexes: toEntries(indexes),
  'institution-types': toEntries(institutionTypes),
  languages: toEntries(languages),
  licenses: toEntries(licenses),
  'oa-statuses': toEntries(oaStatuses),
  sdgs: toEntries(sdgs),
  'source-types': toEntries(sourceTypes),
  subfields: toEntries(subfields),
  types: toEntries(workTypes),
} as const satisfies Partial<Record<EntityType, readonly VocabularyEntry[]>>

export type VocabularyEntityType = keyof typeof VOCABULARIES

export const VOCABULARY_ENTITY_TYPES = Object.freeze(Object.keys(VOCABULARIES) as VocabularyEntityType[])

export const isVocabularyEntityType = (entity: string): entity is VocabularyEntityType =>
  Object.hasOwn(VOCABULARIES, entity)

/** The closed vocabulary of an entity type, or undefined for entities with open id spaces. */
export const vocabularyOf = (entity: EntityType): readonly VocabularyEntry[] | undefined =>
  isVocabularyEntityType(entity) ? VOCABULARIES[entity] : undefined

const INDEXES = new Map(
  Object.entries(VOCABULARIES).map(([entity, entries]) => [
    entity,
    new Map(entries.map((entry) => [entry.code.toLowerCase(), entry])),
  ]),
)

const OPENALEX_HOST = /^https?:\/\/openalex\.org\//i

/** Strips the forms a vocabulary value arrives in: `https://openalex.org/countries/us`, `countries/us`, `us`. */
export const bareVocabularyCode = (value: string): string => {
  const withoutHost = value.replace(OPENALEX_HOST, '')
  const slash = withoutHost.indexOf('/')
  return slash === -1 ? withoutHost : withoutHost.slice(slash + 1)
}

/** Looks a value up in an entity's vocabulary, case-insensitively and in any of its id forms. */
export const findVocabularyEntry = (entity: EntityType, value: string): VocabularyEntry | undefined =>
  INDEXES.get(entity)?.get(bareVocabularyCode(value).toLowerCase())

/**
 * The code a value that is not in an entity's vocabulary most likely meant: the code of an entry whose
 * display name it is (`Article`, `United States`), else of the entry whose code or name it is closest to.
 * Undefined when none is close, or the entity has no closed vocabulary.
 */
export const suggestVocabularyCode = (entity: EntityType, value: string): string | undefined => {
  const vocabulary = vocabularyOf(entity)
  if (vocabulary === undefined) return undefined
  const text = value.trim()
  const byName = vocabulary.find((entry) => entry.displayName.toLowerCase() === text.toLowerCase())
  if (byName !== undefined) return byName.code
  const closest = closestMatches(
    text,
    vocabulary.flatMap((entry) => [entry.code, entry.displayName]),
    1,
  )[0]
  return vocabulary.find((entry) => entry.code === closest || entry.displayName === closest)?.code
}
