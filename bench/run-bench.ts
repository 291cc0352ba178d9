// `npm run bench`: the benchmark against the peers. For each catalog size: the catalog from the cache (built
// with `oqlkit generate` and `oqlkit ingest` when missing), the snapshot loaded into a fresh PostgreSQL
// database, the query mix side by side (ours, hand-written DuckDB SQL, PostgreSQL), HTTP throughput against a
// bare h3 server, and the serving process's peak memory. Results go to the results folder as JSON per size,
// and a report (Markdown) and a plot (SVG) over every size measured there so far.
//
//   npm run bench -- --sizes 100k          (see bench-arguments.ts for every option)

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { createApp } from '@oqlkit/http'
import { BenchArgumentError, parseBenchArguments } from './bench-arguments.ts'
import { ensureCatalog, ensureSnapshot } from './bench-catalog-cache.ts'
import {
  type LoadSummary,
  renderGrowthPlot,
  renderGrowthTable,
  renderLoadTable,
  renderMemoryTable,
  renderQueryTable,
  renderReport,
  type ShapeResult,
  type SizeResult,
} from './bench-report-writer.ts'
import { type Contender, formatMs, median, percentile, runSideBySide } from './bench-stats.ts'
import { openHandSqlViews } from './hand-sql-views.ts'
import {
  compareLoad,
  type ServerProcess,
  startBareAdapterServer,
  startBareH3Server,
  startOqlkitServer,
  summariseLoad,
} from './http-load-runner.ts'
import { formatWorks } from './latency-plot-writer.ts'
import { appGet, buildQueryMix } from './peer-query-mix.ts'
import { keptDatabaseName, openOrLoadKeptDatabase } from './postgres/kept-postgres-database.ts'
import {
  benchDatabaseName,
  dropDatabase,
  type LoadedDatabase,
  loadSnapshotIntoPostgres,
} from './postgres/postgres-snapshot-loader.ts'

let args: ReturnType<typeof parseBenchArguments>
try {
  args = parseBenchArguments(process.argv.slice(2))
} catch (error) {
  if (!(error instanceof BenchArgumentError)) throw error
  console.error(error.message)
  process.exit(2)
}
const log = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`)
const resultsDir = resolve(args.resultsDir)
mkdirSync(resultsDir, { recursive: true })
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`
const wanted = (name: string) => args.only.length === 0 || args.only.some((part) => name.includes(part))

/**
 * The PostgreSQL baseline of a snapshot: a fresh database dropped after the run, or with `--keep-postgres` the
 * kept one (loaded when missing). The steps that undo it on Ctrl-C go to `cleanUp`.
 */
async function loadBaseline(
  snapshotDir: string,
  cleanUp: (() => Promise<void> | void)[],
): Promise<LoadedDatabase> {
  if (args.keepPostgres) {
    const name = keptDatabaseName(basename(snapshotDir))
    log(`the kept PostgreSQL database ${name}: used if a run finished loading it, loaded otherwise`)
    const kept = await openOrLoadKeptDatabase({
      server: args.postgres,
      snapshotDir,
      database: name,
      onProgress: log,
    })
    cleanUp.push(() => kept.close())
    return kept
  }
  const name = benchDatabaseName()
  log(`loading the snapshot into PostgreSQL (database ${name})`)
  let loaded: LoadedDatabase | undefined
  // Registered before the load, so a Ctrl-C during it still drops the database.
  cleanUp.push(() => (loaded === undefined ? dropDatabase(args.postgres, name) : loaded.drop()))
  loaded = await loadSnapshotIntoPostgres({
    server: args.postgres,
    snapshotDir,
    database: name,
    onProgress: log,
  })
  return loaded
}

const releaseBaseline = async (database: LoadedDatabase | undefined): Promise<void> =>
  args.keepPostgres ? database?.close() : database?.drop()

