// Type-ahead (`/autocomplete`) at scale: the autocomplete index of the serving database against the scan it
// replaces, side by side in one run, on the same typed text, with a check that both give the same answer.
//
//   npm run bench:autocomplete -- --synthetic 1000000 [--queries 20] [--scan-queries 5] [--rounds 5]
//                                 [--seed 1] [--cache-dir DIR] [--memory-limit 4GB]
//   npm run bench:autocomplete -- --catalog DIR [--queries 20] [--scan-queries 5] [--rounds 5] [--seed 1]
//
// Synthetic: no catalog is ingested (10M works would take hours). A serving database holding only what
// autocomplete reads is made in DuckDB: `works__narrow` (id, normalised name, citations, record location) and
// `works__locations`, in id order, with the ART indexes on `id` and `row` it has, then the autocomplete index
// is built by the very statements ingest runs. Names are
// titles as the snapshot generator writes them: the generator's vocabulary (the bundled sample's words by
// frequency), drawn by the same Zipf law (exponent 1, the first word outside the 40 most frequent), with the
// sample's title lengths and citation counts. The database is kept in the cache folder and reused.
//
// Typed text is cut from names drawn at random (so common prefixes come up as often as people would type
// them), in four kinds: one letter, two letters, one whole word, and several words with the last one cut
// short (a phrase being typed, often longer than the index's 16 characters). Each kind's median is over every
// query and round; the scan runs on the first `--scan-queries` texts of each kind only (about a second each
// at 10M works). Times are of the adapter's statements (matching and ranking, then locating the 10 rows);
// reading and decompressing the 10 records, the same either way, is left out. A fifth kind asks the whole words
// again with a filter (works cited more than 10 times: the one column the synthetic table has to filter on).
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  type AutocompleteIndexLayout,
  autocompleteIndexStatements,
  createDuckDbInstance,
  NARROW_ROW_COLUMN,
  normalizedNameSql,
  openDuckDbDatabase,
  rankAutocompleteMatches,
  readAutocompleteLayouts,
} from '@oqlkit/adapter-duckdb'
import { planQuery } from '@oqlkit/engine'
import { formatMs, median, percentile } from './bench-stats.ts'

