// The SQL of the index build. Paths and ids arrive as parameters (`$n`); the only text spliced in is this
// package's own: stored-field SQL from `search-fields.ts`, integer constants, and the fixed work-table names.
//
// Two passes, each holding a bounded part of the index at a time:
//   1. documents in segments (a range of ids, so the entity file's zone maps on `id` give each segment only
//      its row groups): a segment's texts are tokenized and its exact postings written, unsorted, to a work
//      file; only the document numbers and the term → stem mapping outlive a segment in memory;
//   2. per mode, the postings of all segments are split by term range into buckets of about `BUCKET_ROWS`
//      rows (DuckDB's partitioned write), and each bucket is merged (stemmed mode) and sorted on its
//      own into the bucket's index file.

import { exactTokensSql } from '@oqlkit/adapter-duckdb'
import type { StoredField } from '@oqlkit/catalog'
import {
  constantLiteral,
  PLAIN_LETTER_ID_PATTERN,
  quoteIdentifier,
  SEGMENT_GAP,
  sqlInteger,
} from '@oqlkit/catalog'

const PARQUET = 'FORMAT parquet, COMPRESSION zstd'
// Work files are read back once: fast compression beats small files.
const WORK_PARQUET = 'FORMAT parquet, COMPRESSION lz4_raw'
// A lookup reads one bucket file and skips the row groups of the other terms by their zone maps on `term`
// (about 10 µs each): small row groups keep a rare term's read small, and a bucket has few of them.
const POSTINGS_ROW_GROUP = 16_384
const TERMS_ROW_GROUP = 65_536
/** Postings per bucket file (a term with more has a bucket of its own). */
export const BUCKET_ROWS = 1_048_576

/** The work tables of one entity's build, dropped when it is done. */
export const WORK_TABLES = [
  'search_build_docs',
  'search_build_texts',
  'search_build_stems',
  'search_build_term_rows',
  'search_build_buckets',
] as const

export const dropWorkTablesSql = (): string[] => WORK_TABLES.map((table) => `DROP TABLE IF EXISTS ${table}`)

/**
 * `from`: the entity's rows or texts (a relation with an `id`). How its records are numbered: by the number in
 * their id when every id is one letter and a number without leading zeros (`W2741809807`), so that a search
 * gives ids back without a join; densely in id order otherwise.
 */
export const idSchemeSql = (
  from: string,
): string => `SELECT count(*) AS records, count(DISTINCT id[1]) AS prefixes, min(id[1]) AS prefix,
  count(*) FILTER (WHERE NOT regexp_full_match(id, ${constantLiteral(PLAIN_LETTER_ID_PATTERN)})) AS irregular
FROM ${from}`

/**
 * `from`: the entity's rows or texts (a relation with an `id`). Each record's document number (`doc`: its id's
 * number, or its rank when numbered densely) and `rank`, its place in id order, which segments are cut by.
 */
export const createDocsSql = (numbered: boolean, from: string): string =>
  `CREATE OR REPLACE TEMP TABLE search_build_docs AS SELECT ${numbered ? 'CAST(id[2:] AS UBIGINT)' : 'CAST(rank AS UINTEGER)'} AS doc, id, rank
FROM (SELECT id, CAST(row_number() OVER (ORDER BY id) - 1 AS UINTEGER) AS rank FROM ${from}) ORDER BY rank`

/** `$1`: documents per segment. The number of documents and the first and last id of each segment, in order. */
export const SEGMENT_BOUNDS_SQL = `SELECT rank // $1 AS segment, count(*) AS docs, min(id) AS first_id, max(id) AS last_id
FROM search_build_docs GROUP BY ALL ORDER BY segment`

/**
 * `$1`: the entity's Parquet file, `$2`, `$3`: the segment's first and last id. One row per text (a stored
 * field's value, or one element of a list field) with its tokens, the position its first token gets (texts
 * follow each other in field order, `SEGMENT_GAP` apart; a text without tokens takes no room) and the length
 * of its field in the document. `texts` (the record's text fields) is parsed once, into just the fields the index needs
 * (`json_transform`, which reads a value of an unexpected shape as null).
 */
