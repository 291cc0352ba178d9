// `npm run bench:scale -- --works N`: the whole road at one size, as one command, each step a child process timed
// with its peak memory (GNU time):
//   generate   `oqlkit generate` writes a synthetic snapshot of N works;
//   ingest     `oqlkit ingest --no-search-index --no-vectors --no-text-tagger`: the core catalog (the snapshot
//              is deleted after it unless --keep-snapshot: the steps after read only the catalog);
//   search     `oqlkit index`: the full-text search index;
//   vectors    the works' vectors (LSA) and their list index (`scale-vectors-step.ts`);
//   serve      `oqlkit serve`: the time from its start to its first answer, then every query shape of
//              `catalog-bench.ts` through HTTP (singleton by id and DOI, filtered lists, link filters, sorts,
//              group_by on a column and a link column, search, semantic search, autocomplete), medians and p95;
// then the catalog's size on disk. The results go to `bench/results/scale-<N>.json` and a Markdown section for
// BENCHMARKS.md is printed. With --dir, the work folder stays (the catalog, for other benchmarks).
//
//   npm run bench:scale -- --works 1000000 [--dir /tmp/scale-1m] [--seed 1] [--rounds 15] [--keep-snapshot]
//                          [--results bench/results] [--memory-limit 2GB]
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { percentile } from './bench-stats.ts'
import { startBuiltServe } from './built-serve-process.ts'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(REPO, 'packages/cli/bin/oqlkit.js')
const USAGE =
  'usage: npm run bench:scale -- --works N [--dir DIR] [--seed 1] [--rounds 15] [--keep-snapshot] [--results bench/results] [--memory-limit 2GB]'

const { values: args } = parseArgs({
  options: {
    works: { type: 'string' },
    dir: { type: 'string' },
    seed: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '15' },
    'keep-snapshot': { type: 'boolean', default: false },
    results: { type: 'string', default: join(REPO, 'bench/results') },
    'memory-limit': { type: 'string' },
  },
  strict: true,
})
const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}
const works = Number(args.works)
if (!Number.isSafeInteger(works) || works < 1)
  fail(`--works must be a positive whole number, not ${args.works}`)
const rounds = Number(args.rounds)
if (!Number.isSafeInteger(rounds) || rounds < 1)
  fail(`--rounds must be a positive whole number, not ${args.rounds}`)
if (!existsSync(CLI) || !existsSync(join(REPO, 'packages/cli/dist')))
  fail('the built CLI is missing: run `npx tsc -b tsconfig.build.json` first')

