// The tables an oqlkit catalog becomes in ClickHouse, and the DDL that makes them, on one server or on a
// cluster. The layout mirrors the catalog's files (`@oqlkit/catalog`'s layout README), so the same
// column names serve both adapters:
//
//   <entity>              the rows of entities/<entity>.parquet: id, derived and record-path columns
//   <entity>__records     (id, record): each record's JSON text, which ClickHouse compresses itself
//   link_works_<relation> the rows of links/works-<relation>.parquet: (key, work_id)
//   external_ids, merged_ids, deleted_ids   the rows of ids/*.parquet
//   work_vectors          (id, vector, norm): the works' vectors of semantic search, as vectors/works.i8 holds them
//   catalog_files         (path, content): catalog.json and the small model files a server reads at start (the
//                         LSA model that embeds semantic queries, the text tagger's model)
//   search_<entity>__…    the full-text search index (`clickhouse-search-tables.ts`)
//
// A catalog of format 9 keeps its entity, link and id tables in its serving database alone (catalog.json lists
// no file for them): their rows are read from those same files as `exportCatalogTables` of
// @oqlkit/adapter-duckdb writes them, in a folder the loader is given (`LoadOptions.tableFiles`).
//
// On a cluster each is a ReplicatedMergeTree `<name>_local` on every node behind a Distributed `<name>`.
// Rows are spread by the id of the work or entity they belong to (`cityHash64`), so a work, its record and
// every link row of it live on one shard: a filter `id IN (SELECT work_id FROM link_… WHERE key = …)` is
// answered on each shard alone (`distributed_product_mode = 'local'`), exactly, with no data moved between
// shards. What every shard or server reads whole (catalog_files, the search index's dictionaries and the
// indexes of entities numbered by rank) is the exception: one replicated table on every node (its Keeper path
// names no shard), like the pointer table. The README's
// deployment guide shows the statements this module writes.
import {
  type CatalogEntity,
  type CatalogManifest,
  DELETED_IDS_FILE,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  linkFilePath,
  MERGED_IDS_FILE,
} from '@oqlkit/catalog'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { catalogFilesTable, workVectorsTable } from './clickhouse-model-tables.ts'
import { searchTablesOf } from './clickhouse-search-tables.ts'
import type { ClickHouseTable } from './clickhouse-table.ts'

/** A catalog column type (`CatalogColumnType` of the catalog layout). */
type CatalogColumnType = CatalogManifest['externalIds']['columns'][number]['type']

/** ClickHouse types of the catalog's column types; a missing value is NULL, as in the Parquet files. */
const CLICKHOUSE_TYPES: Readonly<Record<CatalogColumnType, string>> = {
  VARCHAR: 'Nullable(String)',
  'VARCHAR[]': 'Array(String)',
  BIGINT: 'Nullable(Int64)',
  INTEGER: 'Nullable(Int32)',
  DOUBLE: 'Nullable(Float64)',
  BOOLEAN: 'Nullable(Bool)',
  DATE: 'Nullable(Date32)',
  TIMESTAMP: "Nullable(DateTime64(6, 'UTC'))",
}

/** The non-null form of a sort-key column: ClickHouse keys cannot be Nullable. */
const keyType = (type: string): string => /^Nullable\((.*)\)$/.exec(type)?.[1] ?? type

/** The table of a catalog entity (`work-types` → `work_types`). */
export const entityTableName = (entity: string): string => entity.replaceAll('-', '_')

/** The table of an entity's records. */
export const recordsTableName = (entity: string): string => `${entityTableName(entity)}__records`

/** The table of a link relation (`works-authors` → `link_works_authors`, as the DuckDB views name it). */
export const linkTableName = (relation: string): string => `link_${relation.replaceAll('-', '_')}`

interface CatalogTableLike {
  readonly files: readonly string[]
  readonly rowCount: number
  readonly sortedBy: readonly string[]
  readonly columns: readonly { readonly name: string; readonly type: CatalogColumnType }[]
}

/**
 * Where a catalog table's rows are read from: the Parquet files its manifest entry lists (format 8 and before),
 * or, for a table kept in the serving database alone (format 9: no file listed), its path in the catalog layout
 * (`layoutPath`) in the folder of the catalog's tables exported as Parquet (`LoadOptions.tableFiles`).
 */
const parquetSource = (table: CatalogTableLike, layoutPath: string) =>
  table.files.length > 0
    ? { kind: 'parquet' as const, files: table.files, rows: table.rowCount }
    : { kind: 'parquet' as const, files: [layoutPath], rows: table.rowCount, inTableFiles: true }

