// Parquet from JSON Lines: how `oqlkit query --format parquet` and the server's Parquet exports write rows.
// Rows are streamed to a JSON Lines file first (bounded memory, as every other format), then DuckDB converts
// that file. A conversion is bounded on its own, since several run at once beside the server: one thread, a
// memory limit, spilling to a folder of its own, small row groups (the Parquet writer holds a whole row
// group of records before it writes it). Given the columns' types (`columns`: learnt from the rows and the
// registry as they were written), DuckDB reads the file once, with those types; without them it infers each
// column's type by reading the whole file first (nested objects and arrays become STRUCT and LIST columns,
// objects with many distinct keys MAP), which costs a second read and the memory of what it infers from.
//
// Measured (`npm run bench:parquet-export-memory`, RELIABILITY.md "Parquet exports' memory"): before these
// bounds, two concurrent exports of 107,858 whole works took a server from 0.7 to 7.7 GB.

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { constantLiteral, sqlInteger } from '@oqlkit/catalog'
import type { ShapedColumn } from '@oqlkit/engine'
import { openDuckDbDatabase } from '../query/duckdb-driver.ts'
import { readJsonColumnsArgument } from './value-shape-sql.ts'

/** The memory one conversion may take unless told otherwise: what it holds past that, it spills to disk. */
export const PARQUET_MEMORY_LIMIT = '512MB'

/**
 * Rows a Parquet row group holds. The writer keeps a row group whole until it is written: 122,880 rows (DuckDB's
 * default) of whole works is about 2 GB; 2,048 of them (a DuckDB vector's 2,048 rows, the least it writes at
 * once) some 30 MB, and readers lose little with groups that size.
 */
export const PARQUET_ROW_GROUP_ROWS = 2048

export interface JsonLinesParquetOptions {
  /** Interrupts the conversion (a `QueryInterruptedError`). */
  readonly signal?: AbortSignal
  /** Columns of a file with no rows (their type is text): a Parquet file needs at least one. Default `id`. */
  readonly emptyColumns?: readonly string[]
  /**
   * The file's columns, in order, and their types (every row's values must fit them: `RowShapes` of the engine
   * learns them so). Without them DuckDB infers the types by reading the whole file first.
   */
  readonly columns?: readonly ShapedColumn[]
  /** DuckDB worker threads for the conversion (default 1). */
  readonly threads?: number
  /** DuckDB memory limit for the conversion (default `PARQUET_MEMORY_LIMIT`). */
  readonly memoryLimit?: string
  /** Where DuckDB spills what outgrows the limit (default: a temporary folder of its own, removed after). */
  readonly tempDirectory?: string
}

/**
 * Writes the records of a JSON Lines file (`rows` of them) as a Parquet file at `target` (zstd-compressed), one
 * column per top-level field, in the file's order. The target path is written into the statement as a quoted
 * constant (DuckDB's COPY takes no parameter for it); the source is a parameter.
 */
export async function writeJsonLinesAsParquet(
  source: string,
  target: string,
  rows: number,
  options: JsonLinesParquetOptions = {},
): Promise<void> {
  // A spill folder of its own unless given one, removed however the conversion ends.
  const own = options.tempDirectory === undefined
  const tempDirectory = options.tempDirectory ?? (await mkdtemp(join(tmpdir(), 'oqlkit-parquet-')))
  const db = await openDuckDbDatabase({
    connections: 1,
    threads: options.threads ?? 1,
    memoryLimit: options.memoryLimit ?? PARQUET_MEMORY_LIMIT,
    tempDirectory,
  }).catch(async (error: unknown) => {
    if (own) await rm(tempDirectory, { recursive: true, force: true })
    throw error
  })
  try {
    const columns =
      options.columns !== undefined && options.columns.length > 0
        ? options.columns
        : rows > 0
          ? undefined
          : (options.emptyColumns ?? ['id']).map((name) => ({ name, shape: { kind: 'text' } as const }))
    // Declared columns read the file as they say, however few rows it has (none, even).
    const query =
      columns === undefined
        ? "SELECT * FROM read_json(?, format = 'newline_delimited', sample_size = -1)"
        : `SELECT * FROM read_json(?, format = 'newline_delimited', columns = ${readJsonColumnsArgument(columns)})`
    await db.all(
      `COPY (${query}) TO ${constantLiteral(target)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${sqlInteger(PARQUET_ROW_GROUP_ROWS)})`,
      [source],
      options.signal,
    )
  } finally {
    await db.close()
    if (own) await rm(tempDirectory, { recursive: true, force: true })
  }
}
