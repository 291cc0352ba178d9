// Exports beside searches, over a real listening server on the sample catalog (`startServer`, as `oqlkit
// serve` runs it): exports have admission slots of their own, so two exports held open by slow readers do not
// keep a search waiting; an export's wait for a slot ends at its request's deadline with 503 `server_busy`;
// and a query the storage refuses is a 400 at once, though every export slot is taken.
import { type ClientRequest, type IncomingMessage, request } from 'node:http'
import { createApp, RequestLimits, type StartedServer, startServer } from '@oqlkit/http'
import { afterEach, describe, expect, it } from 'vitest'
import { collectGarbageFor } from './support/garbage-collection.ts'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
const started: StartedServer[] = []
const readers: ClientRequest[] = []
afterEach(async () => {
  for (const reader of readers.splice(0)) reader.destroy()
  for (const server of started.splice(0)) await server.close(true)
})

const listen = async (limits: RequestLimits): Promise<string> => {
  const app = createApp({
    adapter: sample.adapter,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    limits,
    logError: (error) => sample.faults.push(error),
  })
  const server = await startServer(app, { port: 0 })
  started.push(server)
  return (server.url ?? '').replace(/\/$/, '')
}

/**
 * A client that asks for an export and reads only its first chunk, then stops reading: the socket's buffers
 * fill and the export stays open (holding its slot) for as long as the client keeps the connection.
 */
const slowReader = (url: string): Promise<IncomingMessage> =>
  new Promise((answered, failed) => {
    const asking = request(url, (response) => {
      response.once('data', () => response.pause())
      answered(response)
    })
    asking.on('error', failed)
    readers.push(asking)
    asking.end()
  })

/** The error code of an error body (`code` where the body also carries a title as `error`). */
const codeOf = (body: { code?: string; error?: string }) => body.code ?? body.error

// The whole works export of the sample is megabytes of JSON: more than the socket buffers hold.
const EXPORT = '/works/export?format=jsonl'

describe('exports beside searches', () => {
  it('answers a search at once while two slow readers hold both export slots', async () => {
    // A short deadline: a search that had to wait for an export to end would answer 503 after 3 s.
    const limits = new RequestLimits({ queryTimeoutMs: 3_000, heavySlots: 2, exportSlots: 2 })
    const base = await listen(limits)
    const exports = [await slowReader(`${base}${EXPORT}`), await slowReader(`${base}${EXPORT}`)]
    // Both answered with their headers: each holds a slot until its reader takes the rest.
    expect(exports.map((response) => response.statusCode)).toEqual([200, 200])

    for (const path of ['/works?search=cancer', '/works?group_by=type', '/works?sample=5&seed=1']) {
      const startedAt = performance.now()
      const answer = await fetch(`${base}${path}`)
      expect(answer.status, path).toBe(200)
      await answer.json()
      expect(performance.now() - startedAt, path).toBeLessThan(2_500)
    }
    // The exports were open all along, in slots of their own: their slow readers still hold them.
    expect(limits.exportAdmission.load).toEqual({ running: 2, waiting: 0 })
    expect(limits.admission.load).toEqual({ running: 0, waiting: 0 })
  }, 60_000)

  it('ends an export’s wait for a slot after one query timeout: 503 server_busy with Retry-After', async () => {
    // The deadline also bounds the export's first batch, read before it queues: 2 s, since under a loaded CI
    // machine, with this process's forced collections below, 1 s once ran out while that batch was read (a
    // 503 query_timeout, not the wait this test is about).
    const limits = new RequestLimits({ queryTimeoutMs: 2_000, heavySlots: 1, exportSlots: 1, exportQueue: 1 })
    const base = await listen(limits)
    // Its headers came once it held its slot; the reader then stops reading.
    await slowReader(`${base}${EXPORT}`)

    const startedAt = performance.now()
    const asking = fetch(`${base}${EXPORT}`, { signal: AbortSignal.timeout(15_000) }).catch(
      (error: unknown) => {
        const where = { exports: limits.exportAdmission.load, queries: limits.admission.load }
        throw new Error(`no answer in 15 s; admission queues: ${JSON.stringify(where)}`, { cause: error })
      },
    )
    // Collections while it waits, as on a loaded server: a deadline held only weakly was collected and never
    // fired (CI saw this request wait 15 s with one export waiting), so the wait never ended.
    await collectGarbageFor(2_500)
    const waited = await asking
    const elapsed = performance.now() - startedAt
    expect(waited.status).toBe(503)
    expect(waited.headers.get('retry-after')).toBe('2')
    const body = (await waited.json()) as { code?: string; error?: string; message: string }
    expect(codeOf(body)).toBe('server_busy')
    expect(body.message).toMatch(/exports .* before this request’s deadline/)
    // It waited for its deadline, not for the slow reader.
    expect(elapsed).toBeGreaterThanOrEqual(1_900)
    expect(elapsed).toBeLessThan(6_000)
    expect(limits.exportAdmission.load).toEqual({ running: 1, waiting: 0 })
  }, 60_000)

  it('ends an export’s wait for a slot at a shutdown: 503 shutting_down', async () => {
    const limits = new RequestLimits({
      queryTimeoutMs: 30_000,
      heavySlots: 1,
      exportSlots: 1,
      exportQueue: 1,
    })
    const base = await listen(limits)
    await slowReader(`${base}${EXPORT}`)
    // Settled either way, so that a failure below leaves no rejection unhandled.
    const waiting = fetch(`${base}${EXPORT}`, { signal: AbortSignal.timeout(30_000) }).catch(
      (error: unknown) => error,
    )
    // Its first batch is read before it queues: on a busy machine that takes a while.
    await expect.poll(() => limits.exportAdmission.load.waiting, { timeout: 20_000 }).toBe(1)
    await limits.shutdown(100, 2_000)
    const answer = await waiting
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).status).toBe(503)
    expect(codeOf((await (answer as Response).json()) as { code?: string; error?: string })).toBe(
      'shutting_down',
    )
    expect(limits.exportAdmission.load.waiting).toBe(0)
  }, 60_000)

  it('refuses a search the storage cannot run with 400 at once, though every export slot is taken', async () => {
    const limits = new RequestLimits({
      queryTimeoutMs: 10_000,
      heavySlots: 1,
      exportSlots: 1,
      exportQueue: 4,
    })
    const base = await listen(limits)
    // Its headers came once it held its slot; the reader then stops reading.
    await slowReader(`${base}${EXPORT}`)

    // The planner takes it; the search index finds no word in it.
    const startedAt = performance.now()
    const refused = await fetch(`${base}/works/export?format=csv&search=${encodeURIComponent('"-"')}`, {
      signal: AbortSignal.timeout(15_000),
    })
    expect(refused.status).toBe(400)
    expect(codeOf((await refused.json()) as { code?: string; error?: string })).toBe('invalid_search')
    expect(performance.now() - startedAt).toBeLessThan(5_000)
    expect(limits.exportAdmission.load).toEqual({ running: 1, waiting: 0 })
  }, 60_000)
})

describe('no faults', () => {
  it('logged none', () => {
    expect(sample.faults).toEqual([])
  })
})
