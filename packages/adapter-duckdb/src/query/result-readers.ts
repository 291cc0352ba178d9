// DuckDB rows → adapter results. Pure functions over the rows a compiled statement returns, so they can be
// tested with rows written by hand.

import type { CompiledGroupsQuery, CompiledRowsQuery } from '@oqlkit/catalog'
import { selectRecordFields } from '@oqlkit/catalog'
import type { EntityRecord, GroupBucket, GroupsResult, RowsResult } from '@oqlkit/engine'
import type { DuckDbRow } from './duckdb-driver.ts'
import { parseJsonBytes } from './record-fetcher.ts'

const countOf = (rows: readonly DuckDbRow[], column: string): number => Number(rows[0]?.[column] ?? 0)

const recordOf = (row: DuckDbRow, bytes: Uint8Array, query: CompiledRowsQuery): EntityRecord => {
  const parsed = parseJsonBytes(bytes) as Record<string, unknown>
  const record = query.select === null ? parsed : selectRecordFields(parsed, query.select)
  return query.scored ? { ...record, relevance_score: Number(row.__score ?? 0) } : record
}

/** The rows of the page (the statement reads one row more than a page, to know whether another follows). */
export const pageOf = (query: CompiledRowsQuery, pageRows: readonly DuckDbRow[]): readonly DuckDbRow[] =>
  pageRows.slice(0, query.perPage)

/** The page, the count, and the sort keys of the last row when another page follows. */
export const readRows = (
  query: CompiledRowsQuery,
  countRows: readonly DuckDbRow[],
  pageRows: readonly DuckDbRow[],
  /** The records of the page's rows (UTF-8 JSON bytes), in order. */
  records: readonly Uint8Array[],
): RowsResult => {
  const page = pageOf(query, pageRows)
  const more = query.sortKeyCount > 0 && pageRows.length > query.perPage
  const last = page[page.length - 1]
  const nextAfter =
    more && last !== undefined
      ? Array.from({ length: query.sortKeyCount }, (_, index) => last[`__k${index}`] ?? null)
      : null
  const count = countOf(countRows, '__count')
  if (query.select !== null || query.scored)
    return { count, rows: page.map((row, index) => recordOf(row, records[index]!, query)), nextAfter }
  // The stored records unchanged: their bytes, parsed only if something reads the objects.
  const rowsJsonBytes = records.slice(0, page.length)
  let parsed: readonly EntityRecord[] | undefined
  return {
    count,
    rowsJsonBytes,
    get rows() {
      parsed ??= rowsJsonBytes.map((bytes) => parseJsonBytes(bytes) as EntityRecord)
      return parsed
    },
    nextAfter,
  }
}

/** The buckets with their keys formatted, the count, and the number of buckets. */
export const readGroups = (
  query: CompiledGroupsQuery,
  countRows: readonly DuckDbRow[],
  bucketRows: readonly DuckDbRow[],
  groupsCountRows: readonly DuckDbRow[] | null,
): GroupsResult => {
  const groups: GroupBucket[] = bucketRows.map((row) => ({
    keys: query.keyFormats.map((format, index) => format(row[`__g${index}`] ?? null)),
    count: Number(row.__n),
  }))
  const groupsCount =
    bucketRows.length > 0
      ? countOf(bucketRows, '__groups')
      : groupsCountRows === null
        ? 0
        : countOf(groupsCountRows, '__groups')
  return { count: countOf(countRows, '__count'), groupsCount, groups }
}