export function createTextsSql(fields: readonly StoredField[]): string {
  const fromRecord = fields.filter((field) => field.recordKey !== null)
  const column = (field: StoredField): string => `f${sqlInteger(field.code)}`
  const structure = JSON.stringify(
    Object.fromEntries(fromRecord.map((field) => [field.recordKey, field.recordType])),
  )
  const parsed = fromRecord.length > 0 ? `, json_transform(e.texts, ${constantLiteral(structure)}) AS r` : ''
  const prepared = fromRecord.map((field) => {
    const value = `r.${quoteIdentifier(field.recordKey ?? '')}`
    return `, ${field.prepareSql === undefined ? value : field.prepareSql(value)} AS ${column(field)}`
  })
  // Each field's texts are computed in a projection of their own: inside the unnest, DuckDB evaluates them
  // several times slower (the abstract's reconstruction above all).
  const fieldTexts = fields.map((field) => `, ${field.textsSql(column(field))} AS t${sqlInteger(field.code)}`)
  const texts = fields
    .map(
      (field) =>
        `list_transform(t${sqlInteger(field.code)}, lambda value, part: {field: ${sqlInteger(field.code)}, part: part, text: value})`,
    )
    .join(', ')
  const gap = sqlInteger(SEGMENT_GAP)
  // No `WHERE len(tokens) > 0`: DuckDB would push it below the projection and tokenize every text twice.
  return `CREATE OR REPLACE TEMP TABLE search_build_texts AS
WITH source AS (
  SELECT d.doc, e.display_name${parsed}
  FROM (SELECT * FROM read_parquet($1) WHERE id BETWEEN $2 AND $3) e
  JOIN (SELECT doc, id FROM search_build_docs WHERE id BETWEEN $2 AND $3) d USING (id)
), prepared AS (
  SELECT doc, display_name${prepared.join('')} FROM source
), field_texts AS (
  SELECT doc${fieldTexts.join('')} FROM prepared
), texts AS (
  SELECT doc, unnest(flatten([${texts}])) AS t FROM field_texts
), tokenized AS (
  SELECT doc, CAST(t.field AS UTINYINT) AS field, t.part AS part, ${exactTokensSql('t.text')} AS tokens FROM texts
), sized AS (
  SELECT *, CASE WHEN len(tokens) > 0 THEN len(tokens) + ${gap} ELSE 0 END AS room FROM tokenized
)
SELECT doc, field, part, tokens,
  CAST(sum(room) OVER (PARTITION BY doc ORDER BY field, part ROWS UNBOUNDED PRECEDING) - room AS INTEGER) AS start,
  CAST(sum(len(tokens)) OVER (PARTITION BY doc, field) AS UINTEGER) AS field_length
FROM sized`
}

/** `$1`: the segment's doc-stats work file. */
export const COPY_SEGMENT_DOC_STATS_SQL = `COPY (SELECT doc, field, any_value(field_length) AS length FROM search_build_texts WHERE field_length > 0 GROUP BY doc, field) TO $1 (${WORK_PARQUET})`

/**
 * `$1`: a work file for the segment's exact postings. One row per (term, field, document), positions in
 * order; not sorted yet (sorting in the same statement would hold every aggregate state until the end).
 */
export const COPY_SEGMENT_EXACT_SQL = `COPY (
  SELECT term, field, doc, CAST(count(*) AS UINTEGER) AS tf, any_value(field_length) AS len, list_sort(list(pos)) AS positions
  FROM (
    SELECT doc, field, field_length, unnest(tokens) AS term, CAST(start + unnest(range(len(tokens))) AS INTEGER) AS pos
    FROM search_build_texts
  )
  GROUP BY term, field, doc
) TO $1 (${WORK_PARQUET})`

export const CREATE_STEMS_SQL =
  'CREATE OR REPLACE TEMP TABLE search_build_stems (term VARCHAR NOT NULL, stem VARCHAR NOT NULL)'

/** `$1`: a work file of exact postings. Its terms not stemmed yet (the stems table holds every term seen). */
export const NEW_TERMS_SQL =
  'SELECT DISTINCT term FROM read_parquet($1) WHERE term NOT IN (SELECT term FROM search_build_stems)'

/** `$1`: every segment's exact postings (a list of work files). Postings per exact term, for the buckets. */
export const CREATE_TERM_ROWS_SQL =
  'CREATE OR REPLACE TEMP TABLE search_build_term_rows AS SELECT term, count(*) AS rows FROM read_parquet($1) GROUP BY term'

/**
 * `$1`: `BUCKET_ROWS`. The bucket of each exact term: terms (stemmed mode: stems, with the postings of all
 * their exact terms, which merging can only make fewer) in order, cut every `BUCKET_ROWS` postings.
 */
