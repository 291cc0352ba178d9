// Per-query overhead of the DuckDB adapter on a small catalog: opens the adapter on a catalog folder (the
// bundled sample's, 565 works) in each load mode and runs a mix of list, group and singleton plans many times
// each, one at a time, reporting per plan the median and p90 wall time, the median time DuckDB spent
// executing its statements (summed: a list's page and count run at once), and the statements and hops
// through libuv's thread pool one call makes.
//
//   node --conditions=@oqlkit/source --import tsx bench/adapter-query-overhead.ts --catalog DIR \
//     [--modes tables,views,narrow] [--rounds 200] [--baseline path/to/other/adapter-duckdb/src/index.ts]
//
// With --baseline, a second copy of the adapter's source (say, the last commit's, from `git archive`, kept
// where it resolves the workspace's packages) runs beside this one, case by case in turn, so that both
// meet the same load: the figures are paired.

import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  DuckDBConnection,
  DuckDBExtractedStatements,
  DuckDBPreparedStatement,
  DuckDBResult,
} from '@duckdb/node-api'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { planQuery, type QueryPlan, type StorageAdapter, type ViewParameters } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    modes: { type: 'string', default: 'tables,views,narrow' },
    rounds: { type: 'string', default: '200' },
    baseline: { type: 'string' },
    threads: { type: 'string', default: '2' },
  },
})
if (values.catalog === undefined) throw new Error('--catalog DIR: a catalog folder (oqlkit ingest)')
const rounds = Number(values.rounds)

// Every call into DuckDB that returns a promise is a trip through libuv's thread pool (a hop): counted by
// wrapping the client's methods that make one (the bindings' own exports are read-only). Statements are
// the executions among them; their time, from handing one to DuckDB to its result, is summed per call.
let hops = 0
let statements = 0
let executingMs = 0
const wrap = (proto: object, name: string, counted: (args: readonly unknown[]) => void): void => {
  const target = proto as Record<string, (...args: unknown[]) => unknown>
  const original = target[name]!
  target[name] = function (this: unknown, ...args: unknown[]) {
    counted(args)
    return original.apply(this, args)
  }
}
const hop = () => {
  hops++
}
// `run` without values is one `query`; with values it extracts, prepares and executes (counted below).
wrap(DuckDBConnection.prototype, 'run', (args) => {
  if (args[1] === undefined) {
    hops++
    statements++
  }
})
wrap(DuckDBConnection.prototype, 'extractStatements', hop)
wrap(DuckDBConnection.prototype, 'createPrepared', hop)
wrap(DuckDBExtractedStatements.prototype, 'prepare', hop)
wrap(DuckDBResult.prototype, 'fetchChunk', hop)
{
  const target = DuckDBPreparedStatement.prototype as unknown as Record<
    string,
    (...args: unknown[]) => Promise<unknown>
  >
  const execute = target.run!
  target.run = async function (this: unknown, ...args: unknown[]) {
    hops++
    statements++
    const start = performance.now()
    try {
      return await execute.apply(this, args)
    } finally {
      executingMs += performance.now() - start
    }
  }
}

