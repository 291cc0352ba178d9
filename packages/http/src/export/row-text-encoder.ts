import type { EntityRecord } from '@oqlkit/engine'
import { stringify } from 'csv-stringify/sync'

/**
 * Rows written as text, batch by batch: what an export sends and `oqlkit query` writes. `rows` gives the text
 * of one batch (the first also carries what opens the document); `end` what closes it.
 */
export interface RowTextEncoder {
  /**
   * Called with the first batch before its rows are given in slices (an export encodes a batch a slice at a
   * time, between turns of the event loop), so that what the document takes from its first rows (the CSV
   * columns) comes from the whole batch, as when the batch is given at once.
   */
  begin?(firstRows: readonly EntityRecord[]): void
  rows(rows: readonly EntityRecord[]): string
  /**
   * The same as `rows`, for records given as the UTF-8 JSON the catalog stores (`RowBatch.jsonBytes`): a JSON
   * form writes those bytes as they are, with no parse and no stringify, which were most of an export's work
   * on the main thread. Absent where the form needs the records' fields (CSV).
   */
  jsonRecords?(records: readonly Uint8Array[]): Uint8Array
  end(): string
}

const NO_BYTES = new Uint8Array(0)

/** The records' bytes in one chunk, each with what goes before it and what after. */
const joinRecords = (
  records: readonly Uint8Array[],
  before: (index: number) => Uint8Array,
  after: Uint8Array,
): Uint8Array => {
  const befores = records.map((_, index) => before(index))
  let size = 0
  for (let index = 0; index < records.length; index++)
    size += befores[index]!.length + records[index]!.length + after.length
  const joined = new Uint8Array(size)
  let at = 0
  for (let index = 0; index < records.length; index++) {
    for (const part of [befores[index]!, records[index]!, after]) {
      joined.set(part, at)
      at += part.length
    }
  }
  return joined
}

/** JSON Lines: one record a line, as the list's `results` hold them. */
export const jsonLinesEncoder = (): RowTextEncoder => {
  const newline = new TextEncoder().encode('\n')
  return {
    rows: (rows) => rows.map((row) => `${JSON.stringify(row)}\n`).join(''),
    jsonRecords: (records) => joinRecords(records, () => NO_BYTES, newline),
    end: () => '',
  }
}

/** One JSON array of the records, one a line, so a large export stays readable by line-based tools too. */
export const jsonArrayEncoder = (): RowTextEncoder => {
  const text = new TextEncoder()
  const opening = text.encode('[\n')
  const between = text.encode(',\n')
  let written = 0
  return {
    rows: (rows) => rows.map((row) => `${written++ === 0 ? '[\n' : ',\n'}${JSON.stringify(row)}`).join(''),
    jsonRecords: (records) => joinRecords(records, () => (written++ === 0 ? opening : between), NO_BYTES),
    end: () => (written === 0 ? '[]\n' : '\n]\n'),
  }
}

/** A CSV cell: scalars as text, null and missing as empty, objects and arrays as their JSON text. */
const cellOf = (value: unknown): string => {
  if (value === null || value === undefined) return ''
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * The columns of a CSV export: the selected fields in the order `select` names them, or, without `select`,
 * the top-level fields of the first batch's records in the order they first appear. Records of one entity
 * carry the same top-level fields (an absent value is null), so the first batch names them all; a field that
 * only a later record has is not written.
 */
export const csvColumnsOf = (
  select: readonly string[] | null,
  firstRows: readonly EntityRecord[],
): readonly string[] => {
  if (select !== null) return select
  const columns = new Set<string>()
  for (const row of firstRows) for (const key of Object.keys(row)) columns.add(key)
  return [...columns]
}

/**
 * CSV (RFC 4180, through csv-stringify): a header row of the columns, then one row a record. Top-level
 * scalars are cells as they are (booleans `true`/`false`), nulls empty, nested objects and arrays their JSON
 * text, quoted.
 */
export const csvEncoder = (select: readonly string[] | null): RowTextEncoder => {
  let columns: readonly string[] | undefined
  let headed = false
  return {
    begin: (firstRows) => {
      columns ??= csvColumnsOf(select, firstRows)
    },
    rows: (rows) => {
      const header = !headed
      headed = true
      columns ??= csvColumnsOf(select, rows)
      const names = columns
      const records = rows.map((row) => names.map((name) => cellOf(row[name])))
      if (header && names.length === 0) return ''
      return stringify(header ? [names, ...records] : records, { eof: true, record_delimiter: '\n' })
    },
    end: () => '',
  }
}
