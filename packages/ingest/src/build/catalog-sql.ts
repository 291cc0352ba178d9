// The SQL ingest runs in its staging database. Every statement is assembled from allow-listed identifiers
// (entity tables, column names) and package constants (JSON paths, regex patterns); file paths, entity
// names and dates travel as bound parameters ($1, $2, …, documented on each builder), except the registry's
// entity name inside a view, which cannot take parameters.

import { recordPathColumnsOf } from '@oqlkit/adapter-duckdb'
import type { CatalogEntity, CatalogEntityInfo } from '@oqlkit/catalog'
import {
  BARE_ISSN_PATTERN,
  type CatalogColumn,
  constantLiteral,
  type DerivedColumn,
  derivedColumnsOf,
  ENTITY_ID_COLUMNS,
  ENTITY_TAIL_COLUMNS,
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  ID_NUMBER_COLUMN,
  idOrderColumns,
  idOrderSql,
  LETTER_ID_PATTERN,
  LINK_TABLES,
  type LinkTableSpec,
  letterIdOrderSql,
  PATH_ID_TAIL_PATTERN,
  quoteIdentifier,
  sqlInteger,
} from '@oqlkit/catalog'
import { linkColumnName } from '../parse/record-extractor.ts'

/** The staging table of an entity, unquoted (for the appender, which takes a name). */
export const stageTableName = (info: CatalogEntityInfo): string => `stage_${info.table}`
const stageTable = (info: CatalogEntityInfo): string => quoteIdentifier(stageTableName(info))
const winnerTable = (info: CatalogEntityInfo): string => quoteIdentifier(`winner_${info.table}`)
const verdictTable = (info: CatalogEntityInfo): string => quoteIdentifier(`verdict_${info.table}`)
/**
 * The entity's kept rows: a view over its staging table, or, once split into id ranges, a view over the
 * ranges' files (with an update's kept rows).
 */
const rowsRelation = (info: CatalogEntityInfo): string => quoteIdentifier(`rows_${info.table}`)
/**
 * What the entity's rows are at the time: the view over the staging table, or (`ranges`) a relation holding
 * the build-only columns without the staging tables: the view over the ranges' files, or a test's own table.
 */
export type EntityRows = 'view' | 'ranges'

const PARQUET_OPTIONS = 'FORMAT parquet, COMPRESSION zstd'

/** The columns of an entity's file, in order (`entities/<entity>.parquet`, as catalog.json describes them). */
export function entityFileColumnsOf(entity: CatalogEntity): CatalogColumn[] {
  return [
    ...ENTITY_ID_COLUMNS,
    ...derivedColumnsOf(entity).map(({ name, type, description }) => ({ name, type, description })),
    ...recordPathColumnsOf(entity).map(({ name, type, description }) => ({ name, type, description })),
    ...ENTITY_TAIL_COLUMNS,
  ]
}

// ---- id forms (the SQL twins of catalog/openalex-id-normalizer.ts) ----

/** Short id of a letter id; with `letter`, only ids of that entity. */
export function letterIdSql(expr: string, letter: string | null = null): string {
  const pattern = letter === null ? LETTER_ID_PATTERN : LETTER_ID_PATTERN.replace('[A-Za-z]', letter)
  return `nullif(upper(regexp_extract(trim(${expr}), ${constantLiteral(`(?i)${pattern}`)}, 1)), '')`
}

export function pathIdSql(expr: string): string {
  return `nullif(url_decode(regexp_extract(trim(${expr}), ${constantLiteral(PATH_ID_TAIL_PATTERN)}, 1)), '')`
}

/** `expr` normalised as `normalizeExternalId(scheme, …)` does, NULL where it gives none. */
export function externalIdSql(scheme: ExternalIdScheme, expr: string): string {
  const spec = EXTERNAL_ID_SCHEMES.find((candidate) => candidate.scheme === scheme)!
  const stripped = `lower(regexp_replace(regexp_replace(trim(${expr}), ${constantLiteral(spec.prefixPattern)}, '', 'i'), '/+$', ''))`
  const value =
    scheme === 'issn'
      ? `CASE WHEN regexp_matches(${stripped}, ${constantLiteral(BARE_ISSN_PATTERN)}) THEN ${stripped}[1:4] || '-' || ${stripped}[5:8] ELSE ${stripped} END`
      : stripped
  return `nullif(${value}, '')`
}

export function shortIdSql(info: CatalogEntityInfo, expr: string): string {
  return info.idKind === 'letter' ? letterIdSql(expr, info.letter) : pathIdSql(expr)
}

function idNumberSql(info: CatalogEntityInfo): string {
  return info.idKind === 'letter' ? 'TRY_CAST(id[2:] AS BIGINT)' : 'TRY_CAST(id AS BIGINT)'
}

// ---- staging: the rows the parse workers wrote (record-extractor.ts), one JSON line per record ----

