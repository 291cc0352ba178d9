// The server of `bench/cheap-under-load-bench.ts`, in a process of its own so that the load the bench makes
// does not share its event loop: the catalog's DuckDB adapter behind `createApp` and `startServer`, as
// `oqlkit serve` runs them, with the request limits given as arguments. It prints one JSON line with its
// URL once it listens; on SIGTERM it prints one with the delays of its event loop (how late its timers, and so
// its deadlines, fired) and exits.
//   node --conditions=@oqlkit/source --import tsx bench/cheap-under-load-server.ts CATALOG LIMITS_JSON
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { loadCatalogTagger } from '@oqlkit/catalog'
import { createApp, RequestLimits, type RequestLimitsOptions, startServer } from '@oqlkit/http'

const [catalogDir, limitsJson = '{}'] = process.argv.slice(2)
if (catalogDir === undefined) {
  process.stderr.write('usage: cheap-under-load-server.ts CATALOG [LIMITS_JSON]\n')
  process.exit(2)
}
const limits = new RequestLimits(JSON.parse(limitsJson) as RequestLimitsOptions)
// Connections as `oqlkit serve` sizes them on 2 cores (storageConcurrency), and one per export slot;
// BENCH_DUCKDB_THREADS sets DuckDB's threads (by default DuckDB's own, one per core), to compare.
const adapter = await createDuckDbAdapter({
  catalogDir,
  connections: 6 + limits.exportAdmission.slots,
  ...(process.env.BENCH_DUCKDB_THREADS === undefined
    ? {}
    : { threads: Number(process.env.BENCH_DUCKDB_THREADS) }),
})
const tagger = await loadCatalogTagger(catalogDir)
const app = createApp({
  adapter,
  ...(tagger === undefined ? {} : { tagger }),
  catalog: { createdAt: new Date().toISOString(), entities: {} },
  limits,
  logError: (error) => process.stderr.write(`server fault: ${String(error)}\n`),
})
const server = await startServer(app, { port: 0 })
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)

process.once('SIGTERM', () => {
  loop.disable()
  const ms = (ns: number) => Math.round(ns / 1e5) / 10
  process.stdout.write(
    `${JSON.stringify({ loopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) } })}\n`,
  )
  server
    .close(true)
    .then(() => adapter.close())
    .finally(() => process.exit(0))
    .catch(() => {})
})
