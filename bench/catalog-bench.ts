// The catalog benchmark: each query shape of the storage issue, run through the DuckDB adapter (plans made
// from the classic URL beforehand) and, side by side in the same rounds, the same question written by hand
// in DuckDB SQL over the same catalog files: our overhead over the engine we run on. With `--http URL`, the
// same shapes also go end to end to a running server (planning, HTTP and JSON included). The `app`
// contender is the same server started in this process over this process's adapter: its difference from
// `adapter` is planning + HTTP alone, with the same DuckDB instance and cache behind both.
//
//   npm run bench:catalog -- --catalog /tmp/cat-1m [--rounds 15] [--warmup 2] [--contenders adapter,sql,http,app] [--only 'a|b']
//   (a singleton shape cycles through 64 ids: --warmup 64 times them all warm)
//                            [--http http://127.0.0.1:8080 [--load SECONDS] [--clients 2] [--accept-encoding gzip]] [--json out.json]
//   The http and app contenders ask for answers as they are (`Accept-Encoding: identity`), since the in-process
//   app has no compression layer and a served answer compressed for loopback costs the server its compression
//   and the client its decompression; `--accept-encoding gzip` measures a client that asks for it (fetch's own
//   default is `gzip, deflate`).
//                            [--adapter-load views|narrow|tables] [--clickhouse http://host:8123/<catalog>]
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { ClickHouseClient } from '@clickhouse/client'
import { connectClickHouse, createClickHouseAdapter, readClickHouseTarget } from '@oqlkit/adapter-clickhouse'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import {
  encodeCursor,
  type GroupsResult,
  isUnsupportedPlanError,
  type LookupResult,
  planQuery,
  type QueryPlan,
  type RowsResult,
  type StorageAdapter,
} from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { readSortParameter, urlToOqo } from '@oqlkit/oql'
import { serve } from 'h3'
import {
  type Contender,
  type ContenderTimes,
  formatMs,
  median,
  percentile,
  runSideBySide,
} from './bench-stats.ts'
import { openHandSqlViews } from './hand-sql-views.ts'

const { values: args } = parseArgs({
  options: {
    catalog: { type: 'string' },
    rounds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '2' },
    contenders: { type: 'string', default: 'adapter,sql' },
    http: { type: 'string' },
    json: { type: 'string' },
    only: { type: 'string' },
    load: { type: 'string' },
    clients: { type: 'string', default: '2' },
    'accept-encoding': { type: 'string', default: 'identity' },
    'adapter-load': { type: 'string' },
    clickhouse: { type: 'string' },
  },
})
if (args.catalog === undefined) {
  console.error(
    'usage: catalog-bench --catalog DIR [--rounds N] [--contenders adapter,sql,http] [--http URL]',
  )
  process.exit(2)
}
const catalogDir = resolve(args.catalog)
const rounds = Number(args.rounds)
const enabled = new Set(args.contenders.split(','))
if (enabled.has('http') && args.http === undefined) {
  console.error('--contenders http needs --http <base URL of a running oqlkit serve on the same catalog>')
  process.exit(2)
}

// ---- the hand-written side: plain views over the files, as someone writing SQL by hand would make ----
const hand = await openHandSqlViews(catalogDir)
const { manifest } = hand
// A page selects where its records are (`record_offset, record_bytes`); the records come from the store.
const { rows: sqlRows, records: sqlRecords } = hand

