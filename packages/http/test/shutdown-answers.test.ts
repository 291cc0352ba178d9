// A shutdown answers every request it took: one whose storage work ignores the interrupt (a native statement
// that does not stop) is answered 503 `shutting_down` without it once the interrupt wait is over, and a
// streamed answer whose head is set but not yet written (an export before its first rows) gets its status
// line before the sockets close. Real DuckDB for the statement that ignores its interrupt, real sockets for
// the heads.
import { once } from 'node:events'
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openDuckDbDatabase } from '@oqlkit/adapter-duckdb'
import { type StorageAdapter, workloadOfPlan } from '@oqlkit/engine'
import { createApp, RequestLimits, trackOpenResponses } from '@oqlkit/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()

/** Minutes of work for one core: it ends only when interrupted. */
const ENDLESS = 'SELECT count(*) AS n FROM range(1000000000000) r WHERE r.range % 7 = 3'

let deafDb: Awaited<ReturnType<typeof openDuckDbDatabase>>
beforeAll(async () => {
  deafDb = await openDuckDbDatabase({ threads: 1, connections: 2 })
})
afterAll(async () => {
  // Closing interrupts the statements the requests left running.
  await deafDb?.close()
})

/** The sample adapter, whose heavy plans first run a statement deaf to the request's signal. */
const deafHeavyAdapter = (adapter: StorageAdapter): StorageAdapter => ({
  ...adapter,
  capabilities: adapter.capabilities,
  queryRows: async (plan, options) => {
    if (workloadOfPlan(plan) === 'heavy') await deafDb.all(ENDLESS)
    return adapter.queryRows(plan, options)
  },
  findById: (entity, id, options) => adapter.findById(entity, id, options),
  close: async () => {},
})

/** `work`'s value, or 'unanswered' when it has none within `ms`. */
const within = async <T>(work: Promise<T>, ms: number): Promise<T | 'unanswered'> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'unanswered'>((resolve) => {
    timer = setTimeout(() => resolve('unanswered'), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

describe('a shutdown under storage work that ignores its interrupt', () => {
  it('answers the request 503 shutting_down once the interrupt wait is over, and returns', async () => {
    const limits = new RequestLimits({ queryTimeoutMs: 60_000 })
    const app = createApp({
      adapter: deafHeavyAdapter(sample.adapter),
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      limits,
      logError: (error) => sample.faults.push(error),
    })
    const answer = Promise.resolve(app.fetch(new Request('http://localhost/works?search=climate'))).then(
      async (response) => ({ status: response.status, body: (await response.json()) as { code: string } }),
    )
    await expect.poll(() => limits.inFlight).toBe(1)
    const started = performance.now()
    await limits.shutdown(100, 300)
    const answered = await within(answer, 5_000)
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(answered).toEqual({ status: 503, body: expect.objectContaining({ code: 'shutting_down' }) })
    expect(limits.inFlight).toBe(0)
    expect(sample.faults).toEqual([])
  })
})

describe('open responses at a shutdown', () => {
  it('sends the head of a response whose body has not begun, so its client gets a status line', async () => {
    const server = createServer((_request, response) => {
      // A streamed answer: its head is set, and would go out with its first chunk, which never comes.
      response.writeHead(200, { 'content-type': 'application/jsonl' })
    })
    const open = trackOpenResponses(server)
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const status = new Promise<number | 'no status line'>((resolve) => {
      const req = request(`http://127.0.0.1:${port}/export`, (response) => {
        resolve(response.statusCode ?? 'no status line')
        response.resume()
        response.on('error', () => {})
      })
      req.once('error', () => resolve('no status line'))
      req.end()
    })
    await expect.poll(() => open.count).toBe(1)
    await open.flushHeads()
    // The sockets close at once after that, as a shutdown closes them.
    server.closeAllConnections()
    server.close()
    expect(await within(status, 5_000)).toBe(200)
  })
})
