// The texts pass of a full ingest (`RecordTextsFiles`: each record of an entity read from the record store,
// decompressed, its text members picked, and the rows written to Parquet in id order), timed on a built catalog
// with the records read on the main thread and on worker threads, side by side in one run.
//
//   npm run bench:texts -- --catalog DIR [--entity works] [--workers 0,2] [--rounds 3] [--memory-limit 2GB]
//
// `--workers 0` reads on the main thread; each other count reads on that many worker threads.
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { connectionSession, RecordTextsFiles } from '@oqlkit/ingest'
import { type Contender, formatMs, median, runSideBySide } from './bench-stats.ts'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    entity: { type: 'string', default: 'works' },
    workers: { type: 'string', default: '0,2' },
    rounds: { type: 'string', default: '3' },
    'memory-limit': { type: 'string', default: '2GB' },
  },
})
if (values.catalog === undefined) {
  console.error('usage: npm run bench:texts -- --catalog DIR [--entity works] [--workers 0,2] [--rounds 3]')
  process.exit(2)
}
const catalogDir = values.catalog
const entity = values.entity as Parameters<RecordTextsFiles['of']>[0]
const workerCounts = values.workers.split(',').map(Number)
const rounds = Number(values.rounds)

const instance = await createDuckDbInstance(':memory:', { memoryLimit: values['memory-limit'] })
const connection = await instance.connect()
const session = connectionSession(connection)
const workDir = mkdtempSync(join(tmpdir(), 'oqlkit-texts-bench-'))

const contender = (workers: number): Contender => ({
  name: workers === 0 ? 'main thread' : `${workers} worker threads`,
  run: async () => {
    const folder = join(workDir, `w${workers}`)
    const texts = await RecordTextsFiles.ofCatalog(session, catalogDir, folder, {
      workers,
      workersFromRows: workers === 0 ? Number.POSITIVE_INFINITY : 0,
    })
    await texts.of(entity)
    rmSync(folder, { recursive: true, force: true })
  },
})

const loadBefore = loadavg()[0]!
const results = await runSideBySide(workerCounts.map(contender), rounds, { warmup: 0 })
const [rows] = await session.rows(`SELECT count(*) AS n FROM read_parquet($1)`, [
  join(catalogDir, 'entities', `${entity}.parquet`),
])
console.log(
  `texts pass of ${Number(rows?.n ?? 0).toLocaleString('en-US')} ${entity} in ${catalogDir}, ${rounds} rounds side by side (load ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after)`,
)
const first = median(results[0]!.times)
for (const { name, times } of results)
  console.log(
    `  ${name.padEnd(18)} median ${formatMs(median(times)).padStart(8)} ms  (${times.map(formatMs).join(', ')})  ÷ first ${(median(times) / first).toFixed(2)}`,
  )
rmSync(workDir, { recursive: true, force: true })
connection.closeSync()
instance.closeSync()
