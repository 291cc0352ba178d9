// Times an update against a full build, as the issue's incremental target asks (a 1% update of a catalog in
// under 10% of the full build's time). From a legacy-layout snapshot it writes an update snapshot of one
// newer partition holding a share of the snapshot's works revised (title changed, a newer updated_date),
// then, each a child process `oqlkit ingest` under GNU time:
//   full    the snapshot built from scratch (skipped with --catalog, whose build time --full-seconds gives);
//   update  the update snapshot ingested into a copy of that catalog (the copy is not timed).
//   retrained  (full builds only) the same update with --retrain-models, as every update ran before updates
//              kept the trained models and the vectors of unchanged works: training both models again and
//              embedding every work.
// All with the same flags (--core: no search index, vectors or tagger).
//
//   npm run bench:ingest-update -- --snapshot DIR [--catalog DIR --full-seconds S] [--changed 0.01] [--core] [--tmp DIR] [--keep-snapshot DIR]
import { spawn } from 'node:child_process'
import { cpSync, createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createGunzip } from 'node:zlib'
import { writeEntity } from '@oqlkit/snapshot'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const USAGE =
  'usage: npm run bench:ingest-update -- --snapshot DIR [--catalog DIR --full-seconds S] [--changed 0.01] [--core] [--tmp DIR] [--keep-snapshot DIR]'
/** The update's partition: later than any a generated or real snapshot has. */
const UPDATE_DATE = '2030-01-01'

const { values: args } = parseArgs({
  options: {
    snapshot: { type: 'string' },
    catalog: { type: 'string' },
    'full-seconds': { type: 'string' },
    changed: { type: 'string', default: '0.01' },
    core: { type: 'boolean', default: false },
    tmp: { type: 'string', default: tmpdir() },
    'keep-snapshot': { type: 'string' },
  },
  strict: true,
})
const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}
if (args.snapshot === undefined) fail('--snapshot is required')
const changed = Number(args.changed)
if (!(changed > 0 && changed <= 1))
  fail(`--changed must be a share above 0 and at most 1, not ${args.changed}`)
if ((args.catalog === undefined) !== (args['full-seconds'] === undefined))
  fail('--catalog and --full-seconds go together: the catalog, and how long its full build took')
const givenFullSeconds = args['full-seconds'] === undefined ? undefined : Number(args['full-seconds'])
if (givenFullSeconds !== undefined && !(givenFullSeconds > 0))
  fail(`--full-seconds must be a positive number, not ${args['full-seconds']}`)

const snapshotDir = resolve(args.snapshot!)
const layoutRoot = [snapshotDir, join(snapshotDir, 'data')].find((dir) =>
  existsSync(join(dir, 'works', 'manifest')),
)
if (layoutRoot === undefined) fail(`${snapshotDir}: no works/manifest of the legacy layout`)
const worksDir = join(layoutRoot!, 'works')
const totalWorks = (
  JSON.parse(readFileSync(join(worksDir, 'manifest'), 'utf8')) as { meta: { record_count: number } }
).meta.record_count
const wanted = Math.max(1, Math.round(totalWorks * changed))
const flags = args.core ? ['--no-search-index', '--no-vectors', '--no-text-tagger'] : []
const workDir = mkdtempSync(join(args.tmp, 'oqlkit-update-bench-'))

// ---- the update snapshot: the first `wanted` works of the oldest partitions, revised ----
const partFiles = readdirSync(worksDir)
  .filter((name) => name.startsWith('updated_date='))
  .sort()
  .flatMap((partition) =>
    readdirSync(join(worksDir, partition))
      .filter((name) => name.endsWith('.gz'))
      .sort()
      .map((name) => join(worksDir, partition, name)),
  )
const revised: { id: string; updatedDate: string; line: string }[] = []
for (const file of partFiles) {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })
  for await (const line of lines) {
    if (line.trim() === '') continue
    const record = JSON.parse(line) as Record<string, unknown>
    const updatedDate = `${UPDATE_DATE}T00:00:00.000000`
    revised.push({
      id: String(record.id),
      updatedDate,
      line: JSON.stringify({
        ...record,
        title: `${String(record.title)} (revised)`,
        updated_date: updatedDate,
      }),
    })
    if (revised.length === wanted) break
  }
  lines.close()
  if (revised.length === wanted) break
}
// --keep-snapshot DIR: the update snapshot is written there and kept (for `bench:ingest-steps --update`).
const updateSnapshot =
  args['keep-snapshot'] === undefined ? join(workDir, 'update-snapshot') : resolve(args['keep-snapshot'])
