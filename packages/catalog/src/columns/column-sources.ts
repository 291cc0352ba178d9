// Where each registry column's values live in a catalog, per entity. Three tiers, fastest first:
//   1. a derived typed column of the entity table (`publication_year`, `primary_source_id`, `doi`);
//   2. a link table for multi-valued ids of works (`authorships.author.id` → `links/works-authors`), or the
//      external-id table (`ids.pmid`), so a filter reads one key range instead of every record;
//   3. the column's path in the JSON record (`$.authorships[*].institutions[*].type`), as ingest extracted
//      it into a record-path column (`json__authorships__institutions__type`, text or a list of texts):
//      every filterable column works, typed at query time, correctly if more slowly.
// A few columns are computed (`has_orcid`, `best_open_version`, `cited_by`), from record-path columns too.
// No SQL written here reads the `record` column. Every SQL name used here is checked against the catalog's
// own lists (`derivedColumnsOf`, `LINK_TABLES`) when this module loads, and the record-path columns ingest
// writes are the ones this module reads (`recordPathColumnsOf`, collected when it loads).
import type { ColumnRef } from '@oqlkit/engine'
import { ENTITY_TYPES, type EntityType, entityPath, propertiesRegistry } from '@oqlkit/oqo-schema/registry'
import {
  CATALOG_ENTITY_NAMES,
  type CatalogEntity,
  type CatalogEntityInfo,
  catalogEntityInfo,
} from '../layout/catalog-entities.ts'
import type { RecordPathColumn } from '../layout/record-path-columns.ts'
import type { ColumnDialect } from './column-dialect.ts'
import { createColumnSourceBuilders } from './column-source-builders.ts'
import type { ColumnSource } from './column-source-shapes.ts'
import { type SourceFactory, specialSourcesOf } from './entity-column-sources.ts'
import { RecordPaths } from './record-path-collector.ts'

/** The catalog table of a registry entity type (`types` is `work-types`; `locations` has no table). */
export const catalogEntityInfoOf = (entity: EntityType): CatalogEntityInfo | undefined =>
  catalogEntityInfo(entityPath(entity))

/** The catalog entity of a registry entity type (`types` is `work-types`; `locations` has no table). */
export const catalogEntityOf = (entity: EntityType): CatalogEntity | undefined =>
  catalogEntityInfoOf(entity)?.entity

interface EntitySources {
  readonly paths: RecordPaths
  readonly special: ReadonlyMap<string, SourceFactory>
}

// `from_created_date` and `to_created_date` are bounds of `created_date`: the same values (the filter
// compiler turns `=` into `>=`/`<=`).
const DATE_BOUND = /^(?:from|to)_(.+_date)$/

/** The registry's value columns of the entity types a catalog entity stores (`types` for `work-types`). */
const registryColumnsOf = (entity: CatalogEntity): ColumnRef[] =>
  ENTITY_TYPES.filter((type) => catalogEntityOf(type) === entity).flatMap((type) =>
    propertiesRegistry
      .columnsOf(type)
      .flatMap((column) => (column.kind === null ? [] : [{ id: column.id, kind: column.kind }])),
  )

/** Where each registry column's values are, for each entity table, written in one engine's SQL. */
export interface ColumnMap {
  /** Where a registry column's values are, for an entity table. */
  columnSourceOf(entity: CatalogEntity, column: ColumnRef): ColumnSource
  /** The SQL of a record-path column of the entity's list values at `path` (it must be one ingest writes). */
  recordListColumn(entity: CatalogEntity, path: string): string
  /** The record-path columns of an entity table (the same for every dialect). */
  recordPathColumnsOf(entity: CatalogEntity): readonly RecordPathColumn[]
}

/** The column map in a dialect's SQL (DuckDB's below; ClickHouse's in @oqlkit/adapter-clickhouse). */
export const createColumnMap = (dialect: ColumnDialect): ColumnMap => {
  const builders = createColumnSourceBuilders(dialect)
  const { fromRecord } = builders
  const specialSources = (paths: RecordPaths) => specialSourcesOf(dialect, builders, paths)

  const sourceIn = (sources: EntitySources, column: ColumnRef): ColumnSource => {
    if (column.kind === 'search' || column.kind === 'collection')
      return { kind: 'unsupported', message: `${column.id} is a ${column.kind} column, not a value column` }
    const bound = DATE_BOUND.exec(column.id)
    const ref = bound === null ? column : { id: bound[1]!, kind: column.kind }
    const special = sources.special.get(ref.id)
    if (special !== undefined) return special(ref)
    return fromRecord(sources.paths, ref)
  }

  const SOURCES: ReadonlyMap<CatalogEntity, EntitySources> = new Map(
    CATALOG_ENTITY_NAMES.map((entity) => {
      const paths = new RecordPaths(entity, dialect.column)
      return [entity, { paths, special: specialSources(paths) }]
    }),
  )

  // Every source once, so that every path a query can read is collected; then the collections close.
  const RECORD_PATH_COLUMNS: ReadonlyMap<CatalogEntity, readonly RecordPathColumn[]> = new Map(
    [...SOURCES].map(([entity, sources]) => {
      for (const column of registryColumnsOf(entity)) sourceIn(sources, column)
      for (const [id, factory] of sources.special) factory({ id, kind: 'string' })
      return [entity, sources.paths.close()]
    }),
  )

  /**
   * The record-path columns of an entity table: what ingest extracts from each record so that no query reads
   * the `record` column (see catalog/record-path-columns.ts).
   */
  const recordPathColumnsOf = (entity: CatalogEntity): readonly RecordPathColumn[] =>
    RECORD_PATH_COLUMNS.get(entity) ?? []

  /** The SQL of a record-path column of the entity's list values at `path` (it must be one ingest writes). */
  const recordListColumn = (entity: CatalogEntity, path: string): string =>
    SOURCES.get(entity)!.paths.list(path)

  /** Where a registry column's values are, for an entity table. */
  const columnSourceOf = (entity: CatalogEntity, column: ColumnRef): ColumnSource => {
    const sources = SOURCES.get(entity)
    if (sources === undefined) throw new Error(`Not a catalog entity: ${entity}`)
    return sourceIn(sources, column)
  }

  return { columnSourceOf, recordListColumn, recordPathColumnsOf }
}
