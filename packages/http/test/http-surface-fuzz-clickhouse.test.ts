// The HTTP fuzz of http-surface-fuzz.test.ts against the app `oqlkit serve --clickhouse` serves: the same
// hostile requests (support/hostile-requests.ts) and the same judge, over the sample catalog loaded into
// ClickHouse (chdb behind the test stand-in for its HTTP interface, support/clickhouse-sample.ts). What is
// ClickHouse's own is its SQL (filters, groups, sorts, searches the adapter compiles) and its errors, so
// the requests go through `app.fetch`; the raw bytes of the request line and headers are the HTTP layer's,
// fuzzed on the DuckDB app. Smaller than the DuckDB run, so it adds little to the suite; `npm run fuzz --
// --adapter clickhouse` runs it at volume. The seed is fixed (FUZZ_SEED picks another).

import { chdbInstalled } from '@oqlkit/adapter-clickhouse/test-support'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClickHouseSample, openSharedClickHouseSample } from './support/clickhouse-sample.ts'
import { cheapRequestAnswered, type FuzzApp, openFuzzApp, sendHostile } from './support/fuzz-app.ts'
import { describeRequest, hostileRequest } from './support/hostile-requests.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const SEED = Number(process.env.FUZZ_SEED ?? 37_006)

let clickhouse: ClickHouseSample
let fuzz: FuzzApp

// Long: the first file of a worker builds the shared sample catalog, and the load into chdb follows.
beforeAll(async () => {
  clickhouse = await openSharedClickHouseSample()
  fuzz = await openFuzzApp(clickhouse.adapter, clickhouse.tagger)
}, 480_000)

afterAll(async () => {
  await fuzz?.close()
  await clickhouse?.close()
})

const faultsText = () =>
  fuzz.faults
    .map((fault) => (fault instanceof Error ? (fault.stack ?? fault.message) : String(fault)))
    .join('\n')

onChdb('the HTTP surface on ClickHouse under hostile requests', () => {
  it('answers each hostile request with JSON and no 5xx but the documented 503s', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest(fuzz.targets), async (request) => {
        const outcome = await sendHostile(fuzz, request)
        expect(outcome.problem, describeRequest(request.method, request.target)).toBeUndefined()
        expect(fuzz.faults, faultsText()).toEqual([])
      }),
      { numRuns: 400, seed: SEED },
    )
  }, 120_000)

  // 5 s, not the DuckDB run's 2 s: the stand-in runs statements with parameters one at a time (chdb shares
  // their binding state), so the cheap request's statements wait behind the whole batch's, exports' included,
  // where a ClickHouse server runs them side by side. What it still catches is an app that stops answering.
  it('answers a cheap request within 5 s while a batch of hostile ones runs at once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileRequest(fuzz.targets), { minLength: 6, maxLength: 10 }),
        async (batch) => {
          const sent = batch.map((request) => sendHostile(fuzz, request))
          const cheap = cheapRequestAnswered(fuzz, 5_000)
          const outcomes = await Promise.all(sent)
          expect(await cheap, `beside ${batch.length} hostile requests`).toBeUndefined()
          for (const outcome of outcomes)
            expect(outcome.problem, describeRequest(outcome.method, outcome.target)).toBeUndefined()
          expect(fuzz.faults, faultsText()).toEqual([])
        },
      ),
      { numRuns: 12, seed: SEED + 1 },
    )
  }, 120_000)
})