// ---- the values the queries use, drawn from the catalog (deterministic) ----
const pick = async (sql: string): Promise<string> => String(Object.values((await sqlRows(sql))[0] ?? {})[0])
// The key at a rank of popularity, or the least popular one when a small catalog has fewer keys.
const keyAt = async (view: string, rank: number) => {
  const keys = Number(await pick(`SELECT count(DISTINCT key) FROM ${view}`))
  return pick(
    `SELECT key FROM ${view} GROUP BY key ORDER BY count(*) DESC, key LIMIT 1 OFFSET ${Math.max(0, Math.min(rank, keys - 1))}`,
  )
}
const workIds = (await sqlRows('SELECT id FROM works ORDER BY hash(id) LIMIT 64')).map((row) =>
  String(row.id),
)
const dois = (
  await sqlRows(
    "SELECT value FROM external_ids WHERE entity = 'works' AND scheme = 'doi' ORDER BY hash(value) LIMIT 64",
  )
).map((row) => String(row.value))
const author = await keyAt('authorships', 1000)
const institution = await keyAt('work_institutions', 100)
const topic = await keyAt('work_topics', 50)
const cited = await keyAt('citations', 1000)
const [wordA, wordB] = ['learning', 'network']

// ---- the adapter side ----
// `--adapter-load views|narrow|tables`: how the adapter opens the catalog (default: as `oqlkit serve` does).
const load = args['adapter-load'] as 'views' | 'narrow' | 'tables' | undefined
const adapter = await createDuckDbAdapter({ catalogDir, ...(load === undefined ? {} : { load }) })
// `--clickhouse URL`: the same catalog loaded into ClickHouse (`oqlkit load`), through its adapter, as the
// `clickhouse` contender. Its statements cross HTTP to the server, as they always do in a deployment.
const clickhouseTarget = args.clickhouse === undefined ? undefined : readClickHouseTarget(args.clickhouse)
// Every statement the ClickHouse contender sends is counted: the chdb stand-in costs each one a few ms of its
// own (a new chdb connection; `SELECT 1` is timed below), which issue 39 counts apart from the engine's time.
let clickhouseStatements = 0
const countingStatements = (client: ClickHouseClient): ClickHouseClient =>
  new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown
      if (typeof value !== 'function') return value
      if (property === 'query' || property === 'exec' || property === 'command' || property === 'insert')
        return (...callArgs: unknown[]) => {
          clickhouseStatements++
          return (value as (...a: unknown[]) => unknown).apply(target, callArgs)
        }
      return value.bind(target)
    },
  })
const clickhouseClient =
  clickhouseTarget === undefined ? undefined : countingStatements(connectClickHouse(clickhouseTarget))
const clickhouse =
  clickhouseTarget === undefined || clickhouseClient === undefined
    ? undefined
    : createClickHouseAdapter({ client: clickhouseClient, catalog: clickhouseTarget.catalog })
if (clickhouse !== undefined) enabled.add('clickhouse')
const plannedOf = (url: string): { readonly plan: QueryPlan; readonly sortSignature: string } => {
  const read = urlToOqo(url)
  if (!read.ok) throw new Error(`${url}: ${JSON.stringify(read.errors)}`)
  const planned = planQuery(read.oqo, {
    ...(read.view.sort === undefined ? {} : { sort: readSortParameter(read.view.sort) }),
    ...(read.view.per_page === undefined ? {} : { perPage: read.view.per_page }),
    ...(read.view.cursor === undefined ? {} : { cursor: read.view.cursor }),
  })
  if (!planned.ok) throw new Error(`${url}: ${JSON.stringify(planned.errors)}`)
  return planned
}
const planOf = (url: string): QueryPlan => plannedOf(url).plan

interface Shape {
  readonly name: string
  readonly target: string
  /** The classic API path of the question (what the adapter plan and the HTTP contender are made from). */
  readonly url: (round: number) => string
  /** The question through a storage adapter (DuckDB's, or ClickHouse's for the `clickhouse` contender). */
  readonly adapter: (round: number, target?: StorageAdapter) => Promise<unknown>
  /** The same question in hand-written SQL; absent where SQL cannot ask it (semantic search). */
  readonly sql?: (round: number) => Promise<unknown>
  /**
   * Where the two answers of round 0 differ (undefined when they agree), checked once before the timing: the
   * hand-written SQL must ask the adapter's question, or the ratio compares two different things. Absent
   * where the SQL is a stand-in for a question it cannot ask (search by relevance).
   */
  readonly disagreement?: (adapterAnswer: unknown, sqlAnswer: unknown) => string | undefined
}

