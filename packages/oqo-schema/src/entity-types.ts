/**
 * The 24 entity types an OQO can ask for (`get_rows`), in the order of the reference engine's
 * `VALID_ENTITY_TYPES`. `types` is the OQO name of work types (the URL path is `/work-types`).
 */
export const ENTITY_TYPES = [
  'works',
  'authors',
  'institutions',
  'sources',
  'publishers',
  'funders',
  'topics',
  'keywords',
  'concepts',
  'countries',
  'continents',
  'domains',
  'fields',
  'subfields',
  'sdgs',
  'languages',
  'licenses',
  'types',
  'source-types',
  'institution-types',
  'awards',
  'locations',
  'oa-statuses',
  'indexes',
] as const

export type EntityType = (typeof ENTITY_TYPES)[number]

/**
 * The entity types the API serves as lists and singletons (`/{entities}`), in the order it lists them. The
 * other three (`locations`, `oa-statuses`, `indexes`) are queried only through the columns of works.
 */
export const SERVED_ENTITY_TYPES = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'keywords',
  'publishers',
  'funders',
  'awards',
  'domains',
  'fields',
  'subfields',
  'sdgs',
  'countries',
  'continents',
  'languages',
  'types',
  'source-types',
  'institution-types',
  'licenses',
  'concepts',
] as const satisfies readonly EntityType[]

/** The entity types a private collection may hold, one per collection (the API description's list). */
export const COLLECTION_ENTITY_TYPES = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'sdgs',
  'funders',
  'publishers',
  'keywords',
  'concepts',
] as const satisfies readonly EntityType[]

/**
 * Other spellings accepted wherever an entity type is read. `work-types` is what the HTTP path and
 * `/properties` call work types, so an OQO written against either name works.
 */
export const ENTITY_TYPE_ALIASES = {
  'work-types': 'types',
} as const satisfies Readonly<Record<string, EntityType>>

export type EntityTypeAlias = keyof typeof ENTITY_TYPE_ALIASES

const ALIASES: Readonly<Record<string, EntityType>> = ENTITY_TYPE_ALIASES

/** The HTTP collection path (and `/properties` key) of each entity type. */
export const entityPath = (entity: EntityType): string => (entity === 'types' ? 'work-types' : entity)

/** What `entityPath` gives, as a type: `types` is `work-types`, every other entity type is its own path. */
export type EntityPath<Entity extends EntityType = EntityType> = Entity extends 'types'
  ? 'work-types'
  : Entity

const ENTITY_TYPE_SET: ReadonlySet<string> = new Set(ENTITY_TYPES)

export const isEntityType = (value: unknown): value is EntityType =>
  typeof value === 'string' && ENTITY_TYPE_SET.has(value)

/** Resolves a canonical name or an alias (any case, `source types` spaced) to the entity type. */
export const resolveEntityType = (name: string): EntityType | undefined => {
  // A canonical name is its own normal form: the common case needs no string work.
  if (ENTITY_TYPE_SET.has(name)) return name as EntityType
  const normalized = name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
  if (isEntityType(normalized)) return normalized
  return ALIASES[normalized]
}

/**
 * Entities whose ids are OpenAlex letter ids (`W123`, `A123`, …). The prefix is what validation
 * checks an id against; the other entities draw their ids from closed vocabularies.
 */
export const NATIVE_ID_PREFIXES = {
  works: 'W',
  authors: 'A',
  sources: 'S',
  institutions: 'I',
  topics: 'T',
  publishers: 'P',
  funders: 'F',
  concepts: 'C',
  awards: 'G',
} as const satisfies Partial<Record<EntityType, string>>

export type NativeEntityType = keyof typeof NATIVE_ID_PREFIXES

/**
 * The path segment of the full ids of an entity type without letter ids: `countries` in
 * `https://openalex.org/countries/US`. It is the OQO name, not the HTTP path: work types, served at
 * `/work-types`, have ids such as `https://openalex.org/types/article`.
 */
export const idPathSegment = (entity: Exclude<EntityType, NativeEntityType>): string => entity
