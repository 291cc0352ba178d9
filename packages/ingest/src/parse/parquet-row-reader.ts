// Reads a Parquet part's rows as JSON text, one row at a time in file order, through an in-memory DuckDB of
// the parse worker's own. A parse worker reads a Parquet part as it reads a JSON Lines part: the rows it gets
// are what the record store keeps (the record as DuckDB's `to_json` writes the row) and what it parses for
// the derived values, once. The main thread used to copy every Parquet part to an uncompressed JSON Lines file
// first, one part at a time, before any worker started; now the parts are read in parallel and nothing is
// staged on disk. DuckDB's own Parquet reader does the decoding (`to_json` of a 16 KB work costs about
// 80 µs of one core, handing its text to JavaScript about 40 µs more: less than gunzip and line splitting of
// the same work, 171 µs; BENCHMARKS.md).
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { PARQUET_PART_ROW_COUNT_SQL, PARQUET_PART_ROWS_AS_JSON_SQL } from '../build/catalog-sql.ts'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'
import type { TextLine } from './line-reader.ts'

/**
 * A parse worker's Parquet reader's `memory_limit`: the ingest's own (2 GiB by default). It is a cap, not an
 * allocation: a reader holds what the row group it decodes needs, about twice the row group's uncompressed
 * size and more for `to_json`. One row group of 100,000 generated works (about 600 MB uncompressed) stopped
 * short under 1 GiB and read under 2 GiB (2.4 GB of RSS); 20,000 works needed more than 256 MB. So a snapshot
 * of small row groups costs little, and one of big row groups needs a larger `--memory-limit`, as the error
 * says; while Parquet is read, the ingest may hold its limit once per worker besides the staging database's.
 */
export const parquetReaderMemoryLimit = (ingestLimitBytes: number): string =>
  `${Math.max(256, Math.floor(ingestLimitBytes / 2 ** 20))}MiB`

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
    const instance = await createDuckDbInstance(':memory:', {
      // The worker is one core of the pool; one thread also keeps the rows in file order.
      threads: 1,
      memoryLimit,
      preserveInsertionOrder: true,
      // Inside the ingest's build folder (it goes with it), not `.tmp` in whatever folder the process runs in.
      tempDirectory,
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
    const failed = (
      error: unknown,
      reason = lineNumber === 0 ? parquetReason(error) : `after row ${lineNumber}: ${parquetReason(error)}`,
    ) =>
      new IngestError(
        { code: 'invalid-parquet', file: path, detail: ingestErrorDetails.invalidParquet(reason) },
        { cause: error },
      )
    let result: Awaited<ReturnType<DuckDBConnection['stream']>>
    let expected: number
    try {
      const counted = await this.#connection.runAndReadAll(PARQUET_PART_ROW_COUNT_SQL, [path])
      expected = Number(counted.getRowObjectsJson()[0]?.rows ?? 0)
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
      if (chunk === null || chunk.rowCount === 0) {
        // A streamed query that runs out of memory ends like one that is done (seen with DuckDB 1.5 under a
        // 1 GiB limit: 6,144 of a 100,000-row row group, no error): the file's own count tells them apart.
        if (lineNumber < expected) {
          const reason = stoppedEarly(lineNumber, expected)
          throw failed(new Error(reason), reason)
        }
        return
      }
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

const MEMORY_ADVICE =
  "its row groups need more memory than a parse worker's DuckDB is given (the ingest's --memory-limit); ingest with a larger --memory-limit"

const stoppedEarly = (read: number, expected: number) =>
  `DuckDB stopped after ${read} of its ${expected} rows without an error, as it does when it runs short of memory: ${MEMORY_ADVICE}`

/** DuckDB's message without its advice on settings the ingest chooses itself. */
function parquetReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const first = message.split('\n')[0]!.trim()
  return /^Out of Memory Error/i.test(first) ? `${first}: ${MEMORY_ADVICE}` : first
}
