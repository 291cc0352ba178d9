// Loads an oqlkit catalog folder (what `oqlkit ingest` builds) into ClickHouse, as a new version database
// that is served only once every table is full and counted (`catalog-versions.ts`). The Parquet files go to
// ClickHouse as they are (it reads Parquet itself; no row passes through JavaScript); the records, which
// the catalog keeps compressed one by one in its own store, are read here and sent as RowBinary. A load that
// fails drops its database and changes nothing that is served.
//
// Since format 9 a catalog keeps its entity, link and id tables in its serving database (catalog.duckdb)
// alone, which ClickHouse cannot read: the caller exports them as the catalog layout's Parquet files first
// (`exportCatalogTables` of @oqlkit/adapter-duckdb, as `oqlkit load` does) and names their folder
// (`tableFiles`). This package reads no DuckDB database itself.

import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { ClickHouseClient } from '@clickhouse/client'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  type RecordLocation,
  RecordStoreReader,
  readCatalogManifest,
} from '@oqlkit/catalog'
import { loadCatalogFiles, loadWorkVectors } from './catalog-models-loader.ts'
import {
  type CatalogVersion,
  catalogVersionsStatements,
  dropOldVersions,
  newVersionDatabase,
  publishVersion,
} from './catalog-versions.ts'
import {
  AUTOCOMPLETE_MIN_ROWS,
  autocompleteRowsSelect,
  autocompleteTable,
} from './clickhouse-autocomplete-index.ts'
import {
  insertInto,
  rowBinaryInsert,
  runCommand,
  selectRows,
  streamCompactRows,
} from './clickhouse-driver.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import {
  clickHouseTablesOf,
  createDatabaseStatement,
  createTableStatements,
  type DdlTarget,
  entityTableName,
  LINK_SORT_COLUMNS,
  linkSortColumn,
  WORK_IS_XPAC_COLUMN,
} from './clickhouse-schema.ts'
import type { ClickHouseTable } from './clickhouse-table.ts'
import { encodeStringRows } from './row-binary-strings.ts'

export interface LoadProgress {
  readonly table: string
  readonly rowsLoaded: number
  readonly rowsTotal: number
  /** Tables finished before this one, and how many there are. */
  readonly tablesDone: number
  readonly tablesTotal: number
}

export interface LoadOptions {
  readonly catalogDir: string
  /**
   * A folder holding the catalog's entity, link and id tables as Parquet files at their paths in the catalog
   * layout (`entities/<entity>.parquet`, `links/<name>.parquet`, `ids/…`): what `exportCatalogTables` of
   * @oqlkit/adapter-duckdb writes from the serving database. Required for a catalog whose tables list no
   * file in catalog.json (format 9, where the serving database alone keeps them); unused for one whose tables
   * list their files (format 8 and before). The search index, records, vectors and model files are read from
   * `catalogDir` either way.
   */
  readonly tableFiles?: string
  readonly client: ClickHouseClient
  /** The catalog's name in ClickHouse (`readClickHouseTarget`). */
  readonly catalog: string
  /** Create replicated tables behind Distributed ones on this cluster. */
  readonly cluster?: string
  /** Called as tables fill; at least once per table. */
  readonly onProgress?: (progress: LoadProgress) => void
  /** How many published versions to keep, the new one included (default 2: the one served before stays). */
  readonly keepVersions?: number
  /** Rows an entity needs for a type-ahead index (default `AUTOCOMPLETE_MIN_ROWS`). */
  readonly autocompleteMinRows?: number
}

export interface LoadSummary {
  readonly database: string
  readonly tables: number
  readonly rows: number
  readonly seconds: number
  /** Version databases of earlier loads dropped afterwards. */
  readonly droppedVersions: readonly string[]
}

export type ClickHouseLoadErrorCode = 'catalog_invalid' | 'rows_mismatch' | 'load_failed'

/** A load that could not finish; nothing served changed. */
export class ClickHouseLoadError extends Error {
  constructor(
    readonly code: ClickHouseLoadErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'ClickHouseLoadError'
  }
}

