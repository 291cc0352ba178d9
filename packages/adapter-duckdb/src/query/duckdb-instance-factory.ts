// The one place a DuckDB instance is created, for the adapter, ingest, tests and benches alike: offline (it
// never downloads or autoloads an extension; parquet and json are built in), with each caller's own settings
// (threads, memory limit, spill folder and the like) passed by name.
import { DuckDBInstance } from '@duckdb/node-api'

export interface DuckDbInstanceOptions {
  /** DuckDB's `threads`; its default (every core) when absent. */
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

/** DuckDB's configuration for `options`, offline. */
function duckDbInstanceConfig(options: DuckDbInstanceOptions = {}): Record<string, string> {
  const config: Record<string, string> = { ...options.settings }
  if (options.threads !== undefined) config.threads = String(options.threads)
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
export function createDuckDbInstance(
  path = ':memory:',
  options: DuckDbInstanceOptions = {},
): Promise<DuckDBInstance> {
  return DuckDBInstance.create(path, duckDbInstanceConfig(options))
}
