// Reads a Parquet part's rows as JSON text, one row at a time in file order, through an in-memory DuckDB of
// the parse worker's own. A parse worker reads a Parquet part as it reads a JSON Lines part: the rows it gets
// are what the record store keeps (the record as DuckDB's `to_json` writes the row) and what it parses for
// the derived values, once. The main thread used to copy every Parquet part to an uncompressed JSON Lines file
// first, one part at a time, before any worker started; now the parts are read in parallel and nothing is
// staged on disk. DuckDB's own Parquet reader does the decoding (`to_json` of a 16 KB work costs about
// 80 µs of one core, handing its text to JavaScript about 40 µs more: less than gunzip and line splitting of
// the same work, 171 µs; BENCHMARKS.md).
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { PARQUET_PART_ROWS_AS_JSON_SQL } from './catalog-sql.ts'
import { IngestError, ingestErrorDetails } from './ingest-error.ts'
import type { TextLine } from './line-reader.ts'

/** Each parse worker's Parquet reader may take this fraction (1/N) of the ingest's DuckDB memory limit. */
const PARQUET_READER_MEMORY_SHARE = 2
const PARQUET_READER_MEMORY_FLOOR_MIB = 256

/**
 * A parse worker's Parquet reader's `memory_limit`: half the ingest's (1 GiB under the default 2 GiB). It is
 * a cap, not an allocation: a reader holds what the row group it decodes needs, about twice the row group's
 * uncompressed size, so this lets row groups of about 500 MB through; a snapshot of bigger ones needs a
 * larger `--memory-limit`, which the reader's error says.
 */
export const parquetReaderMemoryLimit = (ingestLimitBytes: number): string =>
  `${Math.max(PARQUET_READER_MEMORY_FLOOR_MIB, Math.floor(ingestLimitBytes / PARQUET_READER_MEMORY_SHARE / 2 ** 20))}MiB`

/** A parse worker's Parquet reader: one DuckDB instance, opened on the first Parquet part, one core. */
export class ParquetRowReader {
  readonly #instance: DuckDBInstance
  readonly #connection: DuckDBConnection

  private constructor(instance: DuckDBInstance, connection: DuckDBConnection) {
    this.#instance = instance
    this.#connection = connection
  }

  /**
   * `memoryLimit` bounds what DuckDB holds while it decodes a row group (a DuckDB `memory_limit`): a row group
   * of big records needs about twice its uncompressed size (20,000 generated works in one row group, 118 MB
   * uncompressed, failed under 256 MB and read under 512 MB).
   */
  static async open(memoryLimit: string): Promise<ParquetRowReader> {
    const instance = await DuckDBInstance.create(':memory:', {
      // Nothing here may reach for the network: parquet and json are built in.
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      // The worker is one core of the pool; one thread also keeps the rows in file order.
      threads: '1',
      memory_limit: memoryLimit,
      preserve_insertion_order: 'true',
    })
    return new ParquetRowReader(instance, await instance.connect())
  }

  /**
   * The part's rows as JSON text, numbered from 1 as lines are (a row's number is what an error names).
   * `reportPath` is the file errors name.
   */
  async *rows(path: string, reportPath: string = path): AsyncGenerator<TextLine> {
    let lineNumber = 0
    const failed = (error: unknown) =>
      error instanceof IngestError
        ? error
        : new IngestError(
            {
              code: 'invalid-parquet',
              file: reportPath,
              ...(lineNumber === 0 ? {} : { line: lineNumber + 1 }),
              detail: ingestErrorDetails.invalidParquet(parquetReason(error)),
            },
            { cause: error },
          )
    let result: Awaited<ReturnType<DuckDBConnection['stream']>>
    try {
      result = await this.#connection.stream(PARQUET_PART_ROWS_AS_JSON_SQL, [path])
    } catch (error) {
      throw failed(error)
    }
    for (;;) {
      let chunk: Awaited<ReturnType<typeof result.fetchChunk>>
      try {
        chunk = await result.fetchChunk()
      } catch (error) {
        throw failed(error)
      }
      if (chunk === null || chunk.rowCount === 0) return
      const column = chunk.getColumnVector(0)
      for (let row = 0; row < chunk.rowCount; row++) {
        lineNumber++
        yield { lineNumber, text: String(column.getItem(row)) }
      }
    }
  }

  close(): void {
    this.#connection.closeSync()
    this.#instance.closeSync()
  }
}

/** DuckDB's message without its advice on settings the ingest chooses itself. */
function parquetReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const first = message.split('\n')[0]!.trim()
  return /out of memory/i.test(first)
    ? `${first}: its row groups need more memory than a parse worker's DuckDB is given (half the ingest's --memory-limit); ingest with a larger --memory-limit`
    : first
}
