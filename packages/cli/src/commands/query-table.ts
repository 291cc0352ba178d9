import type { EntityRecord } from '@oqlkit/engine'
import Table from 'cli-table3'

/** Rows the table format shows: a glance for a terminal, not the result (the other formats have every row). */
export const TABLE_ROWS = 20

/** Characters a table cell shows before it is cut with an ellipsis. */
const CELL_WIDTH = 60

const cellOf = (value: unknown): string => {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value)
  return text.length > CELL_WIDTH ? `${text.slice(0, CELL_WIDTH - 1)}…` : text
}

/**
 * The columns of the table: the selected fields, or else `id` and `display_name` (every entity has them) and,
 * when the query searched, `relevance_score`.
 */
export const tableColumnsOf = (select: readonly string[] | null, rows: readonly EntityRecord[]): string[] =>
  select !== null
    ? [...select]
    : ['id', 'display_name', ...(rows.some((row) => 'relevance_score' in row) ? ['relevance_score'] : [])]

/** The first rows of a result as a table, and a line that says how many of how many it shows. */
export const renderTable = (
  rows: readonly EntityRecord[],
  count: number,
  select: readonly string[] | null,
): string => {
  const columns = tableColumnsOf(select, rows)
  const table = new Table({ head: columns, style: { head: [], border: [] }, wordWrap: false })
  for (const row of rows.slice(0, TABLE_ROWS)) table.push(columns.map((column) => cellOf(row[column])))
  const shown = Math.min(rows.length, TABLE_ROWS)
  const summary =
    shown < count
      ? `${shown} of ${count.toLocaleString('en-US')} rows shown; --format csv, jsonl, json or parquet writes every row.`
      : `${count.toLocaleString('en-US')} row${count === 1 ? '' : 's'}.`
  return `${rows.length === 0 ? '' : `${table.toString()}\n`}${summary}\n`
}
