// The SQL of the index build. Paths arrive as parameters (`$1`); the only text spliced in is this package's
// own: stored-field SQL from `search-fields.ts`, integer constants, and the fixed work-table names below.
import { sqlConstant, sqlIdentifier, sqlInteger } from '../ingest/sql-text.ts'
import type { StoredField } from './search-fields.ts'
import { SEGMENT_GAP } from './search-index-layout.ts'
import { exactTokensSql } from './search-tokenizer.ts'

const PARQUET = 'FORMAT parquet, COMPRESSION zstd'
// Postings are read by term: small row groups let a rare term's lookup decompress little beyond its rows.
const POSTINGS_ROW_GROUP = 16_384
const TERMS_ROW_GROUP = 65_536

/** The work tables of one entity's build, dropped when it is done. */
export const WORK_TABLES = [
  'search_build_docs',
  'search_build_segments',
  'search_build_doc_stats',
  'search_build_exact',
  'search_build_stems',
  'search_build_stemmed',
] as const

export const dropWorkTablesSql = (): string[] => WORK_TABLES.map((table) => `DROP TABLE IF EXISTS ${table}`)

/** `$1`: the entity's Parquet file. Dense document numbers in id order. */
export const CREATE_DOCS_SQL =
  'CREATE OR REPLACE TEMP TABLE search_build_docs AS SELECT CAST(row_number() OVER (ORDER BY id) - 1 AS UINTEGER) AS doc, id FROM read_parquet($1)'

/**
 * `$1`: the entity's Parquet file. One row per non-empty text (a stored field's value, or one element of a
 * list field) with its tokens and the position its first token gets: texts follow each other in field
 * order, `SEGMENT_GAP` apart. `record` is parsed once, into just the fields the index needs
 * (`json_transform`, which reads a value of an unexpected shape as null).
 */
export function createSegmentsSql(fields: readonly StoredField[]): string {
  const fromRecord = fields.filter((field) => field.recordKey !== null)
  const column = (field: StoredField): string => `f${sqlInteger(field.code)}`
  const structure = JSON.stringify(
    Object.fromEntries(fromRecord.map((field) => [field.recordKey, field.recordType])),
  )
  const parsed = fromRecord.length > 0 ? `, json_transform(e.record, ${sqlConstant(structure)}) AS r` : ''
  const prepared = fromRecord.map((field) => {
    const value = `r.${sqlIdentifier(field.recordKey ?? '')}`
    return `, ${field.prepareSql === undefined ? value : field.prepareSql(value)} AS ${column(field)}`
  })
  const texts = fields
    .map(
      (field) =>
        `list_transform(${field.textsSql(column(field))}, lambda value, seg: {field: ${sqlInteger(field.code)}, seg: seg, text: value})`,
    )
    .join(', ')
  const gap = sqlInteger(SEGMENT_GAP)
  return `CREATE OR REPLACE TEMP TABLE search_build_segments AS
WITH source AS (
  SELECT d.doc, e.display_name${parsed} FROM read_parquet($1) e JOIN search_build_docs d USING (id)
), prepared AS (
  SELECT doc, display_name${prepared.join('')} FROM source
), texts AS (
  SELECT doc, unnest(flatten([${texts}])) AS t FROM prepared
), tokenized AS (
  SELECT doc, CAST(t.field AS UTINYINT) AS field, t.seg AS seg, ${exactTokensSql('t.text')} AS tokens FROM texts
)
SELECT doc, field, seg, tokens,
  CAST(sum(len(tokens) + ${gap}) OVER (PARTITION BY doc ORDER BY field, seg ROWS UNBOUNDED PRECEDING) - len(tokens) - ${gap} AS INTEGER) AS start
FROM tokenized WHERE len(tokens) > 0`
}

export const CREATE_DOC_STATS_SQL =
  'CREATE OR REPLACE TEMP TABLE search_build_doc_stats AS SELECT doc, field, CAST(sum(len(tokens)) AS UINTEGER) AS length FROM search_build_segments GROUP BY doc, field'

