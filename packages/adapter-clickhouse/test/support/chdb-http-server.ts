// A stand-in for a ClickHouse server's HTTP interface, for tests: a loopback node:http server whose queries
// run on chdb, the real ClickHouse engine embedded in this process. chdb cannot listen on HTTP itself, and
// the adapter must be tested through the path it uses in production: @clickhouse/client over HTTP.
//
// It serves the subset @clickhouse/client uses: `GET /ping`; `POST /` with the SQL in the body or in the
// `query` URL parameter (an INSERT's rows follow in the body, in any input format, binary ones included), the
// `database` parameter, `param_<name>` query parameters bound by the engine, and any other URL parameter
// applied as a setting to that request alone. Errors answer 500 with `X-ClickHouse-Exception-Code` and
// ClickHouse's own `Code: N. DB::Exception: … (TYPE)` text, which the client turns into a ClickHouseError.
// Gzip works both ways (`Content-Encoding: gzip` bodies; `enable_http_compression=1` with
// `Accept-Encoding: gzip`). Not served: multipart parameters, `session_id` (each request runs on a
// connection given its own database and settings alone: a fresh one, or for a statement that changes nothing
// a connection keeps, one kept from a request set the same way; so SETs and temporary tables never carry
// over), authentication (any is accepted), progress headers, and HTTP status codes other than 200 and 500.
// Results are buffered, not streamed: chdb returns a query's whole result at once.
import { randomUUID } from 'node:crypto'
import { cpSync, createWriteStream, readdirSync, rmSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import { createGunzip, gzip } from 'node:zlib'
import { isProcessRunning } from '@oqlkit/ingest/test-support'
import { type ChdbSession, loadChdb } from './chdb-availability.ts'

export interface ChdbHttpServer {
  /** `http://127.0.0.1:<port>`: what `createClient({ url })` is given. */
  readonly url: string
  /** Stops listening, waits for queries still running, then releases the chdb connections. */
  close(): Promise<void>
}

interface Outcome {
  readonly bytes: Uint8Array
  readonly rowsRead: number
  readonly bytesRead: number
  readonly elapsedSeconds: number
}

interface ChdbAddon {
  QueryAsyncConnection(
    connection: unknown,
    sql: string,
    format: string,
    params: Record<string, string>,
  ): Promise<{ bytes: Uint8Array; elapsed: number; rowsRead: number; bytesRead: number }>
}
/** Through chdb's own loader, so this is the addon instance chdb loaded (Node caches it by path). */
const chdbAddon = (): ChdbAddon =>
  createRequire(createRequire(import.meta.url).resolve('chdb'))('./dist/loader.js').loadNative()

// Runs a statement with `param_<name>` values, through the addon call beneath chdb's documented binder.
// `queryBindAsync` takes JavaScript values and escapes them itself, while a `param_<name>` arrives already in
// ClickHouse's escaped text form: handed over as a string it is escaped twice (`['it\'s']` no longer parses
// as an Array(String), `a\\b` comes back with two backslashes), and undoing the client's escaping would mean
// parsing arrays, tuples and maps back into values. The addon takes the text byte for byte, as a real server
// does, and the engine binds it. chdb notes that binding sets parameters in state its connections share, and
// runs its bound queries one at a time; so does this (unbound queries still run side by side).
let boundQueriesDone: Promise<unknown> = Promise.resolve()
const runBound = (
  session: { readonly connection: unknown },
  sql: string,
  format: string,
  params: Record<string, string>,
) => {
  const run = boundQueriesDone.then(async (): Promise<Outcome> => {
    const raw = await chdbAddon().QueryAsyncConnection(session.connection, sql, format, params)
    return { bytes: raw.bytes, rowsRead: raw.rowsRead, bytesRead: raw.bytesRead, elapsedSeconds: raw.elapsed }
  })
  boundQueriesDone = run.catch(() => {})
  return run
}

/** URL parameters of the HTTP interface itself, or ones that mean nothing here: never SET. */
const NOT_SETTINGS = new Set([
  'query',
  'query_id',
  'database',
  'default_format',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'decompress',
  'buffer_size',
  'wait_end_of_query',
  'enable_http_compression',
  'http_zlib_compression_level',
  'send_progress_in_http_headers',
  'http_headers_progress_interval_ms',
])
const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A setting's value as a string literal: ClickHouse converts it to the setting's type, as the HTTP interface does. */
const stringLiteral = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
const identifier = (name: string) => `\`${name.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``

/** The request body, decompressed when the client compressed it. */
const bodyOf = (request: IncomingMessage): Readable => {
  const encoding = request.headers['content-encoding']
  if (encoding === 'gzip') return request.pipe(createGunzip())
  if (encoding !== undefined && encoding !== 'identity')
    throw new Error(`Unsupported Content-Encoding ${encoding}`)
  return request
}

/** `INSERT INTO … FORMAT <name>` in the `query` parameter: its rows are the body. */
const INSERT_WITH_FORMAT = /^(\s*INSERT\s[\s\S]*?)\sFORMAT\s+(\w+)\s*$/i

/**
 * The statement of a request. A real server parses an INSERT's rows as they stream in; chdb's inline inserts
 * take text formats only, so rows (Parquet, RowBinary, JSON) are streamed to a file of the stand-in's (never
 * held in memory: a catalog's records are gigabytes) and the engine reads them with `FROM INFILE`, in the
 * same format, by the same parser. The file's name is the stand-in's own, never the caller's.
 */
const statementOf = async (
  search: URLSearchParams,
  request: IncomingMessage,
  scratch: string,
): Promise<{ sql: string; file?: string }> => {
  const query = search.get('query') ?? ''
  const insert = INSERT_WITH_FORMAT.exec(query)
  if (insert !== null) {
    const file = join(scratch, `${randomUUID()}.rows`)
    await pipeline(bodyOf(request), createWriteStream(file))
    if (statSync(file).size > 0)
      return { sql: `${insert[1]} FROM INFILE '${file}' FORMAT ${insert[2]}`, file }
    rmSync(file, { force: true })
    return { sql: query }
  }
  const chunks: Buffer[] = []
  for await (const chunk of bodyOf(request)) chunks.push(chunk as Buffer)
  return { sql: [query, Buffer.concat(chunks).toString('utf8')].filter((part) => part !== '').join('\n') }
}

/**
 * A statement that changes nothing a connection keeps between statements (its database, settings, temporary
 * tables, transaction): one query, DDL or INSERT (no SET, USE or BEGIN), naming nothing TEMPORARY, and with no
 * `;` that could put another statement after it. Its connection, once it has answered, is as it was when the
 * request's USE and SET had run, so another request of the same database and settings may take it. Any other
 * text gets a connection of its own.
 */
const LEAVES_CONNECTION_AS_IT_WAS =
  /^\s*(?:SELECT|WITH|INSERT|CREATE|DROP|ALTER|RENAME|EXCHANGE|TRUNCATE|OPTIMIZE|SHOW|DESCRIBE|DESC|EXISTS)\b[^;]*;?\s*$/i
const TEMPORARY = /\bTEMPORARY\b/i

/**
 * Idle chdb connections already given a request's database and settings, by those: opening a connection, its
 * USE and its SET cost about as much CPU as a small query itself (1-2 ms each here), and the adapter sends the
 * same database and settings with every statement. A kept connection carries nothing but those from one
 * request to the next (only statements that leave it as it was run on it), so a request on it runs as on a
 * fresh one: what a server without `session_id` does. The stand-in's share of a request's CPU fell by a
 * third so (9.5 to 7.8 ms, a small query with the adapter's settings), and a tiny catalog's load by a tenth.
 */
class IdleConnections {
  readonly #idle = new Map<string, ChdbSession[]>()
  #closed = false

  take(key: string): ChdbSession | undefined {
    return this.#idle.get(key)?.pop()
  }

  /** Keeps a connection for the next request of its key, a few per key (as many as ran at once, up to 8). */
  give(key: string, session: ChdbSession): void {
    const idle = this.#idle.get(key) ?? []
    if (this.#closed || idle.length >= 8) {
      session.close()
      return
    }
    idle.push(session)
    this.#idle.set(key, idle)
  }

  close(): void {
    this.#closed = true
    for (const idle of this.#idle.values()) for (const session of idle) session.close()
    this.#idle.clear()
  }
}

/** A connection to `dataDir` in `database` with `settings` SET, closed again when either fails. */
const openConnection = async (
  dataDir: string,
  database: string | null,
  settings: readonly (readonly [string, string])[],
): Promise<ChdbSession> => {
  const { Session } = await loadChdb()
  const session = new Session(dataDir)
  try {
    if (database !== null && database !== '') await session.queryAsync(`USE ${identifier(database)}`)
    for (const [name] of settings)
      if (!SETTING_NAME.test(name))
        throw new Error(`Code: 115. DB::Exception: Bad setting name ${name}. (UNKNOWN_SETTING)`)
    // One SET for them all, not one each: the adapter sends four with every query, and a statement costs
    // 1-2 ms here. The engine checks a SET against the settings before it, so `readonly` among them (last,
    // as a server applies it) still lets the others through.
    if (settings.length > 0)
      await session.queryAsync(
        `SET ${settings.map(([name, value]) => `${name} = ${stringLiteral(value)}`).join(', ')}`,
      )
    return session
  } catch (error) {
    session.close()
    throw error
  }
}

/**
 * One request's statement, on a chdb connection given the request's database and settings: a kept one for a
 * statement that leaves it as it was (`IdleConnections`), else one of its own that is closed afterwards.
 */
const execute = async (
  dataDir: string,
  idle: IdleConnections,
  url: URL,
  request: IncomingMessage,
): Promise<Outcome> => {
  const search = url.searchParams
  const { sql, file } = await statementOf(search, request, dataDir)
  const params: Record<string, string> = {}
  const settings: [string, string][] = []
  for (const [name, value] of search) {
    if (name.startsWith('param_')) params[name.slice('param_'.length)] = value
    else if (!NOT_SETTINGS.has(name)) settings.push([name, value])
  }
  // `readonly` goes last: once it is on, the other settings could no longer be changed.
  settings.sort(([a], [b]) => Number(a === 'readonly') - Number(b === 'readonly'))
  const format = search.get('default_format') ?? 'TabSeparated'
  const database = search.get('database')
  // A SETTINGS clause would not fit every statement (INSERT … FORMAT, DDL), and SET lasts as long as the
  // connection; so a request runs on a connection set for it alone, or kept for requests set the same way.
  const keep = LEAVES_CONNECTION_AS_IT_WAS.test(sql) && !TEMPORARY.test(sql)
  const key = JSON.stringify([database, settings])
  const session = (keep ? idle.take(key) : undefined) ?? (await openConnection(dataDir, database, settings))
  let answered = false
  try {
    let outcome: Outcome
    if (Object.keys(params).length > 0) outcome = await runBound(session, sql, format, params)
    else {
      const result = await session.queryAsync(sql, { format })
      outcome = {
        bytes: result.bytes(),
        rowsRead: result.rowsRead,
        bytesRead: result.bytesRead,
        elapsedSeconds: result.elapsed,
      }
    }
    answered = true
    return outcome
  } finally {
    // A connection whose statement failed is not kept: nothing says what a failure leaves on it.
    if (keep && answered) idle.give(key, session)
    else session.close()
    if (file !== undefined) rmSync(file, { force: true })
  }
}

const respond = async (
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Uint8Array,
) => {
  // A client that gave up (aborted, timed out) has closed the socket; its answer has nowhere to go.
  if (response.destroyed) return
  const url = new URL(request.url ?? '/', 'http://localhost')
  const compress =
    url.searchParams.get('enable_http_compression') === '1' &&
    /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')
  const payload = compress ? await promisify(gzip)(body) : body
  if (response.destroyed) return
  response.writeHead(status, { ...headers, ...(compress ? { 'Content-Encoding': 'gzip' } : {}) })
  response.end(payload)
}

const handle = async (
  dataDir: string,
  idle: IdleConnections,
  request: IncomingMessage,
  response: ServerResponse,
) => {
  const url = new URL(request.url ?? '/', 'http://localhost')
  if (url.pathname === '/ping') return respond(request, response, 200, {}, Buffer.from('Ok.\n'))
  const queryId = url.searchParams.get('query_id') ?? randomUUID()
  try {
    if (url.pathname !== '/')
      throw new Error(`Code: 1000. DB::Exception: No handler for ${url.pathname}. (UNKNOWN_EXCEPTION)`)
    if (request.headers['content-type']?.startsWith('multipart/form-data'))
      throw new Error(
        'Code: 1000. DB::Exception: multipart parameters are not served by the chdb stand-in. (UNKNOWN_EXCEPTION)',
      )
    const outcome = await execute(dataDir, idle, url, request)
    const summary = {
      read_rows: String(outcome.rowsRead),
      read_bytes: String(outcome.bytesRead),
      elapsed_ns: String(Math.round(outcome.elapsedSeconds * 1e9)),
    }
    await respond(
      request,
      response,
      200,
      { 'X-ClickHouse-Query-Id': queryId, 'X-ClickHouse-Summary': JSON.stringify(summary) },
      outcome.bytes,
    )
  } catch (error) {
    // chdb's messages are the engine's own (`Code: 60. DB::Exception: …`); anything else gets that shape.
    const message = error instanceof Error ? error.message : String(error)
    const code = /^Code: (\d+)\./.exec(message)?.[1]
    const text = code === undefined ? `Code: 1000. DB::Exception: ${message} (UNKNOWN_EXCEPTION)` : message
    await respond(
      request,
      response,
      500,
      { 'X-ClickHouse-Query-Id': queryId, 'X-ClickHouse-Exception-Code': code ?? '1000' },
      Buffer.from(`${text}\n`),
    )
  }
}

/**
 * The process's shared stand-in (`sharedChdbHttpServer`), at a data directory of this process's own. chdb binds
 * one data directory per process while a connection to it is open, so a server at another directory cannot
 * start beside it: `startChdbHttpServer` closes it first, and the next `sharedChdbHttpServer` opens the same
 * directory again, its databases as they were left (reopening the sample's takes about a second; nothing is
 * loaded again). `ready` settles when what is being copied into the directory (`copyIntoSharedChdb`) is there.
 */
let shared:
  | { readonly dataDir: string; server: Promise<ChdbHttpServer> | undefined; ready: Promise<void> }
  | undefined
const SHARED_PREFIX = 'oqlkit-shared-chdb-'

/** The process's shared slot, its directory chosen (and those of ended processes removed) on first use. */
const sharedSlot = () => {
  if (shared === undefined) {
    // The directories of processes that have ended (vitest stops its workers with a signal, so none removes
    // its own), and one of an ended process whose pid this one got: nothing of it may be read as this one's.
    for (const name of readdirSync(tmpdir())) {
      const pid = Number(name.slice(SHARED_PREFIX.length))
      if (
        name.startsWith(SHARED_PREFIX) &&
        Number.isInteger(pid) &&
        (pid === process.pid || !isProcessRunning(pid))
      )
        rmSync(join(tmpdir(), name), { recursive: true, force: true })
    }
    shared = {
      dataDir: join(tmpdir(), `${SHARED_PREFIX}${process.pid}`),
      server: undefined,
      ready: Promise.resolve(),
    }
  }
  return shared
}

/**
 * The shared stand-in of this process, started on first use, never closed by its users: test files that run
 * one after another in a vitest worker (`isolate: false`) share it, and so what it holds, such as the sample
 * catalog loaded once (`sharedClickHouseSample`). A file reads what others loaded and writes only under names
 * of its own. Its URL changes when a server at another data directory took the process's chdb in between.
 */
export const sharedChdbHttpServer = async (): Promise<Pick<ChdbHttpServer, 'url'>> => {
  const slot = sharedSlot()
  slot.server ??= slot.ready
    .then(() => listen({ dataDir: slot.dataDir }, { holdsProcess: false }))
    .catch((error: unknown) => {
      slot.server = undefined
      throw error
    })
  // Its users get the URL alone: closing it is this module's, when another directory needs the engine.
  const { url } = await slot.server
  return { url }
}

/**
 * Copies the databases of a chdb data directory that no connection has open (`from`: one a server of its own
 * filled and closed) into the shared stand-in's, beside what that holds, which nothing copied overwrites: their
 * names must be new to it. The shared server is closed meanwhile (chdb reads its directory as it opens), and
 * the next `sharedChdbHttpServer` opens it again at a new URL with them. A copy of the sample's 179 tables
 * costs well under a second where loading them again costs 6-7 s of CPU.
 */
export const copyIntoSharedChdb = async (from: string): Promise<void> => {
  const slot = sharedSlot()
  const open = slot.server
  slot.server = undefined
  const copied = slot.ready.then(async () => {
    await (await open?.catch(() => undefined))?.close()
    // The tables' parts are linked into the catalog's databases by relative symlinks: copied as they are.
    cpSync(from, slot.dataDir, { recursive: true, force: false, errorOnExist: false, verbatimSymlinks: true })
  })
  slot.ready = copied.catch(() => {})
  await copied
}

/** Closes the shared stand-in if it is open at a data directory other than `dataDir`. */
const releaseSharedFor = async (dataDir: string): Promise<void> => {
  const open = shared?.server
  if (shared === undefined || open === undefined || resolve(shared.dataDir) === resolve(dataDir)) return
  shared.server = undefined
  await (await open.catch(() => undefined))?.close()
}

/** A stand-in of the caller's own at `dataDir`, which the caller closes. */
export const startChdbHttpServer = async (options: {
  readonly dataDir: string
  /** The loopback port (default: any free one). */
  readonly port?: number
}): Promise<ChdbHttpServer> => {
  await releaseSharedFor(options.dataDir)
  return listen(options, { holdsProcess: true })
}

const listen = async (
  options: { readonly dataDir: string; readonly port?: number },
  { holdsProcess }: { readonly holdsProcess: boolean },
): Promise<ChdbHttpServer> => {
  // Held open for the server's lifetime, so the engine stays up between requests; chdb binds one data
  // directory per process, and every connection here is to this one.
  const { Session, drainPending } = await loadChdb()
  const anchor = new Session(options.dataDir)
  const idle = new IdleConnections()
  const running = new Set<Promise<void>>()
  // A server takes a request line of up to 1 MiB (http_max_uri_size), and the client sends query parameters
  // in the URL: an export's batch of 1,000 ids is some 40 KB of it, past Node's default 16 KB head.
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (request, response) => {
    request.on('error', () => {})
    response.on('error', () => {})
    // chdb cannot interrupt a statement, so one whose client went away runs to its end (or its
    // max_execution_time) and its answer is dropped.
    const done: Promise<void> = handle(options.dataDir, idle, request, response)
      .catch(() => {})
      .finally(() => running.delete(done))
    running.add(done)
  })
  await new Promise<void>((listening, failed) => {
    server.once('error', failed)
    server.listen(options.port ?? 0, '127.0.0.1', () => listening())
  })
  // The shared server lives as long as its process and must not keep a process that is done from exiting.
  if (!holdsProcess) server.unref()
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      const closed = new Promise<void>((settle) => server.close(() => settle()))
      server.closeAllConnections()
      await closed
      await Promise.all(running)
      idle.close()
      anchor.close()
      // close() defers releasing a connection while any chdb call is still running; wait for that too.
      await drainPending()
    },
  }
}
