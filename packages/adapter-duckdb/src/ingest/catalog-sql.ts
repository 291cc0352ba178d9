// The SQL ingest runs in its staging database. Every statement is assembled from allow-listed identifiers
// (entity tables, column names) and package constants (JSON paths, regex patterns); file paths, entity
// names and dates travel as bound parameters ($1, $2, …, documented on each builder).
import type { CatalogEntityInfo } from '../catalog/catalog-entities.ts'
import { type DerivedColumn, derivedColumnsOf, type ValueSource } from '../catalog/entity-columns.ts'
import {
  BARE_ISSN_PATTERN,
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  isExternalIdScheme,
} from '../catalog/external-id-schemes.ts'
import { type LinkTableSpec, linkSourceFields } from '../catalog/link-tables.ts'
import { LETTER_ID_PATTERN, PATH_ID_TAIL_PATTERN } from '../catalog/openalex-id-normalizer.ts'
import type { RecordPathColumn } from '../catalog/record-path-columns.ts'
import { recordPathColumnsOf } from '../query/column-sources.ts'
import { constantLiteral, quoteIdentifier, sqlInteger } from '../sql/sql-text.ts'

/** The staging table of an entity, unquoted (for the appender, which takes a name). */
export const stageTableName = (info: CatalogEntityInfo): string => `stage_${info.table}`
const stageTable = (info: CatalogEntityInfo): string => quoteIdentifier(stageTableName(info))
const winnerTable = (info: CatalogEntityInfo): string => quoteIdentifier(`winner_${info.table}`)
const verdictTable = (info: CatalogEntityInfo): string => quoteIdentifier(`verdict_${info.table}`)
const finalTable = (info: CatalogEntityInfo): string => quoteIdentifier(`final_${info.table}`)
const unsortedTable = (info: CatalogEntityInfo): string => quoteIdentifier(`unsorted_${info.table}`)

const PARQUET_OPTIONS = 'FORMAT parquet, COMPRESSION zstd'

// ---- id forms (the SQL twins of catalog/openalex-id-normalizer.ts) ----

/** Short id of a letter id; with `letter`, only ids of that entity. */
export function letterIdSql(expr: string, letter: string | null = null): string {
  const pattern = letter === null ? LETTER_ID_PATTERN : LETTER_ID_PATTERN.replace('[A-Za-z]', letter)
  return `nullif(upper(regexp_extract(trim(${expr}), ${constantLiteral(`(?i)${pattern}`)}, 1)), '')`
}

export function pathIdSql(expr: string): string {
  return `nullif(url_decode(regexp_extract(trim(${expr}), ${constantLiteral(PATH_ID_TAIL_PATTERN)}, 1)), '')`
}

export function shortIdSql(info: CatalogEntityInfo, expr: string): string {
  return info.idKind === 'letter' ? letterIdSql(expr, info.letter) : pathIdSql(expr)
}

function idNumberSql(info: CatalogEntityInfo): string {
  return info.idKind === 'letter' ? 'TRY_CAST(id[2:] AS BIGINT)' : 'TRY_CAST(id AS BIGINT)'
}

/** The SQL twin of `normalizeExternalId`. */
export function externalIdSql(scheme: ExternalIdScheme, expr: string): string {
  const spec = EXTERNAL_ID_SCHEMES.find((candidate) => candidate.scheme === scheme)!
  const stripped = `lower(regexp_replace(regexp_replace(trim(${expr}), ${constantLiteral(spec.prefixPattern)}, '', 'i'), '/+$', ''))`
  const value =
    scheme === 'issn'
      ? `CASE WHEN regexp_matches(${stripped}, ${constantLiteral(BARE_ISSN_PATTERN)}) THEN ${stripped}[1:4] || '-' || ${stripped}[5:8] ELSE ${stripped} END`
      : stripped
  return `nullif(${value}, '')`
}

// ---- staging ----

/** The table JSON Lines records are appended to (column order is the appender's). */
export function createStageTableSql(info: CatalogEntityInfo): string {
  return `CREATE TABLE ${stageTable(info)} (seq BIGINT, id VARCHAR, openalex_id VARCHAR, partition_date VARCHAR, updated_date VARCHAR, record VARCHAR)`
}

