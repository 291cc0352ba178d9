// `npm run fuzz`: the HTTP fuzzer at volume. Sends hostile requests (packages/http/test/support/
// hostile-requests.ts, the same arbitraries as http-surface-fuzz.test.ts) to the metered app with
// collections over the sample catalog: most through `app.fetch`, one in twenty as raw bytes to a real
// loopback server, in concurrent batches with a cheap request timed in the middle of each. Prints the
// status and error-code tallies, the slowest requests and every failure, and exits 1 on any failure.
//
// With `--adapter clickhouse` the app is the one `oqlkit serve --clickhouse` serves: the same sample catalog
// loaded into ClickHouse (chdb, in this process, behind the test stand-in for a server's HTTP interface).
//
//   npm run fuzz                       100,000 requests, seed 18006, on DuckDB
//   FUZZ_RUNS=5000 FUZZ_SEED=7 npm run fuzz   (or: npm run fuzz -- --runs 5000 --seed 7)
//   npm run fuzz -- --runs 20000 --adapter clickhouse
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { CATALOG_FORMAT_VERSION, loadCatalogTagger } from '@oqlkit/catalog'
import {
  cheapRequestAnswered,
  describeRequest,
  hostileRequest,
  judgeAnswer,
  listen,
  type Outcome,
  openClickHouseSample,
  openFuzzApp,
  rawRequest,
  SAMPLE_SNAPSHOT_DIR,
  sendHostile,
  sendRaw,
} from '@oqlkit/http/test-support'
import { ingestSnapshot } from '@oqlkit/ingest'
import fc from 'fast-check'

const { values } = parseArgs({
  options: {
    runs: { type: 'string' },
    seed: { type: 'string' },
    concurrency: { type: 'string' },
    adapter: { type: 'string' },
  },
})
const ADAPTER = values.adapter ?? process.env.FUZZ_ADAPTER ?? 'duckdb'
const RUNS = Number(values.runs ?? process.env.FUZZ_RUNS ?? 100_000)
const SEED = Number(values.seed ?? process.env.FUZZ_SEED ?? 18_006)
/** Requests in flight at once: enough to keep the admission queue busy, few enough to learn from. */
const CONCURRENCY = Number(values.concurrency ?? process.env.FUZZ_CONCURRENCY ?? 8)
/** One request in this many goes over a socket as raw bytes. */
const RAW_EVERY = 20
const BATCH = 200

if (!Number.isInteger(RUNS) || RUNS < 1 || !Number.isInteger(SEED) || !Number.isInteger(CONCURRENCY))
  throw new Error('--runs, --seed and --concurrency take whole numbers')
if (ADAPTER !== 'duckdb' && ADAPTER !== 'clickhouse') throw new Error('--adapter takes duckdb or clickhouse')
/**
 * How soon the cheap request must answer during a batch. On ClickHouse it is 5 s, as in the test's variant: the
 * chdb stand-in runs statements that bind parameters one at a time, so the cheap list waits behind the batch's
 * statements there, where a ClickHouse server would run them side by side.
 */
const CHEAP_WITHIN_MS = ADAPTER === 'clickhouse' ? 5_000 : 2_000

// The sample catalog, built once per catalog format and kept between runs.
const catalogDir = join(tmpdir(), `oqlkit-fuzz-catalog-c${CATALOG_FORMAT_VERSION}`)
if (!existsSync(join(catalogDir, 'catalog.json'))) {
  process.stderr.write(`building the sample catalog in ${catalogDir}\n`)
  await ingestSnapshot({ snapshotDir: SAMPLE_SNAPSHOT_DIR, outDir: catalogDir, mode: 'replace' })
}
/** The adapter and tagger the app serves, and how to close them. */
const openServed = async () => {
  if (ADAPTER === 'clickhouse') {
    const loadStarted = performance.now()
    const sample = await openClickHouseSample(catalogDir)
    process.stderr.write(
      `loaded the sample catalog into ClickHouse (chdb) in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s\n`,
    )
    return sample
  }
  const adapter = await createDuckDbAdapter({ catalogDir, threads: 1 })
  const tagger = await loadCatalogTagger(catalogDir)
  if (tagger === undefined) throw new Error(`the catalog ${catalogDir} has no text-tagging model`)
  return { adapter, tagger, close: () => adapter.close() }
}
const served = await openServed()
const fuzz = await openFuzzApp(served.adapter, served.tagger)
const server = await listen(fuzz.app)

const statuses = new Map<number, number>()
const errors = new Map<string, number>()
const kinds = new Map<string, number>()
const failures: (Outcome & { readonly index: number })[] = []
const slowest: Outcome[] = []
const cheap = { checked: 0, failed: [] as string[], slowestMs: 0 }
const count = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1)

const record = (outcome: Outcome, index: number) => {
  count(statuses, outcome.status)
  if (outcome.error !== undefined) count(errors, outcome.error)
  count(kinds, outcome.kind)
  if (outcome.problem !== undefined) failures.push({ ...outcome, index })
  slowest.push(outcome)
  slowest.sort((a, b) => b.ms - a.ms)
  if (slowest.length > 10) slowest.length = 10
}

