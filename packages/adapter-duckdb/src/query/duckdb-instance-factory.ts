// The one place a DuckDB instance is created, for the adapter, ingest, tests and benches alike: offline (it
// never downloads or autoloads an extension; parquet and json are built in), with each caller's own settings
// (threads, memory limit, spill folder and the like) passed by name. An instance whose caller names no thread
// count takes OQLKIT_DUCKDB_THREADS when it is set: a container or a shared machine gives a process fewer
// cores than DuckDB counts, and the test suite runs three files at once on two cores, where DuckDB's own
// threads only contended (five DuckDB-heavy files: 109 s of CPU with its default, 95 s with one thread).
import { DuckDBInstance } from '@duckdb/node-api'

export interface DuckDbInstanceOptions {
  /** DuckDB's `threads`; when absent, `OQLKIT_DUCKDB_THREADS` if set, else DuckDB's default (every core). */
  readonly threads?: number | undefined
  /** DuckDB's `memory_limit` (`'2GB'`); its default (80% of memory) when absent. */
  readonly memoryLimit?: string | undefined
  /** Where DuckDB spills (`temp_directory`); `.tmp` in the working folder when absent. */
  readonly tempDirectory?: string | undefined
  /** DuckDB's `preserve_insertion_order`; its default (true) when absent. */
  readonly preserveInsertionOrder?: boolean | undefined
  /** Further DuckDB settings by their own names (`storage_compatibility_version`, `disabled_optimizers`). */
  readonly settings?: Readonly<Record<string, string>>
}

/** The settings that keep DuckDB off the network; no caller's setting overrides them. */
const OFFLINE_SETTINGS: Readonly<Record<string, string>> = {
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
}

/** The environment variable that sets the threads of an instance whose caller names none. */
export const DUCKDB_THREADS_VARIABLE = 'OQLKIT_DUCKDB_THREADS'

/** The thread count `OQLKIT_DUCKDB_THREADS` sets, if any; a value that is not a positive whole number is refused. */
function threadsFromEnvironment(): number | undefined {
  const value = process.env[DUCKDB_THREADS_VARIABLE]
  if (value === undefined || value === '') return undefined
  const threads = Number(value)
  if (!Number.isSafeInteger(threads) || threads < 1)
    throw new Error(
      `${DUCKDB_THREADS_VARIABLE} must be a positive whole number of threads, such as 2; it is '${value}'. Unset it to let DuckDB use every core.`,
    )
  return threads
}

/** DuckDB's configuration for `options`, offline. */
function duckDbInstanceConfig(options: DuckDbInstanceOptions = {}): Record<string, string> {
  const config: Record<string, string> = { ...options.settings }
  const threads = options.threads ?? threadsFromEnvironment()
  if (threads !== undefined) config.threads = String(threads)
  if (options.memoryLimit !== undefined) config.memory_limit = options.memoryLimit
  if (options.tempDirectory !== undefined) config.temp_directory = options.tempDirectory
  if (options.preserveInsertionOrder !== undefined)
    config.preserve_insertion_order = String(options.preserveInsertionOrder)
  return { ...config, ...OFFLINE_SETTINGS }
}

/**
 * A DuckDB instance over `path` (a database file, opened read-write) or in memory (`':memory:'`, the default),
 * that never reaches for the network.
 */
export async function createDuckDbInstance(
  path = ':memory:',
  options: DuckDbInstanceOptions = {},
): Promise<DuckDBInstance> {
  return await DuckDBInstance.create(path, duckDbInstanceConfig(options))
}
