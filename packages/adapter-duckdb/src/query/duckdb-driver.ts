// The slice of a DuckDB client the adapter uses, as an interface of ours: the compiler and the tests of the
// adapter's logic never see `@duckdb/node-api`, and a fake connection can stand in for a database. The one
// implementation, over `@duckdb/node-api`, keeps a small pool of connections (one statement runs per
// connection at a time) and returns plain JavaScript values: BIGINT as number, dates as ISO text.
import {
  type DuckDBConnection,
  type DuckDBInstance,
  type DuckDBMaterializedResult,
  type DuckDBPreparedStatement,
  JSDuckDBValueConverter,
  StatementType,
} from '@duckdb/node-api'
import type { SqlParam } from '@oqlkit/catalog'
import { constantLiteral } from '@oqlkit/catalog'
import { QueryInterruptedError, settlesWithin, throwIfInterrupted } from '@oqlkit/engine'
import { createDuckDbInstance } from './duckdb-instance-factory.ts'

export type DuckDbRow = Readonly<Record<string, unknown>>

export interface DuckDbConnectionLike {
  /**
   * Runs one statement with `?` placeholders and returns its rows. When `signal` fires, a statement still
   * waiting for a connection gives up its place and a running one is interrupted; either rejects with a
   * `QueryInterruptedError`, and the connection serves the next statement.
   */
  all(sql: string, params?: readonly SqlParam[], signal?: AbortSignal): Promise<readonly DuckDbRow[]>
  close(): Promise<void>
}

/** A connection whose every statement carries `signal` (none: the connection itself). */
export const withSignal = (
  db: DuckDbConnectionLike,
  signal: AbortSignal | undefined,
): DuckDbConnectionLike =>
  signal === undefined
    ? db
    : {
        all: (sql, params, own) => db.all(sql, params, own ?? signal),
        close: () => db.close(),
      }

export interface DuckDbDatabaseOptions {
  /** DuckDB worker threads (default: DuckDB's own, the number of cores). */
  readonly threads?: number
  /** DuckDB memory limit, e.g. `2GB`. */
  readonly memoryLimit?: string
  /** Where DuckDB spills what outgrows the memory limit (default: DuckDB's `.tmp` in the working folder). */
  readonly tempDirectory?: string
  /** Statements that may run at once (default 2). */
  readonly connections?: number
  /**
   * A database file attached read-only under `name` (lower-case letters and underscores), whose tables every connection
   * finds by their bare names after those of the in-memory database: the catalog's serving database.
   */
  readonly attach?: { readonly path: string; readonly name: string }
}

/** BIGINT/HUGEINT come back as bigint, which JSON cannot hold; every id and count here fits a double. */
export const toPlainValue = (value: unknown): unknown => {
  if (typeof value === 'bigint') return Number(value)
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(toPlainValue)
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) result[key] = toPlainValue(inner)
    return result
  }
  return value
}

/**
 * The rows of a result DuckDB has materialised, read from its chunks on this thread. Every call into DuckDB
 * that is awaited is a trip through libuv's thread pool, several ms each on a loaded machine; reading a result
 * chunk by chunk took two (a chunk, then one more to learn there was none) of the five a small statement
 * made. Values as `getRowObjectsJS` gives them (columns of the same name deduplicated), made plain.
 */
const rowsOf = (result: DuckDBMaterializedResult): DuckDbRow[] => {
  const names = result.deduplicatedColumnNames()
  const rows: DuckDbRow[] = []
  const chunks = result.chunkCount
  for (let index = 0; index < chunks; index++) {
    const chunk = result.getChunk(index)
    const count = chunk.rowCount
    for (let row = 0; row < count; row++) {
      const object: Record<string, unknown> = {}
      chunk.visitRowValues(row, (value, _row, column, type) => {
        object[names[column]!] = toPlainValue(JSDuckDBValueConverter(value, type, JSDuckDBValueConverter))
      })
      rows.push(object)
    }
  }
  return rows
}

/**
 * Prepared statements each connection keeps, by their SQL, most recently used last. A query's shape recurs
 * with other values (a list's page and count, a singleton by id): run again, its statement is bound and
 * executed, one trip through the thread pool, where preparing it again took one more (two when the
 * statements were first extracted from the text) and DuckDB's parse, bind and plan.
 */
const KEPT_STATEMENTS = 64

/**
 * SQL that DuckDB evaluates once, when it binds a statement, not each time it runs it: a sample without a
 * seed (its seed is drawn then), a setting or variable read by a function. Kept, such a statement would
 * answer every later run as it answered the first.
 */
