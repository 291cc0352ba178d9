// Times an update against a full build, as the issue's incremental target asks (a 1% update of a catalog in
// under 10% of the full build's time). From a legacy-layout snapshot it writes an update snapshot of one
// newer partition with a share of the snapshot's works changed as OpenAlex's updates change them: of that
// share, 70% revised (title changed, a newer updated_date), 20% new works (ids numbered past every id of the
// catalog, as OpenAlex numbers its new records: by number they come last, as text among the first), 5% merged
// into another work and 5% deleted (`--revised-only`: every one revised, as before), then, each a child
// process `oqlkit ingest` under GNU time:
//   full    the snapshot built from scratch (skipped with --catalog, whose build time --full-seconds gives);
//   update  the update snapshot ingested into a copy of that catalog (the copy is not timed).
//   retrained  (full builds only, unless --no-retrained) the same update with --retrain-models, as every update ran before updates
//              kept the trained models and the vectors of unchanged works: training both models again and
//              embedding every work.
// All with the same flags (--core: no search index, vectors or tagger).
//
// Each says whether the serving database was changed in place or built whole (and why).
//
//   npm run bench:ingest-update -- --snapshot DIR [--catalog DIR --full-seconds S] [--changed 0.01] [--revised-only] [--core] [--no-retrained] [--tmp DIR] [--keep-snapshot DIR]
import { spawn } from 'node:child_process'
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createGunzip } from 'node:zlib'
import { writeEntity } from '@oqlkit/snapshot'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const USAGE =
  'usage: npm run bench:ingest-update -- --snapshot DIR [--catalog DIR --full-seconds S] [--changed 0.01] [--revised-only] [--core] [--no-retrained] [--tmp DIR] [--keep-snapshot DIR]'
/** The update's partition: later than any a generated or real snapshot has. */
const UPDATE_DATE = '2030-01-01'

