// The entity types a catalog holds, with how their ids look. The facts come from oqo-schema (which entity
// types there are, their names on disk, their id letters and path segments); only how the catalog stores
// each one is decided here. This list is the allow-list every SQL identifier built from an entity name goes
// through: a snapshot folder that is not named here is skipped.
import {
  ENTITY_TYPES,
  type EntityPath,
  type EntityType,
  entityPath,
  idPathSegment,
  isVocabularyEntityType,
  NATIVE_ID_PREFIXES,
  type NativeEntityType,
  SERVED_ENTITY_TYPES,
  type VocabularyEntityType,
} from '@oqlkit/oqo-schema/registry'

/**
 * The entity types a catalog holds: every one the API serves, and the closed vocabularies it does not
 * (oa-statuses and indexes, queried through the columns of works, which the bundled sample also ships).
 * Locations have no records of their own.
 */
type CatalogEntityType = (typeof SERVED_ENTITY_TYPES)[number] | VocabularyEntityType

const SERVED: ReadonlySet<EntityType> = new Set(SERVED_ENTITY_TYPES)

const isCatalogEntityType = (entity: EntityType): entity is CatalogEntityType =>
  SERVED.has(entity) || isVocabularyEntityType(entity)

const IN_API_ORDER: readonly CatalogEntityType[] = [
  ...SERVED_ENTITY_TYPES,
  ...ENTITY_TYPES.filter((entity) => !SERVED.has(entity)),
].filter(isCatalogEntityType)

/** Ingest order: the entities with open id spaces first, then the vocabularies, each in the API's order. */
const CATALOG_ENTITY_TYPES: readonly CatalogEntityType[] = [
  ...IN_API_ORDER.filter((entity) => !isVocabularyEntityType(entity)),
  ...IN_API_ORDER.filter((entity) => isVocabularyEntityType(entity)),
]

/** A catalog entity is named as the snapshot folder and the HTTP path name it (`work-types`, not `types`). */
export type CatalogEntity = EntityPath<CatalogEntityType>

const catalogName = (entity: CatalogEntityType): CatalogEntity => entityPath(entity) as CatalogEntity

/** Every entity type of the API, plus the two vocabularies the bundled sample also ships. */
export const CATALOG_ENTITY_NAMES: readonly CatalogEntity[] = Object.freeze(
  CATALOG_ENTITY_TYPES.map(catalogName),
)

/**
 * `letter`: native ids such as `https://openalex.org/W123`, short form `W123`.
 * `path`: vocabulary-style ids such as `https://openalex.org/countries/US`, short form `US` (the last path
 * segment, percent-decoded: `source-types/book%20series` gives `book series`).
 */
export type CatalogIdKind = 'letter' | 'path'

export interface CatalogEntityInfo {
  readonly entity: CatalogEntity
  readonly idKind: CatalogIdKind
  /** The id letter of a `letter` entity (`W` for works). */
  readonly letter: string | null
  /** The path segment of the full id of a `path` entity (`types` for work types, as the API writes it). */
  readonly segment: string | null
  /** Safe SQL identifier fragment for staging tables: lower-case letters and underscores only. */
  readonly table: string
  /**
   * Rows per Parquet row group. Entities with large records get smaller groups, so a point lookup by id
   * decompresses less of the `record` column.
   */
  readonly rowGroupSize: number
}

// Entities with large records get smaller row groups.
const LARGE_RECORD_ENTITIES: ReadonlySet<CatalogEntityType> = new Set(['works', 'authors', 'institutions'])
const LARGE_RECORDS = 16_384
const DEFAULT_ROW_GROUP = 122_880

const isNativeEntityType = (entity: EntityType): entity is NativeEntityType =>
  Object.hasOwn(NATIVE_ID_PREFIXES, entity)

const infoOf = (type: CatalogEntityType): CatalogEntityInfo => {
  const entity = catalogName(type)
  const native = isNativeEntityType(type)
  return Object.freeze({
    entity,
    idKind: native ? 'letter' : 'path',
    letter: native ? NATIVE_ID_PREFIXES[type] : null,
    segment: native ? null : idPathSegment(type),
    table: entity.replaceAll('-', '_'),
    rowGroupSize: LARGE_RECORD_ENTITIES.has(type) ? LARGE_RECORDS : DEFAULT_ROW_GROUP,
  })
}

export const CATALOG_ENTITIES: readonly CatalogEntityInfo[] = Object.freeze(CATALOG_ENTITY_TYPES.map(infoOf))

const BY_NAME: ReadonlyMap<string, CatalogEntityInfo> = new Map(
  CATALOG_ENTITIES.map((info) => [info.entity, info]),
)

/** The entity a snapshot folder name stands for, or `undefined` when it is not one of ours. */
export function catalogEntityInfo(name: string): CatalogEntityInfo | undefined {
  return BY_NAME.get(name)
}

export function isCatalogEntity(name: string): name is CatalogEntity {
  return BY_NAME.has(name)
}