export const createBucketsSql = (stemmed: boolean): string => {
  const keyed = stemmed
    ? 'SELECT s.stem AS key, sum(r.rows) AS rows FROM search_build_term_rows r JOIN search_build_stems s USING (term) GROUP BY s.stem'
    : 'SELECT term AS key, rows FROM search_build_term_rows'
  const buckets = `WITH keyed AS (${keyed}), placed AS (
  SELECT key, (sum(rows) OVER (ORDER BY key ROWS UNBOUNDED PRECEDING) - rows) // $1 AS slot FROM keyed
)
SELECT key, CAST(dense_rank() OVER (ORDER BY slot) - 1 AS INTEGER) AS bucket FROM placed`
  return stemmed
    ? `CREATE OR REPLACE TEMP TABLE search_build_buckets AS SELECT s.term, b.key, b.bucket FROM (${buckets}) b JOIN search_build_stems s ON s.stem = b.key`
    : `CREATE OR REPLACE TEMP TABLE search_build_buckets AS SELECT key AS term, key, bucket FROM (${buckets})`
}

/** The first term (stem) of each bucket, in order. */
export const BUCKET_BOUNDS_SQL =
  'SELECT bucket, min(key) AS low FROM search_build_buckets GROUP BY bucket ORDER BY bucket'

/**
 * `$1`: every segment's exact postings (a list), `$2`: a work folder. The postings split by bucket, into a
 * folder per bucket (`bucket=<n>/`); in stemmed mode renamed to their stem, not merged yet.
 */
export const COPY_BUCKET_PARTS_SQL = `COPY (
  SELECT b.bucket, b.key AS term, p.field, p.doc, p.tf, p.len, p.positions
  FROM read_parquet($1) p JOIN search_build_buckets b USING (term)
) TO $2 (${WORK_PARQUET}, PARTITION_BY (bucket))`

/**
 * `$1`: the bucket's work files (a list), `$2`: the bucket's index file. `from`: `bucket` reads a bucket's work
 * files (their terms already renamed to stems in stemmed mode); `segments` reads every segment's exact
 * postings, for an entity whose postings make one bucket, renaming them to their stems here. The bucket's postings (stemmed mode:
 * merged, one row per stem, field and document, positions in order), sorted. No score is stored: BM25 needs
 * the collection's statistics, which an update changes without rewriting the buckets (the query side scores
 * from `tf`, `len` and the term dictionary's `df`).
 */
export function copyBucketSql(stemmed: boolean, from: 'bucket' | 'segments' = 'bucket'): string {
  const parts =
    from === 'bucket'
      ? 'SELECT term, field, doc, tf, len, positions FROM read_parquet($1)'
      : stemmed
        ? 'SELECT s.stem AS term, p.field, p.doc, p.tf, p.len, p.positions FROM read_parquet($1) p JOIN search_build_stems s USING (term)'
        : 'SELECT term, field, doc, tf, len, positions FROM read_parquet($1)'
  // Only the rows of a stem that several exact terms share need merging; the others are copied.
  const postings = stemmed
    ? `WITH parts AS (${parts}), ${MERGED_STEMS_SQL}`
    : `WITH postings AS MATERIALIZED (${parts})`
  // Sorted by the term's rank among the bucket's terms rather than by the term: DuckDB sorts integer keys
  // about a third faster than a VARCHAR one.
  return `COPY (
${postings},
ranks AS (SELECT term, dense_rank() OVER (ORDER BY term) AS rank FROM (SELECT DISTINCT term FROM postings))
SELECT p.term, p.field, p.doc, p.tf, p.len, p.positions
FROM postings p JOIN ranks r USING (term)
ORDER BY r.rank, p.field, p.doc
) TO $2 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(POSTINGS_ROW_GROUP)})`
}

/**
 * Over a CTE `parts` of exact postings renamed to their stems: `postings`, one row per stem, field and
 * document (the rows of a stem that several exact terms share merged, the others copied).
 */
const MERGED_STEMS_SQL = `shared AS (SELECT stem FROM search_build_stems GROUP BY stem HAVING count(*) > 1),
postings AS MATERIALIZED (
  SELECT * FROM parts WHERE term NOT IN (SELECT stem FROM shared)
  UNION ALL
  SELECT term, field, doc, CAST(sum(tf) AS UINTEGER), any_value(len), list_sort(flatten(list(positions)))
  FROM parts WHERE term IN (SELECT stem FROM shared) GROUP BY term, field, doc
)`