const planOf = (oqo: Oqo, view: ViewParameters = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

interface Case {
  readonly name: string
  readonly run: (adapter: StorageAdapter) => Promise<unknown>
}

const rows =
  (oqo: Oqo, view: ViewParameters = {}) =>
  (adapter: StorageAdapter) =>
    adapter.queryRows(planOf(oqo, view))
const groups = (oqo: Oqo) => (adapter: StorageAdapter) => adapter.queryGroups(planOf(oqo))

const CASES: readonly Case[] = [
  {
    name: 'list year=2020',
    run: rows({ get_rows: 'works', filter_rows: [{ column_id: 'publication_year', value: 2020 }] }),
  },
  {
    name: 'list year=2020 by citations',
    run: rows(
      { get_rows: 'works', filter_rows: [{ column_id: 'publication_year', value: 2020 }] },
      { sort: [{ field: 'cited_by_count', direction: 'desc' }] },
    ),
  },
  { name: 'list all, 100 a page', run: rows({ get_rows: 'works' }, { perPage: 100 }) },
  { name: 'list page 3', run: rows({ get_rows: 'works' }, { page: 3 }) },
  {
    name: 'list of an institution',
    run: rows({
      get_rows: 'works',
      filter_rows: [{ column_id: 'authorships.institutions.country_code', value: 'us' }],
    }),
  },
  {
    name: 'list title search',
    run: rows({
      get_rows: 'works',
      filter_rows: [{ column_id: 'title.search', value: 'learning', operator: 'has' }],
    }),
  },
  { name: 'group by type', run: groups({ get_rows: 'works', group_by: [{ column_id: 'type' }] }) },
  {
    name: 'group by author',
    run: groups({ get_rows: 'works', group_by: [{ column_id: 'authorships.author.id' }] }),
  },
  { name: 'authors list', run: rows({ get_rows: 'authors' }) },
]

const median = (sorted: readonly number[]): number => sorted[Math.floor(sorted.length / 2)] ?? Number.NaN

type Open = typeof createDuckDbAdapter
const variants: { readonly name: string; readonly open: Open }[] = [
  { name: 'this', open: createDuckDbAdapter },
]
if (values.baseline !== undefined) {
  const module = (await import(pathToFileURL(resolve(values.baseline)).href)) as { createDuckDbAdapter: Open }
  variants.unshift({ name: 'baseline', open: module.createDuckDbAdapter })
}

interface Measured {
  readonly times: number[]
  readonly executing: number[]
  calls: string
}

for (const load of values.modes.split(',') as ('tables' | 'views' | 'narrow')[]) {
  const adapters = await Promise.all(
    variants.map((variant) =>
      variant.open({ catalogDir: values.catalog!, threads: Number(values.threads), load }),
    ),
  )
  const someWork = await adapters[0]!.queryRows(planOf({ get_rows: 'works' }, { perPage: 1 }))
  const workId = String(someWork.rows[0]?.id)
  const cases: Case[] = [
    ...CASES,
    { name: 'work by id', run: (a) => a.findById('works', workId) },
    { name: 'work by missing id', run: (a) => a.findById('works', 'W1') },
  ]
  // Warm: first calls parse, plan and read files.
  for (const adapter of adapters) for (const one of cases) for (let i = 0; i < 5; i++) await one.run(adapter)
  const measured = adapters.map(
    () => new Map<string, Measured>(cases.map((one) => [one.name, { times: [], executing: [], calls: '' }])),
  )
  // Interleaved rounds, so that a burst of load elsewhere falls on every case and variant alike.
  for (let round = 0; round < rounds; round++)
    for (const one of cases)
      for (const [index, adapter] of adapters.entries()) {
        const hopsBefore = hops
        const statementsBefore = statements
        const executingBefore = executingMs
        const start = performance.now()
        await one.run(adapter)
        const entry = measured[index]!.get(one.name)!
        entry.times.push(performance.now() - start)
        entry.executing.push(executingMs - executingBefore)
        entry.calls = `${statements - statementsBefore} statements, ${hops - hopsBefore} hops`
      }
  const totals = variants.map(() => 0)
  for (const one of cases) {
    const line = variants.map((variant, index) => {
      const entry = measured[index]!.get(one.name)!
      const sorted = entry.times.sort((a, b) => a - b)
      totals[index]! += median(sorted)
      const executing = median(entry.executing.sort((a, b) => a - b))
      return `${variant.name} ${median(sorted).toFixed(2).padStart(6)} ms (p90 ${(sorted[Math.floor(sorted.length * 0.9)] ?? 0).toFixed(1).padStart(5)}; executing ${executing.toFixed(2)}; ${entry.calls})`
    })
    console.log(`${load.padEnd(7)} ${one.name.padEnd(28)} ${line.join('  ')}`)
  }
  console.log(
    `${load.padEnd(7)} ${'sum of medians'.padEnd(28)} ${variants.map((variant, index) => `${variant.name} ${totals[index]!.toFixed(1)} ms`).join('  ')}`,
  )
  for (const adapter of adapters) await adapter.close()
}
