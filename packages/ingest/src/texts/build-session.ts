// What the catalog's builders (the texts files, the search index, the works' vectors) need of a DuckDB:
// statements, rows as objects, and an appender. Ingest's staging database has this shape; a plain
// connection is given it by `connectionSession`.
import type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api'

/** `run` returns the number of rows changed or written; `rows` returns row objects (JSON values). */
export interface BuildSession {
  run(sql: string, params?: readonly DuckDBValue[]): Promise<number>
  rows(sql: string, params?: readonly DuckDBValue[]): Promise<Record<string, unknown>[]>
  appender(table: string): Promise<DuckDBAppender>
}

/**
 * The driver's values for `params`: none at all for a statement without parameters. Given any list, even an
 * empty one, the driver extracts, prepares and then runs the statement, three trips through libuv's thread
 * pool where a plain query takes one; an ingest runs about 700 statements even for a handful of records, and
 * on a loaded machine each trip waits for a turn on a core.
 */
export const driverValuesOf = (params: readonly DuckDBValue[]): DuckDBValue[] | undefined =>
  params.length === 0 ? undefined : [...params]

/** A build session over a plain connection (a builder's own DuckDB, outside an ingest). */
export const connectionSession = (connection: DuckDBConnection): BuildSession => ({
  run: async (sql, params = []) => (await connection.run(sql, driverValuesOf(params))).rowsChanged,
  rows: async (sql, params = []) =>
    (await connection.runAndReadAll(sql, driverValuesOf(params))).getRowObjectsJson(),
  appender: (table) => connection.createAppender(table),
})

const MEMORY_UNITS: Readonly<Record<string, number>> = {
  bytes: 1,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
}

/**
 * A session's DuckDB `memory_limit` in bytes (`current_setting` answers rounded text such as `732.4 MiB`), or
 * undefined when the text is not a size.
 */
export async function memoryLimitBytesOf(session: Pick<BuildSession, 'rows'>): Promise<number | undefined> {
  const [row] = await session.rows("SELECT current_setting('memory_limit') AS setting")
  const match = /^([\d.]+)\s*([a-z]+)$/i.exec(String(row?.setting ?? '').trim())
  const bytes =
    match === null ? Number.NaN : Number(match[1]) * (MEMORY_UNITS[match[2]!.toLowerCase()] ?? Number.NaN)
  return Number.isFinite(bytes) && bytes > 0 ? bytes : undefined
}

/**
 * Runs `work` with DuckDB keeping rows in the order they were appended or read (a list of files read in its
 * order), whatever the session's setting, and puts the setting back after. A session may turn it off to save
 * memory where order does not matter; a copy whose order is its meaning needs it on.
 */
export async function inInsertionOrder<T>(session: BuildSession, work: () => Promise<T>): Promise<T> {
  const [setting] = await session.rows("SELECT current_setting('preserve_insertion_order') AS keep")
  await session.run('SET preserve_insertion_order = true')
  try {
    return await work()
  } finally {
    await session.run(`SET preserve_insertion_order = ${setting?.keep === false ? 'false' : 'true'}`)
  }
}
