// The column map's SQL in ClickHouse's words (`ColumnDialect` of @oqlkit/catalog, where the map itself
// lives): the same columns of the same catalog, typed, normalised and filtered by ClickHouse functions. Every
// argument is SQL the map wrote or a constant of oqlkit; request values travel as query parameters.
import { type ColumnDialect, LETTER_ID_PATTERN } from '@oqlkit/catalog'
import { quoteIdentifier } from './clickhouse-identifiers.ts'

/**
 * A constant of oqlkit as a ClickHouse string literal. Backslashes are escapes in ClickHouse strings (not in
 * DuckDB's), so patterns such as `openalex\.org` keep theirs by doubling them.
 */
export const clickHouseConstant = (text: string): string =>
  `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`

const LETTER_ID_IN_RECORD = clickHouseConstant(`(?i)${LETTER_ID_PATTERN}`)
const TAIL_PATTERN = clickHouseConstant('([^/]+)/?$')
/** A JSON text or a request's text as an instant: ISO dates and datetimes, read as UTC. */
const instant = (text: string) => `parseDateTime64BestEffortOrNull(${text}, 6, 'UTC')`

export const CLICKHOUSE_COLUMN_DIALECT: ColumnDialect = {
  column: quoteIdentifier,
  constant: clickHouseConstant,
  tryNumber: (text) => `toFloat64OrNull(${text})`,
  tryDate: (text) => `toDate32(${instant(text)})`,
  tryTimestamp: instant,
  tryBoolean: (text) => `accurateCastOrNull(${text}, 'Bool')`,
  toNumber: (expr) => `toFloat64(${expr})`,
  toDate: (expr) => `toDate32(${expr})`,
  toTimestamp: (expr) => `toDateTime64(${expr}, 6, 'UTC')`,
  idTail: (text) => `decodeURLComponent(extract(trimBoth(${text}), ${TAIL_PATTERN}))`,
  letterIdGroup: (text) =>
    `coalesce(nullIf(upper(extract(trimBoth(${text}), ${LETTER_ID_IN_RECORD})), ''), trimBoth(${text}))`,
  // Bool, not the UInt8 ClickHouse's predicates give, so a group key reads true or false as DuckDB's does.
  truth: (predicate) => `toBool(${predicate})`,
  nonEmpty: (list) => `toBool(notEmpty(${list}))`,
  anyOf: (list, constants) => `toBool(hasAny(${list}, [${constants.map(clickHouseConstant).join(', ')}]))`,
  anyUpperOf: (list, constants) =>
    `toBool(hasAny(arrayMap(__c -> upper(__c), ${list}), [${constants.map(clickHouseConstant).join(', ')}]))`,
  distinctMapped: (list, map) =>
    `arrayDistinct(arrayFilter(__c -> __c IS NOT NULL, arrayMap(__c -> ${map('__c')}, ${list})))`,
  regexpExtract: (text, pattern) => `extract(${text}, ${clickHouseConstant(pattern)})`,
  externalIdKey: (text, prefixPattern) =>
    `replaceRegexpOne(replaceRegexpOne(lower(trimBoth(${text})), ${clickHouseConstant(prefixPattern)}, ''), '/+$', '')`,
  concat: (left, right) => `concat(${left}, ${right})`,
  datePlaceholder: `toDate32(${instant('?')})`,
  timestampPlaceholder: instant('?'),
}
