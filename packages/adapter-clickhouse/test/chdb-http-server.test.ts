// The chdb stand-in for a ClickHouse server's HTTP interface, driven by the official client the adapter
// uses: what the adapter's tests rely on it for (types that round-trip through query parameters, errors the
// client recognises, per-request settings, concurrency) is checked here against the real engine it embeds.
// chdb binds one data directory per process, and a vitest worker runs many files one after another: this
// file's own server closes the worker's shared one first (see support/chdb-http-server.ts).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  ClickHouseError,
  ClickHouseLogLevel,
  type ClickHouseSettings,
  createClient,
} from '@clickhouse/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chdbInstalled } from './support/chdb-availability.ts'
import { type ChdbHttpServer, startChdbHttpServer } from './support/chdb-http-server.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

/** Minutes of work: it ends only at its max_execution_time. */
const ENDLESS = 'SELECT sum(number) AS total FROM numbers(100000000000)'

const HOSTILE = [
  "it's",
  'back\\slash and \\N and \\t',
  'tab\there',
  'new\nline\r\n',
  "'); DROP TABLE x; --",
  '"double" `back` {braces} [brackets]',
  'ünïcödé Ωμέγα 漢字 😀👩‍👩‍👧',
  '',
]

/**
 * A client of the stand-in. The engine (ClickHouse 26.7) writes 64-bit integers as JSON numbers by default,
 * which lose digits in JavaScript, so it is asked to quote them; and the client logs every failed request,
 * which these tests provoke on purpose.
 */
const connect = (options: ClickHouseClientConfigOptions = {}) =>
  createClient({
    url: server.url,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    log: { level: ClickHouseLogLevel.OFF },
    ...options,
  })