export const CREATE_EXACT_SQL = `CREATE OR REPLACE TEMP TABLE search_build_exact AS
SELECT o.term, o.field, o.doc, CAST(count(*) AS UINTEGER) AS tf, any_value(s.length) AS len, list_sort(list(o.pos)) AS positions
FROM (
  SELECT doc, field, term, CAST(start + i AS INTEGER) AS pos
  FROM (SELECT doc, field, start, unnest(tokens) AS term, unnest(range(len(tokens))) AS i FROM search_build_segments)
) o JOIN search_build_doc_stats s USING (doc, field)
GROUP BY o.term, o.field, o.doc`

export const DISTINCT_EXACT_TERMS_SQL = 'SELECT DISTINCT term FROM search_build_exact'

export const CREATE_STEMS_SQL =
  'CREATE OR REPLACE TEMP TABLE search_build_stems (term VARCHAR PRIMARY KEY, stem VARCHAR NOT NULL)'

/**
 * Exact postings merged by stem: one row per (stem, field, doc), positions merged in order. Only the rows of
 * terms the stemmer changes, or that are the stem of such a term, need merging; the others are copied.
 */
export const CREATE_STEMMED_SQL = `CREATE OR REPLACE TEMP TABLE search_build_stemmed AS
WITH merged_terms AS (SELECT term FROM search_build_stems UNION SELECT stem FROM search_build_stems)
SELECT term, field, doc, tf, len, positions FROM search_build_exact WHERE term NOT IN (SELECT term FROM merged_terms)
UNION ALL
SELECT coalesce(s.stem, p.term) AS term, p.field, p.doc, CAST(sum(p.tf) AS UINTEGER) AS tf, any_value(p.len) AS len,
  list_sort(flatten(list(p.positions))) AS positions
FROM search_build_exact p LEFT JOIN search_build_stems s USING (term)
WHERE p.term IN (SELECT term FROM merged_terms)
GROUP BY ALL`

export type PostingsTable = 'search_build_exact' | 'search_build_stemmed'

/** `$1`: output path. */
export const copyPostingsSql = (table: PostingsTable): string =>
  `COPY (SELECT term, field, doc, tf, len, positions FROM ${table} ORDER BY term, field, doc) TO $1 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(POSTINGS_ROW_GROUP)})`

/** `$1`: output path. The term dictionary, with document and collection frequencies. */
export const copyTermsSql = (table: PostingsTable): string =>
  `COPY (SELECT term, field, CAST(count(*) AS UINTEGER) AS df, CAST(sum(tf) AS UBIGINT) AS cf FROM ${table} GROUP BY term, field ORDER BY term, field) TO $1 (${PARQUET}, ROW_GROUP_SIZE ${sqlInteger(TERMS_ROW_GROUP)})`

export const COPY_DOCS_SQL = `COPY (SELECT doc, id FROM search_build_docs ORDER BY doc) TO $1 (${PARQUET})`

export const COPY_DOC_STATS_SQL = `COPY (SELECT doc, field, length FROM search_build_doc_stats ORDER BY doc, field) TO $1 (${PARQUET})`

/** `$1`: output path. One row per stored field of the entity, also those no document has. */
export function copyFieldStatsSql(fields: readonly StoredField[]): string {
  const codes = fields.map((field) => `(${sqlInteger(field.code)})`).join(', ')
  return `COPY (
  SELECT CAST(f.field AS UTINYINT) AS field, CAST(coalesce(s.docs, 0) AS UINTEGER) AS docs, CAST(coalesce(s.tokens, 0) AS UBIGINT) AS tokens,
    coalesce(s.avg_length, 0) AS avg_length
  FROM (VALUES ${codes}) f(field)
  LEFT JOIN (SELECT field, count(*) AS docs, sum(length) AS tokens, avg(length) AS avg_length FROM search_build_doc_stats GROUP BY field) s
    ON s.field = f.field
  ORDER BY f.field
) TO $1 (${PARQUET})`
}

export const FIELD_STATS_ROWS_SQL =
  'SELECT field, count(*) AS docs, sum(length) AS tokens FROM search_build_doc_stats GROUP BY field'
