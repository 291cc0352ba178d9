// GET /{entities}/export through a real listening server, on a generated catalog of 2,200 works (ingested
// without search index, vectors or tagger, to keep it quick), read in batches of 1,000 rows: every format
// has every core work the snapshot files hold, every batch is a cursor page (which the 10,000-result depth
// of page paging does not limit), the price is per 1,000 rows, a client that goes away stops the export
// (its DuckDB statement interrupted, its admission slot given back), and cheap requests and group-bys are
// answered while exports hold every export slot.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import {
  createDuckDbAdapter,
  type DuckDbAdapter,
  openDuckDbDatabase,
  writeJsonLinesAsParquet,
} from '@oqlkit/adapter-duckdb'
import {
  createMemoryKeyStore,
  createMemoryMeterStore,
  DEFAULT_METERING_LIMITS,
  isQueryInterruptedError,
  type QueryOptions,
  type QueryPlan,
  type StorageAdapter,
} from '@oqlkit/engine'
import { createApp, RequestLimits } from '@oqlkit/http'
import { ingestSnapshot } from '@oqlkit/ingest'
import { generateSnapshot } from '@oqlkit/snapshot'
import { toNodeHandler } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Three batches of 1,000 core works, the third a short one (2,165 core works of seed 21): enough for every
// batch boundary the tests cross. 5,000 took 40% more of the file's time for no case of its own, and 3,000
// (2,945 core works) a quarter more than these, the third batch's size playing no part in any check.
const WORKS = 2_200

let root: string
let adapter: DuckDbAdapter
/** The ids and citation counts of the core works (not `is_xpac`), read from the generated snapshot's files. */
const core = new Map<string, number>()
let slowDb: Awaited<ReturnType<typeof openDuckDbDatabase>>

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-export-generated-'))
  // Only the vocabulary the works name: the export reads works, and the rest was 7,000 records to ingest.
  const summary = await generateSnapshot({
    works: WORKS,
    outDir: join(root, 'snapshot'),
    seed: 21,
    vocabulary: 'referenced',
  })
  await ingestSnapshot({
    snapshotDir: summary.outDir,
    outDir: join(root, 'catalog'),
    // One parse worker and one DuckDB thread: the exports read the catalog, not how it was built, and a
    // second parse worker cost ~2 s of CPU to start.
    threads: 1,
    searchIndex: false,
    vectors: false,
    textTagger: false,
  })
  const worksDir = join(summary.dataDir, 'works')
  for (const entry of readdirSync(worksDir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.gz')) continue
    for (const line of gunzipSync(readFileSync(join(worksDir, entry)))
      .toString('utf8')
      .split('\n')) {
      if (line === '') continue
      const work = JSON.parse(line) as { id: string; is_xpac?: boolean; cited_by_count: number }
      if (work.is_xpac !== true) core.set(work.id, work.cited_by_count)
    }
  }
  adapter = await createDuckDbAdapter({ catalogDir: join(root, 'catalog'), threads: 2 })
  slowDb = await openDuckDbDatabase({ threads: 1, connections: 4 })
}, 600_000)

afterAll(async () => {
  await adapter?.close()
  await slowDb?.close()
  if (root !== undefined) rmSync(root, { recursive: true, force: true })
})

/** A real listening server around an app, as `oqlkit serve` runs it. */
const listen = async (app: ReturnType<typeof createApp>) => {
  const server: Server = createServer(toNodeHandler(app))
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  }
}

const appOver = (
  storage: StorageAdapter,
  limits = new RequestLimits(),
  metered = false,
  logError?: (error: unknown) => void,
  compression = false,
) =>
  createApp({
    ...(compression ? { compression: true } : {}),
    adapter: storage,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    limits,
    writeParquet: writeJsonLinesAsParquet,
    ...(logError === undefined ? {} : { logError }),
    ...(metered
      ? {
          metering: {
            keys: createMemoryKeyStore(),
            meter: createMemoryMeterStore(),
            limits: DEFAULT_METERING_LIMITS,
          },
        }
      : {}),
  })

const ENDLESS = 'SELECT count(*) AS n FROM range(1000000000000) r WHERE r.range % 7 = 3'