const fromCatalogTable = (
  name: string,
  table: CatalogTableLike,
  shardBy: string,
  layoutPath: string,
): ClickHouseTable => ({
  name,
  columns: table.columns.map((column) => {
    const type = CLICKHOUSE_TYPES[column.type]
    if (type === undefined) throw new Error(`catalog.json gives ${name}.${column.name} an unknown type`)
    return { name: column.name, type: table.sortedBy.includes(column.name) ? keyType(type) : type }
  }),
  orderBy: table.sortedBy,
  shardBy: quoteIdentifier(shardBy),
  source: parquetSource(table, layoutPath),
})

/** The column of a link table that copies its work's `is_xpac` (false when the work does not say). */
export const WORK_IS_XPAC_COLUMN = 'work_is_xpac'

/** The projection of a link table that counts its rows by key and corpus. */
export const LINK_COUNTS_PROJECTION = 'key_counts'

/**
 * The works' sort keys each link table copies beside its rows (`work_<name>`, typed as the works' own column),
 * so a filter of one link's keys (the works of an author, by citations) is counted and paged from the link
 * table's range of those keys alone: reading the matched works back by id cost 70-120 ms a list at 1M works.
 */
export const LINK_SORT_COLUMNS: readonly string[] = ['cited_by_count', 'publication_date', 'publication_year']

/** The link table's copy of the works' column `name`. */
export const linkSortColumn = (name: string): string => `work_${name}`

/**
 * A link table: `(key, work_id)` in key order, so a link filter reads a key's range, and beside each row its
 * work's `is_xpac` and sort keys (`LINK_SORT_COLUMNS`, those the works have). So a group-by of the link's keys
 * over a corpus counts the link table alone, from a projection of its counts by corpus and key: joining a
 * million works to two million link rows took 0.5-1 s a statement at 1M works, where DuckDB's adapter counts
 * its own copy of the links in 18 ms (BENCHMARKS.md); and a list of one link's works reads no works.
 */
const linkTable = (relation: string, table: CatalogTableLike, works: CatalogTableLike): ClickHouseTable => {
  const base = fromCatalogTable(linkTableName(relation), table, 'work_id', linkFilePath(relation))
  const copied = LINK_SORT_COLUMNS.flatMap((name) => {
    const column = works.columns.find((candidate) => candidate.name === name)
    return column === undefined ? [] : [{ name: linkSortColumn(name), type: CLICKHOUSE_TYPES[column.type] }]
  })
  return {
    ...base,
    columns: [...base.columns, { name: WORK_IS_XPAC_COLUMN, type: 'Bool' }, ...copied],
    projections: [
      `${LINK_COUNTS_PROJECTION} (SELECT ${WORK_IS_XPAC_COLUMN}, key, count() GROUP BY ${WORK_IS_XPAC_COLUMN}, key)`,
    ],
    source: { ...parquetSource(table, linkFilePath(relation)), withWorkCorpus: true },
  }
}

/** Every table of a catalog, entities first (their records after each), then links and ids. */
export const clickHouseTablesOf = (manifest: CatalogManifest): readonly ClickHouseTable[] => {
  const tables: ClickHouseTable[] = []
  for (const [entity, table] of Object.entries(manifest.entities) as [
    CatalogEntity,
    CatalogManifest['entities'][CatalogEntity],
  ][]) {
    const entityTable = fromCatalogTable(entityTableName(entity), table, 'id', entityFilePath(entity))
    tables.push({
      ...entityTable,
      // A link filter reads its works by id, scattered over the table: with the default granules (8,192 rows,
      // or fewer when 10 MB of the wide rows fill one first: some 2,300 at 1M works) the 500 works of an
      // author read two thirds of the table's granules; granules of 256 rows read a tenth of what they did.
      settings: 'index_granularity = 256',
      source: { ...parquetSource(table, entityFilePath(entity)), measureColumns: true },
    })
    tables.push({
      name: recordsTableName(entity),
      // The records are JSON text with much repetition: ZSTD keeps them smaller than the default LZ4.
      columns: [
        { name: 'id', type: 'String' },
        { name: 'record', type: 'String', codec: 'ZSTD(3)' },
      ],
      orderBy: ['id'],
      shardBy: quoteIdentifier('id'),
      // A page reads 25 records by id, anywhere in the table. With the default granules (8,192 rows, up to
      // 10 MB) each record read decompressed a whole granule: 114-152 ms for 25 works at 100k. Granules of
      // 16 records in blocks of at most 64 KB read the same in 24 ms, for 33% more disk (BENCHMARKS.md); of 4
      // (a work's record is some 15 KB, so a granule is about one block), 5.0 ms of the engine's time for 25
      // works against 7.4 with 16, for 1% more disk (200k works' records, one part each).
      settings:
        'index_granularity = 4, index_granularity_bytes = 0, min_compress_block_size = 4096, max_compress_block_size = 65536',
      source: { kind: 'records', entity, rows: table.rowCount },
    })
  }
  for (const [relation, table] of Object.entries(manifest.links))
    tables.push(linkTable(relation, table, manifest.entities.works))
  tables.push(fromCatalogTable('external_ids', manifest.externalIds, 'id', EXTERNAL_IDS_FILE))
  tables.push(fromCatalogTable('merged_ids', manifest.mergedIds, 'old_id', MERGED_IDS_FILE))
  tables.push(fromCatalogTable('deleted_ids', manifest.deletedIds, 'id', DELETED_IDS_FILE))
  tables.push(workVectorsTable(manifest), catalogFilesTable(manifest))
  tables.push(...searchTablesOf(manifest))
  return tables
}

