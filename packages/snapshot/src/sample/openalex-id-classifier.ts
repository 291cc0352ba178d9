// What kind of entity an OpenAlex id names, and a stable order for ids. Used by the sample snapshot
// builder to follow references (an id string found anywhere in a record) and to sort part files.

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject
export type JsonObject = { [key: string]: JsonValue }

export const OPENALEX_PREFIX = 'https://openalex.org/'

/** Native entities: records of their own, ids like `https://openalex.org/A5023888391`. */
export const NATIVE_ENTITIES = [
  'works',
  'authors',
  'sources',
  'institutions',
  'publishers',
  'funders',
  'topics',
  'keywords',
  'concepts',
] as const
export type NativeEntity = (typeof NATIVE_ENTITIES)[number]

/** Vocabulary entities: closed lists from the API's config, ids like `https://openalex.org/countries/US`. */
export const VOCABULARY_ENTITIES = [
  'domains',
  'fields',
  'subfields',
  'countries',
  'continents',
  'languages',
  'work-types',
  'source-types',
  'institution-types',
  'licenses',
  'sdgs',
  'oa-statuses',
  'indexes',
] as const
export type VocabularyEntity = (typeof VOCABULARY_ENTITIES)[number]

export type SnapshotEntity = NativeEntity | VocabularyEntity

/** The native entities whose records can be derived from the objects embedded in others: all but works. */
export type DerivableEntity = Exclude<NativeEntity, 'works'>

export const isDerivable = (entity: string): entity is DerivableEntity =>
  entity !== 'works' && (NATIVE_ENTITIES as readonly string[]).includes(entity)

const LETTER_ENTITIES: Readonly<Record<string, NativeEntity>> = {
  W: 'works',
  A: 'authors',
  S: 'sources',
  I: 'institutions',
  P: 'publishers',
  F: 'funders',
  T: 'topics',
  C: 'concepts',
}

// The path segment of a vocabulary id. Work types use `types/` in their ids (as the API's config does).
const SEGMENT_ENTITIES: Readonly<Record<string, SnapshotEntity>> = {
  keywords: 'keywords',
  domains: 'domains',
  fields: 'fields',
  subfields: 'subfields',
  countries: 'countries',
  continents: 'continents',
  languages: 'languages',
  types: 'work-types',
  'source-types': 'source-types',
  'institution-types': 'institution-types',
  licenses: 'licenses',
  sdgs: 'sdgs',
  'oa-statuses': 'oa-statuses',
  indexes: 'indexes',
}

/** The entity an OpenAlex id URL names, or `undefined` for anything else (awards `G…` included). */
export function classifyOpenAlexId(id: string): SnapshotEntity | undefined {
  if (!id.startsWith(OPENALEX_PREFIX)) return undefined
  const rest = id.slice(OPENALEX_PREFIX.length)
  const letter = /^([A-Z])\d+$/.exec(rest)
  if (letter) return LETTER_ENTITIES[letter[1]!]
  const slash = rest.indexOf('/')
  if (slash <= 0 || slash === rest.length - 1) return undefined
  return SEGMENT_ENTITIES[rest.slice(0, slash)]
}

/** The full id of a vocabulary value: `countries/US` gives `https://openalex.org/countries/US`. */
export function vocabularyUrl(shortId: string): string {
  const slash = shortId.indexOf('/')
  return `${OPENALEX_PREFIX}${shortId.slice(0, slash + 1)}${encodeURIComponent(shortId.slice(slash + 1))}`
}

/**
 * Orders ids by their text, except that a trailing number compares as a number, so `W99` sorts before
 * `W100`, as the records files and the real snapshot do. Uses code-unit comparison, never the locale.
 */
export function compareOpenAlexIds(a: string, b: string): number {
  const ma = /^(.*?)(\d+)$/.exec(a)
  const mb = /^(.*?)(\d+)$/.exec(b)
  if (ma && mb && ma[1] === mb[1]) {
    const da = ma[2]!.replace(/^0+(?=\d)/, '')
    const db = mb[2]!.replace(/^0+(?=\d)/, '')
    if (da.length !== db.length) return da.length - db.length
    if (da !== db) return da < db ? -1 : 1
  }
  return a < b ? -1 : a > b ? 1 : 0
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The value if it is an array, else an empty one. */
export function jsonArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : []
}

/** The objects in the value if it is an array. */
export function jsonObjects(value: JsonValue | undefined): JsonObject[] {
  return jsonArray(value).filter(isJsonObject)
}