writeEntity(updateSnapshot, 'works', revised, { recordsPerPart: 100_000 })
console.log(
  `update snapshot: ${revised.length.toLocaleString('en-US')} of ${totalWorks.toLocaleString('en-US')} works revised (${(changed * 100).toFixed(2)}%), partition ${UPDATE_DATE}`,
)

// ---- the two timed children ----
async function timed(
  name: string,
  argv: readonly string[],
): Promise<{ seconds: number; peakMb: number; output: string }> {
  const timeFile = join(workDir, `${name}.time`)
  let output = ''
  const started = performance.now()
  const child = spawn(
    '/usr/bin/time',
    ['-f', '%e %M', '-o', timeFile, process.execPath, 'packages/cli/bin/oqlkit.js', ...argv],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8')
  })
  // Progress goes to stderr: only its tail is kept, for the message of a failure.
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-3000)
  })
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  const seconds = (performance.now() - started) / 1000
  if (code !== 0) throw new Error(`${name} failed (exit ${code}):\n${output.slice(-3000)}\n${errors}`)
  const peakKb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ')[1])
  return { seconds, peakMb: Math.round(peakKb / 1024), output }
}

const loadBefore = loadavg()
try {
  let catalog = args.catalog === undefined ? undefined : resolve(args.catalog)
  let fullSeconds = givenFullSeconds
  let fullPeak: number | undefined
  if (catalog === undefined) {
    catalog = join(workDir, 'full')
    const full = await timed('full', ['ingest', snapshotDir, '--out', catalog, ...flags])
    fullSeconds = full.seconds
    fullPeak = full.peakMb
    console.log(`full build: ${full.seconds.toFixed(1)} s, peak RSS ${full.peakMb} MB`)
  }
  const updated = join(workDir, 'updated')
  cpSync(catalog, updated, { recursive: true })
  const update = await timed('update', ['ingest', updateSnapshot, '--out', updated, ...flags])
  if (!/updated catalog/.test(update.output))
    throw new Error(`the update did not report an updated catalog:\n${update.output}`)
  console.log(`update: ${update.seconds.toFixed(1)} s, peak RSS ${update.peakMb} MB`)
  rmSync(updated, { recursive: true, force: true })
  let retrained: Awaited<ReturnType<typeof timed>> | undefined
  if (!args.core) {
    cpSync(catalog, updated, { recursive: true })
    retrained = await timed('retrained', [
      'ingest',
      updateSnapshot,
      '--out',
      updated,
      '--retrain-models',
      ...flags,
    ])
    console.log(
      `update with --retrain-models: ${retrained.seconds.toFixed(1)} s, peak RSS ${retrained.peakMb} MB`,
    )
  }
  const loadAfter = loadavg()
  console.log(`\n\`npm run bench:ingest-update -- ${process.argv.slice(2).join(' ')}\``)
  console.log(
    `load average before ${loadBefore.map((v) => v.toFixed(2)).join(' / ')}, after ${loadAfter.map((v) => v.toFixed(2)).join(' / ')}\n`,
  )
  console.log('| contender | wall | peak RSS |\n|---|---|---|')
  console.log(
    `| full build${args.catalog === undefined ? '' : ' (given by --full-seconds)'} | ${fullSeconds!.toFixed(1)} s | ${fullPeak === undefined ? '—' : `${fullPeak} MB`} |`,
  )
  console.log(
    `| update of ${revised.length.toLocaleString('en-US')} works (${(changed * 100).toFixed(2)}%) | ${update.seconds.toFixed(1)} s | ${update.peakMb} MB |`,
  )
  if (retrained !== undefined)
    console.log(
      `| the same update with --retrain-models (models trained again, every work embedded) | ${retrained.seconds.toFixed(1)} s | ${retrained.peakMb} MB |`,
    )
  console.log(`\nupdate ÷ full build: ${(update.seconds / fullSeconds!).toFixed(3)} (target < 0.10)`)
  if (retrained !== undefined)
    console.log(
      `update ÷ retrained update: ${(update.seconds / retrained.seconds).toFixed(3)}; retrained ÷ full build: ${(retrained.seconds / fullSeconds!).toFixed(3)}`,
    )
} finally {
  rmSync(workDir, { recursive: true, force: true })
}