async function benchSize(works: number): Promise<SizeResult> {
  log(`== ${formatWorks(works)} works ==`)
  const loadAtStart = loadavg()[0]!
  const cached = await ensureCatalog({
    cacheDir: args.cacheDir,
    works,
    seed: args.seed,
    ingestMemoryLimit: args.ingestMemoryLimit,
    log,
  })
  let database: LoadedDatabase | undefined
  let postgresLoad: SizeResult['postgresLoad']
  const cleanUp: (() => Promise<void> | void)[] = []
  const onSignal = async () => {
    for (const step of cleanUp.reverse()) await Promise.resolve(step()).catch(() => {})
    process.exit(130)
  }
  process.once('SIGINT', onSignal)
  try {
    if (args.parts.has('postgres')) {
      database = await loadBaseline(cached.snapshotDir, cleanUp)
      const { copyMs, indexMs, analyzeMs, sizeBytes, rows } = database
      postgresLoad = { copyMs, indexMs, analyzeMs, sizeBytes, rows }
      log(
        `postgres ${database.database}: COPY ${formatMs(database.copyMs)} ms, keys and indexes ${formatMs(database.indexMs)} ms, analyse ${formatMs(database.analyzeMs)} ms, ${Math.round(database.sizeBytes / 1_048_576)} MB`,
      )
    }

    const adapter = await createDuckDbAdapter({ catalogDir: cached.catalogDir })
    cleanUp.push(() => adapter.close())
    const app = createApp({ adapter, catalog: { createdAt: 'bench', entities: {} } })
    const hand = await openHandSqlViews(cached.catalogDir)
    cleanUp.push(() => hand.close())
    log('drawing the query values (and walking the cursor to depth 10,000)')
    const shapes = await buildQueryMix({
      app,
      duckdb: hand.connection,
      duckdbRecords: hand.records,
      postgres: database?.sql,
    })

    const shapeResults: ShapeResult[] = []
    if (args.parts.has('queries'))
      for (const shape of shapes.filter((candidate) => wanted(candidate.name))) {
        let check: Record<string, number> | undefined
        if (shape.check !== undefined) {
          check = {
            app: shape.check.fromApp(await appGet(app, shape.path(0))),
            duckdb: await shape.check.duckdb(),
            ...(shape.check.postgres === undefined ? {} : { postgres: await shape.check.postgres() }),
          }
          if (new Set(Object.values(check)).size > 1)
            log(`! ${shape.name}: the contenders disagree: ${JSON.stringify(check)}`)
        }
        let round = 0
        const contenders: Contender[] = [
          { name: 'app', run: () => appGet(app, shape.path(round)) },
          { name: 'duckdb', run: () => shape.duckdb(round) },
        ]
        const postgres = shape.postgres
        if (postgres !== undefined) contenders.push({ name: 'postgres', run: () => postgres(round) })
        const times = await runSideBySide(contenders, args.rounds, {
          warmup: args.warmup,
          onRoundEnd: () => {
            round++
          },
        })
        const summary: ShapeResult = {
          shape: shape.name,
          growth: shape.growth,
          path: shape.path(0),
          ...(check === undefined ? {} : { check }),
          contenders: times.map((t) => ({
            name: t.name,
            medianMs: median(t.times),
            p95Ms: percentile(t.times, 95),
            rounds: t.times.length,
          })),
        }
        shapeResults.push(summary)
        log(
          `${shape.name.padEnd(44)} ${summary.contenders.map((c) => `${c.name} ${formatMs(c.medianMs)} ms (p95 ${formatMs(c.p95Ms)})`).join('  ')}`,
        )
      }
    // The in-process engines are closed before the server starts, so the server has the machine to itself.
    await releaseBaseline(database)
    database = undefined
    hand.close()
    await adapter.close()
    cleanUp.length = 0

    const load: LoadSummary[] = []
    let serverPeakRssBytes: number | undefined
    if (args.parts.has('load') || args.parts.has('memory')) {
      log('starting oqlkit serve')
      const server = await startOqlkitServer(cached.catalogDir)
      cleanUp.push(() => server.stop())
      let floor: ServerProcess | undefined
      try {
        const loadShapes = shapes.filter((candidate) =>
          ['singleton by id', 'year+type+OA, top 25 by citations'].includes(candidate.name),
        )
        // The same answers from bare h3 over the same adapter: singletons by id, and the list shape's plan.
        const listPath = loadShapes.find((shape) => shape.name.startsWith('year+type+OA'))!.path(0)
        if (args.parts.has('load')) {
          floor = await startBareAdapterServer(cached.catalogDir, listPath)
          cleanUp.push(() => floor!.stop())
        }
        if (args.parts.has('load'))
          for (const shape of loadShapes) {
            const paths = Array.from({ length: 64 }, (_, round) => shape.path(round))
            const sizes: number[] = []
            for (const path of paths)
              sizes.push((await (await fetch(new URL(path, server.url))).arrayBuffer()).byteLength)
            const bodyBytes = Math.round(median(sizes))
            const bare = await startBareH3Server(bodyBytes)
            try {
              for (const connections of args.connections) {
                log(
                  `load: ${shape.name}, ${connections} connection(s), ${args.loadRuns} × ${args.loadSeconds} s each side`,
                )
                const summary = summariseLoad(
                  await compareLoad({
                    shape: shape.name,
                    ours: { url: server.url, paths },
                    bare: { url: bare.url },
                    floor: { url: floor!.url },
                    connections,
                    seconds: args.loadSeconds,
                    runs: args.loadRuns,
                  }),
                )
                load.push({ ...summary, bodyBytes })
                log(
                  `  oqlkit ${Math.round(summary.ours.requestsPerSecond)} req/s, bare h3 ${Math.round(summary.bare.requestsPerSecond)} req/s: ${formatMs(summary.serviceOverheadMs)} ms more per request; bare h3 + adapter ${Math.round(summary.floor?.requestsPerSecond ?? 0)} req/s: ${formatMs(summary.overFloorServiceMs ?? Number.NaN)} ms more`,
                )
              }
            } finally {
              await bare.stop()
            }
          }
        if (args.parts.has('memory')) {
          // Every shape of the mix through the server too, so its peak covers them all, not only the load.
          for (const shape of shapes)
            for (let round = 0; round < 3; round++)
              await (await fetch(new URL(shape.path(round), server.url))).arrayBuffer()
        }
        serverPeakRssBytes = server.peakRssBytes()
        log(
          `oqlkit serve peak RSS: ${serverPeakRssBytes === undefined ? 'unknown' : `${Math.round(serverPeakRssBytes / 1_048_576)} MB`}`,
        )
      } finally {
        await server.stop()
        await floor?.stop()
        cleanUp.length = 0
      }
    }

    return {
      works,
      seed: args.seed,
      date: new Date().toISOString().slice(0, 10),
      machine,
      loadAverage: [loadAtStart, loadavg()[0]!],
      rounds: args.rounds,
      warmup: args.warmup,
      build: cached.built,
      ...(postgresLoad === undefined ? {} : { postgresLoad }),
      shapes: shapeResults,
      load,
      ...(serverPeakRssBytes === undefined ? {} : { serverPeakRssBytes }),
    }
  } finally {
    for (const step of cleanUp.reverse()) await Promise.resolve(step()).catch(() => {})
    await releaseBaseline(database).catch(() => {})
    process.off('SIGINT', onSignal)
  }
}

