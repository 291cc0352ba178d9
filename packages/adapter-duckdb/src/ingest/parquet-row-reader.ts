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

/** The least a reader is given, whatever the limit and the number of workers. */
const PARQUET_READER_MEMORY_FLOOR_MIB = 256

/**
 * A parse worker's Parquet reader's `memory_limit`: the ingest's limit shared by the workers (1 GiB each for
 * two workers under the default 2 GiB), so the readers together hold at most what the staging database may,
 * and the ingest about twice its limit while it reads Parquet. It is a cap, not an allocation: a reader holds
 * what the row group it decodes needs, about twice the row group's uncompressed size, so this lets row groups
 * of about 500 MB through here; a snapshot of bigger ones needs a larger `--memory-limit`, as the reader's
 * error says.
 */
export const parquetReaderMemoryLimit = (ingestLimitBytes: number, workers: number): string =>
  `${Math.max(PARQUET_READER_MEMORY_FLOOR_MIB, Math.floor(ingestLimitBytes / Math.max(1, workers) / 2 ** 20))}MiB`

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
  static async open(memoryLimit: string, tempDirectory: string): Promise<ParquetRowReader> {
    const instance = await DuckDBInstance.create(':memory:', {
      // Nothing here may reach for the network: parquet and json are built in.
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      // The worker is one core of the pool; one thread also keeps the rows in file order.
      threads: '1',
      memory_limit: memoryLimit,
      preserve_insertion_order: 'true',
      // Inside the ingest's build folder (it goes with it), not `.tmp` in whatever folder the process runs in.
      temp_directory: tempDirectory,
    })
    try {
      return new ParquetRowReader(instance, await instance.connect())
    } catch (error) {
      instance.closeSync()
      throw error
    }
  }

  /**
   * The part's rows as JSON text, numbered from 1 as lines are. A row that cannot be decoded is named by the
   * rows read before it: DuckDB decodes a chunk of up to 2,048 rows at once, so the bad one is not known.
   */
  async *rows(path: string): AsyncGenerator<TextLine> {
    let lineNumber = 0
    const failed = (error: unknown) =>
      new IngestError(
        {
          code: 'invalid-parquet',
          file: path,
          detail: ingestErrorDetails.invalidParquet(
            lineNumber === 0 ? parquetReason(error) : `after row ${lineNumber}: ${parquetReason(error)}`,
          ),
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