/** The staged row's columns and their types, in the order the workers write them. */
export function stageColumnsOf(info: CatalogEntityInfo): readonly (readonly [string, string])[] {
  return [
    ['seq', 'BIGINT'],
    ['id', 'VARCHAR'],
    ['openalex_id', 'VARCHAR'],
    ['partition_date', 'VARCHAR'],
    ['updated_date', 'VARCHAR'],
    ['record_part', 'INTEGER'],
    ['record_offset', 'BIGINT'],
    ['record_bytes', 'INTEGER'],
    ['derived', 'VARCHAR[]'],
    ...recordPathColumnsOf(info.entity).map((column) => [column.name, column.type] as const),
    ['external_ids', 'VARCHAR[][]'],
    ...linkColumnsOf(info).map((name) => [name, 'VARCHAR[]'] as const),
  ]
}

/** The staged columns holding link keys (works only). */
const linkColumnsOf = (info: CatalogEntityInfo): string[] =>
  info.entity === 'works' ? LINK_TABLES.map((_, index) => linkColumnName(index)) : []

export function createStageTableSql(info: CatalogEntityInfo): string {
  const columns = stageColumnsOf(info).map(([name, type]) => `${quoteIdentifier(name)} ${type}`)
  return `CREATE TABLE ${stageTable(info)} (${columns.join(', ')})`
}

/**
 * The smallest object size DuckDB's JSON reader is given. It reserves twice the object size per reading
 * thread against the memory limit, so the size is the longest row the workers wrote, not a fixed ceiling.
 */
const MIN_ROW_BYTES = 1024 * 1024

/**
 * $1 the rows files (VARCHAR[]), whose longest line is `longestRow` bytes. DuckDB reads them in parallel;
 * the columns are stated, so nothing is sampled or guessed.
 */
export function loadStagedRowsSql(info: CatalogEntityInfo, longestRow: number): string {
  const columns = stageColumnsOf(info).map(
    ([name, type]) => `${constantLiteral(name)}: ${constantLiteral(type)}`,
  )
  return `INSERT INTO ${stageTable(info)} SELECT * FROM read_json($1::VARCHAR[], format = 'newline_delimited', columns = {${columns.join(', ')}}, maximum_object_size = ${sqlInteger(Math.max(MIN_ROW_BYTES, longestRow + 1))})`
}

export const CREATE_ID_STAGE_TABLES_SQL = [
  'CREATE TABLE merged_stage (seq BIGINT, entity VARCHAR, old_id VARCHAR, new_id VARCHAR, merge_date VARCHAR)',
  'CREATE TABLE deleted_stage (seq BIGINT, entity VARCHAR, id VARCHAR, deleted_date VARCHAR)',
  'CREATE TABLE live_ids (entity VARCHAR, id VARCHAR)',
  'CREATE TABLE external_ids (entity VARCHAR, scheme VARCHAR, value VARCHAR, id VARCHAR)',
  'CREATE TABLE record_bases (entity VARCHAR, part INTEGER, base BIGINT)',
] as const

// ---- updating: the catalog being updated is read from its own tables, never re-parsed ----

/**
 * Where sequence numbers begin for the snapshot's records: a part's records are numbered from (its task
 * number + 1) × 2^32, in reading order. Below it are the ids of the catalog being updated (1, 2, … in its
 * file order), so that a tie between an old and a new version goes to the new one.
 */
export const SNAPSHOT_SEQ_STRIDE = 2 ** 32

/**
 * `previous`: the catalog being updated's table of the entity, as a relation (`previousCatalogTables`). Stages
 * each of its ids with its dates and no record part: they compete with the snapshot's versions for the newest,
 * and their rows are not staged.
 */
export function stagePreviousIdsSql(info: CatalogEntityInfo, previous: string): string {
  return `INSERT INTO ${stageTable(info)} (seq, id, partition_date, updated_date) SELECT row_number() OVER (), id, CAST(partition_date AS VARCHAR), CAST(updated_date AS VARCHAR) FROM ${previous}`
}

/** The ids whose previous row the catalog keeps as it is (no newer version, not merged or deleted). */
const keptPreviousTable = (info: CatalogEntityInfo): string => quoteIdentifier(`kept_previous_${info.table}`)

export function keepPreviousRowsSql(info: CatalogEntityInfo): string {
  return `CREATE TABLE ${keptPreviousTable(info)} AS SELECT id FROM ${verdictTable(info)} WHERE seq < ${sqlInteger(SNAPSHOT_SEQ_STRIDE)} AND NOT is_deleted AND NOT is_merged`
}

/** $1 entity name; `previous`: the catalog being updated's external ids (a relation): those of the rows it keeps. */
export function insertPreviousExternalIdsSql(info: CatalogEntityInfo, previous: string): string {
  return `INSERT INTO external_ids SELECT entity, scheme, value, id FROM ${previous} WHERE entity = $1 AND id IN (SELECT id FROM ${keptPreviousTable(info)})`
}

