import { once } from 'node:events'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { writeJsonLinesAsParquet } from '@oqlkit/adapter-duckdb'
import type { RowBatch } from '@oqlkit/engine'
import { csvEncoder, jsonArrayEncoder, jsonLinesEncoder, type RowTextEncoder } from '@oqlkit/http'

/** The formats `oqlkit query` writes every row in (the table shows the first rows only). */
export type StreamFormat = 'csv' | 'jsonl' | 'json' | 'parquet'

/** Writes text to a stream, waiting when it is full, so memory holds one batch whatever the reader's pace. */
const writeText = async (sink: Writable, text: string): Promise<void> => {
  if (text === '' || sink.write(text)) return
  await once(sink, 'drain')
}

const encoderOf = (format: 'csv' | 'jsonl' | 'json', select: readonly string[] | null): RowTextEncoder =>
  format === 'csv' ? csvEncoder(select) : format === 'json' ? jsonArrayEncoder() : jsonLinesEncoder()

/**
 * Writes every batch to `sink` as CSV, JSON Lines or a JSON array (the encoders the server's exports use), and
 * says how many rows are written after each batch. Returns the rows written.
 */
export const writeTextRows = async (
  batches: AsyncIterable<RowBatch>,
  format: 'csv' | 'jsonl' | 'json',
  select: readonly string[] | null,
  sink: Writable,
  progress: (rows: number, count: number) => void,
): Promise<number> => {
  const encoder = encoderOf(format, select)
  let rows = 0
  for await (const batch of batches) {
    await writeText(sink, encoder.rows(batch.rows))
    rows += batch.rows.length
    progress(rows, batch.count)
  }
  await writeText(sink, encoder.end())
  return rows
}

/**
 * Writes every batch to a Parquet file: streamed to JSON Lines in a temporary folder first (Parquet is written
 * whole), then converted by DuckDB, which types the columns (nested objects become STRUCT or MAP, arrays
 * LIST). Returns the rows written.
 */
export const writeParquetRows = async (
  batches: AsyncIterable<RowBatch>,
  select: readonly string[] | null,
  target: string,
  progress: (rows: number, count: number) => void,
  signal?: AbortSignal,
): Promise<number> => {
  const folder = await mkdtemp(join(tmpdir(), 'oqlkit-query-'))
  try {
    const source = join(folder, 'rows.jsonl')
    const file = await open(source, 'w')
    let rows = 0
    try {
      for await (const batch of batches) {
        if (batch.rows.length > 0)
          await file.write(batch.rows.map((row) => `${JSON.stringify(row)}\n`).join(''))
        rows += batch.rows.length
        progress(rows, batch.count)
      }
    } finally {
      await file.close()
    }
    await writeJsonLinesAsParquet(source, target, rows, {
      ...(select === null ? {} : { emptyColumns: select }),
      ...(signal === undefined ? {} : { signal }),
    })
    return rows
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}
