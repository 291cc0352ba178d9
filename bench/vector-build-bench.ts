// The vectors step of a full ingest (`indexCatalogVectors`: the works' texts written, the built-in LSA model
// trained on its bounded sample, every work embedded and quantised), timed on a built catalog with the works
// embedded on the main thread and on worker threads, side by side in one run; the vectors each build wrote are
// compared byte for byte.
//
//   npm run bench:vectors -- --catalog DIR [--workers 0,2] [--rounds 3]
//
// `--workers 0` embeds on the main thread; each other count on that many worker threads. The catalog's vectors
// are rebuilt in place (the same seed gives the same files), so give it a copy of a catalog you keep.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { indexCatalogVectors } from '@oqlkit/ingest'
import { type Contender, formatMs, median, runSideBySide } from './bench-stats.ts'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    workers: { type: 'string', default: '0,2' },
    rounds: { type: 'string', default: '3' },
  },
})
if (values.catalog === undefined) {
  console.error('usage: npm run bench:vectors -- --catalog DIR [--workers 0,2] [--rounds 3]')
  process.exit(2)
}
const catalogDir = values.catalog
const workerCounts = values.workers.split(',').map(Number)
const rounds = Number(values.rounds)
if (
  workerCounts.some((count) => !Number.isSafeInteger(count) || count < 0) ||
  !Number.isSafeInteger(rounds) ||
  rounds < 1
) {
  console.error(
    '--workers takes whole numbers of threads (0: the main thread), --rounds a positive whole number',
  )
  process.exit(2)
}

/** The digest of the vectors each contender wrote last: they must agree. */
const written = new Map<string, string>()
const contender = (workers: number): Contender => {
  const name = workers === 0 ? 'main thread' : `${workers} worker threads`
  return {
    name,
    run: async () => {
      const { vectors } = await indexCatalogVectors({
        catalogDir,
        vectors: { kind: 'lsa' },
        embeddingWorkers: workers,
      })
      const digest = createHash('sha256')
      for (const file of vectors.files) digest.update(readFileSync(join(catalogDir, file.path)))
      written.set(name, digest.digest('hex').slice(0, 16))
    },
  }
}

const loadBefore = loadavg()[0]!
const results = await runSideBySide(workerCounts.map(contender), rounds, { warmup: 0 })
console.log(
  `vectors of ${catalogDir}, ${rounds} rounds side by side (load ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after)`,
)
const first = median(results[0]!.times)
for (const { name, times } of results)
  console.log(
    `  ${name.padEnd(18)} median ${formatMs(median(times)).padStart(8)} ms  (${times.map(formatMs).join(', ')})  ÷ first ${(median(times) / first).toFixed(2)}  files ${written.get(name)}`,
  )
if (new Set(written.values()).size > 1) {
  console.error('the contenders wrote different vectors')
  process.exitCode = 1
}
