// The DuckDB database an ingest builds the catalog in. It is a file inside the build folder, so staging can
// outgrow memory (DuckDB spills to its temp folder next to it), and it goes away with the build folder.
import { mkdir } from 'node:fs/promises'
import { totalmem } from 'node:os'
import { join } from 'node:path'
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { constantLiteral, sqlInteger } from '@oqlkit/catalog'
import { driverValuesOf, memoryLimitBytesOf } from '../texts/build-session.ts'

export interface StagingOptions {
  /** DuckDB `threads`; DuckDB's default (all cores) when absent. */
  readonly threads?: number
  /** DuckDB `memory_limit`, e.g. `4GB`; `defaultStagingMemoryLimit()` when absent. */
  readonly memoryLimit?: string
}

/**
 * DuckDB's share of the machine's memory when an ingest is not told one. The ingest's own work (record stores,
 * search index segments, vectors, the tagging model) runs in the same process beside DuckDB: with DuckDB's
 * default of 80% the 1M ingest grew to 24 GB on a 24 GB machine and was killed while indexing; with 6 GB of
 * 24 it peaked at 11.6 GB.
 */
export const STAGING_MEMORY_SHARE = 0.3

/**
 * The most DuckDB is given when not told, whatever the machine: what it holds beyond this only makes sorts
 * take fewer id ranges. The process holds about this limit plus 1.2-1.4 GB (parse workers, Node). The core
 * ingest of 1M works peaked at 4.56 GB under 3 GiB and at 3.51 GB under 2 GiB, which took 1.24× as long
 * (1,282 s against 1,037 s, side by side on a quiet machine; BENCHMARKS.md): the 4 GB bound is the default,
 * and `--memory-limit 3GiB` buys the time back where memory allows.
 */
export const STAGING_MEMORY_CAP_BYTES = 2 * 2 ** 30

/** `STAGING_MEMORY_SHARE` of this machine's memory, at most the cap, as a DuckDB `memory_limit` (whole MiB). */
export const defaultStagingMemoryLimit = (): string => {
  const bytes = Math.min(totalmem() * STAGING_MEMORY_SHARE, STAGING_MEMORY_CAP_BYTES)
  return `${Math.max(256, Math.floor(bytes / 1_048_576))}MiB`
}

/** The staging database's file in the build folder. */
export const STAGING_FILE = 'staging.duckdb'

/**
 * Rows per row group of the staging tables, against DuckDB's 122,880. A staged work is about 19 KB of
 * derived values, so a default row group holds 2.3 GB, which DuckDB builds in memory before compressing it:
 * loading two rows files of 37,285 works took 21.6-24.2 s and 3.14 GB of RSS under a 3 GB limit, and with
 * 8,192 rows 9.7-12.8 s and 1.17-1.24 GB (2,048: 13-14 s, 1.8-2.5 GB; 16,384: 14.9 s, 1.6 GB).
 */
export const STAGING_ROW_GROUP_ROWS = 8192

export class StagingDatabase {
  readonly #instance: DuckDBInstance
  readonly #connection: DuckDBConnection

  private constructor(instance: DuckDBInstance, connection: DuckDBConnection) {
    this.#instance = instance
    this.#connection = connection
  }

  static async open(dir: string, options: StagingOptions = {}): Promise<StagingDatabase> {
    await mkdir(join(dir, 'tmp'), { recursive: true })
    // A database file, not `:memory:`: the staged records of a big snapshot are larger than memory, and an
    // in-memory database fails when its tables outgrow the memory limit (measured at 1M works with 8 GB).
    // It is attached rather than opened, as only ATTACH takes a row group size.
    const instance = await createDuckDbInstance(':memory:', {
      tempDirectory: join(dir, 'tmp'),
      threads: options.threads,
      memoryLimit: options.memoryLimit ?? defaultStagingMemoryLimit(),
      settings: {
        // Staged records are JSON text of 1–40 KB. DuckDB's default storage keeps strings that long
        // uncompressed (52.7 GB for 1.39M generated records); zstd, which needs the current storage format,
        // keeps them at a fraction of that and is faster to write than the dictionary/FSST analysis.
        storage_compatibility_version: 'latest',
        force_compression: 'zstd',
      },
    })
    const connection = await instance.connect()
    await connection.run(
      `ATTACH ${constantLiteral(join(dir, STAGING_FILE))} AS staging (ROW_GROUP_SIZE ${sqlInteger(STAGING_ROW_GROUP_ROWS)})`,
    )
    await connection.run('USE staging')
    return new StagingDatabase(instance, connection)
  }

  /** Runs a statement; returns the number of rows it changed (or wrote, for COPY). */
  async run(sql: string, params: readonly DuckDBValue[] = []): Promise<number> {
    const result = await this.#connection.run(sql, driverValuesOf(params))
    return result.rowsChanged
  }

  /** Runs a query and returns its rows as JSON-safe objects (BIGINT as text). */
  async rows(sql: string, params: readonly DuckDBValue[] = []): Promise<Record<string, unknown>[]> {
    const reader = await this.#connection.runAndReadAll(sql, driverValuesOf(params))
    return reader.getRowObjectsJson()
  }

  /** Runs a query and returns its rows as the driver's values (a BLOB as its bytes, not as escaped text). */
  async valueRows(sql: string, params: readonly DuckDBValue[] = []): Promise<Record<string, DuckDBValue>[]> {
    const reader = await this.#connection.runAndReadAll(sql, driverValuesOf(params))
    return reader.getRowObjects()
  }

  /** DuckDB's memory limit in bytes. */
  async memoryLimitBytes(): Promise<number> {
    // An unreadable setting: assume 1 GB, which only makes sort ranges smaller than they need be.
    return (await memoryLimitBytesOf(this)) ?? 2 ** 30
  }

  async appender(table: string): Promise<DuckDBAppender> {
    return this.#connection.createAppender(table)
  }

  close(): void {
    this.#connection.closeSync()
    this.#instance.closeSync()
  }
}
