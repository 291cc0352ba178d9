// The limits that keep one request from stalling the server: a time budget per request enforced in storage,
// a bounded admission queue for heavy plans (light ones keep their own way), shutdown, and HEAD.
//
// The slow queries come from a stand-in adapter: the sample catalog's real adapter, except that a heavy plan
// (a search or a group-by) first runs an endless statement on a real DuckDB with the call's signal, so it
// ends only when interrupted. Everything else (routes, metering, the interrupt itself) is real.
import { openDuckDbDatabase } from '@oqlkit/adapter-duckdb'
import { type QueryOptions, type StorageAdapter, workloadOfPlan } from '@oqlkit/engine'
import { createApp, RequestLimits } from '@oqlkit/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()

const ENDLESS = 'SELECT count(*) AS n FROM range(1000000000000) r WHERE r.range % 7 = 3'

let slowDb: Awaited<ReturnType<typeof openDuckDbDatabase>>
beforeAll(async () => {
  slowDb = await openDuckDbDatabase({ threads: 1, connections: 4 })
})
afterAll(async () => {
  await slowDb?.close()
})

/** Stand-in: the sample adapter, whose heavy plans run until their signal stops them. */
const slowHeavyAdapter = (adapter: StorageAdapter): StorageAdapter => {
  const stall = async (plan: Parameters<StorageAdapter['queryRows']>[0], options?: QueryOptions) => {
    if (workloadOfPlan(plan) === 'heavy') await slowDb.all(ENDLESS, [], options?.signal)
  }
  return {
    ...adapter,
    capabilities: adapter.capabilities,
    queryRows: async (plan, options) => {
      await stall(plan, options)
      return adapter.queryRows(plan, options)
    },
    queryGroups: async (plan, options) => {
      await stall(plan, options)
      return adapter.queryGroups(plan, options)
    },
    findById: (entity, id, options) => adapter.findById(entity, id, options),
    close: async () => {},
  }
}

const appWith = (limits: RequestLimits) =>
  createApp({
    adapter: slowHeavyAdapter(sample.adapter),
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    limits,
    logError: (error) => sample.faults.push(error),
  })

const get = async (app: ReturnType<typeof createApp>, path: string, method = 'GET') => {
  const response = await app.fetch(new Request(`http://localhost${path}`, { method }))
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text === '' ? undefined : JSON.parse(text),
  }
}

const SINGLETON = '/works/random'
const HEAVY = '/works?search=climate'

describe('a time budget per request', () => {
  it('stops a query past its budget in storage and answers 503 JSON with Retry-After', async () => {
    const app = appWith(new RequestLimits({ queryTimeoutMs: 300 }))
    const started = performance.now()
    const answer = await get(app, HEAVY)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(answer.status).toBe(503)
    expect(answer.body.code).toBe('query_timeout')
    expect(answer.body.message).toMatch(/ran past the 0.3 s .* Narrow it/)
    expect(answer.headers.get('retry-after')).toBe('1')
    // The storage that ran it answers the next request.
    expect((await get(app, '/works?per_page=1')).status).toBe(200)
    expect((await get(app, '/works?group_by=type')).status).toBe(503)
  })

  it('answers group-bys and the execute endpoint alike', async () => {
    const app = appWith(new RequestLimits({ queryTimeoutMs: 200 }))
    expect((await get(app, '/works?group_by=type')).body.code).toBe('query_timeout')
    const oql = encodeURIComponent('works where title has "climate"')
    expect((await get(app, `/?oql=${oql}`)).body.code).toBe('query_timeout')
  })
})