const { values: args } = parseArgs({
  options: {
    snapshot: { type: 'string' },
    catalog: { type: 'string' },
    'full-seconds': { type: 'string' },
    changed: { type: 'string', default: '0.01' },
    'revised-only': { type: 'boolean', default: false },
    core: { type: 'boolean', default: false },
    // At 1M works the retrained update trains both models and embeds every work: minutes that say nothing
    // about the update itself.
    'no-retrained': { type: 'boolean', default: false },
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

// ---- the update snapshot: works of the oldest partitions, revised, copied as new works, merged, deleted ----
const shares = args['revised-only']
  ? { revised: 1, fresh: 0, merged: 0, deleted: 0 }
  : { revised: 0.7, fresh: 0.2, merged: 0.05, deleted: 0.05 }
const counts = {
  fresh: Math.floor(wanted * shares.fresh),
  merged: Math.floor(wanted * shares.merged),
  deleted: Math.floor(wanted * shares.deleted),
}
const revisedCount = Math.max(1, wanted - counts.fresh - counts.merged - counts.deleted)
/** Past every id of a generated or real snapshot by number (12 digits), though `W1…` sorts early as text. */
const newWorkId = (at: number) => `W${10 ** 11 + at}`
const partFiles = readdirSync(worksDir)
  .filter((name) => name.startsWith('updated_date='))
  .sort()
  .flatMap((partition) =>
    readdirSync(join(worksDir, partition))
      .filter((name) => name.endsWith('.gz'))
      .sort()
      .map((name) => join(worksDir, partition, name)),
  )
const updatedDate = `${UPDATE_DATE}T00:00:00.000000`
// The works the update writes: the revised ones, each followed by the new work copied from it while new ones are due.
const written: { id: string; updatedDate: string; line: string }[] = []
const untouched: string[] = []
let revisions = 0
const read = revisedCount + counts.merged + counts.deleted
for (const file of partFiles) {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })
  for await (const line of lines) {
    if (line.trim() === '') continue
    const record = JSON.parse(line) as Record<string, unknown>
    if (revisions < revisedCount) {
      revisions++
      written.push({
        id: String(record.id),
        updatedDate,
        line: JSON.stringify({
          ...record,
          title: `${String(record.title)} (revised)`,
          updated_date: updatedDate,
        }),
      })
      // A new work copies a revised one, under a new id and without its external ids (a DOI names one work).
      const at = revisions - 1
      if (at < counts.fresh) {
        const id = `https://openalex.org/${newWorkId(at)}`
        written.push({
          id,
          updatedDate,
          line: JSON.stringify({
            ...record,
            id,
            doi: null,
            ids: { openalex: id },
            title: `${String(record.title)} (new)`,
            updated_date: updatedDate,
          }),
        })
      }
    } else untouched.push(String(record.id).replace('https://openalex.org/', ''))
    if (written.length + untouched.length === read + counts.fresh) break
  }
  lines.close()
  if (written.length + untouched.length === read + counts.fresh) break
}
// --keep-snapshot DIR: the update snapshot is written there and kept (for `bench:ingest-steps --update`).
const updateSnapshot =
  args['keep-snapshot'] === undefined ? join(workDir, 'update-snapshot') : resolve(args['keep-snapshot'])
writeEntity(updateSnapshot, 'works', written, { recordsPerPart: 100_000 })
// Merged works name a revised one as their target; the deleted ones are listed as the 2026 layout lists them.
const mergedIds = untouched.slice(0, counts.merged)
const deletedIds = untouched.slice(counts.merged, counts.merged + counts.deleted)
const mergeTarget = written[0]!.id.replace('https://openalex.org/', '')
if (mergedIds.length > 0) {
  mkdirSync(join(updateSnapshot, 'merged_ids', 'works'), { recursive: true })
  writeFileSync(
    join(updateSnapshot, 'merged_ids', 'works', `${UPDATE_DATE}.csv`),
    `merge_date,id,merge_into_id\n${mergedIds.map((id) => `${UPDATE_DATE},${id},${mergeTarget}`).join('\n')}\n`,
  )
}
if (deletedIds.length > 0)
  writeFileSync(
    join(updateSnapshot, 'works', 'deleted_ids.csv'),
    `work_id,deleted_date\n${deletedIds.map((id) => `${id},${UPDATE_DATE}`).join('\n')}\n`,
  )
const changedWorks = written.length + mergedIds.length + deletedIds.length
console.log(
  `update snapshot: ${changedWorks.toLocaleString('en-US')} works changed of ${totalWorks.toLocaleString('en-US')} (${(changed * 100).toFixed(2)}%, partition ${UPDATE_DATE}): ${revisions.toLocaleString('en-US')} revised, ${counts.fresh.toLocaleString('en-US')} new (ids from ${newWorkId(0)}), ${mergedIds.length.toLocaleString('en-US')} merged, ${deletedIds.length.toLocaleString('en-US')} deleted`,
)

// ---- the two timed children ----
async function timed(
  name: string,
  argv: readonly string[],
): Promise<{ seconds: number; peakMb: number; output: string; serving: string | undefined }> {
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
  let serving: string | undefined
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-3000)
    // What became of the serving database: changed in place, or built whole and why.
    serving ??= /catalog\.duckdb \((in place|built whole: [^)]*)\)/.exec(errors)?.[1]
  })
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  const seconds = (performance.now() - started) / 1000
  if (code !== 0) throw new Error(`${name} failed (exit ${code}):\n${output.slice(-3000)}\n${errors}`)
  const peakKb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ')[1])
  return { seconds, peakMb: Math.round(peakKb / 1024), output, serving }
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
  console.log(
    `update: ${update.seconds.toFixed(1)} s, peak RSS ${update.peakMb} MB; serving database ${update.serving ?? 'not reported'}`,
  )
  rmSync(updated, { recursive: true, force: true })
  let retrained: Awaited<ReturnType<typeof timed>> | undefined
  if (!args.core && !args['no-retrained']) {
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
    `| update of ${changedWorks.toLocaleString('en-US')} works (${(changed * 100).toFixed(2)}%${args['revised-only'] ? ', all revised' : `: ${counts.fresh.toLocaleString('en-US')} new, ${counts.merged} merged, ${counts.deleted} deleted`}; serving database ${update.serving ?? '?'}) | ${update.seconds.toFixed(1)} s | ${update.peakMb} MB |`,
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
