// Where an ingest's time goes: runs one ingest through the library (the same call and defaults as
// `oqlkit ingest`) and prints how long each progress step took (reading each entity's parts, then every
// catalog file, index and model built), the total and the peak heap-and-native memory this process saw.
// For profiling at scale, where `bench:ingest`'s side-by-side ratios say how fast but not where.
//
//   npm run bench:ingest-steps -- --snapshot DIR --out DIR [--update] [--core] [--memory-limit 3GiB] [--top 25]
//                                 [--record-codec zstd+dictionary]
// (--update: into the catalog already in --out, as `oqlkit ingest` does; else it is built from scratch;
// --record-codec: new record stores in another codec than the default, to compare codecs side by side)
import { parseArgs } from 'node:util'
import { RECORD_CODEC_IDS } from '@oqlkit/catalog'
import { type IngestProgress, ingestSnapshot } from '@oqlkit/ingest'

const USAGE =
  'usage: npm run bench:ingest-steps -- --snapshot DIR --out DIR [--update] [--core] [--memory-limit 3GiB] [--top 25] [--record-codec ID]'
const { values: args } = parseArgs({
  options: {
    snapshot: { type: 'string' },
    out: { type: 'string' },
    core: { type: 'boolean', default: false },
    update: { type: 'boolean', default: false },
    'memory-limit': { type: 'string' },
    top: { type: 'string', default: '25' },
    'record-codec': { type: 'string' },
  },
  strict: true,
})
if (args.snapshot === undefined || args.out === undefined) {
  console.error(USAGE)
  process.exit(2)
}
const recordCodec = RECORD_CODEC_IDS.find((id) => id === args['record-codec'])
if (args['record-codec'] !== undefined && recordCodec === undefined) {
  console.error(
    `--record-codec must be one of ${RECORD_CODEC_IDS.join(', ')}, not ${args['record-codec']}\n${USAGE}`,
  )
  process.exit(2)
}
const top = Number(args.top)
if (!Number.isInteger(top) || top < 1) {
  console.error(`--top must be a whole number above 0, not ${args.top}\n${USAGE}`)
  process.exit(2)
}

// A step is what the progress events name: the entity whose parts are being read, or the file being built.
// Reading interleaves entities (each worker takes the next part), so their read times are a split of the
// read phase by which part reported last, not each entity's own cost.
const stepOf = (event: IngestProgress): string =>
  event.phase === 'read' ? `read ${event.entity ?? ''}` : `${event.phase} ${event.step ?? ''}`.trim()

const started = performance.now()
const seconds = new Map<string, number>()
const firstSeen: [string, number][] = []
let current = ''
let since = started
let peakRss = 0
const close = (now: number) => {
  if (current !== '') seconds.set(current, (seconds.get(current) ?? 0) + (now - since) / 1000)
}
/** The highest RSS sampled while each step ran. */
const stepPeaks = new Map<string, number>()
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss()
  peakRss = Math.max(peakRss, rss)
  if (current !== '') stepPeaks.set(current, Math.max(stepPeaks.get(current) ?? 0, rss))
}, 500)

const report = (outcome: string) => {
  console.log(
    `${args.core ? 'core' : 'full'} ${args.update ? 'update' : 'ingest'} of ${args.snapshot}: ${outcome}`,
  )
  console.log('\nslowest steps (seconds, peak RSS sampled in it, step, when it first started):')
  const startedAt = new Map(firstSeen)
  for (const [step, spent] of [...seconds].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${spent.toFixed(1).padStart(8)}  ${((stepPeaks.get(step) ?? 0) / 1e9).toFixed(2)} GB  ${step}  (from ${startedAt.get(step)!.toFixed(1)} s)`,
    )
}
// A failed ingest still says where its time went, up to the step that failed.
const summary = await ingestSnapshot({
  snapshotDir: args.snapshot,
  outDir: args.out,
  mode: args.update ? 'update' : 'replace',
  ...(args['memory-limit'] === undefined ? {} : { memoryLimit: args['memory-limit'] }),
  ...(args.core ? { searchIndex: false, textTagger: false, vectors: false } : {}),
  ...(recordCodec === undefined ? {} : { recordCodec }),
  onProgress: (event) => {
    const now = performance.now()
    const step = stepOf(event)
    if (step === current) return
    close(now)
    if (!seconds.has(step)) firstSeen.push([step, (now - started) / 1000])
    current = step
    since = now
  },
}).catch((error: unknown) => {
  close(performance.now())
  clearInterval(sampler)
  report(
    `failed after ${((performance.now() - started) / 1000).toFixed(1)} s in step "${current}"; peak RSS ${(peakRss / 1e9).toFixed(2)} GB`,
  )
  throw error
})
close(performance.now())
clearInterval(sampler)

const total = (performance.now() - started) / 1000
report(
  `${total.toFixed(1)} s; ${summary.recordsRead.toLocaleString('en-US')} records read, ${(summary.catalogBytes / 1e6).toFixed(0)} MB catalog; peak RSS of this process (sampled every 0.5 s) ${(peakRss / 1e9).toFixed(2)} GB`,
)