/** `previous`: the catalog being updated's merged ids (a relation); $1 seq offset. */
export const loadCatalogMergedSql = (previous: string): string =>
  `INSERT INTO merged_stage SELECT $1::BIGINT + row_number() OVER (), entity, old_id, new_id, CAST(merge_date AS VARCHAR) FROM ${previous}`

/** `previous`: the catalog being updated's deleted ids (a relation); $1 seq offset. */
export const loadCatalogDeletedSql = (previous: string): string =>
  `INSERT INTO deleted_stage SELECT $1::BIGINT + row_number() OVER (), entity, id, CAST(deleted_date AS VARCHAR) FROM ${previous}`

// Snapshot part paths contain `updated_date=YYYY-MM-DD/`: DuckDB would read that as a hive partition and
// overwrite the records' own `updated_date` column with the date, so hive partitioning is always off.

/** $1 Parquet part. One row: the 0-based row number of the first row without a usable id, or null. */
export function parquetBadIdSql(info: CatalogEntityInfo): string {
  return `SELECT min(file_row_number) AS bad FROM read_parquet($1, file_row_number = true, hive_partitioning = false) WHERE ${shortIdSql(info, 'CAST(id AS VARCHAR)')} IS NULL`
}

/**
 * $1 Parquet part: each row as the JSON text of its object, in file order (one thread), for the parse workers
 * (the `relevance_score` of search results is dropped there, as for JSON Lines parts). `to_json` of the row
 * writes what `COPY … (FORMAT json)` writes for it. The alias is the row only while no column bears its name,
 * hence an unlikely one.
 */
export const PARQUET_PART_ROWS_AS_JSON_SQL =
  'SELECT CAST(to_json(oqlkit_snapshot_row) AS VARCHAR) AS json FROM read_parquet($1, hive_partitioning = false) AS oqlkit_snapshot_row'

/** $1 Parquet part: its number of rows, as its footer states it. */
export const PARQUET_PART_ROW_COUNT_SQL = 'SELECT num_rows AS rows FROM parquet_file_metadata($1)'

/** $1 Parquet part, $2 how many: its first rows as JSON text, for the record dictionary. */
export const PARQUET_PART_FIRST_ROWS_AS_JSON_SQL = `${PARQUET_PART_ROWS_AS_JSON_SQL} LIMIT $2`

// ---- merges and deletions ----

/** The latest merge of each old id (by merge date, then arrival), self-merges dropped. */
export const RESOLVE_MERGED_SQL =
  "CREATE TABLE merged_ids AS SELECT entity, old_id, new_id, TRY_CAST(merge_date AS DATE) AS merge_date FROM merged_stage WHERE seq IN (SELECT arg_max(seq, (coalesce(TRY_CAST(merge_date AS DATE), DATE '0001-01-01'), seq)) FROM merged_stage WHERE old_id <> new_id GROUP BY entity, old_id)"

/** One step of following merge chains (A→B, B→C gives A→C); run until it changes nothing. */
export const FOLLOW_MERGE_CHAINS_SQL =
  'UPDATE merged_ids SET new_id = next.new_id FROM merged_ids AS next WHERE next.entity = merged_ids.entity AND next.old_id = merged_ids.new_id AND next.new_id <> merged_ids.old_id AND next.new_id <> merged_ids.new_id'

/** A deletion without a usable date deletes whatever the record's date. */
export const RESOLVE_DELETED_SQL =
  'CREATE TABLE deleted_ids AS SELECT entity, id, CASE WHEN bool_or(TRY_CAST(deleted_date AS DATE) IS NULL) THEN NULL ELSE max(TRY_CAST(deleted_date AS DATE)) END AS deleted_date FROM deleted_stage GROUP BY entity, id'

// ---- picking one version per id ----

const ORDER_KEY =
  "(coalesce(TRY_CAST(partition_date AS DATE), DATE '0001-01-01'), coalesce(TRY_CAST(updated_date AS TIMESTAMP), TIMESTAMP '0001-01-01 00:00:00'), seq)"

/** The newest version of every id: latest partition, then latest updated_date, then the last one read. */
export function pickWinnersSql(info: CatalogEntityInfo): string {
  return `CREATE TABLE ${winnerTable(info)} AS SELECT id, arg_max(seq, ${ORDER_KEY}) AS seq, count(*) AS versions FROM ${stageTable(info)} GROUP BY id`
}

/**
 * $1 entity name. A merge or deletion removes the record unless the record's partition is newer than the
 * merge or deletion (the record was re-published after it).
 */