export const CREATE_ID_STAGE_TABLES_SQL = [
  'CREATE TABLE merged_stage (seq BIGINT, entity VARCHAR, old_id VARCHAR, new_id VARCHAR, merge_date VARCHAR)',
  'CREATE TABLE deleted_stage (seq BIGINT, entity VARCHAR, id VARCHAR, deleted_date VARCHAR)',
  'CREATE TABLE live_ids (entity VARCHAR, id VARCHAR)',
  'CREATE TABLE external_ids (entity VARCHAR, scheme VARCHAR, value VARCHAR, id VARCHAR)',
] as const

/** $1 old entity file, $2 seq offset. Rows of the existing catalog go in first, so new rows win ties. */
export function loadCatalogEntitySql(info: CatalogEntityInfo): string {
  return `INSERT INTO ${stageTable(info)} SELECT $2::BIGINT + row_number() OVER (), id, openalex_id, CAST(partition_date AS VARCHAR), CAST(updated_date AS VARCHAR), record FROM read_parquet($1, hive_partitioning = false)`
}

/** $1 old merged-ids file, $2 seq offset. */
export const LOAD_CATALOG_MERGED_SQL =
  'INSERT INTO merged_stage SELECT $2::BIGINT + row_number() OVER (), entity, old_id, new_id, CAST(merge_date AS VARCHAR) FROM read_parquet($1, hive_partitioning = false)'

/** $1 old deleted-ids file, $2 seq offset. */
export const LOAD_CATALOG_DELETED_SQL =
  'INSERT INTO deleted_stage SELECT $2::BIGINT + row_number() OVER (), entity, id, CAST(deleted_date AS VARCHAR) FROM read_parquet($1, hive_partitioning = false)'

// Snapshot part paths contain `updated_date=YYYY-MM-DD/`: DuckDB would read that as a hive partition and
// overwrite the records' own `updated_date` column with the date, so hive partitioning is always off.

/** $1 Parquet part. One row: the 0-based row number of the first row without a usable id, or null. */
export function parquetBadIdSql(info: CatalogEntityInfo): string {
  return `SELECT min(file_row_number) AS bad FROM read_parquet($1, file_row_number = true, hive_partitioning = false) WHERE ${shortIdSql(info, 'CAST(id AS VARCHAR)')} IS NULL`
}

/**
 * $1 Parquet part, $2 seq offset, $3 partition date (or null). Each row becomes its JSON text; the
 * `relevance_score` of search results is dropped, as for JSON Lines.
 */
export function stageParquetPartSql(info: CatalogEntityInfo): string {
  const record = `CASE WHEN json_exists(j, '$.relevance_score') THEN json_merge_patch(j, '{"relevance_score":null}') ELSE j END`
  return `INSERT INTO ${stageTable(info)} SELECT $2::BIGINT + file_row_number + 1, ${shortIdSql(info, 'openalex_id')}, openalex_id, CAST($3 AS VARCHAR), json_extract_string(j, '$.updated_date'), CAST(${record} AS VARCHAR) FROM (SELECT file_row_number, CAST(id AS VARCHAR) AS openalex_id, json_merge_patch(to_json(t), '{"file_row_number":null}') AS j FROM read_parquet($1, file_row_number = true, hive_partitioning = false) t)`
}

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

/** One row: ids read, versions superseded, ids removed by deletion, ids removed by merge. */
export function verdictCountsSql(info: CatalogEntityInfo): string {
  return `SELECT count(*)::BIGINT AS ids, (sum(versions) - count(*))::BIGINT AS superseded, count(*) FILTER (WHERE is_deleted)::BIGINT AS deleted, count(*) FILTER (WHERE is_merged AND NOT is_deleted)::BIGINT AS merged FROM ${verdictTable(info)}`
}

// ---- the entity table ----

/**
 * The column of the final table that holds every value the build reads from a record (one parse per
 * record): the derived columns' paths, the external ids' paths, the text record-path columns' paths and,
 * for works, the fields the link tables read. It is not written to the catalog.
 */
const EXTRACT = '__extract'

const EXTERNAL_ID_LIST_SUFFIX = '[*]'

