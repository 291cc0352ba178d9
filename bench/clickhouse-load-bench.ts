// How long `loadCatalogIntoClickHouse` takes to load a catalog folder, and where the time goes, table by
// table. The only ClickHouse here is chdb (the engine embedded in this process) behind the test stand-in
// for a server's HTTP interface, so the figures include the stand-in's own work: it writes each insert's
// rows to a file before the engine reads them, and the engine shares this process and its two cores with
// the loader. A real server would parse inserts as they stream in, on its own cores. A catalog of format 9
// keeps its entity, link and id tables in its serving database alone: they are exported as Parquet files once,
// before the rounds, as `oqlkit load` exports them before each load, and that export is timed apart.
//
//   npm run bench:clickhouse-load -- --catalog DIR [--rounds 3] [--tmp DIR]
import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createClient } from '@clickhouse/client'
import { loadCatalogIntoClickHouse } from '@oqlkit/adapter-clickhouse'
import { startChdbHttpServer } from '@oqlkit/adapter-clickhouse/test-support'
import { exportCatalogTables, tablesInServingDatabase } from '@oqlkit/adapter-duckdb'
import { readCatalogManifest } from '@oqlkit/catalog'

const { values } = parseArgs({
  options: { catalog: { type: 'string' }, rounds: { type: 'string', default: '3' }, tmp: { type: 'string' } },
})
if (values.catalog === undefined)
  throw new Error('--catalog DIR is required: a catalog built by oqlkit ingest')
const rounds = Number(values.rounds)
const catalogDir = resolve(values.catalog)
const read = await readCatalogManifest(catalogDir)
if (!read.ok) throw new Error(`${catalogDir}: ${read.message}`)
const scratch = mkdtempSync(join(values.tmp ?? tmpdir(), 'oqlkit-clickhouse-load-bench-'))
const server = await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
const client = createClient({ url: server.url, request_timeout: 3_600_000 })
const median = (list: readonly number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!
try {
  // A format-9 catalog's tables, as Parquet files from its serving database (none for format 8).
  let tableFiles: string | undefined
  if (tablesInServingDatabase(read.manifest)) {
    tableFiles = join(scratch, 'tables')
    const started = performance.now()
    await exportCatalogTables(catalogDir, read.manifest, tableFiles)
    console.log(
      `export of the tables from the serving database: ${((performance.now() - started) / 1000).toFixed(1)} s (not in the load times)`,
    )
  }
  const totals: number[] = []
  const perTable = new Map<string, number[]>()
  let rows = 0
  for (let round = 0; round < rounds; round++) {
    let table = ''
    let since = performance.now()
    const close = () => {
      if (table !== '')
        perTable.set(table, [...(perTable.get(table) ?? []), (performance.now() - since) / 1000])
    }
    const summary = await loadCatalogIntoClickHouse({
      catalogDir,
      ...(tableFiles === undefined ? {} : { tableFiles }),
      client,
      catalog: 'bench',
      keepVersions: 1,
      onProgress: (event) => {
        if (event.table === table) return
        close()
        table = event.table
        since = performance.now()
      },
    })
    close()
    totals.push(summary.seconds)
    rows = summary.rows
  }
  const slowest = [...perTable].sort((a, b) => median(b[1]) - median(a[1])).slice(0, 5)
  console.log(
    `catalog ${values.catalog}: ${rows.toLocaleString('en-US')} rows, ${rounds} rounds, ${cpus().length} cores, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )
  console.log(
    `load: median ${median(totals).toFixed(1)} s (min ${Math.min(...totals).toFixed(1)}, max ${Math.max(...totals).toFixed(1)})`,
  )
  for (const [name, seconds] of slowest)
    console.log(`  ${name.padEnd(28)} median ${median(seconds).toFixed(1)} s`)
} finally {
  await client.close()
  await server.close()
  rmSync(scratch, { recursive: true, force: true })
}
