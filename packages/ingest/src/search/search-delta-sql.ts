// The SQL of an index update (`search-index-updater.ts`). The buckets of the catalog being updated stay as
// they are; what the update writes is the entity's delta (the postings of the documents it added or revised,
// with those of earlier updates' that it kept), the documents whose bucket postings no longer count, and the
// files that describe the index as it now is (documents, lengths, statistics, dictionaries).
//
// Paths and offsets arrive as parameters (`$n`); the only text spliced in is this package's own: the fixed
// work-table names and integer constants.
import { sqlInteger } from '@oqlkit/catalog'

const PARQUET = 'FORMAT parquet, COMPRESSION zstd'
// As the buckets' (`search-index-sql.ts`): a term's rows are found by the row groups' zone maps on `term`.
const POSTINGS_ROW_GROUP = 16_384
const TERMS_ROW_GROUP = 65_536
const POSTINGS_COLUMNS = 'term, field, doc, tf, len, positions'

/** The work tables of an entity's update, dropped when it is done. */
export const UPDATE_WORK_TABLES = [
  'search_update_kept',
  'search_update_removed',
  'search_update_lost',
] as const

/**
 * `from`: the updated catalog's entity rows (a relation), `$1`: the offset its record store had in the catalog
 * being updated. The documents the update kept as they were: their records lie in that first part of the
 * store, where the updated catalog's store begins (`../build/unchanged-works.ts`).
 */
export const createKeptDocsSql = (from: string): string => `CREATE OR REPLACE TEMP TABLE search_update_kept AS
SELECT CAST(id[2:] AS UBIGINT) AS doc FROM ${from} WHERE record_offset < $1`

/** `from`: the entity rows, `$1`: the same offset. Records the update wrote (added or revised), and all. */
export const changedRecordsSql = (from: string): string =>
  `SELECT count(*) FILTER (WHERE record_offset >= $1) AS changed, count(*) AS records FROM ${from}`

/**
 * `$1`: the previous index's docs file. Its documents the update did not keep: revised, merged or deleted,
 * whose postings (in the buckets, or in an earlier delta) no longer count.
 */
export const CREATE_REMOVED_DOCS_SQL = `CREATE OR REPLACE TEMP TABLE search_update_removed AS
SELECT doc FROM read_parquet($1) WHERE doc NOT IN (SELECT doc FROM search_update_kept)`

export const COUNT_REMOVED_SQL = 'SELECT count(*) AS n FROM search_update_removed'

/**
 * `$1`: the mode's buckets (a list); with an earlier delta also `$2`, its masked documents, and `$3`, its
 * delta file. The postings of the removed documents that counted until now, per term and field: what the
 * dictionary loses. Only `term`, `field`, `doc` and `tf` are read from the buckets, never the positions.
 */
export function createLostPostingsSql(hasDelta: boolean): string {
  const removed = 'doc IN (SELECT doc FROM search_update_removed)'
  const rows = hasDelta
    ? `SELECT term, field, tf FROM read_parquet($1) WHERE ${removed} AND doc NOT IN (SELECT doc FROM read_parquet($2))
  UNION ALL SELECT term, field, tf FROM read_parquet($3) WHERE ${removed}`
    : `SELECT term, field, tf FROM read_parquet($1) WHERE ${removed}`
  return `CREATE OR REPLACE TEMP TABLE search_update_lost AS
SELECT term, field, count(*) AS df, sum(tf) AS cf FROM (
  ${rows}
) GROUP BY term, field`
}

/**
 * `$1`: the tokenized documents' exact postings (the segments' work files, a list), `$2`: a work file. The
 * postings they add, unsorted; in stemmed mode renamed to their stems (`search_build_stems`) and merged, one
 * row per stem, field and document, positions in order, as a full build merges them.
 */
