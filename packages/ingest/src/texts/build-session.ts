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

/** A build session over a plain connection (a builder's own DuckDB, outside an ingest). */
export const connectionSession = (connection: DuckDBConnection): BuildSession => ({
  run: async (sql, params = []) => (await connection.run(sql, [...params])).rowsChanged,
  rows: async (sql, params = []) => (await connection.runAndReadAll(sql, [...params])).getRowObjectsJson(),
  appender: (table) => connection.createAppender(table),
})
