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

/** A value of a DuckDB setting that `withSettings` sets: a number, a flag or a word. */
export type SettingValue = number | boolean | string

/** Setting names are written into the statement (SET takes no parameter): only DuckDB's own spelling passes. */
const SETTING_NAME = /^[a-z][a-z0-9_]*$/

/**
 * Runs `work` with DuckDB's `settings` set, then puts each back to the value it had, also when `work` fails.
 * A build tunes its session for one step (fewer threads, no insertion order, a partitioned write's flush size);
 * a setting left behind changes every later step of the same session: the works' range split left its flush
 * threshold of a few hundred rows to the search index's bucket copy, which then wrote 130,655 small files at
 * 1M works, and the ingest grew past 8 GB reading them back (BENCHMARKS.md, bi).
 */
export async function withSettings<T>(
  session: Pick<BuildSession, 'run' | 'rows'>,
  settings: Readonly<Record<string, SettingValue>>,
  work: () => Promise<T>,
): Promise<T> {
  const names = Object.keys(settings)
  for (const name of names)
    if (!SETTING_NAME.test(name)) throw new Error(`Not a DuckDB setting name: ${name}`)
  const before: [string, unknown][] = []
  for (const name of names) {
    const [row] = await session.rows(`SELECT current_setting('${name}') AS value`)
    before.push([name, row?.value])
  }
  const restore = async () => {
    for (const [name, value] of before) await session.run(`SET ${name} = ${settingLiteral(value)}`)
  }
  let result: T
  try {
    for (const name of names) await session.run(`SET ${name} = ${settingLiteral(settings[name]!)}`)
    result = await work()
  } catch (error) {
    // The work's error is the one to report; a failed restore after it would only hide it.
    await restore().catch(() => {})
    throw error
  }
  await restore()
  return result
}

/** A setting's value as SQL: numbers and flags as they are, anything else (`current_setting` text) quoted. */
function settingLiteral(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  const text = String(value)
  return /^-?\d+(\.\d+)?$/.test(text) ? text : `'${text.replaceAll("'", "''")}'`
}