const sameBytes = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  a !== undefined && b !== undefined && Buffer.compare(a, b) === 0
const idOf = (bytes: Uint8Array) => (JSON.parse(Buffer.from(bytes).toString('utf8')) as { id: string }).id

/** A count and a page: the same count, and the same records, byte for byte, in the same order. */
const listDisagreement = (adapterAnswer: unknown, sqlAnswer: unknown): string | undefined => {
  const { count, rowsJsonBytes } = adapterAnswer as RowsResult
  const [[counted], records] = sqlAnswer as [Record<string, unknown>[], Uint8Array[]]
  if (Number(counted?.n) !== count) return `count ${count} against the SQL's ${String(counted?.n)}`
  if (rowsJsonBytes === undefined) return 'the adapter gave no record bytes'
  if (rowsJsonBytes.length !== records.length)
    return `${rowsJsonBytes.length} records against the SQL's ${records.length}`
  const at = records.findIndex((record, index) => !sameBytes(record, rowsJsonBytes[index]))
  return at === -1
    ? undefined
    : `record ${at + 1}: ${idOf(rowsJsonBytes[at]!)} against the SQL's ${idOf(records[at]!)}`
}

const singletonDisagreement = (adapterAnswer: unknown, sqlAnswer: unknown): string | undefined => {
  const found = adapterAnswer as LookupResult
  const [record] = sqlAnswer as Uint8Array[]
  if (found.status !== 'found') return `the adapter answered ${found.status}`
  return sameBytes(found.jsonBytes, record) ? undefined : 'the records differ'
}

/** The buckets, largest first: the same counts, each under a key that ends as the SQL's does (ids are URLs). */
const groupDisagreement = (adapterAnswer: unknown, sqlAnswer: unknown): string | undefined => {
  const { groups } = adapterAnswer as GroupsResult
  const rows = sqlAnswer as Record<string, unknown>[]
  const sqlKey = (row: Record<string, unknown>) => String(Object.values(row)[0])
  if (groups.length !== rows.length) return `${groups.length} buckets against the SQL's ${rows.length}`
  const at = groups.findIndex(
    (bucket, index) =>
      bucket.count !== Number(rows[index]!.n) || !String(bucket.keys[0]).endsWith(sqlKey(rows[index]!)),
  )
  return at === -1
    ? undefined
    : `bucket ${at + 1}: ${String(groups[at]!.keys[0])} ${groups[at]!.count} against the SQL's ${sqlKey(rows[at]!)} ${String(rows[at]!.n)}`
}

// The API answers from the core corpus unless asked otherwise (xpac works left out, as OpenAlex does): the
// hand-written lists and counts say so too.
const CORE = 'NOT coalesce(is_xpac, FALSE)'

/** A list asked of the adapters alone, the same URL every round. */
const rowsShape = (name: string, target: string, url: string): Shape => {
  const plan = planOf(url)
  return { name, target, url: () => url, adapter: (_round, storage = adapter) => storage.queryRows(plan) }
}

const listShape = (
  name: string,
  target: string,
  url: string,
  countSql: string,
  pageSql: string,
  params: (string | number)[] = [],
  checked = true,
): Shape => ({
  ...rowsShape(name, target, url),
  sql: () => Promise.all([sqlRows(countSql, params), sqlRecords(pageSql, params)]),
  ...(checked ? { disagreement: listDisagreement } : {}),
})

/**
 * The `depth`th page of a list by cursor (`cursor=<the cursor the page before gave>`): the keyset comparison
 * of the sort's keys and the id tiebreak after them, which a first page never makes. The cursor is found by
 * paging the adapter from `cursor=*` before the timing; adapter and HTTP contenders then ask the same URL.
 * A small catalog's list may end sooner: its last page is timed, and the shape's name says which it is (a
 * `bench:scale` of a few hundred works stopped here).
 */