interface ExternalIdPath {
  readonly scheme: ExternalIdScheme
  /** The path extracted from the record (for a list source, the list itself). */
  readonly path: string
  readonly list: boolean
}

function externalIdPathsOf(info: CatalogEntityInfo): ExternalIdPath[] {
  return EXTERNAL_ID_SCHEMES.flatMap((spec) =>
    spec.sources
      .filter((source) => source.entities === undefined || source.entities.includes(info.entity))
      .map((source) => ({
        scheme: spec.scheme,
        path: source.list ? source.path.slice(0, -EXTERNAL_ID_LIST_SUFFIX.length) : source.path,
        list: source.list,
      })),
  )
}

/** Every path the build extracts from a record of the entity, in a fixed order. */
function extractPathsOf(info: CatalogEntityInfo): string[] {
  return [
    ...new Set([
      ...derivedColumnsOf(info.entity).flatMap((column) => column.sources.map((source) => source.path)),
      ...externalIdPathsOf(info).map((item) => item.path),
      ...recordPathColumnsOf(info.entity)
        .filter((column) => column.form === 'text')
        .map((column) => column.path),
      ...(info.entity === 'works' ? linkSourceFields().map((field) => `$.${field}`) : []),
    ]),
  ]
}

// ---- record-path columns (catalog/record-path-columns.ts): what queries read of the record, extracted once.
// A text column is its path's entry in the extract list. A wildcard path (a list or a count) is read from
// its part before the first `[*]`, extracted as JSON once per record with every other such part, by the
// rest of the path: `$.authorships[*].institutions[*].type` is `$[*].institutions[*].type` of the record's
// `$.authorships`. The values are those of the whole path on the record; where the part is missing, its
// extract is null and the list empty, as the whole path gives. ----

const WILDCARD = '[*]'

function wildcardSplit(path: string): { readonly head: string; readonly rest: string } {
  const at = path.indexOf(WILDCARD)
  return { head: path.slice(0, at), rest: `$${path.slice(at)}` }
}

/** The parts before the first `[*]` of the entity's wildcard record-path columns, in a fixed order. */
function wildcardHeadsOf(info: CatalogEntityInfo): string[] {
  return [
    ...new Set(
      recordPathColumnsOf(info.entity)
        .filter((column) => column.form !== 'text')
        .map((column) => wildcardSplit(column.path).head),
    ),
  ]
}

function recordPathColumnSql(
  column: RecordPathColumn,
  paths: readonly string[],
  heads: readonly string[],
): string {
  const name = quoteIdentifier(column.name)
  if (column.form === 'text') return `${extracted(paths, column.path)} AS ${name}`
  const { head, rest } = wildcardSplit(column.path)
  const part = extracted(heads, head, 'h')
  const value =
    column.form === 'list'
      ? `coalesce(list_filter(json_extract_string(${part}, ${constantLiteral(rest)}), lambda __x: __x IS NOT NULL), [])`
      : column.form === 'count'
        ? `coalesce(len(json_extract(${part}, ${constantLiteral(rest)})), 0)`
        : `coalesce(list_transform(list_filter(json_extract(${part}, ${constantLiteral(rest)}), lambda __l: json_extract_string(__l, '$.is_oa') = 'true'), lambda __l: json_extract_string(__l, '$.version')), [])`
  return `${value} AS ${name}`
}

/** The SQL of the value at `path` in the extract list (text; JSON text for objects and arrays). */
function extracted(paths: readonly string[], path: string, column = 'v'): string {
  const index = paths.indexOf(path)
  if (index === -1) throw new Error(`path not extracted: ${path}`)
  return `${column}[${index + 1}]`
}

function sourceSql(source: ValueSource, paths: readonly string[]): string {
  const value = extracted(paths, source.path)
  const transform = source.transform
  if (transform === 'value') return value
  if (transform === 'letter-id') return letterIdSql(value)
  if (transform === 'path-id') return pathIdSql(value)
  if (transform === 'upper') return `upper(${value})`
  if (transform === 'array-length') return `CAST(json_array_length(${value}) AS VARCHAR)`
  if (isExternalIdScheme(transform)) return externalIdSql(transform, value)
  const unknown: never = transform
  throw new Error(`unknown transform ${String(unknown)}`)
}