describe('admission of heavy plans', () => {
  it('refuses a heavy plan at once when every slot and place in line is taken, and still answers light ones', async () => {
    const limits = new RequestLimits({ queryTimeoutMs: 60_000, heavySlots: 1, heavyQueue: 1 })
    const app = appWith(limits)
    const running = get(app, HEAVY)
    const waiting = get(app, '/works?group_by=type')
    await expect.poll(() => limits.admission.load).toEqual({ running: 1, waiting: 1 })
    const started = performance.now()
    const refused = await get(app, '/authors?search=smith')
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(refused.status).toBe(503)
    expect(refused.body.code).toBe('server_busy')
    expect(refused.headers.get('retry-after')).toBe('2')
    // Light work does not wait for the heavy line.
    const light = performance.now()
    expect((await get(app, SINGLETON)).status).toBe(200)
    expect((await get(app, '/works?filter=publication_year:2020&per_page=5')).status).toBe(200)
    expect(performance.now() - light).toBeLessThan(1_000)
    // Shutting down stops both; they answer 503.
    await limits.shutdown(50, 5_000)
    const [first, second] = await Promise.all([running, waiting])
    expect([first.status, first.body.code, second.status, second.body.code]).toEqual([
      503,
      'shutting_down',
      503,
      'shutting_down',
    ])
    expect(limits.admission.load).toEqual({ running: 0, waiting: 0 })
  })
})

describe('a heavy plan waiting for a slot', () => {
  it('leaves the line at its deadline with 503 server_busy and Retry-After, not a query_timeout it never ran', async () => {
    const limits = new RequestLimits({ queryTimeoutMs: 500, heavySlots: 1, heavyQueue: 1 })
    const app = appWith(limits)
    // The one slot, held past the deadline of the request that waits for it.
    const release = await limits.admission.acquire()
    const started = performance.now()
    const waited = await get(app, '/works?group_by=type')
    const elapsed = performance.now() - started
    expect(waited.status).toBe(503)
    expect(waited.body.code ?? waited.body.error).toBe('server_busy')
    expect(waited.body.message).toMatch(/before this request’s deadline/)
    expect(waited.headers.get('retry-after')).toBe('2')
    // Near its deadline: it neither waited for the slot to come free nor was refused at once.
    expect(elapsed).toBeGreaterThanOrEqual(400)
    expect(elapsed).toBeLessThan(5_000)
    expect(limits.admission.load).toEqual({ running: 1, waiting: 0 })
    release()
    expect(limits.admission.load).toEqual({ running: 0, waiting: 0 })
  })
})

describe('shutdown', () => {
  it('lets requests in flight finish, refuses new ones, and interrupts what runs past the grace period', async () => {
    const limits = new RequestLimits({ queryTimeoutMs: 60_000 })
    const app = appWith(limits)
    const stuck = get(app, HEAVY)
    await expect.poll(() => limits.inFlight).toBe(1)
    const started = performance.now()
    const stopping = limits.shutdown(300, 5_000)
    const refused = await get(app, SINGLETON)
    expect(refused.status).toBe(503)
    expect(refused.body.code).toBe('shutting_down')
    await stopping
    expect(performance.now() - started).toBeLessThan(5_000)
    expect((await stuck).body.code).toBe('shutting_down')
    expect(limits.inFlight).toBe(0)
  })

  it('returns at once when nothing is in flight', async () => {
    const limits = new RequestLimits()
    const started = performance.now()
    await limits.shutdown(10_000)
    expect(performance.now() - started).toBeLessThan(100)
  })
})

describe('HEAD', () => {
  const app = () => appWith(new RequestLimits())
  it.each([
    '/',
    '/works?per_page=1',
    '/works/random',
    '/authors',
    '/autocomplete?q=clim',
    '/validate?q=works',
    '/properties/works',
    '/openapi.json',
  ])('answers HEAD %s like GET, without a body', async (path) => {
    const viaGet = await get(app(), path)
    const viaHead = await get(app(), path, 'HEAD')
    expect(viaHead.status).toBe(viaGet.status)
    expect(viaHead.text).toBe('')
    expect(viaHead.headers.get('content-type')).toBe(viaGet.headers.get('content-type'))
  })

  it('answers HEAD of an unknown path 404 without a body', async () => {
    const answer = await get(app(), '/nowhere', 'HEAD')
    expect([answer.status, answer.text]).toEqual([404, ''])
  })
})

describe('no faults', () => {
  it('logged none', () => {
    expect(sample.faults).toEqual([])
  })
})