export function copyAddedPostingsSql(stemmed: boolean): string {
  const rows = stemmed
    ? `SELECT s.stem AS term, p.field, p.doc, CAST(sum(p.tf) AS UINTEGER) AS tf, any_value(p.len) AS len,
    list_sort(flatten(list(p.positions))) AS positions
  FROM read_parquet($1) p JOIN search_build_stems s USING (term) GROUP BY s.stem, p.field, p.doc`
    : `SELECT ${POSTINGS_COLUMNS} FROM read_parquet($1)`
  return `COPY (${rows}) TO $2 (FORMAT parquet, COMPRESSION lz4_raw)`
}

/**
 * `$1`: the added postings, `$2`: the output path; with an earlier delta, `$3` its delta file, whose rows
 * of the documents kept stay. The mode's new delta file, sorted as a bucket is.
 */
export function copyDeltaSql(hasDelta: boolean): string {
  const earlier = hasDelta
    ? `SELECT ${POSTINGS_COLUMNS} FROM read_parquet($3) WHERE doc IN (SELECT doc FROM search_update_kept)
  UNION ALL `
    : ''
  return `COPY (
  SELECT * FROM (${earlier}SELECT ${POSTINGS_COLUMNS} FROM read_parquet($1)) ORDER BY term, field, doc
) TO $2 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(POSTINGS_ROW_GROUP)})`
}

/**
 * `$1`: the previous dictionary, `$2`: the added postings, `$3`: the output path. The dictionary as it now
 * is: each (term, field)'s document and collection frequency, less the removed documents' (`search_update_lost`),
 * plus the added ones'; a term no document holds any more is gone. A full build counts the same.
 */
export const COPY_UPDATED_TERMS_SQL = `COPY (
  SELECT term, field, CAST(df AS UINTEGER) AS df, CAST(cf AS UBIGINT) AS cf FROM (
    SELECT term, field, sum(df) AS df, sum(cf) AS cf FROM (
      SELECT term, field, CAST(df AS BIGINT) AS df, CAST(cf AS BIGINT) AS cf FROM read_parquet($1)
      UNION ALL SELECT term, field, -CAST(df AS BIGINT), -CAST(cf AS BIGINT) FROM search_update_lost
      UNION ALL SELECT term, field, count(*), sum(tf) FROM read_parquet($2) GROUP BY term, field
    ) GROUP BY term, field
  ) WHERE df > 0 ORDER BY term, field
) TO $3 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(TERMS_ROW_GROUP)})`

/**
 * `$1`: the output path; with an earlier delta, `$2` its masked documents. The documents whose bucket
 * postings no longer count: those masked before and those removed now (a removed document the buckets never
 * held masks nothing, and costs a row).
 */
export const copyMaskedSql = (hasDelta: boolean): string =>
  `COPY (SELECT DISTINCT doc FROM (SELECT doc FROM search_update_removed${hasDelta ? ' UNION ALL SELECT doc FROM read_parquet($2)' : ''}) ORDER BY doc) TO $1 (${PARQUET})`

/**
 * `$1`: the previous doc-stats file, `$2`: the output path; with tokenized documents, `$3` their doc-stats
 * work files (a list). Tokens per document and field, as they now are, in order.
 */
export const copyUpdatedDocStatsSql = (added: boolean): string =>
  `COPY (
  SELECT * FROM (
    SELECT doc, field, length FROM read_parquet($1) WHERE doc NOT IN (SELECT doc FROM search_update_removed)${added ? '\n    UNION ALL SELECT doc, field, length FROM read_parquet($3)' : ''}
  ) ORDER BY doc, field
) TO $2 (${PARQUET})`

/** The postings the removed documents took away. */
export const LOST_POSTINGS_SQL = 'SELECT coalesce(sum(df), 0) AS n FROM search_update_lost'

/** `$1`: a delta file. The documents it holds postings of. */
export const DELTA_DOCS_SQL = 'SELECT count(DISTINCT doc) AS n FROM read_parquet($1)'