const cursorShape = async (name: string, target: string, url: string, depth: number): Promise<Shape> => {
  let pageUrl = `${url}&cursor=*`
  for (let page = 1; page < depth; page++) {
    const { plan, sortSignature } = plannedOf(pageUrl)
    const { nextAfter } = await adapter.queryRows(plan)
    if (nextAfter === null)
      return rowsShape(
        `${name.replace(/the \w+ page by cursor/, 'the last page by cursor')} (the list has ${page} of ${depth})`,
        target,
        pageUrl,
      )
    pageUrl = `${url}&cursor=${encodeURIComponent(encodeCursor(sortSignature, nextAfter))}`
  }
  return rowsShape(name, target, pageUrl)
}

const groupShape = (name: string, target: string, url: string, sql: string): Shape => {
  const plan = planOf(url)
  return {
    name,
    target,
    url: () => url,
    adapter: (_round, storage = adapter) => storage.queryGroups(plan),
    sql: () => sqlRows(sql),
    disagreement: groupDisagreement,
  }
}

const linkShape = (name: string, filter: string, value: string, view: string): Shape =>
  listShape(
    name,
    '< 30 ms',
    `/works?filter=${filter}:${value}&sort=cited_by_count:desc`,
    `SELECT count(*) AS n FROM works WHERE id IN (SELECT work_id FROM ${view} WHERE key = $1) AND ${CORE}`,
    `SELECT record_offset, record_bytes FROM works WHERE id IN (SELECT work_id FROM ${view} WHERE key = $1) AND ${CORE} ORDER BY cited_by_count DESC NULLS LAST, id LIMIT 25`,
    [value],
  )

const shapes: Shape[] = [
  {
    name: 'singleton by id',
    target: '< 5 ms',
    url: (round) => `/works/${workIds[round % workIds.length]}`,
    adapter: (round, target = adapter) => target.findById('works', workIds[round % workIds.length]!),
    sql: (round) =>
      sqlRecords('SELECT record_offset, record_bytes FROM works WHERE id = $1', [
        workIds[round % workIds.length]!,
      ]),
    disagreement: singletonDisagreement,
  },
  {
    name: 'singleton by DOI',
    target: '< 5 ms',
    url: (round) => `/works/doi:${dois[round % dois.length]}`,
    adapter: (round, target = adapter) => target.findByExternalId('works', 'doi', dois[round % dois.length]!),
    sql: (round) =>
      sqlRecords(
        "SELECT w.record_offset, w.record_bytes FROM works w WHERE w.id = (SELECT min(id) FROM external_ids WHERE entity = 'works' AND scheme = 'doi' AND value = $1)",
        [dois[round % dois.length]!],
      ),
    disagreement: singletonDisagreement,
  },
  listShape(
    'year+type+OA, count & top 25 by citations',
    '< 30 ms',
    '/works?filter=publication_year:2020,type:article,is_oa:true&sort=cited_by_count:desc',
    `SELECT count(*) AS n FROM works WHERE publication_year = 2020 AND type = 'article' AND is_oa AND ${CORE}`,
    `SELECT record_offset, record_bytes FROM works WHERE publication_year = 2020 AND type = 'article' AND is_oa AND ${CORE} ORDER BY cited_by_count DESC NULLS LAST, id LIMIT 25`,
  ),
  listShape(
    'citations > 50 and years 2010-2015, newest 25',
    '< 30 ms',
    '/works?filter=cited_by_count:>50,publication_year:2010-2015&sort=publication_date:desc',
    `SELECT count(*) AS n FROM works WHERE cited_by_count > 50 AND publication_year BETWEEN 2010 AND 2015 AND ${CORE}`,
    `SELECT record_offset, record_bytes FROM works WHERE cited_by_count > 50 AND publication_year BETWEEN 2010 AND 2015 AND ${CORE} ORDER BY publication_date DESC NULLS LAST, id LIMIT 25`,
  ),
  linkShape('works of an author', 'authorships.author.id', author, 'authorships'),
  linkShape('works of an institution', 'authorships.institutions.id', institution, 'work_institutions'),
  linkShape('works of a topic', 'topics.id', topic, 'work_topics'),
  linkShape('works citing a work', 'cites', cited, 'citations'),
  await cursorShape(
    'year+type+OA by citations, the fifth page by cursor',
    '< 30 ms',
    '/works?filter=publication_year:2020,type:article,is_oa:true&sort=cited_by_count:desc',
    5,
  ),
  await cursorShape(
    'works of a topic by citations, the fifth page by cursor',
    '< 30 ms',
    `/works?filter=topics.id:${topic}&sort=cited_by_count:desc`,
    5,
  ),
  groupShape(
    'group_by type',
    '< 100 ms',
    '/works?group_by=type',
    `SELECT type, count(*) AS n FROM works WHERE ${CORE} GROUP BY type ORDER BY n DESC, type`,
  ),
  groupShape(
    'group_by institution country',
    '< 100 ms',
    '/works?group_by=authorships.institutions.country_code',
    `SELECT key, count(*) AS n FROM work_institution_countries WHERE work_id IN (SELECT id FROM works WHERE ${CORE}) GROUP BY key ORDER BY n DESC, key`,
  ),
]
if (manifest.extensions.search !== undefined)
  shapes.push(
    listShape(
      `search "${wordA} ${wordB}", top 25 by relevance (SQL: title ILIKE scan)`,
      '< 100 ms',
      `/works?search=${wordA} ${wordB}&sort=relevance_score:desc`,
      `SELECT count(*) AS n FROM works WHERE display_name ILIKE '%' || $1 || '%' AND display_name ILIKE '%' || $2 || '%' AND ${CORE}`,
      `SELECT record_offset, record_bytes FROM works WHERE display_name ILIKE '%' || $1 || '%' AND display_name ILIKE '%' || $2 || '%' AND ${CORE} ORDER BY cited_by_count DESC NULLS LAST, id LIMIT 25`,
      [wordA, wordB],
      false,
    ),
  )