const BOUND_ONCE = /\b(?:using\s+sample|tablesample|current_setting|getvariable)\b/i

/**
 * Whether a statement is kept for its next run: a SELECT (settings, DDL and COPY run once) that reads no
 * state at bind time (`BOUND_ONCE`). Tables and views it reads may change: DuckDB binds a kept statement
 * again when the catalog has changed since.
 */
const keeps = (prepared: DuckDBPreparedStatement, sql: string): boolean =>
  prepared.statementType === StatementType.SELECT && !BOUND_ONCE.test(sql)

/** How often an interrupt is repeated while the statement it is for has not yet stopped. */
const INTERRUPT_REPEAT_MS = 25

/**
 * How long `close` waits for the statements it interrupted to stop. A connection is never closed under a
 * running statement (that statement would then never settle, nor whoever awaits it); one still running after
 * this is left open, with the instance, for the process's exit to end.
 */
const CLOSE_WAIT_MS = 1_000

interface Waiter {
  readonly resolve: (connection: DuckDBConnection) => void
  readonly reject: (error: Error) => void
}

class NodeApiDatabase implements DuckDbConnectionLike {
  readonly #instance: DuckDBInstance
  readonly #idle: DuckDBConnection[]
  readonly #all: readonly DuckDBConnection[]
  readonly #waiting: Waiter[] = []
  /** Each connection's kept statements (`KEPT_STATEMENTS`); a connection runs one statement at a time. */
  readonly #kept = new Map<DuckDBConnection, Map<string, DuckDBPreparedStatement>>()
  /** The connections running a statement, each with the statement's end (settled either way). */
  readonly #running = new Map<DuckDBConnection, Promise<void>>()
  #closed = false
  #closing: Promise<void> | undefined

  constructor(instance: DuckDBInstance, connections: readonly DuckDBConnection[]) {
    this.#instance = instance
    this.#all = connections
    this.#idle = [...connections]
    for (const connection of connections) this.#kept.set(connection, new Map())
  }