function derivedColumnSql(column: DerivedColumn, paths: readonly string[]): string {
  const terms = column.sources.map((source) => sourceSql(source, paths))
  const first = terms.length === 1 ? terms[0]! : `coalesce(${terms.join(', ')})`
  if (column.kind === 'presence') return `(${first} IS NOT NULL) AS ${quoteIdentifier(column.name)}`
  const cast =
    column.type === 'DATE'
      ? `TRY_CAST(left(${first}, 10) AS DATE)`
      : column.type === 'VARCHAR'
        ? first
        : `TRY_CAST(${first} AS ${column.type})`
  const value = column.fallback === null ? cast : `coalesce(${cast}, ${column.fallback})`
  return `${value} AS ${quoteIdentifier(column.name)}`
}

/**
 * The kept records with their derived columns, in no order yet. The final table is this one sorted by the
 * short id (below), so that the zone maps of `id` prune point lookups and the joins from link tables (whose
 * `work_id` is the same text).
 */
export function buildUnsortedTableSql(info: CatalogEntityInfo): string {
  const paths = extractPathsOf(info)
  const heads = wildcardHeadsOf(info)
  const derived = [
    ...derivedColumnsOf(info.entity).map((column) => derivedColumnSql(column, paths)),
    ...recordPathColumnsOf(info.entity).map((column) => recordPathColumnSql(column, paths, heads)),
  ].join(', ')
  const extract = `json_extract_string(s.record, [${paths.map(constantLiteral).join(', ')}])`
  const headExtract =
    heads.length === 0 ? '' : `, json_extract(s.record, [${heads.map(constantLiteral).join(', ')}]) AS h`
  return `CREATE TABLE ${unsortedTable(info)} AS SELECT id, ${idNumberSql(info)} AS id_num, openalex_id, ${derived}, TRY_CAST(partition_date AS DATE) AS partition_date, TRY_CAST(updated_date AS TIMESTAMP) AS updated_date, record, v AS ${EXTRACT} FROM (SELECT s.*, ${extract} AS v${headExtract} FROM ${stageTable(info)} s WHERE s.seq IN (SELECT seq FROM ${verdictTable(info)} WHERE NOT is_deleted AND NOT is_merged))`
}

// ---- sorting by id in ranges: DuckDB cannot sort rows carrying large strings within its memory limit (it
// fails to pin blocks instead of spilling), so the table is sorted a range of ids at a time, each range
// small enough to sort in memory, the ranges appended in order (inserts keep their ORDER BY). ----

/**
 * One row: the kept rows, and the bytes of their records, extracts and list record-path columns (what a
 * sort must hold).
 */
export function unsortedSizeSql(info: CatalogEntityInfo): string {
  const lists = recordPathColumnsOf(info.entity)
    .filter((column) => column.type === 'VARCHAR[]')
    .map((column) => ` + strlen(CAST(${quoteIdentifier(column.name)} AS VARCHAR))`)
    .join('')
  return `SELECT count(*) AS rows, coalesce(sum(strlen(record) + strlen(CAST(${EXTRACT} AS VARCHAR))${lists}), 0) AS bytes FROM ${unsortedTable(info)}`
}

/** One row, `bounds`: the ids that cut the rows into `parts` ranges of about equal size. */
export function sortBoundariesSql(info: CatalogEntityInfo, parts: number): string {
  const fractions = Array.from({ length: parts - 1 }, (_, index) => ((index + 1) / parts).toFixed(9))
  return `SELECT quantile_disc(id, [${fractions.join(', ')}]) AS bounds FROM ${unsortedTable(info)}`
}

/** The whole table sorted at once, when it is small enough. */
export function sortAllSql(info: CatalogEntityInfo): string {
  return `CREATE TABLE ${finalTable(info)} AS SELECT * FROM ${unsortedTable(info)} ORDER BY id`
}

export function createSortedTableSql(info: CatalogEntityInfo): string {
  return `CREATE TABLE ${finalTable(info)} AS FROM ${unsortedTable(info)} LIMIT 0`
}

/** The column a row's range number travels in while the ranges are split into folders. */
const RANGE_COLUMN = '__range'

