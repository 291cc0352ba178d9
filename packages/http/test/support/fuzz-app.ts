// The app the HTTP fuzzer runs against, and how it sends to it: the sample catalog's adapter behind
// `createApp` with metering and collections on the embedded stores (a fresh state folder), limits generous
// enough that the budget does not turn every answer into a 429, one key with a large budget that owns a
// collection, and the faults the app logs collected. Free of vitest, so `npm run fuzz` uses it too.
import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  DEFAULT_METERING_LIMITS,
  generateApiKey,
  keyRecordOf,
  type MeteringLimits,
  type StorageAdapter,
  type Tagger,
} from '@oqlkit/engine'
import { openFileCollectionStore, openFileKeyStore, openFileMeterStore } from '@oqlkit/file-stores'
import { answerClientErrors, createApp, meteredCaller } from '@oqlkit/http'
import { serve } from 'h3'
import {
  type FuzzTargets,
  type HostileRequest,
  type Judgement,
  judgeAnswer,
  toFetchRequest,
} from './hostile-requests.ts'

/** Budgets and rates far past what a fuzz run spends: the fuzzer is after faults, not 429s. */
export const GENEROUS_LIMITS: MeteringLimits = {
  ...DEFAULT_METERING_LIMITS,
  anonymousDailyBudgetUsd: 1_000_000,
  keyDailyBudgetUsd: 1_000_000,
  requestsPerWindow: 1_000_000_000,
  classRates: {},
}

export interface FuzzApp {
  readonly app: ReturnType<typeof createApp>
  /** The fuzz key: a large budget, owner of `targets.collectionIds`. */
  readonly key: string
  readonly targets: FuzzTargets
  /** Faults the app logged (what it answered 500 for). */
  readonly faults: unknown[]
  readonly close: () => Promise<void>
}

const ID_ENTITIES = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'publishers',
  'funders',
  'concepts',
]

/** Opens the fuzz app over an adapter (closed by the caller) and learns a few real ids to aim at. */
export async function openFuzzApp(adapter: StorageAdapter, tagger: Tagger): Promise<FuzzApp> {
  const dir = mkdtempSync(join(tmpdir(), 'oqlkit-http-fuzz-'))
  const keys = await openFileKeyStore({ dir })
  const meter = await openFileMeterStore({ dir })
  const collections = await openFileCollectionStore({ dir: join(dir, 'collections') })
  const faults: unknown[] = []
  const app = createApp({
    adapter,
    tagger,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    logError: (error) => {
      faults.push(error)
    },
    metering: { keys, meter, trustProxy: true, limits: GENEROUS_LIMITS },
    collections: { store: collections, callers: meteredCaller },
  })
  const key = generateApiKey()
  await keys.putKey(await keyRecordOf(key, { userId: 'fuzz', dailyBudgetUsd: 1_000_000 }, new Date()))
  const ask = async (method: string, path: string, body?: unknown) => {
    const response = await app.fetch(
      new Request(`http://localhost${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const parsed = (await response.json()) as Record<string, unknown>
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(parsed)}`)
    return parsed
  }
  const ids: Record<string, string[]> = {}
  for (const entity of ID_ENTITIES) {
    const list = (await ask('GET', `/${entity}?per_page=3&select=id`)) as { results: { id: string }[] }
    ids[entity] = list.results.map((row) => row.id.replace(/^https:\/\/openalex\.org\//, ''))
  }
  const collectionIds: string[] = []
  for (const entity of ['works', 'authors'] as const) {
    const made = await ask('POST', '/me/collections', {
      display_name: `fuzz ${entity}`,
      entity_type: entity,
      entity_ids: ids[entity],
    })
    collectionIds.push(String(made.id).replace(/^.*\//, ''))
  }
  return {
    app,
    key,
    targets: { ids, collectionIds },
    faults,
    close: async () => {
      await collections.close()
      await meter.close()
      await keys.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** One judged answer and how long it took. */
export interface Outcome extends Judgement {
  readonly ms: number
  readonly method: string
  readonly target: string
  readonly kind: string
}

/** Sends a hostile request through `app.fetch` and judges the answer (a throw is a failure too). */
export async function sendHostile(fuzz: FuzzApp, request: HostileRequest): Promise<Outcome> {
  const started = performance.now()
  const base = { method: request.method, target: request.target, kind: request.kind }
  try {
    const response = await fuzz.app.fetch(toFetchRequest(request, fuzz.key))
    const body = await response.text()
    const judged = judgeAnswer(
      request.method,
      response.status,
      response.headers.get('content-type'),
      body,
      request.target,
    )
    return { ...base, ...judged, ms: performance.now() - started }
  } catch (error) {
    return {
      ...base,
      status: 0,
      problem: `app.fetch threw: ${String(error)}`,
      ms: performance.now() - started,
    }
  }
}

/** The cheap request that must be answered while hostile ones run: 200 within `withinMs`. */
export async function cheapRequestAnswered(fuzz: FuzzApp, withinMs = 2_000): Promise<string | undefined> {
  const started = performance.now()
  const response = await fuzz.app.fetch(
    new Request('http://localhost/works?per_page=1', { headers: { authorization: `Bearer ${fuzz.key}` } }),
  )
  await response.text()
  const ms = performance.now() - started
  if (response.status !== 200) return `the cheap request answered ${response.status}`
  if (ms > withinMs) return `the cheap request took ${Math.round(ms)} ms`
  return undefined
}

/** Serves the app on a loopback port as `oqlkit serve` does (a 64 KB request head, JSON for parser errors). */
export async function listen(app: ReturnType<typeof createApp>) {
  const server = serve(app, {
    port: 0,
    hostname: '127.0.0.1',
    silent: true,
    node: { maxHeaderSize: 64 * 1024 },
  })
  await server.ready()
  if (server.node?.server !== undefined) answerClientErrors(server.node.server)
  if (server.url === undefined) throw new Error('the fuzz server has no address')
  return { port: Number(new URL(server.url).port), close: () => server.close(true) }
}

/** A raw answer: status, content type and body, read off the socket. */
export interface RawAnswer {
  readonly status: number
  readonly contentType: string | null
  readonly body: string
  /** The connection closed without a status line. */
  readonly empty: boolean
}

const dechunk = (bytes: Buffer): Buffer => {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at)
    if (lineEnd < 0) break
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/** Writes bytes to a loopback port and reads the answer until the server closes (connection: close). */
export function sendRaw(port: number, bytes: Uint8Array, timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.on('data', (chunk) => chunks.push(chunk))
    // A server may close while the request is still being written (a refused head): read what it said.
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const all = Buffer.concat(chunks)
      const headEnd = all.indexOf('\r\n\r\n')
      if (all.length === 0 || headEnd < 0) {
        resolve({ status: 0, contentType: null, body: all.toString('latin1'), empty: true })
        return
      }
      const head = all.subarray(0, headEnd).toString('latin1').split('\r\n')
      const status = Number(head[0]?.split(' ')[1])
      const header = (name: string) =>
        head
          .slice(1)
          .find((line) => line.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? null
      const rest = all.subarray(headEnd + 4)
      const body = header('transfer-encoding')?.toLowerCase() === 'chunked' ? dechunk(rest) : rest
      resolve({ status, contentType: header('content-type'), body: body.toString('utf8'), empty: false })
    })
    socket.write(bytes)
  })
}
