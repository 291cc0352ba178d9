// The ingest benchmark of issue 20: our ingest against DuckDB's own read of the same snapshot, timed side by
// side in one run so that the ratios the issue sets (core ingest ≥ 2× the floor's works/s, full ingest ≥ 1×)
// hold whatever else the machine is doing. Each round runs, in rotation:
//   floor  DuckDB alone: read_json_auto over the works part files into a table, COPY it to parquet;
//   core   `oqlkit ingest --no-search-index --no-vectors --no-text-tagger` (catalog, records, link tables);
//   full   `oqlkit ingest` (with search index, vectors and tagger), unless --core-only;
//   parquet with --parquet-layout DIR: the core ingest of the same snapshot in the 2026 Parquet layout, written
//          to DIR first (untimed, once; parquet-layout-writer.ts) unless it holds it already.
// Every contender is a whole child process, started under GNU time (`/usr/bin/time -f '%e %M'`): its %M is
// the peak RSS of the process tree's largest process (the CLI's bin is a small node that runs the real one
// as its child; wait4 reports the descendants' peak too), so no polling of /proc is needed.
// `--works N` makes the snapshot with the generator (`oqlkit generate`: generateSnapshot of @oqlkit/snapshot),
// once, in the cache folder the peer benchmark uses.
//
//   npm run bench:ingest -- (--snapshot DIR | --works 20k [--seed 1] [--cache-dir .bench-cache])
//                           [--rounds 3] [--core-only] [--parquet-layout DIR] [--out FILE.md] [--tmp DIR]
import { spawn } from 'node:child_process'
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createGunzip, createGzip } from 'node:zlib'
import { parseSize } from './bench-arguments.ts'
import { ensureSnapshot } from './bench-catalog-cache.ts'
import { runSideBySide } from './bench-stats.ts'
import {
  type ContenderRuns,
  type IngestBenchResult,
  type RunMeasure,
  renderIngestSection,
} from './ingest-bench-report.ts'
import { writeParquetLayout } from './parquet-layout-writer.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const TIME = '/usr/bin/time'
const USAGE =
  'usage: npm run bench:ingest -- (--snapshot DIR | --works N [--seed S]) [--rounds 3] [--core-only] [--parquet-layout DIR] [--out FILE.md] [--tmp DIR] [--cache-dir .bench-cache] [--no-level6]'

const { values: args } = parseArgs({
  options: {
    snapshot: { type: 'string' },
    works: { type: 'string' },
    seed: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    'core-only': { type: 'boolean', default: false },
    'parquet-layout': { type: 'string' },
    out: { type: 'string' },
    tmp: { type: 'string', default: tmpdir() },
    'cache-dir': { type: 'string', default: '.bench-cache' },
    'no-level6': { type: 'boolean', default: false },
  },
})
const rounds = Number(args.rounds)
if ((args.snapshot === undefined) === (args.works === undefined) || !Number.isInteger(rounds) || rounds < 1) {
  console.error(USAGE)
  process.exit(2)
}
if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to take each child's peak RSS`)

const snapshotDir =
  args.snapshot === undefined
    ? (
        await ensureSnapshot({
          cacheDir: args['cache-dir'],
          works: parseSize(args.works!),
          seed: Number(args.seed),
          log: console.log,
        })
      ).snapshotDir
    : resolve(args.snapshot)

// ---- the snapshot: the legacy layout's works part files, their count from the manifest, the gzipped size ----
const layoutRoot = [snapshotDir, join(snapshotDir, 'data'), join(snapshotDir, 'legacy-data')].find((dir) =>
  existsSync(join(dir, 'works', 'manifest')),
)
if (layoutRoot === undefined)
  throw new Error(
    `${snapshotDir}: no works/manifest of the legacy layout (data/works/updated_date=*/part_*.gz)`,
  )
const works = (
  JSON.parse(readFileSync(join(layoutRoot, 'works', 'manifest'), 'utf8')) as {
    meta: { record_count: number }
  }
).meta.record_count
const worksGlob = join(layoutRoot, 'works', 'updated_date=*', 'part_*.gz')
const files = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name))
const treeBytes = (dir: string, keep: (path: string) => boolean = () => true) =>
  files(dir).reduce((sum, path) => {
    const stat = statSync(path)
    return stat.isFile() && keep(path) ? sum + stat.size : sum
  }, 0)
const gzFiles = files(snapshotDir).filter((path) => path.endsWith('.gz'))
const snapshotBytes = treeBytes(snapshotDir, (path) => path.endsWith('.gz'))

// Read the snapshot once before timing, so the contender that goes first does not pay the disk for the rest.
// Unless --no-level6, that read measures the yardstick of the catalog's size on the way: the snapshot's
// JSON at gzip's default level 6 (a generated snapshot is written at level 1, which flatters a ratio to it).
const snapshotGzip6Bytes = args['no-level6'] ? undefined : await bytesAtGzipLevel6(gzFiles)
if (snapshotGzip6Bytes === undefined) {
  const buffer = Buffer.allocUnsafe(1 << 20)
  for (const path of gzFiles) {
    const fd = openSync(path, 'r')
    while (readSync(fd, buffer) > 0);
    closeSync(fd)
  }
}

