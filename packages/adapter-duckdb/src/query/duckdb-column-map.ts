// DuckDB's column dialect, and the column map and value codecs of the catalog written in it: the SQL the
// plan compiler, the search scan and ingest use for a registry column of a DuckDB catalog. The map itself
// (where a column's values are) is the catalog's, in @oqlkit/catalog; ClickHouse writes the same map in its
// own dialect.

import type { ColumnDialect } from '@oqlkit/catalog'
import {
  constantLiteral,
  createColumnMap,
  LETTER_ID_PATTERN,
  quoteIdentifier,
  valueCodecsFor,
} from '@oqlkit/catalog'

const TAIL_PATTERN = constantLiteral('([^/]+)/?$')
const idTail = (text: string): string => `url_decode(regexp_extract(trim(${text}), ${TAIL_PATTERN}, 1))`
const LETTER_ID_IN_RECORD = constantLiteral(`(?i)${LETTER_ID_PATTERN}`)

export const DUCKDB_COLUMN_DIALECT: ColumnDialect = {
  column: quoteIdentifier,
  constant: constantLiteral,
  tryNumber: (text) => `TRY_CAST(${text} AS DOUBLE)`,
  tryDate: (text) => `CAST(TRY_CAST(${text} AS TIMESTAMP) AS DATE)`,
  tryTimestamp: (text) => `TRY_CAST(${text} AS TIMESTAMP)`,
  tryBoolean: (text) => `TRY_CAST(${text} AS BOOLEAN)`,
  toNumber: (expr) => `CAST(${expr} AS DOUBLE)`,
  toDate: (expr) => `CAST(${expr} AS DATE)`,
  toTimestamp: (expr) => `CAST(${expr} AS TIMESTAMP)`,
  idTail,
  letterIdGroup: (text) =>
    `coalesce(nullif(upper(regexp_extract(trim(${text}), ${LETTER_ID_IN_RECORD}, 1)), ''), trim(${text}))`,
  truth: (predicate) => predicate,
  nonEmpty: (list) => `len(${list}) > 0`,
  anyOf: (list, constants) =>
    `len(list_filter(${list}, lambda __v: __v IN (${constants.map((constant) => `'${constant}'`).join(', ')}))) > 0`,
  anyUpperOf: (list, constants) =>
    `list_has_any(list_transform(${list}, lambda __c: upper(__c)), [${constants.map(constantLiteral).join(', ')}])`,
  distinctMapped: (list, map) =>
    `list_distinct(list_filter(list_transform(${list}, lambda __c: ${map('__c')}), lambda __c: __c IS NOT NULL))`,
  regexpExtract: (text, pattern) => `regexp_extract(${text}, ${constantLiteral(pattern)}, 1)`,
  externalIdKey: (text, prefixPattern) =>
    `regexp_replace(regexp_replace(lower(trim(${text})), ${constantLiteral(prefixPattern)}, ''), '/+$', '')`,
  concat: (left, right) => `${left} || ${right}`,
  datePlaceholder: 'CAST(TRY_CAST(? AS TIMESTAMP) AS DATE)',
  timestampPlaceholder: 'TRY_CAST(? AS TIMESTAMP)',
}

const DUCKDB_COLUMN_MAP = createColumnMap(DUCKDB_COLUMN_DIALECT)
export const { columnSourceOf, recordListColumn, recordPathColumnsOf } = DUCKDB_COLUMN_MAP

// DuckDB's codecs, one per kind of value.
export const DUCKDB_CODECS = valueCodecsFor(DUCKDB_COLUMN_DIALECT)

/** SQL (DuckDB): the url-decoded last path segment of an id or code (`https://openalex.org/W1` gives `W1`). */
export const idTailSql = DUCKDB_COLUMN_DIALECT.idTail
