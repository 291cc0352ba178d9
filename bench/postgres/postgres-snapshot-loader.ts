// Loads a legacy-layout snapshot (data/<entity>/updated_date=…/part_*.gz, JSON Lines) into a fresh PostgreSQL
// database of the baseline's flattened tables, the way OpenAlex's documentation scripts do it but in one
// streamed pass: every work is flattened once and its rows go to one `COPY … FROM STDIN` per table, all open
// at once; then the primary keys, the indexes and the full-text column are built, and the tables analysed.
import { once } from 'node:events'
import { createReadStream, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Writable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import postgres from 'postgres'
import { encodeCopyRow } from './copy-text-encoder.ts'
import {
  ALL_TABLES,
  createTableSql,
  INSTITUTIONS_TABLE,
  keyAndIndexSql,
  type PostgresTable,
  SEARCH_VECTOR_DDL,
  TOPICS_TABLE,
  WORK_TABLES,
} from './postgres-tables.ts'
import { flattenInstitution, flattenTopic, flattenWork } from './work-row-flattener.ts'

export interface PostgresServer {
  readonly host: string
  readonly port: number
  readonly user: string
}

export type PostgresSql = postgres.Sql

/** Session settings a DBA would give an analytical session; the server's own configuration is left as it is. */
const SESSION = { work_mem: '256MB', maintenance_work_mem: '1GB', jit: 'off' } as const

export const connectPostgres = (server: PostgresServer, database: string, max = 1): PostgresSql =>
  postgres({
    host: server.host,
    port: server.port,
    user: server.user,
    database,
    max,
    onnotice: () => {},
    connection: SESSION,
  })

export interface LoadedDatabase {
  readonly database: string
  readonly sql: PostgresSql
  readonly rows: Record<string, number>
  readonly copyMs: number
  readonly indexMs: number
  readonly analyzeMs: number
  readonly sizeBytes: number
  /** Drops the database (closing every connection to it first); once, however often it is called. */
  readonly drop: () => Promise<void>
  /** Closes this process's connections and leaves the database as it is. */
  readonly close: () => Promise<void>
}

/**
 * The snapshot's part files of one entity, in a stable order. The snapshot folder is either the one that holds
 * `data/` (as `oqlkit generate` writes it and S3 serves it) or that `data/` folder itself (the bundled sample).
 */
export function snapshotParts(snapshotDir: string, entity: string): string[] {
  const nested = join(snapshotDir, 'data', entity)
  const dir = existsSync(nested) ? nested : join(snapshotDir, entity)
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith('updated_date='))
    .map((entry) => entry.name)
    .sort()
    .flatMap((partition) =>
      readdirSync(join(dir, partition))
        .filter((file) => file.endsWith('.gz'))
        .sort()
        .map((file) => join(dir, partition, file)),
    )
}

async function* recordsOf(files: readonly string[]): AsyncGenerator<Record<string, unknown>> {
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })
    for await (const line of lines) if (line.length > 0) yield JSON.parse(line) as Record<string, unknown>
  }
}

/** A COPY stream that gathers rows into chunks of about 256 KB and waits when PostgreSQL is behind. */
class CopySink {
  #buffer = ''
  rows = 0
  constructor(readonly stream: Writable) {}
  async add(line: string): Promise<void> {
    this.#buffer += line
    this.rows++
    if (this.#buffer.length >= 262_144) await this.#flush()
  }
  async #flush(): Promise<void> {
    const chunk = this.#buffer
    this.#buffer = ''
    if (!this.stream.write(chunk)) await once(this.stream, 'drain')
  }
  async end(): Promise<void> {
    if (this.#buffer.length > 0) await this.#flush()
    this.stream.end()
    await finished(this.stream)
  }
}

const openCopy = async (sql: PostgresSql, table: PostgresTable): Promise<CopySink> =>
  new CopySink(
    await sql
      .unsafe(`COPY ${table.name} (${table.columns.map(([name]) => name).join(', ')}) FROM STDIN`)
      .writable(),
  )

/** A database name of its own for one benchmark run. */
export const benchDatabaseName = (): string => `oqlkit_bench_${process.pid}_${Date.now().toString(36)}`

/** Drops a database if it exists, closing its connections: for a run stopped while it was being loaded. */
export async function dropDatabase(server: PostgresServer, database: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`not a plain database name: ${database}`)
  const admin = connectPostgres(server, 'postgres')
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
  } finally {
    await admin.end({ timeout: 5 })
  }
}

export async function loadSnapshotIntoPostgres(options: {
  readonly server: PostgresServer
  readonly snapshotDir: string
  readonly database?: string
  readonly onProgress?: (message: string) => void
}): Promise<LoadedDatabase> {
  const database = options.database ?? benchDatabaseName()
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`not a plain database name: ${database}`)
  const admin = connectPostgres(options.server, 'postgres')
  await admin.unsafe(`CREATE DATABASE ${database}`)
  let dropped = false
  const drop = async () => {
    if (dropped) return
    dropped = true
    await sql.end({ timeout: 5 }).catch(() => {})
    await admin.unsafe(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`)
    await admin.end({ timeout: 5 })
  }
  // One connection per COPY running at once, and one for the statements around them.
  const sql = connectPostgres(options.server, database, WORK_TABLES.length + 1)
  try {
    for (const table of ALL_TABLES) await sql.unsafe(createTableSql(table))
    const copyStarted = performance.now()
    const rows: Record<string, number> = {}

    const simple = async (table: PostgresTable, entity: string, flatten: typeof flattenTopic) => {
      const sink = await openCopy(sql, table)
      for await (const record of recordsOf(snapshotParts(options.snapshotDir, entity)))
        await sink.add(encodeCopyRow(flatten(record)))
      await sink.end()
      rows[table.name] = sink.rows
    }
    await simple(INSTITUTIONS_TABLE, 'institutions', flattenInstitution)
    await simple(TOPICS_TABLE, 'topics', flattenTopic)

    const sinks = new Map<string, CopySink>()
    for (const table of WORK_TABLES) sinks.set(table.name, await openCopy(sql, table))
    let works = 0
    for await (const record of recordsOf(snapshotParts(options.snapshotDir, 'works'))) {
      for (const [table, tableRows] of Object.entries(flattenWork(record))) {
        const sink = sinks.get(table)!
        for (const row of tableRows) await sink.add(encodeCopyRow(row))
      }
      if (++works % 50_000 === 0)
        options.onProgress?.(`postgres: copied ${works.toLocaleString('en-US')} works`)
    }
    for (const [table, sink] of sinks) {
      await sink.end()
      rows[table] = sink.rows
    }
    const copyMs = performance.now() - copyStarted

    options.onProgress?.('postgres: building keys, indexes and the full-text column')
    const indexStarted = performance.now()
    for (const table of ALL_TABLES) for (const statement of keyAndIndexSql(table)) await sql.unsafe(statement)
    for (const statement of SEARCH_VECTOR_DDL) await sql.unsafe(statement)
    const indexMs = performance.now() - indexStarted

    const analyzeStarted = performance.now()
    await sql.unsafe('VACUUM ANALYZE')
    const analyzeMs = performance.now() - analyzeStarted
    const [size] = await sql.unsafe('SELECT pg_database_size(current_database())::bigint AS bytes')
    return {
      database,
      sql,
      rows,
      copyMs,
      indexMs,
      analyzeMs,
      sizeBytes: Number(size!.bytes),
      drop,
      close: () => sql.end({ timeout: 5 }).then(() => admin.end({ timeout: 5 })),
    }
  } catch (error) {
    await drop().catch(() => {})
    throw error
  }
}