/**
 * The catalog's adapter, counting the batches asked of it; with `stallAfterFirst`, a stand-in whose every batch
 * after the first first runs an endless statement on a real DuckDB with the batch's signal, so that a statement
 * is running when the client leaves and only an interrupt ends it.
 */
const watched = (stallAfterFirst: boolean) => {
  const seen = { batches: 0, interrupted: 0, pageKinds: new Set<string>() }
  const storage: StorageAdapter = {
    capabilities: adapter.capabilities,
    queryRows: async (plan: QueryPlan, options?: QueryOptions) => {
      seen.batches++
      seen.pageKinds.add(plan.page.kind)
      try {
        if (stallAfterFirst && plan.page.kind === 'cursor' && plan.page.after !== null)
          await slowDb.all(ENDLESS, [], options?.signal)
        return await adapter.queryRows(plan, options)
      } catch (error) {
        if (isQueryInterruptedError(error)) seen.interrupted++
        throw error
      }
    },
    queryGroups: (plan, options) => adapter.queryGroups(plan, options),
    findById: (entity, id, options) => adapter.findById(entity, id, options),
    findByExternalId: (entity, scheme, value, options) =>
      adapter.findByExternalId(entity, scheme, value, options),
    findRandom: (entity, options) => adapter.findRandom(entity, options),
    close: async () => {},
  }
  return { storage, seen }
}

/** A stand-in: the catalog's adapter, but its third batch fails as a broken disk would. */
const failingThirdBatch = () => {
  let batches = 0
  const storage: StorageAdapter = {
    ...watched(false).storage,
    queryRows: async (plan, options) => {
      if (++batches === 3) throw new Error('the disk went away')
      return adapter.queryRows(plan, options)
    },
  }
  return storage
}

const within = async (check: () => boolean, ms: number): Promise<boolean> => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (check()) return true
    await new Promise((wait) => setTimeout(wait, 25))
  }
  return check()
}

