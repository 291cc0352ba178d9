// SIGTERM under load: starts `oqlkit serve` on the bundled sample (on DuckDB, or with --clickhouse on the chdb
// stand-in for a ClickHouse server, loaded from the same catalog), sends it long requests (100-word OR
// searches, group-bys, a semantic search, an export whose client stalls), SIGTERMs it, and reports how long
// it took to exit, its exit code, and what each request got. RELIABILITY.md, "Shutdown under load".
//
//   npm run sigterm-under-load -- [--runs 3] [--searches 4] [--after-ms 2000] [--clickhouse]
//
// Exits 1 when a run took 10 s or more, exited with another code than 0, or left a request without a status
// line. The sample catalog is built once in $TMPDIR/oqlkit-sigterm-catalog.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createClient } from '@clickhouse/client'
import { loadCatalogExportingTables, startChdbHttpServer } from '@oqlkit/adapter-clickhouse/test-support'
import { type ShutdownRun, sigtermUnderLoad } from '@oqlkit/cli/test-support'
import { ingestSnapshot } from '@oqlkit/ingest'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'

const REPO = resolve(import.meta.dirname, '..')
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    searches: { type: 'string', default: '4' },
    'after-ms': { type: 'string', default: '2000' },
    clickhouse: { type: 'boolean', default: false },
  },
})
const runs = Number(values.runs)
const searches = Number(values.searches)
const afterMs = Number(values['after-ms'])

const catalogDir = join(tmpdir(), 'oqlkit-sigterm-catalog')
if (!existsSync(join(catalogDir, 'catalog.json'))) {
  console.log(`Building the sample catalog in ${catalogDir}…`)
  await ingestSnapshot({
    snapshotDir: SAMPLE_SNAPSHOT_DIR,
    outDir: catalogDir,
    mode: 'replace',
  })
}
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-sigterm-'))
const clickhouse = values.clickhouse
  ? await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
  : undefined
if (clickhouse !== undefined) {
  const client = createClient({ url: clickhouse.url })
  await loadCatalogExportingTables({ catalogDir, client, catalog: 'sample' })
  await client.close()
}

/** `oqlkit serve` from the sources, as the `oqlkit` command runs it (16 libuv threads), on a free port. */
const startServe = async (run: number) => {
  const port = 20_000 + Math.floor(Math.random() * 12_000)
  const what =
    clickhouse === undefined ? ['--catalog', catalogDir] : ['--clickhouse', `${clickhouse.url}/sample`]
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--conditions=@oqlkit/source',
      '--import',
      'tsx',
      join(REPO, 'packages/cli/src/bin.ts'),
      'serve',
      ...what,
      '--port',
      String(port),
      '--state',
      join(scratch, `state-${run}`),
      '--no-metering',
      '--access-log',
      'off',
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, UV_THREADPOOL_SIZE: '16' } },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const url = `http://127.0.0.1:${port}`
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null) throw new Error(`oqlkit serve exited (${child.exitCode}): ${output}`)
    try {
      await fetch(`${url}/`)
      break
    } catch (error) {
      if (Date.now() - started > 120_000) throw error
      await new Promise((wait) => setTimeout(wait, 150))
    }
  }
  return {
    child,
    url,
    output: () => output,
    stop: async () => null,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGKILL')
      await exited
    },
  }
}

/** The load average, as `uptime` prints it. */
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')

const describe = (run: ShutdownRun): string =>
  run.outcomes
    .map(
      (o) =>
        `${o.kind} ${o.status ?? 'NO STATUS LINE'}${o.error === undefined ? '' : ` ${o.error}`}${o.cutOff ? ' (cut off)' : ''} at ${((o.at - run.signalledAt) / 1000).toFixed(1)} s`,
    )
    .join('; ')

let failed = 0
const times: number[] = []
console.log(
  `SIGTERM ${afterMs} ms after ${searches} searches, 2 group-bys, a semantic search and 2 stalled exports, on ${clickhouse === undefined ? 'DuckDB' : 'ClickHouse (chdb stand-in)'}; ${runs} runs`,
)
for (let run = 1; run <= runs; run++) {
  const server = await startServe(run)
  const before = load()
  const result = await sigtermUnderLoad(server, { searches, afterMs, giveUpMs: 60_000 })
  times.push(result.exitMs)
  const bad =
    !(result.exitMs < 10_000) || result.exitCode !== 0 || result.outcomes.some((o) => o.status === undefined)
  if (bad) failed++
  console.log(
    `run ${run}: exit ${Number.isFinite(result.exitMs) ? `${(result.exitMs / 1000).toFixed(2)} s` : 'none within 60 s (killed)'}, code ${result.exitCode}${result.stopped ? '' : ', no "stopped"'}; load ${before}${bad ? '  FAILED' : ''}\n  ${describe(result)}`,
  )
}
console.log(
  `exit times (s): ${times.map((t) => (t / 1000).toFixed(2)).join(', ')}; load average now ${load()}`,
)
await clickhouse?.close()
rmSync(scratch, { recursive: true, force: true })
process.exitCode = failed > 0 ? 1 : 0