// Semantic search, when the catalog has vectors: 64 work titles as queries, the 50 nearest works each.
if (adapter.capabilities.semanticSearch === true) {
  const titles = (
    await sqlRows("SELECT display_name FROM works WHERE display_name <> '' ORDER BY hash(id || 's') LIMIT 64")
  ).map((row) => String(row.display_name).slice(0, 300))
  const urlOf = (round: number) =>
    `/works?search.semantic=${encodeURIComponent(titles[round % titles.length]!)}&per_page=25`
  const plans = titles.map((_, round) => planOf(urlOf(round)))
  shapes.push({
    name: 'semantic search, 25 of the 50 nearest (a work title as the query)',
    target: '< 50 ms',
    url: urlOf,
    adapter: (round, target = adapter) => target.queryRows(plans[round % plans.length]!),
  })
}

// Autocomplete (type-ahead) as a user types it: the first word of a title and the start of the next, 64 of them.
if (adapter.autocomplete !== undefined) {
  const typed = (
    await sqlRows(
      "SELECT display_name FROM works WHERE display_name LIKE '% %' ORDER BY hash(id || 'a') LIMIT 64",
    )
  ).map((row) => {
    const [first, second = ''] = String(row.display_name).split(' ')
    return `${first} ${second.slice(0, 3)}`.trim()
  })
  shapes.push({
    name: 'autocomplete, the first word of a title and three letters',
    target: '< 50 ms',
    url: (round) => `/autocomplete/works?q=${encodeURIComponent(typed[round % typed.length]!)}`,
    adapter: async (round, target = adapter) => {
      if (target.autocomplete === undefined) throw new Error('this adapter has no autocomplete')
      return target.autocomplete({
        entity: 'works',
        text: typed[round % typed.length]!,
        limit: 10,
        filter: null,
      })
    },
  })
}

// The `app` contender: the server over this process's adapter, on a loopback port of its own.
const local = enabled.has('app')
  ? serve(createApp({ adapter, catalog: { createdAt: 'bench', entities: {} } }), {
      port: 0,
      hostname: '127.0.0.1',
      silent: true,
    })
  : undefined
