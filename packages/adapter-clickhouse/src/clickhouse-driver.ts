// The one module that talks to the ClickHouse client: every statement of this package (the adapter's, the
// singletons', the served-version and search-index lookups, the loaders') runs through a function here, so
// formats, statement settings, parameters and abort signals are handled in one place. Statements come in
// written: the plan compiler (`clickhouse-plan-compiler.ts`), the schema and the loaders write them.
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { PassThrough } from 'node:stream'
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client'
import { throwIfInterrupted, UnsupportedPlanError } from '@oqlkit/engine'
import { expansionLimitOfClickHouse } from './clickhouse-search-compiler.ts'
import { decodeStringRows } from './row-binary-strings.ts'

/** One statement: its text, with `{name:Type}` placeholders, and the values of its parameters by name. */
export interface ClickHouseStatement {
  readonly sql: string
  readonly params: Readonly<Record<string, unknown>>
}

/** How a statement runs: its server settings, and the signal that stops it (the request's deadline). */
export interface StatementOptions {
  readonly params?: Readonly<Record<string, unknown>>
  readonly settings?: ClickHouseSettings
  readonly signal?: AbortSignal
}

/**
 * Statement settings every query of the adapter gets: a LEFT JOIN without a match gives NULL, as in SQL, not a
 * default; and, on a cluster, a subquery or join over a Distributed table inside a query over another runs on
 * each shard against that shard's own tables, which the layout makes exact (a work's links, record, vectors
 * and postings share its shard; what every shard needs whole is on every node). No effect on one server.
 */
const ADAPTER_SETTINGS = {
  join_use_nulls: 1,
  distributed_product_mode: 'local',
  // A statement whose request was aborted (its deadline, the client gone, a shutdown) stops on the server too,
  // instead of running to its end for nobody and holding a core the next requests need.
  cancel_http_readonly_queries_on_client_close: 1,
} as const

const requestOf = (options: StatementOptions) => ({
  ...(options.params === undefined ? {} : { query_params: options.params }),
  ...(options.settings === undefined ? {} : { clickhouse_settings: options.settings }),
  ...(options.signal === undefined ? {} : { abort_signal: options.signal }),
})

/**
 * Runs `run` under a signal: nothing starts once it fired, and a failure after it fired is the request's
 * interruption (the engine's `QueryInterruptedError`, a 503), not the client's bare abort error (a 500).
 */
const interruptible = async <T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> => {
  throwIfInterrupted(signal)
  try {
    return await run()
  } catch (error) {
    throwIfInterrupted(signal)
    throw error
  }
}

/** A statement's rows as objects (JSONEachRow). */
export const selectRows = <T>(
  client: ClickHouseClient,
  query: string,
  options: StatementOptions = {},
): Promise<T[]> =>
  interruptible(options.signal, async () => {
    const result = await client.query({ query, format: 'JSONEachRow', ...requestOf(options) })
    return (await result.json()) as T[]
  })

/** Whether `database`'s `table` has `column` (a version loaded before a column was added lacks it). */
export const tableHasColumn = async (
  client: ClickHouseClient,
  database: string,
  table: string,
  column: string,
): Promise<boolean> => {
  const [row] = await selectRows<{ n: string | number }>(
    client,
    'SELECT count() AS n FROM system.columns WHERE database = {database:String} AND table = {table:String} AND name = {column:String}',
    { params: { database, table, column } },
  )
  return Number(row?.n ?? 0) > 0
}

/** Whether `database` holds `table` (a version loaded before a table was added lacks it). */
export const tableExists = async (
  client: ClickHouseClient,
  database: string,
  table: string,
): Promise<boolean> => {
  const [row] = await selectRows<{ n: string | number }>(
    client,
    'SELECT count() AS n FROM system.tables WHERE database = {database:String} AND name = {table:String}',
    { params: { database, table } },
  )
  return Number(row?.n ?? 0) > 0
}

/** A statement's rows as arrays of values (JSONCompactEachRow), read whole. */
export const selectCompactRows = async <T extends unknown[]>(
  client: ClickHouseClient,
  query: string,
  options: StatementOptions = {},
): Promise<T[]> => {
  const result = await client.query({ query, format: 'JSONCompactEachRow', ...requestOf(options) })
  return result.json<T>()
}