/** The JSON of the gzipped files compressed again at level 6, in bytes; two files at a time (zlib's threads). */
async function bytesAtGzipLevel6(paths: readonly string[]): Promise<number> {
  const started = performance.now()
  let total = 0
  let next = 0
  const recompress = async (path: string) => {
    let bytes = 0
    const count = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length
        done()
      },
    })
    await pipeline(createReadStream(path), createGunzip(), createGzip({ level: 6 }), count)
    return bytes
  }
  const lane = async () => {
    while (next < paths.length) {
      // Not `total += await …`: that reads `total` before the await and loses the other lane's sum.
      const bytes = await recompress(paths[next++]!)
      total += bytes
    }
  }
  await Promise.all([lane(), lane()])
  console.log(
    `the snapshot's JSON at gzip level 6: ${(total / 2 ** 20).toFixed(1)} MiB (${((performance.now() - started) / 1000).toFixed(1)} s)`,
  )
  return total
}

// ---- one timed child process: wall time from here, peak RSS from GNU time; its output to a log ----
async function timeChild(
  name: string,
  argv: readonly string[],
  workDir: string,
): Promise<Omit<RunMeasure, 'outputBytes'>> {
  const timeFile = join(workDir, 'time.txt')
  const logFile = join(workDir, 'output.log')
  const log = openSync(logFile, 'w')
  const started = performance.now()
  const child = spawn(TIME, ['-f', '%e %M', '-o', timeFile, ...argv], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
  })
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  const wallMs = performance.now() - started
  closeSync(log)
  if (code !== 0)
    throw new Error(`${name} failed (exit ${code}):\n${readFileSync(logFile, 'utf8').slice(-3000)}`)
  const maxRssKb = Number(readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ')[1])
  return { wallMs, peakRssBytes: maxRssKb * 1024 }
}

const node = process.execPath
const cli =
  (flags: readonly string[], snapshot: string = snapshotDir) =>
  (out: string) => [node, 'packages/cli/bin/oqlkit.js', 'ingest', snapshot, '--out', out, ...flags]
const CORE_FLAGS = ['--no-search-index', '--no-vectors', '--no-text-tagger']
const plan: {
  name: ContenderRuns['name']
  label: string
  argv: (out: string, workDir: string) => string[]
}[] = [
  {
    name: 'floor',
    label: 'DuckDB floor: read_json_auto + COPY to parquet (works only)',
    argv: (out, workDir) => [
      node,
      '--import',
      'tsx',
      'bench/ingest-floor.ts',
      worksGlob,
      join(out, 'w.parquet'),
      workDir,
    ],
  },
  {
    name: 'core',
    label: 'core ingest (--no-search-index --no-vectors --no-text-tagger)',
    argv: cli(CORE_FLAGS),
  },
]
if (!args['core-only']) plan.push({ name: 'full', label: 'full ingest', argv: cli([]) })
if (args['parquet-layout'] !== undefined) {
  const parquetRoot = await writeParquetLayout(snapshotDir, args['parquet-layout'], console.log)
  plan.push({
    name: 'parquet',
    label: 'core ingest of the 2026 Parquet layout of the same snapshot',
    argv: cli(CORE_FLAGS, parquetRoot),
  })
}

const measured = plan.map(() => [] as RunMeasure[])
const contenders = plan.map((contender, index) => ({
  name: contender.name,
  run: async () => {
    const workDir = mkdtempSync(join(args.tmp, `oqlkit-ingest-bench-${contender.name}-`))
    const out = join(workDir, 'out')
    try {
      const timed = await timeChild(contender.name, contender.argv(out, workDir), workDir)
      const outputBytes = treeBytes(out)
      if (contender.name === 'floor') {
        const { rows } = JSON.parse(
          readFileSync(join(workDir, 'output.log'), 'utf8').trim().split('\n').at(-1)!,
        )
        if (rows !== works) console.warn(`warning: the floor read ${rows} works, the manifest says ${works}`)
      }
      measured[index]!.push({ ...timed, outputBytes })
      console.log(
        `${contender.name}: ${(timed.wallMs / 1000).toFixed(1)} s, peak RSS ${Math.round(timed.peakRssBytes / 1_048_576)} MB`,
      )
    } finally {
      rmSync(workDir, { recursive: true, force: true })
    }
  },
}))

const loadBefore = loadavg()
console.log(
  `${snapshotDir}: ${works.toLocaleString('en-US')} works; ${rounds} round${rounds === 1 ? '' : 's'} of ${plan.map((c) => c.name).join(', ')}`,
)
// runSideBySide gives the rotation; its own times include the bookkeeping around each child, so the child's
// wall time measured in timeChild is the one reported.
await runSideBySide(contenders, rounds, {
  warmup: 0,
  onRoundEnd: () => console.log(`load ${loadavg()[0]!.toFixed(2)}`),
})
const loadAfter = loadavg()

const result: IngestBenchResult = {
  command: `npm run bench:ingest -- ${process.argv.slice(2).join(' ')}`,
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`,
  loadBefore,
  loadAfter,
  snapshotDir,
  works,
  snapshotBytes,
  ...(snapshotGzip6Bytes === undefined ? {} : { snapshotGzip6Bytes }),
  rounds,
  contenders: plan.map((contender, index) => ({
    name: contender.name,
    label: contender.label,
    runs: measured[index]!,
  })),
}
const section = renderIngestSection(result)
console.log(`\n${section}`)
if (args.out !== undefined) writeFileSync(args.out, section)
