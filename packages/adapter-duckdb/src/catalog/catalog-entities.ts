// The entity types a catalog holds, with how their ids look. This list is the allow-list every SQL
// identifier built from an entity name goes through: a snapshot folder that is not named here is skipped.

/** Every entity type of the API, plus the two vocabularies the bundled sample also ships. */
export const CATALOG_ENTITY_NAMES = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'keywords',
  'publishers',
  'funders',
  'awards',
  'concepts',
  'domains',
  'fields',
  'subfields',
  'sdgs',
  'countries',
  'continents',
  'languages',
  'work-types',
  'source-types',
  'institution-types',
  'licenses',
  'oa-statuses',
  'indexes',
] as const

export type CatalogEntity = (typeof CATALOG_ENTITY_NAMES)[number]

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

const LARGE_RECORDS = 16_384
const DEFAULT_ROW_GROUP = 122_880

const letter = (
  entity: CatalogEntity,
  idLetter: string,
  rowGroupSize = DEFAULT_ROW_GROUP,
): CatalogEntityInfo =>
  Object.freeze({
    entity,
    idKind: 'letter',
    letter: idLetter,
    segment: null,
    table: entity.replaceAll('-', '_'),
    rowGroupSize,
  })

const path = (entity: CatalogEntity, segment: string = entity): CatalogEntityInfo =>
  Object.freeze({
    entity,
    idKind: 'path',
    letter: null,
    segment,
    table: entity.replaceAll('-', '_'),
    rowGroupSize: DEFAULT_ROW_GROUP,
  })

export const CATALOG_ENTITIES: readonly CatalogEntityInfo[] = Object.freeze([
  letter('works', 'W', LARGE_RECORDS),
  letter('authors', 'A', LARGE_RECORDS),
  letter('sources', 'S'),
  letter('institutions', 'I', LARGE_RECORDS),
  letter('topics', 'T'),
  path('keywords'),
  letter('publishers', 'P'),
  letter('funders', 'F'),
  letter('awards', 'G'),
  letter('concepts', 'C'),
  path('domains'),
  path('fields'),
  path('subfields'),
  path('sdgs'),
  path('countries'),
  path('continents'),
  path('languages'),
  path('work-types', 'types'),
  path('source-types'),
  path('institution-types'),
  path('licenses'),
  path('oa-statuses'),
  path('indexes'),
])

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