/** How many records are read from the store and sent together. */
const RECORD_BATCH = 2000

export const loadCatalogIntoClickHouse = async (options: LoadOptions): Promise<LoadSummary> => {
  const started = performance.now()
  const read = await readCatalogManifest(options.catalogDir)
  if (!read.ok)
    throw new ClickHouseLoadError(
      'catalog_invalid',
      `${options.catalogDir} holds no catalog to load (${read.message}); build one with oqlkit ingest`,
    )
  const { manifest } = read
  const { client } = options
  const database = newVersionDatabase(options.catalog)
  const target = { database, ...(options.cluster === undefined ? {} : { cluster: options.cluster }) }
  const tables = clickHouseTablesOf(manifest)
  await checkTableFiles(options, manifest.formatVersion, tables)
  const records = new RecordStoreReader(options.catalogDir, manifest)
  let rows = 0
  try {
    for (const statement of catalogVersionsStatements(options.catalog, options.cluster))
      await runCommand(client, statement)
    await runCommand(client, createDatabaseStatement(target))
    for (const table of tables)
      for (const statement of createTableStatements(table, target)) await runCommand(client, statement)
    for (const [done, table] of tables.entries()) {
      const report = (rowsLoaded: number) =>
        options.onProgress?.({
          table: table.name,
          rowsLoaded,
          rowsTotal: table.source.rows,
          tablesDone: done,
          tablesTotal: tables.length,
        })
      report(0)
      if (table.source.kind === 'parquet') {
        if (table.source.withWorkCorpus === true) await loadLinks(options, target, table)
        else if (table.source.postingsDelta !== undefined)
          await loadUpdatedPostings(options, target, table, table.source.postingsDelta)
        else await loadParquet(options, database, table)
        if (table.source.measureColumns === true && table.source.rows > 0) {
          await fitColumnsToValues(client, target, table)
          await buildAutocompleteIndex(options, target, table)
        }
      }
      // An INSERT without rows is an error to ClickHouse (NO_DATA_TO_INSERT): an empty entity sends none.
      else if (table.source.rows === 0) {
      } else if (table.source.kind === 'records')
        await loadRecords(client, records, database, table, table.source.entity, report)
      else if (table.source.kind === 'vectors')
        await loadWorkVectors(client, options.catalogDir, database, table.source, report)
      else if (table.source.kind === 'files')
        await loadCatalogFiles(client, options.catalogDir, database, table.source.files)
      report(table.source.rows)
    }
    // Every table's rows checked against the manifest in one query once all are loaded: a count per table
    // was a round trip and a query for each of some fifty tables, most of them small.
    const counted = await countRows(
      client,
      database,
      tables.map((table) => table.name),
    )
    for (const table of tables) {
      const n = counted.get(table.name) ?? 0
      if (n !== table.source.rows)
        throw new ClickHouseLoadError(
          'rows_mismatch',
          isInTableFiles(table)
            ? `${table.name} holds ${n} rows after the load where catalog.json says ${table.source.rows}: the table files in ${options.tableFiles} are not this catalog's; export them again from its serving database (exportCatalogTables)`
            : `${table.name} holds ${n} rows after the load where catalog.json says ${table.source.rows}: the catalog's files do not match its manifest; build it again with oqlkit ingest`,
        )
      rows += n
    }
    const version: CatalogVersion = {
      database,
      loadedAt: new Date().toISOString().replace('T', ' ').replace('Z', ''),
      catalogCreatedAt: manifest.createdAt,
      entityRows: Object.fromEntries(
        Object.entries(manifest.entities).map(([entity, table]) => [entity, table.rowCount]),
      ),
    }
    await publishVersion(client, options.catalog, version)
  } catch (error) {
    await runCommand(
      client,
      `DROP DATABASE IF EXISTS ${quoteIdentifier(database)}${options.cluster === undefined ? '' : ` ON CLUSTER ${quoteIdentifier(options.cluster)}`}`,
    ).catch(() => undefined)
    if (error instanceof ClickHouseLoadError) throw error
    throw new ClickHouseLoadError(
      'load_failed',
      `Loading ${options.catalogDir} into ClickHouse failed, and nothing served changed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  } finally {
    await records.close()
  }
  const droppedVersions = await dropOldVersions(
    client,
    { database: options.catalog, ...(options.cluster === undefined ? {} : { cluster: options.cluster }) },
    Math.max(1, options.keepVersions ?? 2),
  )
  return {
    database,
    tables: tables.length,
    rows,
    seconds: (performance.now() - started) / 1000,
    droppedVersions,
  }
}

const qualified = (database: string, table: string) =>
  `${quoteIdentifier(database)}.${quoteIdentifier(table)}`

/** The rows of each of a database's tables, counted in one query. */
const countRows = async (
  client: ClickHouseClient,
  database: string,
  tables: readonly string[],
): Promise<Map<string, number>> => {
  if (tables.length === 0) return new Map()
  const rows = await selectRows<{ t: number; n: string | number }>(
    client,
    tables
      .map((table, at) => `SELECT ${at} AS t, count() AS n FROM ${qualified(database, table)}`)
      .join(' UNION ALL '),
  )
  return new Map(rows.map((row) => [tables[Number(row.t)]!, Number(row.n)]))
}

/** Whether a table's rows are read from the folder of the catalog's exported tables (format 9). */
const isInTableFiles = (table: ClickHouseTable): boolean =>
  table.source.kind === 'parquet' && table.source.inTableFiles === true

/**
 * Refuses, before anything is created, a catalog whose tables are kept in its serving database alone when no
 * folder of their files is given, or when that folder lacks one of them: ClickHouse cannot read catalog.duckdb.
 */
const checkTableFiles = async (
  options: LoadOptions,
  version: number,
  tables: readonly ClickHouseTable[],
): Promise<void> => {
  const needed = tables
    .filter(isInTableFiles)
    .flatMap((table) => (table.source.kind === 'parquet' ? table.source.files : []))
  if (needed.length === 0) return
  if (options.tableFiles === undefined)
    throw new ClickHouseLoadError(
      'catalog_invalid',
      `${options.catalogDir} is a catalog of format ${version}, which keeps its entity, link and id tables in its serving database (catalog.duckdb) alone, and ClickHouse cannot read that: export them as Parquet files first (exportCatalogTables of @oqlkit/adapter-duckdb) and pass their folder as tableFiles, or load the catalog with oqlkit load, which does both`,
    )
  for (const file of needed) {
    const path = join(options.tableFiles, ...file.split('/'))
    const found = await stat(path).then(
      (info) => info.isFile(),
      () => false,
    )
    if (!found)
      throw new ClickHouseLoadError(
        'catalog_invalid',
        `${options.tableFiles} (tableFiles) holds no ${file}: it must hold every table of ${options.catalogDir} as exportCatalogTables of @oqlkit/adapter-duckdb writes them`,
      )
  }
}

/**
 * A table's Parquet files, each sent whole; ClickHouse matches the columns by name. They are the catalog
 * folder's, or, for a table kept in the serving database alone, the exported tables' folder's.
 */
const loadParquet = async (
  options: LoadOptions,
  database: string,
  table: ClickHouseTable,
  into: string = table.name,
) => {
  if (table.source.kind !== 'parquet') return
  const root = table.source.inTableFiles === true ? options.tableFiles : options.catalogDir
  // Checked before the load began (`checkTableFiles`).
  if (root === undefined) throw new Error(`${table.name}: no folder of the catalog's table files was given`)
  for (const file of table.source.files) {
    await insertInto(
      options.client,
      qualified(database, into),
      createReadStream(join(root, ...file.split('/'))),
      'Parquet',
    )
  }
}

/**
 * A link table's files into a scratch table of their columns, then its rows copied into the link table beside
 * their work's `is_xpac` and sort keys (the works are loaded first), the scratch table dropped. On a cluster each shard
 * copies its own rows: a work and its link rows share a shard.
 */
const loadLinks = async (options: LoadOptions, target: DdlTarget, table: ClickHouseTable) => {
  const { client } = options
  const { database } = target
  const copied = new Map(LINK_SORT_COLUMNS.map((name) => [linkSortColumn(name), name]))
  const scratch: ClickHouseTable = {
    ...table,
    name: `${table.name}__staged`,
    columns: table.columns.filter(
      (column) => column.name !== WORK_IS_XPAC_COLUMN && !copied.has(column.name),
    ),
    projections: [],
  }
  const onCluster = target.cluster === undefined ? '' : ` ON CLUSTER ${quoteIdentifier(target.cluster)}`
  for (const statement of createTableStatements(scratch, target)) await runCommand(client, statement)
  try {
    await loadParquet(options, database, table, scratch.name)
    // Each column of the link table from the file's row, or its work's.
    const fromWork = table.columns.flatMap((column) => {
      const name = copied.get(column.name)
      return name === undefined ? [] : [quoteIdentifier(name)]
    })
    const values = table.columns.map((column) => {
      const name = copied.get(column.name)
      if (name !== undefined) return `w.${quoteIdentifier(name)}`
      return column.name === WORK_IS_XPAC_COLUMN
        ? 'coalesce(w.is_xpac, false)'
        : `l.${quoteIdentifier(column.name)}`
    })
    await runCommand(
      client,
      `INSERT INTO ${qualified(database, table.name)} SELECT ${values.join(', ')} FROM ${qualified(database, scratch.name)} AS l LEFT JOIN (SELECT ${['id', 'is_xpac', ...fromWork].join(', ')} FROM ${qualified(database, entityTableName('works'))}) AS w ON w.id = l.work_id`,
      {
        settings: {
          join_use_nulls: 1,
          distributed_product_mode: 'local',
          parallel_distributed_insert_select: '2',
        },
      },
    )
  } finally {
    for (const name of target.cluster === undefined
      ? [scratch.name]
      : [scratch.name, `${scratch.name}_local`])
      await runCommand(client, `DROP TABLE IF EXISTS ${qualified(database, name)}${onCluster} SYNC`)
  }
}

/**
 * An updated search index's postings: the buckets into a scratch table, the rows of documents not masked
 * copied into the postings table, then the delta's rows loaded beside them; the scratch tables dropped. On a
 * cluster each shard copies its own rows (the masked documents are whole on every node).
 */
const loadUpdatedPostings = async (
  options: LoadOptions,
  target: DdlTarget,
  table: ClickHouseTable,
  delta: { readonly masked: string; readonly delta: string },
) => {
  const { client } = options
  const { database } = target
  const buckets: ClickHouseTable = { ...table, name: `${table.name}__buckets`, projections: [] }
  const masked: ClickHouseTable = {
    name: `${table.name}__masked`,
    columns: [{ name: 'doc', type: 'UInt64' }],
    orderBy: ['doc'],
    shardBy: quoteIdentifier('doc'),
    wholeOnEveryNode: true,
    source: { kind: 'parquet', files: [delta.masked], rows: 0 },
  }
  const onCluster = target.cluster === undefined ? '' : ` ON CLUSTER ${quoteIdentifier(target.cluster)}`
  try {
    for (const scratch of [buckets, masked])
      for (const statement of createTableStatements(scratch, target)) await runCommand(client, statement)
    await loadParquet(options, database, table, buckets.name)
    await loadParquet(options, database, masked)
    await runCommand(
      client,
      `INSERT INTO ${qualified(database, table.name)} SELECT * FROM ${qualified(database, buckets.name)} WHERE doc NOT IN (SELECT doc FROM ${qualified(database, masked.name)})`,
      { settings: { distributed_product_mode: 'local', parallel_distributed_insert_select: '2' } },
    )
    await insertInto(
      client,
      qualified(database, table.name),
      createReadStream(join(options.catalogDir, ...delta.delta.split('/'))),
      'Parquet',
    )
  } finally {
    for (const scratch of [buckets.name, masked.name])
      for (const name of target.cluster === undefined ? [scratch] : [scratch, `${scratch}_local`])
        await runCommand(client, `DROP TABLE IF EXISTS ${qualified(database, name)}${onCluster} SYNC`)
  }
}

/**
 * An entity's type-ahead index (`clickhouse-autocomplete-index.ts`) from its loaded table, when it has enough
 * rows and the columns autocomplete reads. On a cluster each shard indexes its own rows.
 */
const buildAutocompleteIndex = async (options: LoadOptions, target: DdlTarget, table: ClickHouseTable) => {
  const entity = CATALOG_ENTITIES.find((info) => entityTableName(info.entity) === table.name)?.entity
  if (entity === undefined || table.source.rows < (options.autocompleteMinRows ?? AUTOCOMPLETE_MIN_ROWS))
    return
  const popularity = entity === 'works' ? 'cited_by_count' : 'works_count'
  const names = new Set(table.columns.map((column) => column.name))
  if (!names.has('display_name') || !names.has(popularity)) return
  const index = autocompleteTable(entity, table.source.rows)
  for (const statement of createTableStatements(index, target)) await runCommand(options.client, statement)
  await runCommand(
    options.client,
    `INSERT INTO ${qualified(target.database, index.name)} ${autocompleteRowsSelect(entity, qualified(target.database, table.name))}`,
    { settings: { distributed_product_mode: 'local', parallel_distributed_insert_select: '2' } },
  )
}

/** At most this many values make a text column LowCardinality (ClickHouse's advice: under 10,000). */
const LOW_CARDINALITY_VALUES = 10_000

/** The projection of the works' narrow columns in year order. */
const WORKS_BY_YEAR_PROJECTION = 'narrow_by_year'

/**
 * The columns it holds: a list's statement reads it only when every column it names is among them, so these
 * are the id and its number (the tiebreak of every sort, since catalog format 8: without it no page read the
 * projection, and a year's page read every work, 30 ms of the engine's time at 1M works against 9), the corpus
 * and sort keys, and the filters of a work's kind that lists combine with a year.
 */
const WORKS_BY_YEAR_COLUMNS = [
  'id',
  'id_num',
  'is_xpac',
  'publication_year',
  'publication_date',
  'cited_by_count',
  'fwci',
  'type',
  'language',
  'is_oa',
  'oa_status',
  'is_retracted',
  'has_doi',
  'has_abstract',
]

/**
 * An entity table's column types and projections fitted to the values loaded, which the catalog's types do
 * not tell: a text column of few values (a work's type, language, OA status) becomes LowCardinality, so a
 * filter or group-by works on its dictionary rather than each row's text (`lower(type) = 'article'` over 1M
 * works: 74 ms as text, 14 ms so).
 *
 * The works get one projection, of their narrow columns in year order. Each projection costs every statement
 * over the works its consideration, aggregates most: until issue 39 the works' kind columns (type, language,
 * OA status, domain, field) had projections of their counts too, and with those six a count of a year's works
 * took 12-13 ms of the engine's time at 1M works, with the year's one alone 7-8 ms. A group-by of such a column
 * is one pass over the narrow column (`compileGroups`), 13-17 ms, against 10-11 ms from its projection.
 */
const fitColumnsToValues = async (client: ClickHouseClient, target: DdlTarget, table: ClickHouseTable) => {
  const candidates = table.columns.filter(
    (column) => !table.orderBy.includes(column.name) && column.type.startsWith('Nullable('),
  )
  if (candidates.length === 0) return
  const name = qualified(target.database, table.name)
  const [counted] = await selectRows<Record<string, string | number>>(
    client,
    `SELECT ${candidates.map((column, at) => `uniq(${quoteIdentifier(column.name)}) AS c${at}`).join(', ')} FROM ${name}`,
  )
  const values = (at: number) => Number(counted?.[`c${at}`] ?? Number.POSITIVE_INFINITY)
  const changes: string[] = []
  const projections: string[] = []
  const hasCorpus = table.name === entityTableName('works') && table.columns.some((c) => c.name === 'is_xpac')
  candidates.forEach((column, at) => {
    const n = values(at)
    const text = column.type === 'Nullable(String)' && n > 0
    if (text && n <= LOW_CARDINALITY_VALUES)
      changes.push(`MODIFY COLUMN ${quoteIdentifier(column.name)} LowCardinality(Nullable(String))`)
  })
  // The works' narrow columns again, in year order: a list filtered by year (and kind) reads that year's range
  // of them rather than every work's (`publication_year:2020,type:article,is_oa:true` by citations, page and
  // count: 55 ms of the engine's time over the table at 1M works, 21 ms from the projection).
  const narrow = hasCorpus
    ? WORKS_BY_YEAR_COLUMNS.filter((name) => table.columns.some((column) => column.name === name))
    : []
  if (narrow.includes('publication_year')) {
    const projection = quoteIdentifier(WORKS_BY_YEAR_PROJECTION)
    changes.push(
      `ADD PROJECTION ${projection} (SELECT ${narrow.map(quoteIdentifier).join(', ')} ORDER BY \`publication_year\`)`,
    )
    projections.push(projection)
  }
  if (changes.length === 0) return
  // On a cluster the ALTER goes to each node's local table (a Distributed table has no parts to change).
  const altered =
    target.cluster === undefined
      ? name
      : `${qualified(target.database, `${table.name}_local`)} ON CLUSTER ${quoteIdentifier(target.cluster)}`
  // mutations_sync = 2: the load goes on, and the version is published, only once every replica has them.
  const settings = { settings: { mutations_sync: '2', alter_sync: '2' } }
  await runCommand(client, `ALTER TABLE ${altered} ${changes.join(', ')}`, settings)
  // …and the Distributed table its columns' new types (a change of its own metadata alone).
  const retyped = changes.filter((change) => change.startsWith('MODIFY COLUMN'))
  if (target.cluster !== undefined && retyped.length > 0)
    await runCommand(
      client,
      `ALTER TABLE ${name} ON CLUSTER ${quoteIdentifier(target.cluster)} ${retyped.join(', ')}`,
      settings,
    )
  if (projections.length > 0)
    await runCommand(
      client,
      `ALTER TABLE ${altered} ${projections.map((projection) => `MATERIALIZE PROJECTION ${projection}`).join(', ')}`,
      settings,
    )
}

/**
 * An entity's records, in the order they sit in the record store (so it is read front to back), read in
 * batches and sent as one RowBinary stream.
 */
const loadRecords = async (
  client: ClickHouseClient,
  records: RecordStoreReader,
  database: string,
  table: ClickHouseTable,
  entity: CatalogEntity,
  report: (rowsLoaded: number) => void,
) => {
  const insert = rowBinaryInsert(
    client,
    `INSERT INTO ${qualified(database, table.name)} (\`id\`, \`record\`)`,
  )
  const located = streamCompactRows<[string, string | number, string | number]>(
    client,
    `SELECT id, record_offset, record_bytes FROM ${qualified(database, entityTableName(entity))} ORDER BY record_offset`,
    // The sort spills to disk past this much memory, whatever the entity's size.
    { settings: { max_bytes_before_external_sort: '1000000000' } },
  )
  const encoder = new TextEncoder()
  let batch: [string, RecordLocation][] = []
  let sent = 0
  const flush = async () => {
    if (batch.length === 0) return
    const texts = await records.read(
      entity,
      batch.map(([, location]) => location),
    )
    const chunk = encodeStringRows(batch.map(([id], index) => [encoder.encode(id), texts[index]!]))
    sent += batch.length
    batch = []
    await insert.write(chunk)
    report(sent)
  }
  try {
    for await (const rows of located) {
      for (const [id, offset, bytes] of rows)
        batch.push([id, { offset: Number(offset), bytes: Number(bytes) }])
      if (batch.length >= RECORD_BATCH) await flush()
    }
    await flush()
  } catch (error) {
    await insert.fail(error)
    throw error
  }
  await insert.finish()
}
