// Where a search index build's memory goes, step by step: one entity's index built from a catalog's files
// into a scratch folder, with the process's RSS sampled each second and kept at its peak for each progress
// step, beside DuckDB's own accounting (`duckdb_memory()`, read on a second connection) and V8's heap.
//
//   npm run bench:search-memory -- --catalog DIR [--entity works] [--session own|staging] [--keep-order]
//                                  [--memory-limit 2GB] [--out DIR]
//
// `--session own` builds on a DuckDB of its own, as `oqlkit index` does (insertion order off unless
// `--keep-order`); `--session staging` on ingest's StagingDatabase, as a full ingest does. The staging
// database has one connection, so DuckDB's accounting is read only between statements there.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import type { CatalogEntity } from '@oqlkit/catalog'
import { type BuildSession, buildSearchIndex, connectionSession, StagingDatabase } from '@oqlkit/ingest'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    entity: { type: 'string', default: 'works' },
    session: { type: 'string', default: 'own' },
    'keep-order': { type: 'boolean', default: false },
    'memory-limit': { type: 'string', default: '2GB' },
    out: { type: 'string' },
  },
})
if (values.catalog === undefined || !['own', 'staging'].includes(values.session)) {
  console.error(
    'usage: npm run bench:search-memory -- --catalog DIR [--entity works] [--session own|staging] [--keep-order] [--memory-limit 2GB] [--out DIR]',
  )
  process.exit(2)
}
const outDir = values.out ?? join(tmpdir(), `oqlkit-search-memory-${process.pid}`)
rmSync(outDir, { recursive: true, force: true })
mkdirSync(join(outDir, 'tmp'), { recursive: true })

/** A line of /proc/self/status in MiB (VmRSS, VmHWM). */
const statusMiB = (name: string): number =>
  Number(new RegExp(`${name}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024

let session: BuildSession
let accounting: () => Promise<Record<string, unknown>[]>
let close: () => void
if (values.session === 'staging') {
  const staging = await StagingDatabase.open(join(outDir, 'staging'), { memoryLimit: values['memory-limit'] })
  session = staging
  accounting = () => staging.rows('SELECT tag, memory_usage_bytes AS bytes FROM duckdb_memory()')
  close = () => staging.close()
} else {
  const instance = await createDuckDbInstance(':memory:', {
    memoryLimit: values['memory-limit'],
    tempDirectory: join(outDir, 'tmp'),
    preserveInsertionOrder: values['keep-order'],
  })
  const connection = await instance.connect()
  const probe = await instance.connect()
  session = connectionSession(connection)
  accounting = async () =>
    (
      await probe.runAndReadAll('SELECT tag, memory_usage_bytes AS bytes FROM duckdb_memory()')
    ).getRowObjectsJson()
  close = () => {
    probe.closeSync()
    connection.closeSync()
    instance.closeSync()
  }
}

interface StepPeak {
  seconds: number
  rss: number
  heap: number
  duckdb: number
  top: string
}
const peaks = new Map<string, StepPeak>()
let step = 'texts'
let stepStarted = performance.now()
let sampling = false
const sample = async (): Promise<void> => {
  if (sampling) return
  sampling = true
  try {
    const rows = await accounting()
    const rss = statusMiB('VmRSS')
    const peak = peaks.get(step) ?? { seconds: 0, rss: 0, heap: 0, duckdb: 0, top: '' }
    if (rss < peak.rss) return
    const byTag = rows.map((row) => ({ tag: String(row.tag), mib: Number(row.bytes) / 2 ** 20 }))
    byTag.sort((a, b) => b.mib - a.mib)
    peaks.set(step, {
      ...peak,
      rss,
      heap: process.memoryUsage().heapTotal / 2 ** 20,
      duckdb: byTag.reduce((sum, row) => sum + row.mib, 0),
      top: byTag
        .slice(0, 3)
        .map((row) => `${row.tag} ${row.mib.toFixed(0)}`)
        .join(', '),
    })
  } finally {
    sampling = false
  }
}
const timer = setInterval(() => {
  sample().catch((error: unknown) => console.error('sample failed:', error))
}, 1000)

// The peak of the whole process from here on (Linux: writing 5 resets VmHWM).
writeFileSync('/proc/self/clear_refs', '5')
const started = performance.now()
try {
  await buildSearchIndex({
    connection: session,
    catalogDir: values.catalog,
    outDir,
    workDir: join(outDir, 'work'),
    entities: [values.entity as CatalogEntity],
    onProgress: (progress) => {
      const now = performance.now()
      const peak = peaks.get(step)
      if (peak !== undefined) peak.seconds += (now - stepStarted) / 1000
      stepStarted = now
      step = progress.step.replace(/\d+\/\d+/, 'n/N').replace(/into \d+ buckets/, 'into N buckets')
    },
  })
} finally {
  clearInterval(timer)
  close()
}
const last = peaks.get(step)
if (last !== undefined) last.seconds += (performance.now() - stepStarted) / 1000

console.log(
  `The search index of ${values.entity}, ${values.session} session${values.session === 'own' ? `, insertion order ${values['keep-order'] ? 'kept' : 'off'}` : ''}, memory limit ${values['memory-limit']}: ` +
    `${((performance.now() - started) / 1000).toFixed(0)} s, peak RSS ${statusMiB('VmHWM').toFixed(0)} MiB (load ${loadavg()[0]!.toFixed(1)})`,
)
console.log("| step | seconds | peak RSS MiB | V8 heap MiB | DuckDB MiB | DuckDB's largest |")
console.log('|---|---:|---:|---:|---:|---|')
for (const [name, peak] of peaks)
  console.log(
    `| ${name} | ${peak.seconds.toFixed(0)} | ${peak.rss.toFixed(0)} | ${peak.heap.toFixed(0)} | ${peak.duckdb.toFixed(0)} | ${peak.top} |`,
  )
rmSync(outDir, { recursive: true, force: true })
