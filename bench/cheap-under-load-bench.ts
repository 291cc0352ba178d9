// How long cheap requests take while exports and searches run (issue 37, item 7): a real server on a catalog
// (bench/cheap-under-load-server.ts, in a process of its own), 4 clients exporting every work as JSON Lines
// as fast as they read and starting again, 16 clients searching one after another (after a 503, once its
// Retry-After has passed), and, meanwhile, a cheap
// request every 100 ms, alternately `/properties/sdgs` (no storage at all) and a one-row filtered list. It
// prints p50/p95/max of each cheap request, what the exports and searches did (and how late past its deadline
// any 503 of a search came), and the server's event-loop delay.
//   npm run bench:cheap-under-load -- [--catalog DIR] [--seconds 30] [--exports 4] [--searches 16]
//     [--limits '{"queryTimeoutMs":10000,"heavySlots":2,"exportSlots":4}']
// Without --catalog it builds the bundled sample into $TMPDIR/oqlkit-bench-sample-catalog-c<format> once.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { request } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { CATALOG_FORMAT_VERSION } from '@oqlkit/catalog'
import { ingestSnapshot } from '@oqlkit/ingest'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    exports: { type: 'string', default: '4' },
    searches: { type: 'string', default: '16' },
    limits: { type: 'string', default: '{"exportSlots":4}' },
  },
})
const seconds = Number(values.seconds)
const exporters = Number(values.exports)
const searchers = Number(values.searches)
const limits = JSON.parse(values.limits!) as { queryTimeoutMs?: number }
const deadlineMs = limits.queryTimeoutMs ?? 10_000

const REPO = fileURLToPath(new URL('..', import.meta.url))
let catalogDir = values.catalog
if (catalogDir === undefined) {
  catalogDir = join(tmpdir(), `oqlkit-bench-sample-catalog-c${CATALOG_FORMAT_VERSION}`)
  if (!existsSync(join(catalogDir, 'catalog.json'))) {
    process.stderr.write(`building the sample catalog in ${catalogDir}\n`)
    await ingestSnapshot({
      snapshotDir: SAMPLE_SNAPSHOT_DIR,
      outDir: catalogDir,
      mode: 'replace',
    })
  }
}

const server = spawn(
  process.execPath,
  [
    // BENCH_SERVER_NODE_ARGS: flags for the server's node, such as --cpu-prof to see what holds its main thread.
    ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter((flag) => flag !== '') ?? []),
    '--conditions=@oqlkit/source',
    '--import',
    'tsx',
    'bench/cheap-under-load-server.ts',
    catalogDir,
    values.limits!,
  ],
  { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, UV_THREADPOOL_SIZE: '16' } },
)
const lines = createInterface({ input: server.stdout! })[Symbol.asyncIterator]()
const first = await lines.next()
if (first.done === true) throw new Error('the server ended before it listened')
const base = (JSON.parse(first.value) as { url: string }).url.replace(/\/$/, '')

/** One GET: its status and how long it took to the last byte (ms); the body is read and dropped. */
const timedGet = (
  path: string,
): Promise<{ status: number; ms: number; bytes: number; retryAfter: number; code?: string }> =>
  new Promise((done, failed) => {
    const started = performance.now()
    const asking = request(`${base}${path}`, (response) => {
      let bytes = 0
      let head = ''
      response.on('data', (chunk: Buffer) => {
        if (head.length < 200) head += chunk.toString('utf8', 0, 200)
        bytes += chunk.length
      })
      response.on('end', () => {
        const status = response.statusCode ?? 0
        const code = status >= 400 ? /"code":"([a-z_]+)"|"error":"([a-z_]+)"/.exec(head) : null
        done({
          status,
          ms: performance.now() - started,
          bytes,
          retryAfter: Number(response.headers['retry-after'] ?? 0),
          ...(code ? { code: code[1] ?? code[2] } : {}),
        })
      })
      response.on('error', failed)
    })
    asking.on('error', failed)
    asking.end()
  })

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const summary = (times: readonly number[]) => {
  const sorted = [...times].sort((a, b) => a - b)
  const f = (ms: number) => `${Math.round(ms)} ms`
  return `n=${sorted.length} p50 ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, max ${f(sorted.at(-1) ?? Number.NaN)}`
}