export function judgeWinnersSql(info: CatalogEntityInfo): string {
  const stillApplies = (date: string) =>
    `(${date} IS NULL OR p.partition_date IS NULL OR p.partition_date <= ${date})`
  return `CREATE TABLE ${verdictTable(info)} AS SELECT w.id, w.seq, w.versions, EXISTS (SELECT 1 FROM deleted_ids d WHERE d.entity = $1 AND d.id = w.id AND ${stillApplies('d.deleted_date')}) AS is_deleted, EXISTS (SELECT 1 FROM merged_ids m WHERE m.entity = $1 AND m.old_id = w.id AND ${stillApplies('m.merge_date')}) AS is_merged FROM ${winnerTable(info)} w JOIN (SELECT seq, TRY_CAST(partition_date AS DATE) AS partition_date FROM ${stageTable(info)}) p ON p.seq = w.seq`
}

/** One row: ids read, versions superseded, ids removed by deletion, ids removed by merge, rows kept. */
export function verdictCountsSql(info: CatalogEntityInfo): string {
  return `SELECT count(*)::BIGINT AS ids, (sum(versions) - count(*))::BIGINT AS superseded, count(*) FILTER (WHERE is_deleted)::BIGINT AS deleted, count(*) FILTER (WHERE is_merged AND NOT is_deleted)::BIGINT AS merged, count(*) FILTER (WHERE NOT is_deleted AND NOT is_merged)::BIGINT AS written FROM ${verdictTable(info)}`
}

// ---- the entity table ----

/**
 * The kept row's staging number (null for a row an update keeps from the catalog's file): the range split
 * reads the staged rows a slice of numbers at a time.
 */
const SEQ_COLUMN = '__seq'

/** The list columns only the build reads (external ids, link keys). */
const buildOnlyListsOf = (info: CatalogEntityInfo): string[] => ['external_ids', ...linkColumnsOf(info)]

/** The columns of the kept rows that only the build reads: not written to the catalog. */
function buildOnlyColumnsOf(info: CatalogEntityInfo): string[] {
  return [SEQ_COLUMN, ...buildOnlyListsOf(info)]
}

/** What a build-only column is for a row an update keeps from the catalog's file. */
const previousBuildOnlyValue = (name: string): string =>
  name === SEQ_COLUMN
    ? 'CAST(NULL AS BIGINT)'
    : name === 'external_ids'
      ? 'CAST(NULL AS VARCHAR[][])'
      : 'CAST(NULL AS VARCHAR[])'

/** The view of the kept rows that were staged (parsed from the snapshot), which the range split reads. */
const stagedRowsView = (info: CatalogEntityInfo): string => quoteIdentifier(`staged_rows_${info.table}`)

/** The view of the rows an update keeps from the catalog's file (`keptRowsViewSql`). */
const previousRowsView = (info: CatalogEntityInfo): string => quoteIdentifier(`previous_rows_${info.table}`)

/** A derived column typed from its text (`derived[k]`, computed by the worker from its sources). */
function derivedColumnSql(column: DerivedColumn, text: string): string {
  if (column.kind === 'presence') return `(${text} IS NOT NULL) AS ${quoteIdentifier(column.name)}`
  const cast =
    column.type === 'DATE'
      ? `TRY_CAST(left(${text}, 10) AS DATE)`
      : column.type === 'VARCHAR'
        ? text
        : `TRY_CAST(${text} AS ${column.type})`
  const value = column.fallback === null ? cast : `coalesce(${cast}, ${column.fallback})`
  return `${value} AS ${quoteIdentifier(column.name)}`
}

/**
 * The staged rows of the entity that `where` keeps (SQL over the staging row `s`), typed as the entity's
 * file has them, with the build-only columns.
 */
function stagedRowsSql(info: CatalogEntityInfo, where: string): string {
  const derived = derivedColumnsOf(info.entity).map((column, index) =>
    derivedColumnSql(column, `s.derived[${index + 1}]`),
  )
  // The rows leave out empty lists and zero counts (record-extractor.ts).
  const paths = recordPathColumnsOf(info.entity).map((column) => {
    const name = quoteIdentifier(column.name)
    if (column.form === 'text') return `s.${name}`
    const empty = column.form === 'count' ? '0' : 'CAST([] AS VARCHAR[])'
    return `coalesce(s.${name}, ${empty}) AS ${name}`
  })
  const buildOnly = buildOnlyColumnsOf(info).map((name) =>
    name === SEQ_COLUMN ? `s.seq AS ${quoteIdentifier(SEQ_COLUMN)}` : `s.${quoteIdentifier(name)}`,
  )
  const columns = [
    's.id',
    `${idNumberSql(info)} AS id_num`,
    's.openalex_id',
    ...derived,
    ...paths,
    'TRY_CAST(s.partition_date AS DATE) AS partition_date',
    'TRY_CAST(s.updated_date AS TIMESTAMP) AS updated_date',
    's.record_offset + b.base AS record_offset',
    's.record_bytes',
    ...buildOnly,
  ]
  return `SELECT ${columns.join(', ')} ${stagedFromSql(info)} WHERE ${where}`
}

/**
 * The FROM clause of the entity's staged rows. A view cannot take parameters: the entity name is the
 * registry's, never a caller's. The previous catalog's ids were staged without a record part: the join leaves
 * them out.
 */