  /** Runs one statement on `connection`, prepared anew or kept from an earlier run of the same SQL. */
  async #run(connection: DuckDBConnection, sql: string, params: readonly SqlParam[]): Promise<DuckDbRow[]> {
    const kept = this.#kept.get(connection)!
    let prepared = kept.get(sql)
    // `prepare` takes one statement, all this driver runs. A kept statement is taken out while it runs: one
    // that fails is not kept, and one that succeeds goes back as the most recently used.
    if (prepared === undefined) prepared = await connection.prepare(sql)
    else kept.delete(sql)
    let keep = false
    try {
      prepared.bind([...params])
      const rows = rowsOf(await prepared.run())
      keep = keeps(prepared, sql)
      return rows
    } finally {
      if (keep) {
        kept.set(sql, prepared)
        if (kept.size > KEPT_STATEMENTS) {
          const [oldest, statement] = kept.entries().next().value!
          kept.delete(oldest)
          statement.destroySync()
        }
      } else prepared.destroySync()
    }
  }

  async #acquire(signal: AbortSignal | undefined): Promise<DuckDBConnection> {
    if (this.#closed) throw new Error('The DuckDB database is closed')
    throwIfInterrupted(signal)
    const connection = this.#idle.pop()
    if (connection !== undefined) return connection
    // Waiting in line: a caller whose time runs out leaves the line rather than run late.
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (connection) => {
          signal?.removeEventListener('abort', leave)
          resolve(connection)
        },
        reject,
      }
      const leave = () => {
        const index = this.#waiting.indexOf(waiter)
        if (index !== -1) this.#waiting.splice(index, 1)
        reject(QueryInterruptedError.of(signal!))
      }
      signal?.addEventListener('abort', leave, { once: true })
      this.#waiting.push(waiter)
    })
  }

  #release(connection: DuckDBConnection): void {
    const next = this.#waiting.shift()
    if (next !== undefined) next.resolve(connection)
    else this.#idle.push(connection)
  }

  async all(
    sql: string,
    params: readonly SqlParam[] = [],
    signal?: AbortSignal,
  ): Promise<readonly DuckDbRow[]> {
    const connection = await this.#acquire(signal)
    let ended: () => void = () => {}
    this.#running.set(
      connection,
      new Promise<void>((resolve) => {
        ended = resolve
      }),
    )
    // DuckDB checks for an interrupt as it runs, then fails the statement; the connection stays usable. An
    // interrupt that arrives before the statement has started is forgotten when it starts, so it is repeated
    // until the statement settles; the repetition never keeps the process alive on its own.
    let repeat: ReturnType<typeof setInterval> | undefined
    const interrupt = () => {
      connection.interrupt()
      repeat = setInterval(() => connection.interrupt(), INTERRUPT_REPEAT_MS).unref()
    }
    signal?.addEventListener('abort', interrupt, { once: true })
    try {
      throwIfInterrupted(signal)
      const rows = await this.#run(connection, sql, params)
      throwIfInterrupted(signal)
      return rows
    } catch (error) {
      throwIfInterrupted(signal)
      throw error
    } finally {
      signal?.removeEventListener('abort', interrupt)
      clearInterval(repeat)
      this.#running.delete(connection)
      ended()
      this.#release(connection)
    }
  }

  /**
   * Refuses new statements, interrupts the running ones and waits for them to stop (up to `CLOSE_WAIT_MS`),
   * then closes the connections and the instance. A statement that has not stopped by then keeps its
   * connection and the instance open: closed under it, it would never settle.
   */
  close(): Promise<void> {
    this.#closing ??= this.#close()
    return this.#closing
  }

  async #close(): Promise<void> {
    this.#closed = true
    const closed = new Error('The DuckDB database is closed')
    for (const waiter of this.#waiting.splice(0)) waiter.reject(closed)
    if (this.#running.size > 0) {
      const interruptRunning = () => {
        for (const connection of this.#running.keys()) connection.interrupt()
      }
      interruptRunning()
      const repeat = setInterval(interruptRunning, INTERRUPT_REPEAT_MS).unref()
      try {
        await settlesWithin(Promise.all(this.#running.values()), CLOSE_WAIT_MS)
      } finally {
        clearInterval(repeat)
      }
    }
    // Closing a connection destroys the statements it prepared, kept ones among them.
    for (const connection of this.#all)
      if (!this.#running.has(connection)) {
        this.#kept.delete(connection)
        connection.closeSync()
      }
    if (this.#running.size === 0) this.#instance.closeSync()
  }
}

/**
 * An in-memory DuckDB that never downloads extensions (parquet and json are built in), with a database file
 * attached read-only when asked.
 */
export async function openDuckDbDatabase(options: DuckDbDatabaseOptions = {}): Promise<DuckDbConnectionLike> {
  const instance = await createDuckDbInstance(':memory:', {
    threads: options.threads,
    memoryLimit: options.memoryLimit,
    tempDirectory: options.tempDirectory,
    settings: {
      // Late materialization turns a filtered top-N into a top-N of row ids and a semi-join back to the table on
      // them, which scans the whole table (DuckDB does not push row ids into a scan). Our pages already select
      // narrow columns only: a top 26 of an author's link rows took 14 ms with it and 2.9 ms without, on 10M rows.
      disabled_optimizers: 'late_materialization',
    },
  })
  const connections: DuckDBConnection[] = []
  try {
    for (let i = 0; i < Math.max(1, options.connections ?? 2); i++) {
      const connection = await instance.connect()
      connections.push(connection)
      if (options.attach === undefined) continue
      // Attached once for the instance; the search path is each connection's own setting.
      const { path, name } = options.attach
      if (!/^[a-z_]+$/.test(name)) throw new Error(`not a database name: ${name}`)
      if (i === 0) await connection.run(`ATTACH ${constantLiteral(path)} AS ${name} (READ_ONLY)`)
      await connection.run(`SET search_path = ${constantLiteral(`memory.main,${name}.main`)}`)
    }
  } catch (error) {
    for (const connection of connections) connection.closeSync()
    instance.closeSync()
    throw error
  }
  return new NodeApiDatabase(instance, connections)
}

/** Runs statements with DuckDB on one thread, then gives it back the threads it had. */
export async function runOnOneThread(db: DuckDbConnectionLike, statements: readonly string[]): Promise<void> {
  const restore = await onOneThread(db)
  try {
    for (const statement of statements) await db.all(statement)
  } finally {
    await restore()
  }
}

/** Sets DuckDB to one thread; the function returned gives it back the threads it had. */
export async function onOneThread(db: DuckDbConnectionLike): Promise<() => Promise<void>> {
  const [setting] = await db.all("SELECT CAST(current_setting('threads') AS INTEGER) AS threads")
  const threads = Number(setting?.threads)
  if (!Number.isSafeInteger(threads) || threads < 1) throw new Error(`DuckDB reports ${threads} threads`)
  await db.all('SET threads = 1')
  return async () => {
    await db.all(`SET threads = ${threads}`)
  }
}