const keepDir = args.dir !== undefined
const workDir = args.dir === undefined ? mkdtempSync(join(tmpdir(), 'oqlkit-scale-')) : resolve(args.dir)
mkdirSync(workDir, { recursive: true })
const snapshotDir = join(workDir, 'snapshot')
const catalogDir = join(workDir, 'catalog')
const memoryLimit = args['memory-limit'] === undefined ? [] : ['--memory-limit', args['memory-limit']]
const log = (line: string) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}] ${line}`)

interface StepResult {
  readonly step: string
  readonly seconds: number
  readonly peakRssMb: number
  readonly cpuSeconds: number
}

/** Runs `argv` (node and its arguments) under GNU time; its output's tail is kept for a failure's message. */
async function timedStep(step: string, argv: readonly string[]): Promise<StepResult> {
  const timeFile = join(workDir, `${step}.time`)
  const started = performance.now()
  const child = spawn('/usr/bin/time', ['-f', '%e %M %U %S', '-o', timeFile, process.execPath, ...argv], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let tail = ''
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000)
  }
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  if (code !== 0) throw new Error(`${step} failed (exit ${code}):\n${tail}`)
  const [, peakKb, user, system] = readFileSync(timeFile, 'utf8')
    .trim()
    .split('\n')
    .at(-1)!
    .split(' ')
    .map(Number)
  const result = {
    step,
    seconds: (performance.now() - started) / 1000,
    peakRssMb: Math.round(peakKb! / 1024),
    cpuSeconds: user! + system!,
  }
  log(
    `${step}: ${result.seconds.toFixed(1)} s, peak RSS ${result.peakRssMb} MB, ${result.cpuSeconds.toFixed(0)} s of CPU`,
  )
  return result
}

async function folderBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size
  return total
}

interface QueryResult {
  readonly shape: string
  readonly target: string
  readonly medianMs: number
  readonly p95Ms: number
}

const loadBefore = loadavg()
const startedAt = new Date().toISOString()
const steps: StepResult[] = []
let snapshotBytes = 0
try {
  log(`${works.toLocaleString('en-US')} works in ${workDir}`)
  steps.push(
    await timedStep('generate', [
      CLI,
      'generate',
      '--works',
      String(works),
      '--out',
      snapshotDir,
      '--seed',
      args.seed,
      '--overwrite',
    ]),
  )
  snapshotBytes = await folderBytes(snapshotDir)
  steps.push(
    await timedStep('ingest (core)', [
      CLI,
      'ingest',
      snapshotDir,
      '--out',
      catalogDir,
      '--replace',
      '--no-search-index',
      '--no-vectors',
      '--no-text-tagger',
      ...memoryLimit,
    ]),
  )
  // Nothing after this reads the snapshot: on a full disk, 10M works' snapshot is what makes room.
  if (!args['keep-snapshot']) rmSync(snapshotDir, { recursive: true, force: true })
  steps.push(await timedStep('search index', [CLI, 'index', catalogDir, ...memoryLimit]))
  steps.push(
    await timedStep('vectors', [
      '--conditions=@oqlkit/source',
      '--import',
      'tsx',
      join(REPO, 'bench/scale-vectors-step.ts'),
      catalogDir,
      ...(args['memory-limit'] === undefined ? [] : [args['memory-limit']]),
    ]),
  )
  const catalogBytes = await folderBytes(catalogDir)

  const server = await startBuiltServe({ cli: CLI, catalogDir, cwd: REPO })
  log(`serve: first answer ${server.firstAnswerMs.toFixed(0)} ms after the start`)
  let queries: QueryResult[]
  let servePeakMb: number
  try {
    const json = join(workDir, 'queries.json')
    steps.push(
      await timedStep('queries', [
        '--conditions=@oqlkit/source',
        '--import',
        'tsx',
        join(REPO, 'bench/catalog-bench.ts'),
        '--catalog',
        catalogDir,
        '--http',
        server.base,
        '--contenders',
        'http',
        '--rounds',
        String(rounds),
        '--json',
        json,
      ]),
    )
    const measured = JSON.parse(readFileSync(json, 'utf8')) as {
      results: { shape: string; target: string; contenders: { name: string; times: number[] }[] }[]
    }
    queries = measured.results.map((result) => {
      const times = result.contenders.find((contender) => contender.name === 'http')?.times ?? []
      return {
        shape: result.shape,
        target: result.target,
        medianMs: percentile(times, 50),
        p95Ms: percentile(times, 95),
      }
    })
    servePeakMb = server.peakRssMb()
  } finally {
    await server.stop()
  }

  const result = {
    works,
    seed: Number(args.seed),
    startedAt,
    commit: gitCommit(),
    machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`,
    loadBefore,
    loadAfter: loadavg(),
    steps,
    totalSeconds: steps
      .filter((step) => step.step !== 'queries')
      .reduce((sum, step) => sum + step.seconds, 0),
    snapshotBytes,
    catalogBytes,
    serve: { firstAnswerMs: Math.round(server.firstAnswerMs), peakRssMb: servePeakMb },
    queries,
  }
  mkdirSync(resolve(args.results), { recursive: true })
  const out = join(resolve(args.results), `scale-${works}.json`)
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`)
  log(`wrote ${out}`)
  console.log(`\n${markdownSection(result)}`)
} finally {
  if (!keepDir) rmSync(workDir, { recursive: true, force: true })
}

function gitCommit(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO, encoding: 'utf8' })
  return head.status === 0 ? head.stdout.trim() : 'unknown'
}

function markdownSection(result: {
  works: number
  steps: StepResult[]
  totalSeconds: number
  snapshotBytes: number
  catalogBytes: number
  serve: { firstAnswerMs: number; peakRssMb: number }
  queries: QueryResult[]
  loadBefore: number[]
  loadAfter: number[]
  commit: string
  startedAt: string
}): string {
  const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(2)} GB`
  const load = `${result.loadBefore[0]!.toFixed(1)} before, ${result.loadAfter[0]!.toFixed(1)} after`
  return [
    `### ${result.works.toLocaleString('en-US')} works, one command (\`npm run bench:scale -- --works ${result.works}\`)`,
    '',
    `${result.startedAt.slice(0, 10)}, ${result.commit}; load ${load}. Snapshot ${gb(result.snapshotBytes)}, catalog ${gb(result.catalogBytes)}; generate to served catalog ${(result.totalSeconds / 60).toFixed(1)} min.`,
    '',
    '| step | wall | CPU | peak RSS |',
    '|---|---:|---:|---:|',
    ...result.steps.map(
      (step) =>
        `| ${step.step} | ${step.seconds.toFixed(1)} s | ${step.cpuSeconds.toFixed(0)} s | ${step.peakRssMb} MB |`,
    ),
    `| serve: first answer after the start | ${(result.serve.firstAnswerMs / 1000).toFixed(2)} s | — | ${result.serve.peakRssMb} MB after the queries |`,
    '',
    '| query through HTTP | target | median | p95 |',
    '|---|---|---:|---:|',
    ...result.queries.map(
      (query) =>
        `| ${query.shape} | ${query.target} | ${query.medianMs.toFixed(1)} ms | ${query.p95Ms.toFixed(1)} ms |`,
    ),
  ].join('\n')
}