const stagedFromSql = (info: CatalogEntityInfo): string =>
  `FROM ${stageTable(info)} s JOIN record_bases b ON b.entity = ${constantLiteral(info.entity)} AND b.part = s.record_part`

/** Which of the entity's staged rows it keeps: their id's newest version, not deleted or merged. */
const keptStagedSql = (info: CatalogEntityInfo): string =>
  `s.seq IN (SELECT seq FROM ${verdictTable(info)} WHERE NOT is_deleted AND NOT is_merged)`

/**
 * The works' kept staged rows with their id and link keys alone: the rows of the staged view
 * (`stagedRowsView`) that the link tables read, without its ~150 typed columns, which DuckDB binds for every
 * statement over the view even when it reads two (~5 ms each, a link table's whole cost at a few works).
 */
const stagedLinkKeysSql = (works: CatalogEntityInfo): string =>
  `(SELECT s.id, ${linkColumnsOf(works)
    .map((name) => `s.${quoteIdentifier(name)}`)
    .join(', ')} ${stagedFromSql(works)} WHERE ${keptStagedSql(works)})`

/**
 * `CREATE VIEW` of the kept records with their typed columns, in no order; each record's offset made
 * absolute in the entity's record store (its segment's base added). A view, not a table: the rows are typed
 * as they stream into the one sort that writes the entity's file (or into its ranges, below), instead of
 * being written once more unsorted (which, with the sort into a table and the copy out of it, was three
 * passes over 2 GB at 100k works). The file is sorted by the short id so that the zone maps of `id` prune
 * point lookups and the joins from link tables.
 */
export function keptRowsViewSql(info: CatalogEntityInfo, previous: string | undefined): string[] {
  const staged = stagedRowsSql(info, keptStagedSql(info))
  const stagedView = `CREATE VIEW ${stagedRowsView(info)} AS ${staged}`
  if (previous === undefined)
    return [stagedView, `CREATE VIEW ${rowsRelation(info)} AS SELECT * FROM ${stagedRowsView(info)}`]
  // The rows of the catalog being updated that it keeps come from its own table (`previous`: its file, or its
  // serving database), typed as they were written; their offsets stay as they are (its record store is the
  // start of the new one). They have no build-only columns: their link rows and external ids are copied from
  // its tables. Only today's columns are read: a file written before a column was dropped (the record lists
  // of the link tables' ids, until format 7) keeps it.
  const kept = entityFileColumnsOf(info.entity).map((column) => quoteIdentifier(column.name))
  const nulls = buildOnlyColumnsOf(info).map(
    (name) => `${previousBuildOnlyValue(name)} AS ${quoteIdentifier(name)}`,
  )
  return [
    stagedView,
    `CREATE VIEW ${previousRowsView(info)} AS SELECT ${kept.join(', ')}, ${nulls.join(', ')} FROM ${previous} WHERE id IN (SELECT id FROM ${keptPreviousTable(info)})`,
    `CREATE VIEW ${rowsRelation(info)} AS SELECT * FROM ${stagedRowsView(info)} UNION ALL BY NAME SELECT * FROM ${previousRowsView(info)}`,
  ]
}

// ---- sorting by id in ranges: DuckDB cannot sort rows carrying large strings within its memory limit (it
// fails to pin blocks instead of spilling, still in 1.5: 100k works' rows under a 1 GB limit), so a big
// entity is sorted a range of ids at a time, each range small enough to sort in memory and written as a file
// of its own: the ranges' files in order are the table. (They were appended in order to a table of the
// staging database, then copied out to one file: DuckDB writing ~100 list columns into its own storage cost
// more than the sort, twice over with the serving database's copy; BENCHMARKS.md, cr.) ----

/** One row: the kept rows, and the bytes of their name and list columns (what a sort must hold). */
export function keptRowsSizeSql(info: CatalogEntityInfo): string {
  const lists = [
    ...recordPathColumnsOf(info.entity)
      .filter((column) => column.type === 'VARCHAR[]')
      .map((column) => column.name),
    ...buildOnlyListsOf(info),
  ]
    // A missing list (the build-only columns are null when a record has none) counts 0: one null term
    // would make the row's sum null, which sum() skips, and the bytes of every work read 0.
    .map((name) => ` + coalesce(strlen(CAST(${quoteIdentifier(name)} AS VARCHAR)), 0)`)
    .join('')
  return `SELECT count(*) AS rows, coalesce(sum(strlen(coalesce(display_name, ''))${lists}), 0) AS bytes FROM ${rowsRelation(info)}`
}

/** One row, `bounds`: the ids that cut the rows into `parts` ranges of about equal size. */
export function sortBoundariesSql(info: CatalogEntityInfo, parts: number): string {
  const fractions = Array.from({ length: parts - 1 }, (_, index) => ((index + 1) / parts).toFixed(9))
  return `SELECT quantile_disc(${rangeKeyOf(info).column}, [${fractions.join(', ')}]) AS bounds FROM ${rowsRelation(info)}`
}