export interface DdlTarget {
  readonly database: string
  /** A cluster name from the servers' `remote_servers`: replicated tables behind Distributed ones. */
  readonly cluster?: string
}

const columnList = (table: ClickHouseTable): string =>
  [
    ...table.columns.map(
      (column) =>
        `  ${quoteIdentifier(column.name)} ${column.type}${column.codec === undefined ? '' : ` CODEC(${column.codec})`}`,
    ),
    ...(table.projections ?? []).map((projection) => `  PROJECTION ${projection}`),
  ].join(',\n')

/** The statements that create a database and one table in it, in order. */
export const createTableStatements = (table: ClickHouseTable, target: DdlTarget): readonly string[] => {
  const database = quoteIdentifier(target.database)
  const orderBy = `ORDER BY (${table.orderBy.map(quoteIdentifier).join(', ')})${table.settings === undefined ? '' : `\nSETTINGS ${table.settings}`}`
  if (target.cluster === undefined)
    return [
      `CREATE TABLE ${database}.${quoteIdentifier(table.name)}\n(\n${columnList(table)}\n)\nENGINE = MergeTree\n${orderBy}`,
    ]
  const cluster = quoteIdentifier(target.cluster)
  // One replica set spanning every node: the Keeper path names no shard, each replica is named by both macros.
  if (table.wholeOnEveryNode === true)
    return [
      `CREATE TABLE ${database}.${quoteIdentifier(table.name)} ON CLUSTER ${cluster}\n(\n${columnList(table)}\n)\nENGINE = ReplicatedMergeTree('/clickhouse/tables/all/${target.database}/${table.name}', '{shard}_{replica}')\n${orderBy}`,
    ]
  const local = `${table.name}_local`
  // `{shard}` and `{replica}` are each server's macros; the path names the table's replicas in Keeper.
  const replicas = `'/clickhouse/tables/{shard}/${target.database}/${table.name}'`
  return [
    `CREATE TABLE ${database}.${quoteIdentifier(local)} ON CLUSTER ${cluster}\n(\n${columnList(table)}\n)\nENGINE = ReplicatedMergeTree(${replicas}, '{replica}')\n${orderBy}`,
    `CREATE TABLE ${database}.${quoteIdentifier(table.name)} ON CLUSTER ${cluster}\nAS ${database}.${quoteIdentifier(local)}\nENGINE = Distributed(${cluster}, ${database}, ${quoteIdentifier(local)}, cityHash64(${table.shardBy}))`,
  ]
}

/** The statement that creates a database, on every node of a cluster when there is one. */
export const createDatabaseStatement = (target: DdlTarget): string =>
  `CREATE DATABASE ${quoteIdentifier(target.database)}${target.cluster === undefined ? '' : ` ON CLUSTER ${quoteIdentifier(target.cluster)}`}`

/** Every statement that creates a catalog's database and tables, in order. */
export const catalogSchemaStatements = (manifest: CatalogManifest, target: DdlTarget): readonly string[] => [
  createDatabaseStatement(target),
  ...clickHouseTablesOf(manifest).flatMap((table) => createTableStatements(table, target)),
]