const rawArbitrary = rawRequest(fuzz.key)
const hostileArbitrary = hostileRequest(fuzz.targets)

const runOne = async (index: number): Promise<Outcome> => {
  if (index % RAW_EVERY === RAW_EVERY - 1) {
    const [raw] = fc.sample(rawArbitrary, { numRuns: 1, seed: SEED + index })
    const started = performance.now()
    const target = new TextDecoder().decode(raw!.bytes.subarray(0, Math.min(raw!.bytes.indexOf(0x0d), 400)))
    try {
      const answer = await sendRaw(server.port, raw!.bytes)
      const judged = answer.empty
        ? {
            status: 0,
            problem: `the connection closed without an answer: ${JSON.stringify(answer.body.slice(0, 80))}`,
          }
        : judgeAnswer(
            target.startsWith('HEAD') ? 'HEAD' : 'GET',
            answer.status,
            answer.contentType,
            answer.body,
          )
      return { ...judged, ms: performance.now() - started, method: 'RAW', target, kind: raw!.kind }
    } catch (error) {
      return {
        status: 0,
        problem: String(error),
        ms: performance.now() - started,
        method: 'RAW',
        target,
        kind: raw!.kind,
      }
    }
  }
  const [request] = fc.sample(hostileArbitrary, { numRuns: 1, seed: SEED + index })
  return sendHostile(fuzz, request!)
}

const started = performance.now()

for (let batchStart = 0; batchStart < RUNS; batchStart += BATCH) {
  const batchEnd = Math.min(RUNS, batchStart + BATCH)
  let next = batchStart
  const worker = async () => {
    while (next < batchEnd) {
      const index = next++
      record(await runOne(index), index)
    }
  }
  // The cheap request goes in while the batch's hostile requests are in flight.
  const cheapCheck = (async () => {
    await new Promise((settle) => setTimeout(settle, 20))
    const checkStarted = performance.now()
    const problem = await cheapRequestAnswered(fuzz, CHEAP_WITHIN_MS)
    cheap.checked++
    cheap.slowestMs = Math.max(cheap.slowestMs, performance.now() - checkStarted)
    if (problem !== undefined) cheap.failed.push(`batch at ${batchStart}: ${problem}`)
  })()
  await Promise.all([...Array.from({ length: CONCURRENCY }, worker), cheapCheck])
  if (batchEnd % 5_000 === 0 || batchEnd === RUNS)
    process.stderr.write(
      `${batchEnd} / ${RUNS} in ${((performance.now() - started) / 1000).toFixed(0)} s, ${failures.length} failures, ${fuzz.faults.length} faults\n`,
    )
}
const seconds = (performance.now() - started) / 1000

await server.close()
await fuzz.close()
await served.close()

const table = (title: string, map: Map<string | number, number>) => {
  const rows = [...map.entries()].sort((a, b) => b[1] - a[1])
  const width = Math.max(title.length, ...rows.map(([key]) => String(key).length))
  return [
    `| ${title.padEnd(width)} | count |`,
    `|${'-'.repeat(width + 2)}|------:|`,
    ...rows.map(([key, n]) => `| ${String(key).padEnd(width)} | ${n} |`),
  ].join('\n')
}

const out: string[] = [
  `oqlkit HTTP fuzz on ${ADAPTER === 'clickhouse' ? 'ClickHouse (chdb behind the test stand-in)' : 'DuckDB'}: ${RUNS} requests (seed ${SEED}, ${CONCURRENCY} at once, 1 in ${RAW_EVERY} raw over a socket) in ${seconds.toFixed(1)} s (${(RUNS / seconds).toFixed(0)} requests/s)`,
  '',
  table('status', statuses),
  '',
  table('error code', errors),
  '',
  table('request kind', kinds),
  '',
  `cheap request (/works?per_page=1 during each batch, within ${CHEAP_WITHIN_MS} ms): ${cheap.checked} checked, ${cheap.failed.length} failed, slowest ${cheap.slowestMs.toFixed(0)} ms`,
  '',
  'slowest requests:',
  ...slowest.map(
    (o) =>
      `  ${o.ms.toFixed(0).padStart(6)} ms  ${o.status}  ${describeRequest(o.method, o.target).slice(0, 200)}`,
  ),
  '',
  `faults logged by the app: ${fuzz.faults.length}`,
  ...fuzz.faults
    .slice(0, 10)
    .map((fault) => `  ${fault instanceof Error ? (fault.stack ?? fault.message) : String(fault)}`),
  `failures: ${failures.length}`,
  ...failures
    .slice(0, 30)
    .map(
      (f) =>
        `  #${f.index} ${f.problem} — ${f.status} ${describeRequest(f.method, f.target)} (seed ${SEED + f.index})`,
    ),
  ...cheap.failed.slice(0, 10).map((line) => `  ${line}`),
]
process.stdout.write(`${out.join('\n')}\n`)
process.exitCode = failures.length > 0 || fuzz.faults.length > 0 || cheap.failed.length > 0 ? 1 : 0
