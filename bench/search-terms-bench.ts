// Search cost against the number of terms, OR beside AND (issue 37 item 5): `/works?search=` with n terms
// joined by `|` (one word repeated, and n distinct words) and n distinct words side by side (an `and`), through
// the DuckDB adapter (plans made from the classic URL beforehand, as `catalog-bench.ts` does). The words are
// the most frequent plain title terms of the catalog's index, so each term has postings to read.
//
//   npm run bench:search-terms -- --catalog /tmp/or-sample/catalog [--sizes 10,20,40,60,100] [--rounds 5]
//                                 [--warmup 1] [--adapter-load views|narrow|tables] [--json out.json]
//
// Each size runs its three shapes in turn within every round (the first rotating, `runSideBySide`); the
// figure is the median of the rounds, with the load average beside it, since timings on a shared machine
// move with it.
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbAdapter, createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { planQuery, type QueryPlan } from '@oqlkit/engine'
import { urlToOqo } from '@oqlkit/oql'
import { type Contender, formatMs, median, runSideBySide } from './bench-stats.ts'

const { values: args } = parseArgs({
  options: {
    catalog: { type: 'string' },
    sizes: { type: 'string', default: '10,20,40,60,100' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    'adapter-load': { type: 'string' },
    json: { type: 'string' },
  },
})
if (args.catalog === undefined) {
  console.error(
    'usage: search-terms-bench --catalog DIR [--sizes 10,20,40,60,100] [--rounds 5] [--json out.json]',
  )
  process.exit(2)
}
const catalogDir = resolve(args.catalog)
const sizes = args.sizes.split(',').map(Number)
const rounds = Number(args.rounds)
const warmup = Number(args.warmup)
if (sizes.some((size) => !Number.isInteger(size) || size < 1) || !(rounds >= 1) || !(warmup >= 0)) {
  console.error('--sizes takes whole numbers, --rounds at least 1, --warmup at least 0')
  process.exit(2)
}

/** The catalog's most frequent plain title words, by their exact index's postings in titles. */
async function frequentTitleWords(count: number): Promise<string[]> {
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  try {
    const terms = join(catalogDir, 'search', 'works', 'exact-terms.parquet')
    const reader = await connection.runAndReadAll(
      `SELECT term FROM read_parquet($1) WHERE field = 0 AND regexp_full_match(term, '[a-z]{4,}') ORDER BY df DESC, term LIMIT ${count}`,
      [terms],
    )
    return reader.getRowObjects().map((row) => String(row.term))
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

const planOf = (url: string): QueryPlan => {
  const read = urlToOqo(url)
  if (!read.ok) throw new Error(`${url}: ${JSON.stringify(read.errors)}`)
  const planned = planQuery(read.oqo, {
    ...(read.view.per_page === undefined ? {} : { perPage: read.view.per_page }),
  })
  if (!planned.ok) throw new Error(`${url}: ${JSON.stringify(planned.errors)}`)
  return planned.plan
}

const words = await frequentTitleWords(Math.max(...sizes))
if (words.length < Math.max(...sizes)) throw new Error(`the index has only ${words.length} plain title words`)
const load = args['adapter-load'] as 'views' | 'narrow' | 'tables' | undefined
const adapter = await createDuckDbAdapter({ catalogDir, ...(load === undefined ? {} : { load }) })
const repeated = words[0]!

interface Row {
  readonly terms: number
  readonly shape: string
  readonly medianMs: number
  readonly times: readonly number[]
  readonly count: number
  readonly load: number
}

const shapesOf = (n: number): { name: string; url: string }[] => [
  {
    name: `or, "${repeated}" repeated`,
    url: `/works?search=${Array(n).fill(repeated).join('|')}&per_page=25`,
  },
  { name: 'or, distinct words', url: `/works?search=${words.slice(0, n).join('|')}&per_page=25` },
  { name: 'and, distinct words', url: `/works?search=${words.slice(0, n).join(' ')}&per_page=25` },
]

const results: Row[] = []
console.log(
  `catalog ${catalogDir}, ${rounds} rounds after ${warmup} warm-up, load ${loadavg()[0]!.toFixed(2)}`,
)
console.log('terms | shape | median | rounds (ms) | matches | load')
for (const n of sizes) {
  const counts = new Map<string, number>()
  const contenders: Contender[] = shapesOf(n).map(({ name, url }) => {
    const plan = planOf(url)
    return {
      name,
      run: async () => counts.set(name, (await adapter.queryRows(plan)).count ?? Number.NaN),
    }
  })
  const times = await runSideBySide(contenders, rounds, { warmup })
  const load1 = loadavg()[0]!
  for (const { name, times: each } of times) {
    const row = {
      terms: n,
      shape: name,
      medianMs: median(each),
      times: each,
      count: counts.get(name)!,
      load: load1,
    }
    results.push(row)
    console.log(
      `${n} | ${name} | ${formatMs(row.medianMs)} ms | ${each.map(formatMs).join(' ')} | ${row.count} | ${load1.toFixed(2)}`,
    )
  }
}
await adapter.close()
if (args.json !== undefined)
  writeFileSync(args.json, `${JSON.stringify({ catalogDir, rounds, results }, null, 2)}\n`)