let dataDir: string
let server: ChdbHttpServer
let client: ClickHouseClient

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'oqlkit-chdb-'))
  server = await startChdbHttpServer({ dataDir })
  client = connect()
  await client.command({ query: 'CREATE TABLE x (a String) ENGINE = MergeTree ORDER BY a' })
  await client.command({ query: 'CREATE DATABASE catalog' })
  await client.command({
    query: `CREATE TABLE catalog.works (
      id String, authors Array(String), cited Nullable(Int64), score Float64, published Date
    ) ENGINE = MergeTree ORDER BY id`,
  })
})
afterAll(async () => {
  await client?.close()
  await server?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

const rows = async <T>(
  query: string,
  options: { params?: Record<string, unknown>; settings?: ClickHouseSettings; on?: ClickHouseClient } = {},
): Promise<T[]> => {
  const result = await (options.on ?? client).query({
    query,
    format: 'JSONEachRow',
    ...(options.params ? { query_params: options.params } : {}),
    ...(options.settings ? { clickhouse_settings: options.settings } : {}),
  })
  return result.json<T>()
}

const failure = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => new Error('it succeeded'),
    (error: unknown) => error,
  )

const expectClickHouseError = (error: unknown, code: number, type: string) => {
  expect(error, String(error)).toBeInstanceOf(ClickHouseError)
  expect((error as ClickHouseError).code).toBe(String(code))
  expect((error as ClickHouseError).type).toBe(type)
}

onChdb('@clickhouse/client against the chdb stand-in for a ClickHouse HTTP interface', () => {
  it('answers a ping', async () => {
    expect(await client.ping()).toEqual({ success: true })
  })

  it('inserts JSONEachRow rows and reads them back', async () => {
    await client.insert({
      table: 'catalog.works',
      format: 'JSONEachRow',
      values: [
        { id: 'W1', authors: ['Ada', "O'Brien"], cited: 12, score: 0.5, published: '2024-02-29' },
        { id: 'W2', authors: [], cited: null, score: -1e-300, published: '1970-01-01' },
        { id: 'W3', authors: ['tab\there'], cited: '9223372036854775807', score: 3, published: '2149-06-06' },
      ],
    })
    expect(await rows('SELECT * FROM catalog.works ORDER BY id')).toEqual([
      { id: 'W1', authors: ['Ada', "O'Brien"], cited: '12', score: 0.5, published: '2024-02-29' },
      { id: 'W2', authors: [], cited: null, score: -1e-300, published: '1970-01-01' },
      { id: 'W3', authors: ['tab\there'], cited: '9223372036854775807', score: 3, published: '2149-06-06' },
    ])
  })

  it('binds query parameters of every type the adapter sends, each answer equal to the value sent', async () => {
    for (const text of HOSTILE) {
      const [answer] = await rows<{ s: string; a: string[]; n: string | null; matches: string }>(
        `SELECT {s:String} AS s, {a:Array(String)} AS a, {n:Nullable(String)} AS n,
           (SELECT count() FROM catalog.works WHERE id = {s:String} OR has(authors, {s:String})) AS matches`,
        { params: { s: text, a: [text, 'plain', text], n: null } },
      )
      expect(answer).toEqual({
        s: text,
        a: [text, 'plain', text],
        n: null,
        matches: text === 'tab\there' ? '1' : '0',
      })
    }
    const [numbers] = await rows(
      'SELECT {i:Int64} AS i, {j:Int64} AS j, {f:Float64} AS f, {g:Float64} AS g, {d:Date} AS d, {e:Array(String)} AS e',
      { params: { i: '-9223372036854775808', j: 42n, f: 0.1 + 0.2, g: -1.5e-300, d: '2024-02-29', e: [] } },
    )
    expect(numbers).toEqual({
      i: '-9223372036854775808',
      j: '42',
      f: 0.1 + 0.2,
      g: -1.5e-300,
      d: '2024-02-29',
      e: [],
    })
    expect(
      await rows('SELECT count() AS n FROM catalog.works WHERE cited = {c:Nullable(Int64)}', {
        params: { c: 12 },
      }),
    ).toEqual([{ n: '1' }])
    expect(await rows("SELECT name FROM system.tables WHERE database = 'default' AND name = 'x'")).toEqual([
      { name: 'x' },
    ])
  })

  it("binds a parameter of 1,000 ids: a URL past Node's 16 KB head, within ClickHouse's 1 MiB", async () => {
    // The client sends query parameters in the URL; an export batch binds the ids of 1,000 records.
    const ids = Array.from({ length: 1_000 }, (_, i) => `https://openalex.org/C${1_000_000_000 + i}`)
    const [answer] = await rows<{ n: string; last: string }>(
      'SELECT length({ids:Array(String)}) AS n, {ids:Array(String)}[-1] AS last',
      { params: { ids } },
    )
    expect(answer).toEqual({ n: '1000', last: ids[999] })
  })

  it('runs unqualified names in the database the client names, and only for that client', async () => {
    const inCatalog = connect({ database: 'catalog' })
    try {
      expect(
        await rows('SELECT currentDatabase() AS db, count() AS n FROM works', { on: inCatalog }),
      ).toEqual([{ db: 'catalog', n: '3' }])
      expect(await rows('SELECT currentDatabase() AS db')).toEqual([{ db: 'default' }])
      const missing = connect({ database: 'nowhere' })
      expectClickHouseError(await failure(rows('SELECT 1', { on: missing })), 81, 'UNKNOWN_DATABASE')
      await missing.close()
    } finally {
      await inCatalog.close()
    }
  })

  it("turns the engine's errors into the client's ClickHouseError with their code and type", async () => {
    expectClickHouseError(await failure(rows('SELECT * FROM catalog.nothing')), 60, 'UNKNOWN_TABLE')
    expectClickHouseError(await failure(client.command({ query: 'SELEC 1' })), 62, 'SYNTAX_ERROR')
    expectClickHouseError(
      await failure(rows('SELECT {absent:String} AS a', { params: { present: 'p' } })),
      456,
      'UNKNOWN_QUERY_PARAMETER',
    )
    expectClickHouseError(
      await failure(client.insert({ table: 'catalog.nothing', values: [{ a: 1 }], format: 'JSONEachRow' })),
      60,
      'UNKNOWN_TABLE',
    )
  })

  it('applies max_execution_time to its own query, which fails with TIMEOUT_EXCEEDED, and to no other', async () => {
    const started = performance.now()
    const error = await failure(rows(ENDLESS, { settings: { max_execution_time: 1 } }))
    expectClickHouseError(error, 159, 'TIMEOUT_EXCEEDED')
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(await rows("SELECT getSetting('max_execution_time') AS m")).toEqual([{ m: 0 }])
    expect(
      await rows("SELECT getSetting('max_execution_time') AS m", { settings: { max_execution_time: 7 } }),
    ).toEqual([{ m: 7 }])
  })

  it('applies readonly to its own request only', async () => {
    const insert = (settings: ClickHouseSettings) =>
      client.insert({
        table: 'x',
        values: [{ a: 'r' }],
        format: 'JSONEachRow',
        clickhouse_settings: settings,
      })
    expectClickHouseError(await failure(insert({ readonly: '1' })), 164, 'READONLY')
    await insert({})
    expect(await rows('SELECT a FROM x')).toEqual([{ a: 'r' }])
  })

  it('gives each of 50 concurrent parameterised queries its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        rows<{ i: number; s: string }>('SELECT {i:Int32} AS i, {s:String} AS s', {
          params: { i, s: `value ${i} '\\\n` },
        }),
      ),
    )
    expect(answers).toEqual(Array.from({ length: 50 }, (_, i) => [{ i, s: `value ${i} '\\\n` }]))
  })

  it('answers a cheap query while a long one runs', async () => {
    let longSettled = false
    const long = failure(rows(ENDLESS, { settings: { max_execution_time: 3 } })).finally(() => {
      longSettled = true
    })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await rows('SELECT {n:UInt8} AS n', { params: { n: 1 } })).toEqual([{ n: 1 }])
    expect(longSettled).toBe(false)
    expectClickHouseError(await long, 159, 'TIMEOUT_EXCEEDED')
  })

  it('survives a client that aborts its request, and answers the next one', async () => {
    const controller = new AbortController()
    const aborted = failure(
      client.query({
        query: ENDLESS,
        clickhouse_settings: { max_execution_time: 2 },
        abort_signal: controller.signal,
      }),
    )
    setTimeout(() => controller.abort(), 200)
    expect(String(await aborted)).toMatch(/abort/i)
    expect(await rows('SELECT 2 AS two')).toEqual([{ two: 2 }])
  })

  it('speaks gzip both ways when the client compresses', async () => {
    const compressing = connect({ compression: { request: true, response: true } })
    try {
      await compressing.insert({ table: 'x', values: [{ a: 'gz' }], format: 'JSONEachRow' })
      expect(
        await rows('SELECT a FROM x WHERE a = {a:String}', { on: compressing, params: { a: 'gz' } }),
      ).toEqual([{ a: 'gz' }])
    } finally {
      await compressing.close()
    }
  })
})