await local?.ready()

const httpGet = async (path: string, base = args.http): Promise<unknown> => {
  const response = await fetch(new URL(path, base), {
    redirect: 'manual',
    headers: { 'accept-encoding': args['accept-encoding'] },
  })
  if (response.status >= 400) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`)
  return response.arrayBuffer()
}

// ---- run ----
const results: {
  shape: string
  target: string
  url: string
  contenders: ContenderTimes[]
  /** Statements the ClickHouse contender sent per request. */
  clickhouseStatements?: number
}[] = []
// `--only 'singleton|year+type'`: the shapes whose name holds any of the parts.
const wanted = args.only?.split('|') ?? []
const selected =
  wanted.length === 0 ? shapes : shapes.filter((shape) => wanted.some((part) => shape.name.includes(part)))
console.log(
  `catalog ${catalogDir}: ${manifest.entities.works!.rowCount.toLocaleString('en-US')} works; ${rounds} rounds after ${args.warmup} warm-up rounds; contenders ${[...enabled].join(', ')}`,
)
// What a statement costs the ClickHouse server before its engine does anything: the median of `SELECT 1`.
const statementCost = await (async () => {
  if (clickhouseClient === undefined) return Number.NaN
  const times: number[] = []
  for (let at = 0; at < 21; at++) {
    const started = performance.now()
    await (await clickhouseClient.query({ query: 'SELECT 1', format: 'JSONEachRow' })).json()
    times.push(performance.now() - started)
  }
  return median(times)
})()
if (clickhouseClient !== undefined)
  console.log(`ClickHouse: a statement's own cost (SELECT 1, median of 21): ${formatMs(statementCost)} ms`)
for (const shape of selected) {
  let round = 0
  const contenders: Contender[] = []
  if (enabled.has('http')) contenders.push({ name: 'http', run: () => httpGet(shape.url(round)) })
  if (local !== undefined) contenders.push({ name: 'app', run: () => httpGet(shape.url(round), local.url) })
  if (enabled.has('adapter')) contenders.push({ name: 'adapter', run: () => shape.adapter(round) })
  // A shape ClickHouse cannot answer yet (search) runs without it.
  if (clickhouse !== undefined) {
    const answers = await shape.adapter(0, clickhouse).then(
      () => true,
      (error: unknown) => (isUnsupportedPlanError(error) ? false : Promise.reject(error)),
    )
    if (answers) contenders.push({ name: 'clickhouse', run: () => shape.adapter(round, clickhouse) })
  }
  const sql = shape.sql
  if (enabled.has('sql') && sql !== undefined) {
    const disagreement = shape.disagreement?.(await shape.adapter(0), await sql(0))
    if (disagreement !== undefined)
      console.log(`! ${shape.name}: the hand-written SQL disagrees: ${disagreement}`)
    contenders.push({ name: 'sql', run: () => sql(round) })
  }
  const statementsBefore = clickhouseStatements
  const times = await runSideBySide(contenders, rounds, {
    warmup: Number(args.warmup),
    onRoundEnd: () => {
      round++
    },
  })
  const clickhouseRuns = contenders.some((contender) => contender.name === 'clickhouse')
    ? rounds + Number(args.warmup)
    : 0
  results.push({
    shape: shape.name,
    target: shape.target,
    url: shape.url(0),
    contenders: times,
    ...(clickhouseRuns === 0
      ? {}
      : { clickhouseStatements: (clickhouseStatements - statementsBefore) / clickhouseRuns }),
  })
  console.log(
    `${shape.name.padEnd(62)} ${times.map((t) => `${t.name} ${formatMs(median(t.times))} ms (p95 ${formatMs(percentile(t.times, 95))})`).join('  ')}`,
  )
}

const column = (times: ContenderTimes[], name: string, p: number) => {
  const found = times.find((t) => t.name === name)
  return found === undefined ? Number.NaN : percentile(found.times, p)
}
const names = [...enabled].filter((name) => ['http', 'app', 'adapter', 'clickhouse', 'sql'].includes(name))
console.log('')
console.log(
  `| query | target | ${names.map((name) => `${name} median | ${name} p95`).join(' | ')}${enabled.has('adapter') && enabled.has('sql') ? ' | adapter ÷ sql' : ''}${enabled.has('http') && enabled.has('adapter') ? ' | http − adapter' : ''}${enabled.has('app') && enabled.has('adapter') ? ' | app − adapter' : ''}${enabled.has('clickhouse') && enabled.has('adapter') ? ' | clickhouse ÷ adapter | statements | (clickhouse − statements × SELECT 1) ÷ adapter' : ''} |`,
)
console.log(
  `|---|---|${names.map(() => '---|---|').join('')}${enabled.has('adapter') && enabled.has('sql') ? '---|' : ''}${enabled.has('http') && enabled.has('adapter') ? '---|' : ''}${enabled.has('app') && enabled.has('adapter') ? '---|' : ''}${enabled.has('clickhouse') && enabled.has('adapter') ? '---|---|---|' : ''}`,
)
for (const result of results) {
  const cells = names.flatMap((name) => [
    `${formatMs(column(result.contenders, name, 50))} ms`,
    `${formatMs(column(result.contenders, name, 95))} ms`,
  ])
  if (enabled.has('adapter') && enabled.has('sql'))
    cells.push(
      `${(column(result.contenders, 'adapter', 50) / column(result.contenders, 'sql', 50)).toFixed(2)}`,
    )
  if (enabled.has('http') && enabled.has('adapter'))
    cells.push(
      `${formatMs(column(result.contenders, 'http', 50) - column(result.contenders, 'adapter', 50))} ms`,
    )
  if (enabled.has('app') && enabled.has('adapter'))
    cells.push(
      `${formatMs(column(result.contenders, 'app', 50) - column(result.contenders, 'adapter', 50))} ms`,
    )
  if (enabled.has('clickhouse') && enabled.has('adapter')) {
    const house = column(result.contenders, 'clickhouse', 50)
    const duck = column(result.contenders, 'adapter', 50)
    const statements = result.clickhouseStatements
    // A shape ClickHouse does not answer has no figures of its own.
    if (statements === undefined) cells.push('—', '—', '—')
    else
      cells.push(
        `${(house / duck).toFixed(2)}`,
        `${statements.toFixed(1)}`,
        `${((house - statements * statementCost) / duck).toFixed(2)}`,
      )
  }
  console.log(`| ${result.shape} | ${result.target} | ${cells.join(' | ')} |`)
}
// ---- throughput: concurrent clients against the server, for `--load SECONDS` each ----
if (args.load !== undefined && args.http !== undefined) {
  const seconds = Number(args.load)
  const clients = Number(args.clients)
  const throughputShapes = [shapes[0]!, shapes[2]!]
  console.log(
    `\n| throughput (${clients} concurrent clients, ${seconds} s each) | requests/s | median latency |`,
  )
  console.log('|---|---|---|')
  for (const shape of throughputShapes) {
    const latencies: number[] = []
    const until = performance.now() + seconds * 1000
    let next = 0
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (performance.now() < until) {
          const path = shape.url(next++)
          const started = performance.now()
          await httpGet(path)
          latencies.push(performance.now() - started)
        }
      }),
    )
    console.log(
      `| ${shape.name} | ${Math.round(latencies.length / seconds)} | ${formatMs(median(latencies))} ms |`,
    )
  }
}

const usage = process.resourceUsage()
console.log(
  `\npeak RSS of this process (adapter and hand-written SQL engines together): ${(usage.maxRSS / 1024).toFixed(0)} MB`,
)
if (args.json !== undefined)
  writeFileSync(
    args.json,
    `${JSON.stringify({ catalogDir, rounds, results, maxRssKb: usage.maxRSS }, null, 2)}\n`,
  )
await local?.close()
await adapter.close()
await clickhouseClient?.close()
hand.close()
