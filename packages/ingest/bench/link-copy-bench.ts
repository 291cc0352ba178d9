// What writing a link table costs the ingest: the statement `copyLinkTableSql` builds (the works' link keys
// unnested, sorted by key and work, written to Parquet) over the references of a built catalog, against the
// same statement with a DISTINCT over the pairs, as it was written until 097b627. The works' rows are made
// from the catalog's own link table (each work's referenced keys as one list, as the parse workers stage them),
// once, in a scratch DuckDB file; each statement then runs in a fresh DuckDB instance under the ingest's
// memory limit, the two alternately.
//
//   npm run bench:link-copy -- --catalog DIR [--rounds 2] [--memory-limit 2GiB]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  catalogEntityInfo,
  constantLiteral,
  LINK_TABLES,
  narrowLinkTableOf,
  quoteIdentifier,
  SERVING_DATABASE_FILE,
} from '@oqlkit/catalog'
import { median } from '../../../bench/bench-stats.ts'
import { copyLinkTableSql } from '../src/build/catalog-sql.ts'
import { linkColumnName } from '../src/parse/record-extractor.ts'

const USAGE = 'usage: npm run bench:link-copy -- --catalog DIR [--rounds 2] [--memory-limit 2GiB]'
const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    'memory-limit': { type: 'string', default: '2GiB' },
  },
  strict: true,
})
const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}
if (values.catalog === undefined) fail('--catalog is required')
const rounds = Number(values.rounds)
if (!Number.isSafeInteger(rounds) || rounds < 1)
  fail(`--rounds must be a whole number above 0, not ${values.rounds}`)
const memoryLimit = values['memory-limit']!

const spec = LINK_TABLES.find((table) => table.name === 'works-referenced-works')!
const works = catalogEntityInfo('works')!
const column = quoteIdentifier(linkColumnName(LINK_TABLES.indexOf(spec)))
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-link-copy-bench-'))
const rowsFile = join(scratch, 'rows.duckdb')
try {
  // The works' rows as the build reads them (`rows_works`: the id and the list of keys), from the catalog's
  // narrow link table (a key's number and its work's row).
  const setup = await createDuckDbInstance(rowsFile, { memoryLimit })
  const connection = await setup.connect()
  await connection.run(
    `ATTACH ${constantLiteral(join(values.catalog!, SERVING_DATABASE_FILE))} AS catalog (READ_ONLY)`,
  )
  await connection.run(
    `CREATE TABLE rows_works AS SELECT 'W' || CAST(work_row AS VARCHAR) AS id, list('W' || CAST(key AS VARCHAR)) AS ${column} FROM catalog.${quoteIdentifier(narrowLinkTableOf(spec.name))} GROUP BY work_row`,
  )
  const [size] = (
    await connection.runAndReadAll(`SELECT count(*) AS works, sum(len(${column})) AS pairs FROM rows_works`)
  ).getRowObjectsJson()
  connection.closeSync()
  setup.closeSync()
  console.log(`${values.catalog}: ${size?.pairs} references of ${size?.works} works, ${rounds} rounds`)

  const current = copyLinkTableSql(spec, works, undefined, 'ranges')
  // Until 097b627 the staged pairs went through a DISTINCT.
  const distinct = current.replace(
    '(SELECT key, work_id FROM (SELECT id',
    '(SELECT DISTINCT key, work_id FROM (SELECT id',
  )
  if (distinct === current) fail('the statement no longer has the form this bench rewrites: update the bench')
  const contenders = [
    ['without DISTINCT (the ingest)', current],
    ['with DISTINCT (before 097b627)', distinct],
  ] as const
  const times = new Map<string, number[]>(contenders.map(([name]) => [name, []]))
  for (let round = 0; round < rounds; round++)
    for (const [name, sql] of round % 2 === 0 ? contenders : [...contenders].reverse()) {
      const instance = await createDuckDbInstance(rowsFile, { memoryLimit })
      const run = await instance.connect()
      const started = performance.now()
      await run.run(sql, [join(scratch, 'links.parquet')])
      const seconds = (performance.now() - started) / 1000
      run.closeSync()
      instance.closeSync()
      times.get(name)!.push(seconds)
      console.log(`  ${name}: ${seconds.toFixed(1)} s`)
    }
  const [now, before] = contenders.map(([name]) => median(times.get(name)!))
  console.log(
    `medians: ${now!.toFixed(1)} s against ${before!.toFixed(1)} s, ratio ${(now! / before!).toFixed(2)}`,
  )
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