describe('exports of several batches on a generated catalog', () => {
  it('streams every core work as JSON Lines, CSV, JSON and Parquet, a cursor page at a time', async () => {
    expect(core.size, 'several batches of 1,000 rows').toBeGreaterThan(2_000)
    expect(Math.ceil(core.size / 1000), 'three batches').toBe(3)
    const reading = watched(false)
    const server = await listen(appOver(reading.storage))
    const dir = mkdtempSync(join(root, 'exports-'))
    try {
      const jsonl = await fetch(`${server.base}/works/export?format=jsonl`)
      expect(jsonl.status).toBe(200)
      expect(jsonl.headers.get('x-export-rows')).toBe(String(core.size))
      const lines = (await jsonl.text()).split('\n').filter((line) => line !== '')
      const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id)
      expect(ids.length).toBe(core.size)
      expect(new Set(ids)).toEqual(new Set(core.keys()))
      // Cursor pages only: the depth limit of page paging (10,000 results) never applies to an export.
      expect(reading.seen.batches).toBe(Math.ceil(core.size / 1000))
      expect([...reading.seen.pageKinds]).toStrictEqual(['cursor'])

      const csv = await fetch(`${server.base}/works/export?format=csv&select=id,cited_by_count`)
      const csvLines = (await csv.text()).split('\n')
      expect(csvLines[0]).toBe('id,cited_by_count')
      expect(csvLines.length).toBe(core.size + 2)
      for (const line of csvLines.slice(1, -1)) {
        const [id, cited] = line.split(',')
        expect(Number(cited), id).toBe(core.get(id!))
      }

      const json = await fetch(`${server.base}/works/export?format=json&select=id`)
      expect(((await json.json()) as unknown[]).length).toBe(core.size)

      const parquet = await fetch(`${server.base}/works/export?format=parquet&select=id,cited_by_count`)
      expect(parquet.status).toBe(200)
      writeFileSync(join(dir, 'works.parquet'), new Uint8Array(await parquet.arrayBuffer()))
      const db = await openDuckDbDatabase({ connections: 1 })
      try {
        const [row] = await db.all(
          'SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(cited_by_count) AS cited FROM read_parquet(?)',
          [join(dir, 'works.parquet')],
        )
        expect(row).toEqual({
          n: core.size,
          ids: core.size,
          cited: [...core.values()].reduce((sum, cited) => sum + cited, 0),
        })
      } finally {
        await db.close()
      }
    } finally {
      await server.close()
    }
  }, 300_000)

  it('charges the list price for every 1,000 rows begun', async () => {
    const server = await listen(appOver(adapter, new RequestLimits(), true))
    try {
      const response = await fetch(`${server.base}/works/export?format=jsonl&select=id`)
      expect(response.status).toBe(200)
      const units = Math.ceil(core.size / 1000)
      expect(Number(response.headers.get('x-ratelimit-credits-used'))).toBeCloseTo(0.0001 * units, 10)
      expect((await response.text()).split('\n').length - 1).toBe(core.size)
      const rate = (await (await fetch(`${server.base}/rate-limit`)).json()) as {
        rate_limit: { daily_used_usd: number }
      }
      expect(rate.rate_limit.daily_used_usd).toBeCloseTo(0.0001 * units, 10)
    } finally {
      await server.close()
    }
  }, 120_000)

  it('stops when the client goes away: no more batches, the running statement interrupted, the slot given back', async () => {
    // The real adapter: the client reads the first chunk and leaves; batches stop short of the last.
    const limits = new RequestLimits()
    const real = watched(false)
    const server = await listen(appOver(real.storage, limits))
    try {
      const leaving = new AbortController()
      const response = await fetch(`${server.base}/works/export?format=jsonl`, { signal: leaving.signal })
      const reader = response.body!.getReader()
      await reader.read()
      leaving.abort()
      expect(
        await within(() => limits.exportAdmission.load.running === 0, 5_000),
        'the slot is given back',
      ).toBe(true)
      expect(limits.inFlight).toBe(0)
      const asked = real.seen.batches
      await new Promise((wait) => setTimeout(wait, 500))
      expect(real.seen.batches, 'no batch is read after the client left').toBe(asked)
      expect(asked).toBeLessThan(Math.ceil(core.size / 1000))
    } finally {
      await server.close()
    }

    // The stand-in whose second batch runs until interrupted: the client's leaving interrupts it.
    const stalled = watched(true)
    const stalledLimits = new RequestLimits()
    const second = await listen(appOver(stalled.storage, stalledLimits))
    try {
      const leaving = new AbortController()
      const response = await fetch(`${second.base}/works/export?format=jsonl&select=id`, {
        signal: leaving.signal,
      })
      const reader = response.body!.getReader()
      await reader.read()
      expect(await within(() => stalled.seen.batches === 2, 5_000), 'the second batch runs').toBe(true)
      leaving.abort()
      expect(await within(() => stalled.seen.interrupted === 1, 5_000), 'its statement is interrupted').toBe(
        true,
      )
      expect(await within(() => stalledLimits.exportAdmission.load.running === 0, 5_000)).toBe(true)
      expect(stalled.seen.batches).toBe(2)
    } finally {
      await second.close()
    }
  }, 120_000)

  it('through the gzip oqlkit serve adds: every row arrives, and a client that leaves still stops the export', async () => {
    const limits = new RequestLimits()
    const stalled = watched(true)
    const gzipped = await listen(appOver(adapter, new RequestLimits(), false, undefined, true))
    const leavingServer = await listen(appOver(stalled.storage, limits, false, undefined, true))
    try {
      const whole = await fetch(`${gzipped.base}/works/export?format=jsonl&select=id`, {
        headers: { 'accept-encoding': 'gzip' },
      })
      expect(whole.headers.get('content-encoding')).toBe('gzip')
      expect((await whole.text()).split('\n').length - 1).toBe(core.size)

      const leaving = new AbortController()
      const response = await fetch(`${leavingServer.base}/works/export?format=jsonl&select=id`, {
        signal: leaving.signal,
        headers: { 'accept-encoding': 'gzip' },
      })
      expect(response.headers.get('content-encoding')).toBe('gzip')
      // gzip may hold the first batch's bytes until it has more: wait for the second batch, not for bytes.
      expect(await within(() => stalled.seen.batches === 2, 5_000), 'the second batch runs').toBe(true)
      leaving.abort()
      expect(await within(() => stalled.seen.interrupted === 1, 5_000), 'its statement is interrupted').toBe(
        true,
      )
      expect(await within(() => limits.exportAdmission.load.running === 0, 5_000)).toBe(true)
    } finally {
      await gzipped.close()
      await leavingServer.close()
    }
  }, 120_000)

  it('a failure of the server while rows flow breaks the body off short of X-Export-Rows, and is not charged', async () => {
    const faults: unknown[] = []
    const limits = new RequestLimits()
    const server = await listen(appOver(failingThirdBatch(), limits, true, (error) => faults.push(error)))
    try {
      const response = await fetch(`${server.base}/works/export?format=jsonl&select=id`)
      expect(response.status).toBe(200)
      expect(response.headers.get('x-export-rows')).toBe(String(core.size))
      const reader = response.body!.getReader()
      let received = ''
      const broken = await (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read()
            if (done) return false
            received += new TextDecoder().decode(value)
          }
        } catch {
          return true
        }
      })()
      expect(broken, 'the body breaks off rather than ending as if complete').toBe(true)
      expect(received.split('\n').length - 1).toBeLessThanOrEqual(2000)
      expect(await within(() => faults.length === 1, 5_000)).toBe(true)
      expect(String(faults[0])).toContain('the disk went away')
      expect(await within(() => limits.exportAdmission.load.running === 0, 5_000)).toBe(true)
      await new Promise((wait) => setTimeout(wait, 200))
      const rate = (await (await fetch(`${server.base}/rate-limit`)).json()) as {
        rate_limit: { daily_used_usd: number }
      }
      expect(rate.rate_limit.daily_used_usd).toBe(0)
    } finally {
      await server.close()
    }
  }, 120_000)

  it('a shutdown interrupts an export still running once its grace period is over', async () => {
    const limits = new RequestLimits()
    const stalled = watched(true)
    const server = await listen(appOver(stalled.storage, limits))
    const client = new AbortController()
    try {
      const response = await fetch(`${server.base}/works/export?format=csv&select=id`, {
        signal: client.signal,
      })
      await response.body!.getReader().read()
      expect(await within(() => stalled.seen.batches === 2, 5_000)).toBe(true)
      expect(limits.inFlight).toBe(1)
      const started = performance.now()
      await limits.shutdown(200, 5_000)
      expect(performance.now() - started).toBeLessThan(4_000)
      expect(stalled.seen.interrupted).toBe(1)
      expect(limits.inFlight).toBe(0)
      expect(limits.exportAdmission.load.running).toBe(0)
    } finally {
      client.abort()
      await server.close()
    }
  }, 120_000)

  it('answers cheap requests and group-bys while exports hold every export slot, and refuses another export with 503', async () => {
    const limits = new RequestLimits({ heavySlots: 2, exportSlots: 2, exportQueue: 0 })
    const stalled = watched(true)
    const server = await listen(appOver(stalled.storage, limits))
    const clients = [new AbortController(), new AbortController()]
    try {
      for (const client of clients) {
        const response = await fetch(`${server.base}/works/export?format=csv&select=id`, {
          signal: client.signal,
        })
        expect(response.status).toBe(200)
        await response.body!.getReader().read()
      }
      expect(limits.exportAdmission.load.running).toBe(2)
      const started = performance.now()
      const list = await fetch(`${server.base}/works?filter=publication_year:2020&per_page=5`)
      expect(list.status).toBe(200)
      expect(((await list.json()) as { results: unknown[] }).results.length).toBe(5)
      const single = await fetch(`${server.base}/works/${[...core.keys()][0]!.split('/').pop()}`)
      expect(single.status).toBe(200)
      // A group-by is heavy, and takes a heavy slot, which no export holds.
      const grouped = await fetch(`${server.base}/works?group_by=type`)
      expect(grouped.status).toBe(200)
      await grouped.json()
      expect(limits.admission.load.running).toBe(0)
      expect(performance.now() - started).toBeLessThan(5_000)
      const third = await fetch(`${server.base}/works/export?format=csv&select=id`)
      expect(third.status).toBe(503)
      expect(((await third.json()) as { code: string }).code).toBe('server_busy')
      for (const client of clients) client.abort()
      expect(await within(() => limits.exportAdmission.load.running === 0, 5_000)).toBe(true)
      const after = await fetch(
        `${server.base}/works/export?format=csv&select=id&filter=publication_year:2020`,
      )
      expect(after.status).toBe(200)
      await after.text()
    } finally {
      for (const client of clients) client.abort()
      await server.close()
    }
  }, 120_000)
})