/**
 * What an entity's rows are cut into id ranges by: the first column of its id order (a letter id's number,
 * or the id), and its SQL type. Rows with one key are in one range, where the rest of the order sorts them.
 */
export const rangeKeyOf = (info: CatalogEntityInfo): { readonly column: string; readonly type: string } => {
  const column = idOrderColumns(info)[0]!
  return { column, type: column === `"${ID_NUMBER_COLUMN}"` ? 'BIGINT' : 'VARCHAR' }
}

/** The column a row's range number travels in while the ranges are split into folders. */
const RANGE_COLUMN = '__range'

/**
 * The staged rows numbered `$3` to `$4` split into one Parquet folder per id range (`<$2>/__range=K/`, files
 * named after `slice`): `$1` the ascending range bounds (VARCHAR[]); range K holds the ids above bound K-1 up
 * to bound K. The split runs a slice of staged rows at a time because DuckDB's partitioned write holds (and
 * spills) everything it is given before it writes a file: 13 GB of spill for 500k works' rows in one
 * statement, and a full disk at 1M. Each range is then read back alone: selecting a range from the table
 * instead re-read (and decompressed) every record once per range, which made sorting 1M works take over an
 * hour. The rows an update keeps from the catalog's table are not split: they are in id order, and each range
 * reads its part of them (`insertSortedRangeSql`).
 */
export function splitRowsIntoRangesSql(info: CatalogEntityInfo, slice: number): string {
  const key = rangeKeyOf(info)
  return `COPY (SELECT * EXCLUDE (${quoteIdentifier(SEQ_COLUMN)}), len(list_filter($1::${key.type}[], lambda __bound: __bound < ${key.column})) AS ${RANGE_COLUMN} FROM ${stagedRowsView(info)} WHERE ${quoteIdentifier(SEQ_COLUMN)} BETWEEN $3 AND $4) TO $2 (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${RANGE_COLUMN}), OVERWRITE_OR_IGNORE, FILENAME_PATTERN ${constantLiteral(`slice${sqlInteger(slice)}_{i}`)})`
}

/** The folder of range `index` within the folder `splitRowsIntoRangesSql` wrote. */
export const rangeFolderName = (index: number): string => `${RANGE_COLUMN}=${sqlInteger(index)}`

/**
 * One range's rows, sorted, written as the range's file of the entity's table (`$1`): `$2` the Parquet files
 * the split wrote for it (a glob) when `split`; when `previous`, the rows the update keeps of the catalog's
 * table with ids above the next parameter up to the one after (either null at the ends), which the table's
 * zone maps find without reading the rest of it. The ranges' files, in range order, are the table in id order.
 */
export function copySortedRangeSql(info: CatalogEntityInfo, split: boolean, previous: boolean): string {
  // The bounds are `$3`, `$4` after the split's glob, `$2`, `$3` without it.
  const { column: key, type } = rangeKeyOf(info)
  const [above, upTo] = split ? [`$3::${type}`, `$4::${type}`] : [`$2::${type}`, `$3::${type}`]
  const sources = [
    ...(split ? [`SELECT * FROM read_parquet($2, hive_partitioning = false)`] : []),
    ...(previous
      ? [
          `SELECT * EXCLUDE (${quoteIdentifier(SEQ_COLUMN)}) FROM ${previousRowsView(info)} WHERE (${above} IS NULL OR ${key} > ${above}) AND (${upTo} IS NULL OR ${key} <= ${upTo})`,
        ]
      : []),
  ]
  if (sources.length === 0) throw new Error('a range has rows from the split, the previous catalog, or both')
  // The split left the sequence number out (`splitRowsIntoRangesSql`): every build-only column but it goes.
  const buildOnly = buildOnlyListsOf(info).map(quoteIdentifier).join(', ')
  return `COPY (SELECT * EXCLUDE (${buildOnly}) FROM (${sources.join(' UNION ALL BY NAME ')}) ORDER BY ${idOrderSql(info)}) TO $1 (${PARQUET_OPTIONS}, ROW_GROUP_SIZE ${sqlInteger(info.rowGroupSize)})`
}

/**
 * The entity's rows once its file is written in ranges, for the statements that read them after it (live and
 * external ids, link tables, the latest partition): a view over the ranges' files (`splitGlob`, null when the
 * split wrote none) and an update's kept rows, in no order, with a null sequence number as the kept rows have.
 */
export function rangeRowsViewSql(
  info: CatalogEntityInfo,
  splitGlob: string | null,
  previous: boolean,
): string {
  const sources = [
    ...(splitGlob === null
      ? []
      : [
          `SELECT *, CAST(NULL AS BIGINT) AS ${quoteIdentifier(SEQ_COLUMN)} FROM read_parquet(${constantLiteral(splitGlob)}, hive_partitioning = false)`,
        ]),
    ...(previous ? [`SELECT * FROM ${previousRowsView(info)}`] : []),
  ]
  if (sources.length === 0)
    throw new Error('the ranges hold rows from the split, the previous catalog, or both')
  return `CREATE OR REPLACE VIEW ${rowsRelation(info)} AS ${sources.join(' UNION ALL BY NAME ')}`
}