/** `$1`: the index file of an entity without postings (its one, empty, bucket). */
export const copyEmptyBucketSql = (numbered: boolean): string =>
  `COPY (SELECT CAST(NULL AS VARCHAR) AS term, CAST(NULL AS UTINYINT) AS field, CAST(NULL AS ${numbered ? 'UBIGINT' : 'UINTEGER'}) AS doc,
  CAST(NULL AS UINTEGER) AS tf, CAST(NULL AS UINTEGER) AS len, CAST(NULL AS INTEGER[]) AS positions WHERE false
) TO $1 (${PARQUET})`

/**
 * `$1`: one bucket's postings file, `$2`: a work file. The bucket's terms with their document and collection
 * frequencies, in order: a bucket holds every posting of its terms, so its terms are counted from it alone, an
 * aggregate the size of one bucket rather than of the whole index (at 1M works, one over every bucket held 5 GB).
 */
const BUCKET_TERMS =
  'SELECT term, field, CAST(count(*) AS UINTEGER) AS df, CAST(sum(tf) AS UBIGINT) AS cf FROM read_parquet($1) GROUP BY term, field ORDER BY term, field'
export const COPY_BUCKET_TERMS_SQL = `COPY (${BUCKET_TERMS}) TO $2 (${WORK_PARQUET})`

/**
 * `$1`: the postings file of an entity's one bucket, `$2`: the output path. Its term dictionary, written at
 * once: with one bucket there are no bucket term files to join.
 */
export const COPY_ONE_BUCKET_TERMS_SQL = `COPY (${BUCKET_TERMS}) TO $2 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(TERMS_ROW_GROUP)})`

/**
 * `$1`: the buckets' term files in bucket order (a list), `$2`: the output path. The buckets' terms follow each
 * other, so the files read in order are the dictionary in order (the session preserves insertion order).
 */
export const COPY_TERMS_SQL = `COPY (SELECT term, field, df, cf FROM read_parquet($1)) TO $2 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(TERMS_ROW_GROUP)})`

/** `$1`: the output path. */
export const COPY_DOCS_SQL = `COPY (SELECT doc, id FROM search_build_docs ORDER BY doc) TO $1 (${PARQUET})`

/** `$1`: the segments' doc-stats work files (a list), `$2`: the output path. */
export const COPY_DOC_STATS_SQL = `COPY (SELECT doc, field, length FROM read_parquet($1) ORDER BY doc, field) TO $2 (${PARQUET})`

/** `$1`: a term dictionary, `$2`: how many terms at most, `$3`: the fewest postings a listed term has. */
export const FREQUENT_TERMS_SQL = `SELECT term, sum(df) AS rows FROM read_parquet($1) GROUP BY term HAVING sum(df) >= $3
ORDER BY rows DESC, term LIMIT $2`

/** `$1`: the doc-stats file of an entity without records. */
export const COPY_EMPTY_DOC_STATS_SQL = `COPY (SELECT CAST(NULL AS UINTEGER) AS doc, CAST(NULL AS UTINYINT) AS field, CAST(NULL AS UINTEGER) AS length WHERE false) TO $1 (${PARQUET})`

/** `$1`: the doc-stats file, `$2`: the output path. One row per stored field of the entity, also those no document has. */
export function copyFieldStatsSql(fields: readonly StoredField[]): string {
  const codes = fields.map((field) => `(${sqlInteger(field.code)})`).join(', ')
  return `COPY (
  SELECT CAST(f.field AS UTINYINT) AS field, CAST(coalesce(s.docs, 0) AS UINTEGER) AS docs, CAST(coalesce(s.tokens, 0) AS UBIGINT) AS tokens,
    coalesce(s.avg_length, 0) AS avg_length
  FROM (VALUES ${codes}) f(field)
  LEFT JOIN (SELECT field, count(*) AS docs, sum(length) AS tokens, avg(length) AS avg_length FROM read_parquet($1) GROUP BY field) s
    ON s.field = f.field
  ORDER BY f.field
) TO $2 (${PARQUET})`
}

/** `$1`: the doc-stats file. */
export const FIELD_STATS_ROWS_SQL =
  'SELECT field, count(*) AS docs, sum(length) AS tokens FROM read_parquet($1) GROUP BY field'
