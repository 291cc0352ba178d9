// The recorded-request replay: every example URL of the API description (spec/conformance/api-example-urls.json)
// sent to the app over the bundled sample catalog, each answer recorded as its status, content type and a hash
// of its body. A restructure that is meant to change no behaviour must leave the record byte-identical, on
// DuckDB and on ClickHouse alike:
//
//   npm run replay -- --adapter duckdb --out /tmp/replay-before.jsonl
//   ... the change ...
//   npm run replay -- --adapter duckdb --compare /tmp/replay-before.jsonl
//
// A JSON body is hashed with its timing fields (`db_response_time_ms`) taken out, which differ from run to run;
// an answer chosen at random (`/random`, `sample` without a `seed`) keeps only its status and type.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { CATALOG_FORMAT_VERSION, loadCatalogTagger } from '@oqlkit/catalog'
import type { StorageAdapter, Tagger } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { openClickHouseSample, SAMPLE_SNAPSHOT_DIR } from '@oqlkit/http/test-support'
import { ingestSnapshot } from '@oqlkit/ingest'

const { values } = parseArgs({
  options: {
    adapter: { type: 'string', default: 'duckdb' },
    catalog: { type: 'string' },
    out: { type: 'string' },
    compare: { type: 'string' },
  },
})
if (values.adapter !== 'duckdb' && values.adapter !== 'clickhouse')
  throw new Error('--adapter takes duckdb or clickhouse')
if (values.out === undefined && values.compare === undefined)
  throw new Error('say where the record goes (--out FILE) or what to compare it with (--compare FILE)')

const EXAMPLE_URLS: readonly string[] = JSON.parse(
  readFileSync(new URL('../spec/conformance/api-example-urls.json', import.meta.url), 'utf8'),
)

/** One answer as the replay keeps it. */
interface Recorded {
  readonly url: string
  readonly status: number
  readonly type: string | null
  readonly body: string
}

const TIMING_KEYS = new Set(['db_response_time_ms'])
const withoutTimings = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutTimings)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !TIMING_KEYS.has(key))
      .map(([key, inner]) => [key, withoutTimings(inner)]),
  )
}

const bodyHash = (type: string | null, bytes: Buffer): string => {
  let hashed: Buffer | string = bytes
  if (type?.includes('json') === true) {
    try {
      hashed = JSON.stringify(withoutTimings(JSON.parse(bytes.toString('utf8'))))
    } catch {
      // Not JSON after all: the bytes as they are.
    }
  }
  return createHash('sha256').update(hashed).digest('hex').slice(0, 16)
}

// The sample catalog, built once per catalog format and kept between runs (the fuzzer's folder).
const catalogDir = values.catalog ?? join(tmpdir(), `oqlkit-fuzz-catalog-c${CATALOG_FORMAT_VERSION}`)
if (!existsSync(join(catalogDir, 'catalog.json'))) {
  process.stderr.write(`building the sample catalog in ${catalogDir}\n`)
  await ingestSnapshot({ snapshotDir: SAMPLE_SNAPSHOT_DIR, outDir: catalogDir, mode: 'replace' })
}

const openServed = async (): Promise<{
  adapter: StorageAdapter
  tagger: Tagger
  close: () => Promise<void>
}> => {
  if (values.adapter === 'clickhouse') return openClickHouseSample(catalogDir)
  const adapter = await createDuckDbAdapter({ catalogDir, threads: 1 })
  const tagger = await loadCatalogTagger(catalogDir)
  if (tagger === undefined) throw new Error(`the catalog ${catalogDir} has no text-tagging model`)
  return { adapter, tagger, close: () => adapter.close() }
}

const served = await openServed()
const app = createApp({
  tagger: served.tagger,
  adapter: served.adapter,
  catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
})
const recorded: Recorded[] = []
try {
  for (const example of EXAMPLE_URLS) {
    const url = new URL(example)
    const response = await app.fetch(new Request(`http://localhost${url.pathname}${url.search}`))
    const type = response.headers.get('content-type')
    const bytes = Buffer.from(await response.arrayBuffer())
    const random =
      url.pathname.endsWith('/random') || (url.searchParams.has('sample') && !url.searchParams.has('seed'))
    recorded.push({
      url: example,
      status: response.status,
      type,
      body: random ? 'chosen at random' : bodyHash(type, bytes),
    })
  }
} finally {
  await served.close()
}

const lines = recorded.map((entry) => JSON.stringify(entry))
if (values.out !== undefined) {
  writeFileSync(values.out, `${lines.join('\n')}\n`)
  process.stdout.write(`${recorded.length} answers recorded in ${values.out}\n`)
}
if (values.compare !== undefined) {
  const before = new Map(
    readFileSync(values.compare, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Recorded)
      .map((entry) => [entry.url, entry]),
  )
  const changed = recorded.filter((entry) => {
    const was = before.get(entry.url)
    return (
      was === undefined || was.status !== entry.status || was.type !== entry.type || was.body !== entry.body
    )
  })
  for (const entry of changed)
    process.stdout.write(
      `changed: ${entry.url}\n  before ${JSON.stringify(before.get(entry.url))}\n  now    ${JSON.stringify(entry)}\n`,
    )
  process.stdout.write(`${recorded.length - changed.length} of ${recorded.length} answers as recorded\n`)
  if (changed.length > 0) process.exitCode = 1
}