/**
 * Once the ranges are split off, the view and the staging tables under it go (the rows are in the ranges'
 * files): the checkpoint gives their disk back.
 */
export function dropViewAndStagingSql(info: CatalogEntityInfo): string[] {
  return [
    `DROP VIEW ${rowsRelation(info)}`,
    `DROP VIEW ${stagedRowsView(info)}`,
    ...stagingTablesOf(info).map((table) => `DROP TABLE ${table}`),
    'CHECKPOINT',
  ]
}

const stagingTablesOf = (info: CatalogEntityInfo): string[] => [
  stageTable(info),
  winnerTable(info),
  verdictTable(info),
]

/** $1 entity name. */
export function recordLiveIdsSql(info: CatalogEntityInfo): string {
  return `INSERT INTO live_ids SELECT $1, id FROM ${rowsRelation(info)}`
}

/** $1 output file, sorted by id: the entity's rows when one sort holds them (the view over the staged rows). */
export function copyEntitySql(info: CatalogEntityInfo): string {
  const buildOnly = buildOnlyColumnsOf(info).map(quoteIdentifier).join(', ')
  return `COPY (SELECT * EXCLUDE (${buildOnly}) FROM ${rowsRelation(info)} ORDER BY ${idOrderSql(info)}) TO $1 (${PARQUET_OPTIONS}, ROW_GROUP_SIZE ${sqlInteger(info.rowGroupSize)})`
}

/**
 * $1 output file. The entity's file when it has no rows (nothing staged, no catalog rows kept): the columns
 * of `copyEntitySql`'s, typed by the same expressions over the (empty) staging table, without the winners,
 * verdicts and views a file of rows is written through. DuckDB writes the same bytes for it (no row group;
 * the schema alone).
 */
export function copyEmptyEntitySql(info: CatalogEntityInfo): string {
  const buildOnly = buildOnlyColumnsOf(info).map(quoteIdentifier).join(', ')
  return `COPY (SELECT * EXCLUDE (${buildOnly}) FROM (${stagedRowsSql(info, 'false')})) TO $1 (${PARQUET_OPTIONS}, ROW_GROUP_SIZE ${sqlInteger(info.rowGroupSize)})`
}

// ---- an update's changes alone (the serving database is changed in place by them) ----

/** $1 output file. The rows the update writes (added or revised), sorted by id, as the entity's file has them. */
export function copyChangedRowsSql(info: CatalogEntityInfo): string {
  const buildOnly = buildOnlyColumnsOf(info).map(quoteIdentifier).join(', ')
  return `COPY (SELECT * EXCLUDE (${buildOnly}) FROM ${stagedRowsView(info)} ORDER BY ${idOrderSql(info)}) TO $1 (${PARQUET_OPTIONS})`
}

/**
 * $1 output file. The ids of the catalog being updated whose rows the update does not keep (revised, merged
 * or deleted): its ids were staged below the snapshot's records (`stagePreviousIdsSql`).
 */
export function copyGoneIdsSql(info: CatalogEntityInfo): string {
  return `COPY (SELECT id FROM ${stageTable(info)} WHERE seq < ${sqlInteger(SNAPSHOT_SEQ_STRIDE)} AND id NOT IN (SELECT id FROM ${keptPreviousTable(info)}) ORDER BY id) TO $1 (${PARQUET_OPTIONS})`
}

/** $1 output file. The link rows of the works the update writes, as the link table's file has them. */
export function copyChangedLinksSql(spec: LinkTableSpec, works: CatalogEntityInfo): string {
  return `COPY (SELECT key, work_id FROM (${stagedLinkRowsSql(spec, stagedLinkKeysSql(works))}) ORDER BY key, ${letterIdOrderSql('work_id')}) TO $1 (${PARQUET_OPTIONS})`
}

/** One row: the newest partition date among the kept records. */
export function latestPartitionSql(info: CatalogEntityInfo): string {
  return `SELECT CAST(max(partition_date) AS VARCHAR) AS latest FROM ${rowsRelation(info)}`
}

/**
 * Frees the entity's rows once its files are written (for works, once the link tables are too): the view
 * and the staging tables under it, or the view over the ranges' files (which the builder removes); then a checkpoint, unless told not to (inside a
 * transaction, or when the rows were too few for their disk to matter), gives their disk back for reuse.
 */
