// The type-ahead index of an entity in ClickHouse: one row per word start of each normalised name, in the
// order of those word starts, so the names that have a word starting with typed text are a range of the
// table's primary key rather than a scan of every name (normalised on every request: 1.9 s a request at 1M
// works on the chdb stand-in). Built by the loader from the loaded entity table, for entities of at least
// `AUTOCOMPLETE_MIN_ROWS` rows; `compileAutocomplete` (`clickhouse-plan-compiler.ts`) reads it when the
// served version has it and the request has no filter, and otherwise scans the names as before.
//
//   prefix      the normalised name from a word's start on, cut to `AUTOCOMPLETE_PREFIX_CHARS` characters
//   id          the row's id
//   popularity  what autocomplete ranks by after its tier: the work's citations, another entity's works
//   word        which word the prefix starts at (1: the name's start)
//   rest        characters of the name from there on, at most one more than the cut (enough to tell that
//               the name ends where typed text does)
import type { CatalogEntity } from '@oqlkit/catalog'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { entityTableName } from './clickhouse-schema.ts'
import type { ClickHouseTable } from './clickhouse-table.ts'

/** Characters of each word start kept: longer typed text is answered by the scan. */
export const AUTOCOMPLETE_PREFIX_CHARS = 32

/**
 * Rows an entity must have for an index. Below it the scan is as quick (DuckDB's index draws the same line,
 * `autocomplete-index.ts` of its adapter), and each table costs the load a statement or two.
 */
export const AUTOCOMPLETE_MIN_ROWS = 50_000

/** The table of an entity's word starts (`works__autocomplete`). */
export const autocompleteTableName = (entity: CatalogEntity): string =>
  `${entityTableName(entity)}__autocomplete`

/**
 * A name as type-ahead compares it, as `normalizeAutocompleteText` writes typed text: lower case, accents
 * dropped, each run of other characters than letters and digits one space, trimmed.
 */
export const normalizedNameSql = (name: string): string =>
  `trimBoth(replaceRegexpAll(replaceRegexpAll(lowerUTF8(normalizeUTF8NFD(coalesce(${name}, ''))), '\\\\pM+', ''), '[^\\\\pL\\\\pN]+', ' '))`

/** What autocomplete ranks an entity's rows by after the tier. */
export const autocompletePopularitySql = (entity: CatalogEntity, row: string): string =>
  `toInt64(coalesce(${row}.${quoteIdentifier(entity === 'works' ? 'cited_by_count' : 'works_count')}, 0))`

/** The index table of an entity of `rows` rows. */
export const autocompleteTable = (entity: CatalogEntity, rows: number): ClickHouseTable => ({
  name: autocompleteTableName(entity),
  columns: [
    { name: 'prefix', type: 'String' },
    { name: 'id', type: 'String' },
    { name: 'popularity', type: 'Int64' },
    { name: 'word', type: 'UInt16' },
    { name: 'rest', type: 'UInt16' },
  ],
  orderBy: ['prefix', 'id'],
  shardBy: quoteIdentifier('id'),
  source: { kind: 'autocomplete', entity, rows },
})

/**
 * The SELECT that fills an entity's index from its loaded table (`entityTable`, qualified): each name split at
 * its spaces (a normalised name has single spaces and none at its ends), one row per word.
 */
export const autocompleteRowsSelect = (entity: CatalogEntity, entityTable: string): string => {
  const chars = AUTOCOMPLETE_PREFIX_CHARS
  return `SELECT substringUTF8(__rest, 1, ${chars}) AS prefix, __id AS id, __popularity AS popularity, toUInt16(__word) AS word, toUInt16(least(lengthUTF8(__rest), ${chars + 1})) AS rest FROM (SELECT e.\`id\` AS __id, ${autocompletePopularitySql(entity, 'e')} AS __popularity, ${normalizedNameSql('e.`display_name`')} AS __name, splitByChar(' ', __name) AS __words, arrayJoin(arrayEnumerate(__words)) AS __word, arrayStringConcat(arraySlice(__words, __word), ' ') AS __rest FROM ${entityTable} AS e WHERE __name != '')`
}

/** Whether typed text (normalised) can be looked up in the index: no longer than its prefixes. */
export const fitsAutocompleteIndex = (text: string): boolean => [...text].length <= AUTOCOMPLETE_PREFIX_CHARS