const { values: args } = parseArgs({
  options: {
    synthetic: { type: 'string' },
    catalog: { type: 'string' },
    queries: { type: 'string', default: '20' },
    'scan-queries': { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    'cache-dir': { type: 'string', default: join(tmpdir(), 'oqlkit-bench-autocomplete') },
    'memory-limit': { type: 'string', default: '4GB' },
  },
})

const SERVING = 'oqlkit_catalog'
const LIMIT = 10
const KINDS = ['1 letter', '2 letters', 'one word', 'several words', 'one word, filtered'] as const
type Kind = (typeof KINDS)[number]

const count = (name: string, text: string): number => {
  const value = Number(text.replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000'))
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} is a whole number, not ${text}`)
  return value
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')

/** xorshift32: the same texts for the same seed. */
const seededRandom = (seed: number): (() => number) => {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 2 ** 32
  }
}

/** A uniform number in [0, 1) from DuckDB's hash of the arguments: the same names whatever the threads. */
const uniform = (...parts: string[]): string =>
  `(CAST(hash(${parts.join(', ')}) >> 11 AS DOUBLE) / 9007199254740992.0)`

const histogramValues = (histogram: readonly (readonly [number, number])[]): number[] =>
  histogram.flatMap(([value, times]) => Array<number>(times).fill(value))

interface SampleProfileSlice {
  readonly words: readonly string[]
  readonly titleWords: readonly (readonly [number, number])[]
  readonly citedByCount: readonly (readonly [number, number])[]
}

/** Builds the synthetic serving database at `path` (through a temporary name) and reports its sizes. */
async function buildSynthetic(path: string, rows: number, seed: number): Promise<void> {
  const building = `${path}.building`
  rmSync(building, { force: true })
  rmSync(`${building}.wal`, { force: true })
  const profile = JSON.parse(
    await readFile(new URL('../packages/snapshot/src/generate/sample-profile.json', import.meta.url), 'utf8'),
  ) as SampleProfileSlice
  const instance = await createDuckDbInstance(':memory:', {
    memoryLimit: args['memory-limit'],
    tempDirectory: join(args['cache-dir'], 'duckdb-spill'),
  })
  const connection = await instance.connect()
  const run = async (label: string, statement: string, params: unknown[] = []): Promise<void> => {
    const started = performance.now()
    await connection.run(statement, params as never)
    if (label !== '') console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  const served = (name: string) => `${SERVING}.${name}`
  await run('', `ATTACH '${building.replaceAll("'", "''")}' AS ${SERVING}`)
  const words = profile.words.length
  const lengths = histogramValues(profile.titleWords)
  const citations = histogramValues(profile.citedByCount)
  // The three lists as one row: each title is a lambda over them, with no join and no aggregate.
  await run(
    '',
    'CREATE TEMP TABLE vocabulary AS SELECT CAST(CAST(? AS JSON) AS VARCHAR[]) AS words, CAST(CAST(? AS JSON) AS INTEGER[]) AS lengths, CAST(CAST(? AS JSON) AS BIGINT[]) AS citations',
    [JSON.stringify(profile.words), JSON.stringify(lengths), JSON.stringify(citations)],
  )
  await run(
    '',
    `CREATE TABLE ${served('works__narrow')} (id VARCHAR, display_name VARCHAR, cited_by_count BIGINT, works_count BIGINT, record_offset BIGINT, record_bytes INTEGER, __autocomplete_name VARCHAR)`,
  )
  // The generator's Zipf law over ranks 1..V with exponent 1 inverts to floor((V + 1)^u); a title's first
  // word is drawn from rank 41 on.
  const low = Math.log(41) / Math.log(words + 1)
  const started = performance.now()
  for (let from = 0; from < rows; from += 1_000_000) {
    const to = Math.min(rows, from + 1_000_000)
    await run(
      '',
      `INSERT INTO ${served('works__narrow')} SELECT x.id, x.display_name, x.cited_by_count, 0, x.record_offset, x.record_bytes, ${normalizedNameSql('x')} FROM (
        SELECT 'W' || (1000000000 + n) AS id, n * 100 AS record_offset, 100 AS record_bytes,
          v.citations[1 + CAST(floor(${uniform('n', `${seed}`, "'citations'")} * ${citations.length}) AS INTEGER)] AS cited_by_count,
          array_to_string(list_transform(range(v.lengths[1 + CAST(floor(${uniform('n', `${seed}`, "'length'")} * ${lengths.length}) AS INTEGER)]), pos -> v.words[least(CAST(floor(pow(${words + 1}, CASE WHEN pos = 0 THEN ${low} + ${uniform('n', 'pos', `${seed}`)} * ${1 - low} ELSE ${uniform('n', 'pos', `${seed}`)} END)) AS INTEGER), ${words})]), ' ') AS display_name
        FROM range(${from}, ${to}) AS r(n), vocabulary AS v
      ) AS x ORDER BY x.id`,
    )
  }
  console.log(`  ${rows.toLocaleString('en')} names: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  await run('', `ALTER TABLE ${served('works__narrow')} ADD COLUMN ${NARROW_ROW_COLUMN} UINTEGER`)
  await run('', `UPDATE ${served('works__narrow')} SET ${NARROW_ROW_COLUMN} = CAST(rowid AS UINTEGER)`)
  await run(
    '',
    `CREATE TABLE ${served('works__locations')} AS SELECT ${NARROW_ROW_COLUMN} AS "row", "id", record_offset, record_bytes FROM ${served('works__narrow')}`,
  )
  await run('', `CREATE INDEX works__locations_row ON ${served('works__locations')} ("row")`)
  // As the serving database has it: a filtered request checks its candidates' rows through it.
  await run('', `CREATE INDEX works__narrow_id ON ${served('works__narrow')} ("id")`)
  await run('', 'CHECKPOINT')
  const before = statSync(building).size
  const indexStarted = performance.now()
  let sorted = 0
  for (const statement of autocompleteIndexStatements(served, (entity) => (entity === 'works' ? rows : 0))) {
    const at = performance.now()
    await run('', statement)
    if (statement.includes('__autocomplete" AS SELECT')) sorted = (performance.now() - at) / 1000
  }
  await run('', 'CHECKPOINT')
  const built = (performance.now() - indexStarted) / 1000
  await run('', `DETACH ${SERVING}`)
  connection.closeSync()
  instance.closeSync()
  const after = statSync(building).size
  renameSync(building, path)
  console.log(
    `  index built in ${built.toFixed(1)} s (the sorted word starts ${sorted.toFixed(1)} s, the rest the stored answers); file ${(before / 1e6).toFixed(1)} MB without it, ${(after / 1e6).toFixed(1)} MB with it`,
  )
}

interface Query {
  readonly kind: Kind
  readonly text: string
}

/** Typed text of each kind, cut from names drawn at random. */
const textsOf = (names: readonly string[], seed: number, perKind: number): Query[] => {
  const random = seededRandom(seed)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const seen = new Set<string>()
  const queries: Query[] = []
  for (const kind of KINDS) {
    if (kind === 'one word, filtered') {
      const words = queries.filter((query) => query.kind === 'one word')
      queries.push(...words.map((query) => ({ kind, text: query.text })))
      continue
    }
    let found = 0
    for (let attempt = 0; found < perKind && attempt < perKind * 50; attempt++) {
      const words = pick(names)
        .split(' ')
        .filter((word) => word !== '')
      if (words.length === 0) continue
      const at = Math.floor(random() * words.length)
      const word = words[at]!
      let text: string | undefined
      if (kind === '1 letter') text = word.slice(0, 1)
      else if (kind === '2 letters') text = word.length >= 2 ? word.slice(0, 2) : undefined
      else if (kind === 'one word') text = word.length >= 3 ? word : undefined
      else {
        const phrase = words.slice(at, at + 2 + Math.floor(random() * 3))
        if (phrase.length < 2) continue
        const lastWord = phrase.at(-1)!
        phrase[phrase.length - 1] = lastWord.slice(0, 1 + Math.floor(random() * lastWord.length))
        text = phrase.join(' ')
      }
      // One letter has few values: those come up again, as they would.
      if (text === undefined || (kind !== '1 letter' && seen.has(text))) continue
      seen.add(text)
      queries.push({ kind, text })
      found++
    }
  }
  return queries
}

async function main(): Promise<void> {
  const perKind = count('queries', args.queries)
  const scanQueries = count('scan-queries', args['scan-queries'])
  const rounds = Math.max(1, count('rounds', args.rounds))
  const seed = count('seed', args.seed)
  let path: string
  if (args.synthetic !== undefined) {
    const rows = count('synthetic', args.synthetic)
    mkdirSync(args['cache-dir'], { recursive: true })
    path = join(resolve(args['cache-dir']), `autocomplete-${rows}-seed${seed}.duckdb`)
    if (!existsSync(path)) {
      console.log(`Building ${path} (load ${load()})`)
      await buildSynthetic(path, rows, seed)
    }
  } else if (args.catalog !== undefined) path = join(resolve(args.catalog), 'catalog.duckdb')
  else throw new Error('--synthetic ROWS or --catalog DIR')

  console.log(`load before: ${load()}`)
  const db = await openDuckDbDatabase({ attach: { path, name: SERVING } })
  try {
    const layout: AutocompleteIndexLayout | undefined = (await readAutocompleteLayouts(db, SERVING)).get(
      'works',
    )
    if (layout === undefined) throw new Error(`${path} has no autocomplete index for works`)
    const [size] = await db.all(
      `SELECT (SELECT count(*) FROM works__narrow) AS works, (SELECT count(*) FROM works__autocomplete) AS starts, (SELECT count(*) FROM works__autocomplete_lists) AS lists`,
    )
    const names = (
      await db.all(
        `SELECT __autocomplete_name AS name FROM works__narrow USING SAMPLE reservoir(2000 ROWS) REPEATABLE (${seed})`,
      )
    ).map((row) => String(row.name))
    const queries = textsOf(names, seed, perKind)
    // The one column of works the synthetic table has besides the name: works cited more than 10 times.
    const planned = planQuery(
      { get_rows: 'works', filter_rows: [{ column_id: 'cited_by_count', value: 10, operator: '>' }] },
      {},
    )
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    const request = (query: Query) => ({
      entity: 'works' as const,
      text: query.text,
      limit: LIMIT,
      filter: query.kind === 'one word, filtered' ? planned.plan.filter : null,
    })
    const indexed = (query: Query) => rankAutocompleteMatches(db, request(query), NARROW_ROW_COLUMN, layout)
    const scanned = (query: Query) =>
      rankAutocompleteMatches(db, request(query), NARROW_ROW_COLUMN, undefined)
    const idsOf = (rows: readonly { readonly __id?: unknown }[]) =>
      rows.map((row) => String(row.__id)).join(',')

    const indexTimes = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]))
    const scanTimes = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]))
    let compared = 0
    const differing: string[] = []
    // Warm-up: the first read of each part of the file comes from disk.
    for (const query of queries.slice(0, 8)) await indexed(query)
    for (let round = 0; round < rounds; round++)
      for (const query of queries) {
        const started = performance.now()
        await indexed(query)
        indexTimes.get(query.kind)!.push(performance.now() - started)
      }
    for (const kind of KINDS)
      for (const query of queries.filter((candidate) => candidate.kind === kind).slice(0, scanQueries)) {
        const fast = idsOf(await indexed(query))
        const started = performance.now()
        const slow = idsOf(await scanned(query))
        scanTimes.get(kind)!.push(performance.now() - started)
        compared++
        if (fast !== slow) differing.push(JSON.stringify(query.text))
      }
    console.log(`load after: ${load()}`)
    console.log(
      `\n${Number(size?.works).toLocaleString('en')} works, ${Number(size?.starts).toLocaleString('en')} word starts, ${Number(size?.lists).toLocaleString('en')} stored answers; index of ${layout.prefixChars} characters, lists of ${layout.listRows}; ${LIMIT} results a query\n`,
    )
    console.log('| typed text | texts | scan median | index median | index p95 | examples |')
    console.log('|---|---:|---:|---:|---:|---|')
    for (const kind of KINDS) {
      const texts = queries.filter((query) => query.kind === kind)
      const times = indexTimes.get(kind)!
      const examples = [...new Set(texts.map((query) => query.text))].slice(0, 4).map((text) => `\`${text}\``)
      console.log(
        `| ${kind} | ${texts.length} | ${formatMs(median(scanTimes.get(kind)!))} ms | ${formatMs(median(times))} ms | ${formatMs(percentile(times, 95))} ms | ${examples.join(', ')} |`,
      )
    }
    const all = [...indexTimes.values()].flat()
    console.log(
      `\nindex, every query: median ${formatMs(median(all))} ms, p95 ${formatMs(percentile(all, 95))} ms`,
    )
    console.log(
      `same answer as the scan: ${compared - differing.length} of ${compared}${differing.length === 0 ? '' : ` (differ: ${differing.join(', ')})`}`,
    )
    if (differing.length > 0) process.exitCode = 1
  } finally {
    await db.close()
  }
}

await main()