export function dropEntityRowsSql(
  info: CatalogEntityInfo,
  rows: EntityRows,
  { checkpoint }: { readonly checkpoint: boolean } = { checkpoint: true },
): string[] {
  const drops =
    rows === 'view'
      ? [
          `DROP VIEW ${rowsRelation(info)}`,
          `DROP VIEW ${stagedRowsView(info)}`,
          ...stagingTablesOf(info).map((table) => `DROP TABLE ${table}`),
        ]
      : [`DROP VIEW ${rowsRelation(info)}`]
  return [
    ...drops,
    `DROP VIEW IF EXISTS ${previousRowsView(info)}`,
    `DROP TABLE IF EXISTS ${keptPreviousTable(info)}`,
    ...(checkpoint ? ['CHECKPOINT'] : []),
  ]
}

// ---- external ids ----

/** $1 entity name. Every external id the kept records state, normalised by the worker. */
export function insertExternalIdsSql(info: CatalogEntityInfo): string {
  return `INSERT INTO external_ids SELECT DISTINCT $1, e[1], e[2], id FROM (SELECT id, unnest(external_ids) AS e FROM ${rowsRelation(info)})`
}

/** $1 output file. */
export const COPY_EXTERNAL_IDS_SQL = `COPY (SELECT entity, scheme, value, id FROM external_ids ORDER BY scheme, value, entity, id) TO $1 (${PARQUET_OPTIONS})`

// ---- link tables ----

/**
 * $1 output file. `(key, work_id)`, distinct, sorted by key then work; the keys were normalised by the
 * worker. When updating, `previous`: the catalog being updated's table (a relation), whose rows of the works
 * it keeps are kept.
 */
export function copyLinkTableSql(
  spec: LinkTableSpec,
  works: CatalogEntityInfo,
  previous: string | undefined,
  /** What the works' rows are (`rows_works`): the view, or the ranges' (or a test's own table). */
  worksRows: EntityRows = 'ranges',
): string {
  // The staged works' keys: while the rows are the view, from the staging table (the rows an update keeps
  // from the catalog have none); once split into ranges, from their files, the staging table being gone.
  const staged = stagedLinkRowsSql(
    spec,
    worksRows === 'view' ? stagedLinkKeysSql(works) : rowsRelation(works),
  )
  // The catalog's own rows are distinct already, and of other works than the staged rows (a kept work was
  // not staged again), whose pairs are distinct too (`stagedLinkRowsSql`). A DISTINCT over both broke the
  // memory limit (referenced works at 1M works: tens of millions of pairs, out of memory at 2 GiB).
  // The catalog's rows come first in the UNION ALL: with the staged pairs first, DuckDB's sort of the two ran
  // out of memory at 2 GB on a 1M catalog's referenced works (some 30M pairs kept, 0.2M staged), and the
  // update failed, where the same rows in this order sorted in 9 s, as did the kept rows alone (DuckDB 1.4;
  // update-link-copy.test.ts repeats it at 64 MB).
  const sources =
    previous !== undefined
      ? `SELECT key, work_id FROM ${previous} WHERE work_id IN (SELECT id FROM ${keptPreviousTable(works)}) UNION ALL ${staged}`
      : staged
  // A key's works in id order, which is the order of their rows in the serving database (whose copy of a big
  // link table keeps the file's order).
  return `COPY (SELECT key, work_id FROM (${sources}) ORDER BY key, ${letterIdOrderSql('work_id')}) TO $1 (${PARQUET_OPTIONS})`
}

/**
 * The link rows of the staged works in `rows` (their link-key lists; an update's kept rows have none). They are
 * distinct without a DISTINCT: the kept rows are one a work, and the worker writes each work's keys once
 * (`RecordExtractor`, a set). The DISTINCT's hash of every pair was a quarter of the link tables' time: the
 * 33M references of 1M works written in 31.2 s with it, 22.9 s without (BENCHMARKS.md, cs); DuckDB's
 * `list_distinct` on each work's list costs as much as the DISTINCT.
 */
const stagedLinkRowsSql = (spec: LinkTableSpec, rows: string): string => {
  const column = quoteIdentifier(linkColumnName(LINK_TABLES.indexOf(spec)))
  return `SELECT key, work_id FROM (SELECT id AS work_id, unnest(${column}) AS key FROM ${rows}) WHERE key IS NOT NULL`
}

// ---- merged and deleted ids ----

/** $1 output file. Merges of ids that still have a record (re-published after the merge) are left out. */
export const COPY_MERGED_SQL = `COPY (SELECT entity, old_id, new_id, merge_date FROM merged_ids m WHERE NOT EXISTS (SELECT 1 FROM live_ids l WHERE l.entity = m.entity AND l.id = m.old_id) ORDER BY entity, old_id) TO $1 (${PARQUET_OPTIONS})`

/** $1 output file. */
export const COPY_DELETED_SQL = `COPY (SELECT entity, id, deleted_date FROM deleted_ids d WHERE NOT EXISTS (SELECT 1 FROM live_ids l WHERE l.entity = d.entity AND l.id = d.id) ORDER BY entity, id) TO $1 (${PARQUET_OPTIONS})`