if (args.preparePostgres) {
  for (const works of args.sizes) {
    const { snapshotDir } = await ensureSnapshot({ cacheDir: args.cacheDir, works, seed: args.seed, log })
    const database = await loadBaseline(snapshotDir, [])
    log(
      `${formatWorks(works)} works: PostgreSQL database ${database.database} ready (${Math.round(database.sizeBytes / 1_048_576)} MB); runs with --keep-postgres use it`,
    )
    await database.close()
  }
  process.exit(0)
}

for (const works of args.reportOnly ? [] : args.sizes) {
  const result = await benchSize(works)
  const file = join(resultsDir, `results-${works}.json`)
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  log(`wrote ${file}`)
  console.log(`\n${renderQueryTable(result)}\n`)
  if (result.load.length > 0) console.log(`${renderLoadTable(result)}\n`)
}

// The report and the plot cover every size whose results are in the folder (earlier runs included), so sizes
// can be run one at a time.
const all: SizeResult[] = readdirSync(resultsDir)
  .filter((file) => /^results-\d+\.json$/.test(file))
  .map((file) => JSON.parse(readFileSync(join(resultsDir, file), 'utf8')) as SizeResult)
writeFileSync(join(resultsDir, 'report.md'), renderReport(all))
if (all.some((result) => result.shapes.length > 0))
  writeFileSync(join(resultsDir, 'latency-vs-size.svg'), renderGrowthPlot(all))
console.log(`${renderGrowthTable(all)}\n\n${renderMemoryTable(all)}\n`)
log(`wrote ${join(resultsDir, 'report.md')} and ${join(resultsDir, 'latency-vs-size.svg')}`)