/**
 * The unsorted rows split, in one pass, into one Parquet folder per id range (`<$2>/__range=K/`): `$1` the
 * ascending range bounds (VARCHAR[]); range K holds the ids above bound K-1 up to bound K. Each range is then
 * read back alone: selecting a range from the table instead re-read (and decompressed) every record once per
 * range, which made sorting 1M works take over an hour.
 */
export function splitUnsortedIntoRangesSql(info: CatalogEntityInfo): string {
  return `COPY (SELECT *, len(list_filter($1::VARCHAR[], lambda __bound: __bound < id)) AS ${RANGE_COLUMN} FROM ${unsortedTable(info)}) TO $2 (FORMAT parquet, COMPRESSION zstd, PARTITION_BY (${RANGE_COLUMN}), OVERWRITE_OR_IGNORE)`
}

/** The folder of range `index` within the folder `splitUnsortedIntoRangesSql` wrote. */
export const rangeFolderName = (index: number): string => `${RANGE_COLUMN}=${sqlInteger(index)}`

/** `$1` the Parquet files of one range (a glob): its rows appended to the final table, sorted. */
export function insertSortedRangeSql(info: CatalogEntityInfo): string {
  return `INSERT INTO ${finalTable(info)} SELECT * FROM read_parquet($1, hive_partitioning = false) ORDER BY id`
}

export function dropUnsortedTableSql(info: CatalogEntityInfo): string {
  return `DROP TABLE ${unsortedTable(info)}`
}

/** $1 entity name. */
export function recordLiveIdsSql(info: CatalogEntityInfo): string {
  return `INSERT INTO live_ids SELECT $1, id FROM ${finalTable(info)}`
}

/** $1 output file. Rows keep the table's (sorted) order. */
export function copyEntitySql(info: CatalogEntityInfo): string {
  return `COPY (SELECT * EXCLUDE (${EXTRACT}) FROM ${finalTable(info)}) TO $1 (${PARQUET_OPTIONS}, ROW_GROUP_SIZE ${sqlInteger(info.rowGroupSize)})`
}

// ---- the record store (catalog/record-codec.ts): the records leave DuckDB, their offsets come back ----

/** The records to compress, in the table's order; and typical ones for the dictionary (deterministic). */
export const recordStoreSql = (info: CatalogEntityInfo) => ({
  records: `SELECT id, record FROM ${finalTable(info)}`,
  examples: `SELECT record FROM ${finalTable(info)} ORDER BY hash(id), id LIMIT 16`,
  createOffsets: `CREATE OR REPLACE TABLE record_offsets (id VARCHAR, record_offset BIGINT, record_bytes INTEGER)`,
  checkOffsets: `SELECT (SELECT count(*) FROM ${finalTable(info)}) AS rows, (SELECT count(DISTINCT f.id) FROM ${finalTable(info)} AS f JOIN record_offsets AS o ON f.id = o.id) AS located`,
  attachOffsets: [
    `ALTER TABLE ${finalTable(info)} ADD COLUMN record_offset BIGINT`,
    `ALTER TABLE ${finalTable(info)} ADD COLUMN record_bytes INTEGER`,
    `UPDATE ${finalTable(info)} AS f SET record_offset = o.record_offset, record_bytes = o.record_bytes FROM record_offsets AS o WHERE f.id = o.id`,
    'DROP TABLE record_offsets',
  ],
})

/** One row: the newest partition date among the kept records. */
export function latestPartitionSql(info: CatalogEntityInfo): string {
  return `SELECT CAST(max(partition_date) AS VARCHAR) AS latest FROM ${finalTable(info)}`
}

/**
 * Frees the entity's staging tables once its unsorted table holds what is kept of them: the disk they
 * take is reused by the sorted table (after a checkpoint), rather than held until the entity is written.
 */
export function dropStagingTablesSql(info: CatalogEntityInfo): string[] {
  return [
    ...[stageTable(info), winnerTable(info), verdictTable(info)].map((table) => `DROP TABLE ${table}`),
    'CHECKPOINT',
  ]
}

