// Parquet from JSON Lines: how `oqlkit query --format parquet` and the server's Parquet exports write rows.
// Rows are streamed to a JSON Lines file first (bounded memory, as every other format), then DuckDB reads that
// file whole to infer each column's type (nested objects and arrays become STRUCT and LIST columns, objects
// with many distinct keys MAP, as DuckDB's JSON reader infers them) and writes the Parquet file.

import { openDuckDbDatabase } from '../query/duckdb-driver.ts'
import { constantLiteral, quoteIdentifier } from '../sql/sql-text.ts'

export interface JsonLinesParquetOptions {
  /** Interrupts the conversion (a `QueryInterruptedError`). */
  readonly signal?: AbortSignal
  /** Columns of a file with no rows (their type is text): a Parquet file needs at least one. Default `id`. */
  readonly emptyColumns?: readonly string[]
  /** DuckDB worker threads for the conversion (default: DuckDB's own). */
  readonly threads?: number
  /** DuckDB memory limit for the conversion, e.g. `1GB` (default: DuckDB's). */
  readonly memoryLimit?: string
}

/**
 * Writes the records of a JSON Lines file (`rows` of them) as a Parquet file at `target` (zstd-compressed), one
 * column per top-level field. The target path is written into the statement as a quoted constant (DuckDB's
 * COPY takes no parameter for it); the source is a parameter.
 */
export async function writeJsonLinesAsParquet(
  source: string,
  target: string,
  rows: number,
  options: JsonLinesParquetOptions = {},
): Promise<void> {
  const db = await openDuckDbDatabase({
    connections: 1,
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
  })
  try {
    const query =
      rows > 0
        ? "SELECT * FROM read_json(?, format = 'newline_delimited', sample_size = -1)"
        : `SELECT ${(options.emptyColumns ?? ['id'])
            .map((column) => `NULL::VARCHAR AS ${quoteIdentifier(column)}`)
            .join(', ')} WHERE false`
    await db.all(
      `COPY (${query}) TO ${constantLiteral(target)} (FORMAT parquet, COMPRESSION zstd)`,
      rows > 0 ? [source] : [],
      options.signal,
    )
  } finally {
    await db.close()
  }
}
