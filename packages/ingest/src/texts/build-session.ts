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