/** Frees the entity's table once its files are written; the works table stays for the link tables. */
export function dropEntityTableSql(info: CatalogEntityInfo): string[] {
  return info.entity === 'works' ? [] : [`DROP TABLE ${finalTable(info)}`, 'CHECKPOINT']
}

// ---- external ids ----

/**
 * $1 entity name. Every external id the kept records state, normalised: each id paired with its scheme
 * (list sources flattened; `list_concat` reads a missing list as empty), then normalised by scheme.
 */
export function insertExternalIdsSql(info: CatalogEntityInfo): string {
  const paths = extractPathsOf(info)
  const sources = externalIdPathsOf(info)
  const pair = (scheme: ExternalIdScheme, raw: string) =>
    `{'scheme': ${constantLiteral(scheme)}, 'raw': ${raw}}`
  const scalars = sources.filter((item) => !item.list)
  const pairs = [
    `[${scalars.map((item) => pair(item.scheme, extracted(paths, item.path, EXTRACT))).join(', ')}]`,
    ...sources
      .filter((item) => item.list)
      .map(
        (item) =>
          `list_transform(json_extract_string(${extracted(paths, item.path, EXTRACT)}, '$[*]'), raw -> ${pair(item.scheme, 'raw')})`,
      ),
  ]
  const normalised = `CASE e.scheme ${EXTERNAL_ID_SCHEMES.map((spec) => `WHEN ${constantLiteral(spec.scheme)} THEN ${externalIdSql(spec.scheme, 'e.raw')}`).join(' ')} END`
  return `INSERT INTO external_ids SELECT DISTINCT $1, scheme, value, id FROM (SELECT id, e.scheme AS scheme, ${normalised} AS value FROM (SELECT id, unnest(list_concat(${pairs.join(', ')})) AS e FROM ${finalTable(info)})) WHERE value IS NOT NULL`
}

/** $1 output file. */
export const COPY_EXTERNAL_IDS_SQL = `COPY (SELECT entity, scheme, value, id FROM external_ids ORDER BY scheme, value, entity, id) TO $1 (${PARQUET_OPTIONS})`

// ---- link tables ----

function linkKeySql(spec: LinkTableSpec, keyEntity: CatalogEntityInfo): string {
  if (spec.transform === 'letter-id') return letterIdSql('x', keyEntity.letter)
  if (spec.transform === 'country') return `upper(${pathIdSql('x')})`
  return pathIdSql('x')
}

/** $1 output file. `(key, work_id)`, distinct, sorted by key then work. */
export function copyLinkTableSql(
  spec: LinkTableSpec,
  works: CatalogEntityInfo,
  keyEntity: CatalogEntityInfo,
): string {
  const paths = extractPathsOf(works)
  const selects = spec.sources.map((source) => {
    const part = extracted(paths, `$.${source.field}`, EXTRACT)
    const values = source.scalar
      ? `[json_extract_string(${part}, ${constantLiteral(source.path)})]`
      : `json_extract_string(${part}, ${constantLiteral(source.path)})`
    return `SELECT id AS work_id, unnest(${values}) AS x FROM ${finalTable(works)}`
  })
  return `COPY (SELECT DISTINCT key, work_id FROM (SELECT ${linkKeySql(spec, keyEntity)} AS key, work_id FROM (${selects.join(' UNION ALL ')})) WHERE key IS NOT NULL ORDER BY key, work_id) TO $1 (${PARQUET_OPTIONS})`
}

// ---- merged and deleted ids ----

/** $1 output file. Merges of ids that still have a record (re-published after the merge) are left out. */
export const COPY_MERGED_SQL = `COPY (SELECT entity, old_id, new_id, merge_date FROM merged_ids m WHERE NOT EXISTS (SELECT 1 FROM live_ids l WHERE l.entity = m.entity AND l.id = m.old_id) ORDER BY entity, old_id) TO $1 (${PARQUET_OPTIONS})`

/** $1 output file. */
export const COPY_DELETED_SQL = `COPY (SELECT entity, id, deleted_date FROM deleted_ids d WHERE NOT EXISTS (SELECT 1 FROM live_ids l WHERE l.entity = d.entity AND l.id = d.id) ORDER BY entity, id) TO $1 (${PARQUET_OPTIONS})`