const SEARCH_WORDS = [
  'cancer',
  'climate',
  'covid',
  'learning',
  'protein',
  'water',
  'energy',
  'model',
  'cell',
  'health',
]
let running = true
const exportsDone: { status: number; ms: number; bytes: number; code?: string }[] = []
const searchesDone: { status: number; ms: number; code?: string }[] = []

const exportLoop = async () => {
  while (running) exportsDone.push(await timedGet('/works/export?format=jsonl'))
}
const searchLoop = async (client: number) => {
  for (let turn = client; running; turn++) {
    const word = SEARCH_WORDS[turn % SEARCH_WORDS.length]
    const answer = await timedGet(`/works?search=${word}&per_page=25`)
    searchesDone.push(answer)
    // As a client should: a 503 is retried after its Retry-After, not at once.
    if (answer.status === 503) await new Promise((wait) => setTimeout(wait, answer.retryAfter * 1000))
  }
}
const cheap = {
  '/properties/sdgs': [] as number[],
  '/works?filter=publication_year:2020&per_page=1': [] as number[],
}
const cheapFailures: string[] = []
const probeLoop = async () => {
  const paths = Object.keys(cheap) as (keyof typeof cheap)[]
  for (let turn = 0; running; turn++) {
    const path = paths[turn % paths.length]!
    const answer = await timedGet(path)
    if (answer.status === 200) cheap[path].push(answer.ms)
    else cheapFailures.push(`${path}: ${answer.status}`)
    await new Promise((wait) => setTimeout(wait, 100))
  }
}

// Warm: the first search loads the search index, the first export the record store.
const warm = [
  await timedGet('/works?search=cancer&per_page=25'),
  await timedGet('/works/export?format=jsonl'),
]
process.stdout.write(
  `warm-up: search ${warm[0]!.status} in ${Math.round(warm[0]!.ms)} ms, export ${warm[1]!.status} (${(warm[1]!.bytes / 1e6).toFixed(1)} MB) in ${Math.round(warm[1]!.ms)} ms\n`,
)

const loadBefore = loadavg()
process.stdout.write(
  `catalog ${catalogDir}; ${exporters} exports + ${searchers} searches for ${seconds} s; limits ${values.limits}; ${cpus().length} cores; load average before ${loadBefore.map((l) => l.toFixed(2)).join(', ')}\n`,
)
const loops = [
  ...Array.from({ length: exporters }, exportLoop),
  ...Array.from({ length: searchers }, (_, client) => searchLoop(client)),
]
// The load settles for a second before the cheap requests are timed.
await new Promise((wait) => setTimeout(wait, 1000))
const probing = probeLoop()
await new Promise((wait) => setTimeout(wait, seconds * 1000))
running = false
await Promise.all([...loops, probing])

server.kill('SIGTERM')
const last = await lines.next()
const loopDelay =
  last.done === true ? undefined : (JSON.parse(last.value) as { loopDelayMs: unknown }).loopDelayMs

for (const [path, times] of Object.entries(cheap)) process.stdout.write(`cheap ${path}: ${summary(times)}\n`)
if (cheapFailures.length > 0) process.stdout.write(`cheap failures: ${cheapFailures.join('; ')}\n`)
const byStatus = (answers: readonly { status: number; code?: string }[]) => {
  const counts = new Map<string, number>()
  for (const answer of answers) {
    const key = answer.code === undefined ? String(answer.status) : `${answer.status} ${answer.code}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].map(([key, count]) => `${key}: ${count}`).join(', ')
}
const exported = exportsDone.filter((answer) => answer.status === 200)
process.stdout.write(
  `exports: ${byStatus(exportsDone)}; whole exports ${summary(exported.map((answer) => answer.ms))}, ${((exported[0]?.bytes ?? 0) / 1e6).toFixed(1)} MB each\n`,
)
process.stdout.write(
  `searches: ${byStatus(searchesDone)}; ${summary(searchesDone.map((answer) => answer.ms))}\n`,
)
const refused = searchesDone.filter((answer) => answer.status === 503).map((answer) => answer.ms)
if (refused.length > 0)
  process.stdout.write(`searches answered 503 (deadline ${deadlineMs} ms): ${summary(refused)}\n`)
process.stdout.write(`server event-loop delay: ${JSON.stringify(loopDelay)}\n`)
process.stdout.write(
  `load average after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}\n`,
)