/** A statement's rows as arrays of values (JSONCompactEachRow), streamed in the batches the server sends. */
export async function* streamCompactRows<T extends unknown[]>(
  client: ClickHouseClient,
  query: string,
  options: StatementOptions = {},
): AsyncGenerator<T[]> {
  const result = await client.query({ query, format: 'JSONCompactEachRow', ...requestOf(options) })
  for await (const rows of result.stream()) yield rows.map((row) => row.json<T>())
}

/**
 * The values of a statement whose `columns` columns are non-null Strings, by RowBinary: bytes as stored, no
 * escaping either way (binary model files, JSON records passed on as they are). A Nullable column would put a
 * null flag before each value, so statements select `assumeNotNull` of those.
 */
export const selectStringRows = (
  client: ClickHouseClient,
  query: string,
  columns: number,
  options: StatementOptions = {},
): Promise<Uint8Array[][]> =>
  interruptible(options.signal, async () => {
    const { stream } = await client.exec({ query: `${query} FORMAT RowBinary`, ...requestOf(options) })
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    return decodeStringRows(Buffer.concat(chunks), columns)
  })

/** A statement without rows (DDL, DELETE). */
export const runCommand = async (
  client: ClickHouseClient,
  query: string,
  options: StatementOptions = {},
): Promise<void> => {
  await client.command({ query, ...requestOf(options) })
}

/** Rows into a table: objects (JSONEachRow), or a file's stream in its format (Parquet). */
export const insertInto = async (
  client: ClickHouseClient,
  table: string,
  values: readonly Record<string, unknown>[] | Readable,
  format: 'JSONEachRow' | 'Parquet',
): Promise<void> => {
  await client.insert({ table, values: values as Record<string, unknown>[], format })
}

/** An INSERT whose body is written chunk by chunk: `write` waits on the stream's back-pressure. */
export interface StreamingInsert {
  write(chunk: Uint8Array): Promise<void>
  /** Ends the body and waits for the server to have taken every row. */
  finish(): Promise<void>
  /** Stops the body; the insert fails on the server and nothing of it is kept. */
  fail(error: unknown): Promise<void>
}

/** `INSERT … FORMAT RowBinary` (`query` is the statement up to `FORMAT`), sent as it is written. */
export const rowBinaryInsert = (client: ClickHouseClient, query: string): StreamingInsert => {
  const body = new PassThrough()
  const sending = client.exec({ query: `${query} FORMAT RowBinary`, values: body })
  // Its failure surfaces through `sending`, awaited once the body is written; the handlers keep the body's
  // error and an insert the server refuses early from being unhandled (and ending the process) meanwhile.
  body.on('error', () => {})
  sending.catch(() => undefined)
  return {
    write: async (chunk) => {
      if (!body.write(chunk)) await once(body, 'drain')
    },
    finish: async () => {
      body.end()
      const { stream } = await sending
      stream.resume()
      await once(stream, 'end')
    },
    fail: async (error) => {
      body.destroy(error instanceof Error ? error : new Error(String(error)))
      await sending.catch(() => undefined)
    },
  }
}

/**
 * The adapter's statements: each with the adapter's settings (`ADAPTER_SETTINGS`, and the longest a statement
 * may run on the server) and the request's signal.
 */
export class ClickHouseDriver {
  readonly client: ClickHouseClient
  readonly #settings: ClickHouseSettings

  constructor(client: ClickHouseClient, maxExecutionSeconds = 60) {
    this.client = client
    this.#settings = { ...ADAPTER_SETTINGS, max_execution_time: maxExecutionSeconds }
  }

  /** A statement's rows as objects. */
  async rows<T>(statement: ClickHouseStatement, signal?: AbortSignal): Promise<T[]> {
    try {
      return await selectRows<T>(this.client, statement.sql, this.#options(statement, signal))
    } catch (error) {
      // A wildcard that matched too many index terms is the caller's invalid search (a 400), not a fault.
      const limit = expansionLimitOfClickHouse(error)
      throw limit === undefined ? error : new UnsupportedPlanError('invalid_search', limit)
    }
  }

  /** The values of a statement whose `columns` columns are non-null Strings (`selectStringRows`). */
  stringRows(statement: ClickHouseStatement, columns: number, signal?: AbortSignal): Promise<Uint8Array[][]> {
    return selectStringRows(this.client, statement.sql, columns, this.#options(statement, signal))
  }

  #options(statement: ClickHouseStatement, signal: AbortSignal | undefined): StatementOptions {
    return {
      params: statement.params,
      settings: this.#settings,
      ...(signal === undefined ? {} : { signal }),
    }
  }
}
