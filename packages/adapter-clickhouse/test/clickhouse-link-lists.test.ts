// The list shapes ClickHouse answers from tables made for them at the load: a filter of one link's keys read from
// the link table (which copies its works' corpus and sort keys), the count carried by the page, and type-ahead
// from an entity's index of word starts. Each gives what the works table read by id and the scan of the names
// give: the same rows, sort values, counts and cursors, on the sample catalog loaded (under a name of its own,
// with an index for every entity) into ClickHouse itself (chdb behind the test stand-in for its HTTP interface).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { createDuckDbAdapter, type DuckDbAdapter } from '@oqlkit/adapter-duckdb'
import {
  type AutocompleteRequest,
  encodeCursor,
  normalizeAutocompleteText,
  planQuery,
  type QueryPlan,
  type StorageAdapter,
} from '@oqlkit/engine'
import { copyOfSampleCatalog, sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { ClickHouseDriver } from '../src/clickhouse-driver.ts'
import {
  compileAutocomplete,
  compileRows,
  PLAIN_LAYOUT,
  type VersionLayout,
} from '../src/clickhouse-plan-compiler.ts'
import { loadCatalogExportingTables } from './support/catalog-table-files.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { sharedChdbHttpServer } from './support/chdb-http-server.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const CATALOG = 'sample_indexed'
let client: ClickHouseClient
let driver: ClickHouseDriver
let clickhouse: StorageAdapter
let duckdb: DuckDbAdapter
let database: string

/** The layout this package's loader gives a version. */
const LOADED: VersionLayout = {
  linksCarryCorpus: true,
  linkSortColumns: new Set(['cited_by_count', 'publication_date', 'publication_year']),
  autocompleteIndexes: new Set(['works', 'authors', 'institutions', 'sources']),
}

beforeAll(async () => {
  const catalogDir = await sharedSampleCatalog()
  const { url } = await sharedChdbHttpServer()
  client = createClient({ url })
  driver = new ClickHouseDriver(client)
  // Loaded without its search index, which nothing here reads (lists and type-ahead do without it): 115 of the
  // sample's 179 tables, half of the load's CPU. The sample's copy whose manifest names none is loaded.
  const loadable = await copyOfSampleCatalog()
  try {
    const manifestFile = join(loadable.catalogDir, 'catalog.json')
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'))
    delete manifest.extensions.search
    writeFileSync(manifestFile, JSON.stringify(manifest))
    // An index for every entity, however small: the sample has a few hundred works.
    ;({ database } = await loadCatalogExportingTables({
      catalogDir: loadable.catalogDir,
      client,
      catalog: CATALOG,
      autocompleteMinRows: 0,
    }))
  } finally {
    loadable.dispose()
  }
  // The sample has no expansion (xpac) works: a third of them become some, in the works table and in the link
  // tables' copies alike, as a load of a catalog that had them would hold them.
  const xpac = (id: string) => `cityHash64(${id}) % 3 = 0`
  const mutate = (query: string) => client.command({ query, clickhouse_settings: { mutations_sync: '2' } })
  await mutate(`ALTER TABLE \`${database}\`.works UPDATE is_xpac = true WHERE ${xpac('id')}`)
  for (const table of ['link_works_authors', 'link_works_topics', 'link_works_referenced_works'])
    await mutate(`ALTER TABLE \`${database}\`.${table} UPDATE work_is_xpac = true WHERE ${xpac('work_id')}`)
  clickhouse = createClickHouseAdapter({ client, catalog: CATALOG })
  duckdb = await createDuckDbAdapter({ catalogDir })
}, 240_000)
afterAll(async () => {
  await client?.command({ query: `DROP DATABASE IF EXISTS \`${database}\`` })
  await duckdb?.close()
  await client?.close()
})

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

const sql = async <T>(query: string): Promise<T[]> =>
  (await (await client.query({ query, format: 'JSONEachRow' })).json()) as T[]

/** The keys of a link with the most works, most first. */
const busiestKeys = async (table: string, n: number): Promise<string[]> =>
  (
    await sql<{ key: string }>(
      `SELECT key FROM \`${database}\`.\`${table}\` GROUP BY key ORDER BY count() DESC, key LIMIT ${n}`,
    )
  ).map((row) => row.key)

/** A filter of one column on any of some values. */
const anyOf = (column_id: string, values: readonly string[]): Oqo['filter_rows'] & object =>
  values.length === 1
    ? [{ column_id, value: values[0]! }]
    : [{ join: 'or', filters: values.map((value) => ({ column_id, value })) }]

/** A plan's page statement run on a layout: its rows as the adapter reads them (ids, sort values, count). */
const pageRows = async (plan: QueryPlan, layout: VersionLayout) => {
  const compiled = compileRows(database, { index: undefined }, 'works', plan, layout)
  return { sql: compiled.page.sql, rows: await driver.rows<Record<string, unknown>>(compiled.page) }
}

onChdb('lists of one link filter, read from the link table', () => {
  it('has the rows, sort values and count of the works table read by id, for one key and several', async () => {
    const [author] = await busiestKeys('link_works_authors', 1)
    const topics = await busiestKeys('link_works_topics', 3)
    const [cited] = await busiestKeys('link_works_referenced_works', 1)
    // Several topics of one work: the works they share are listed and counted once.
    const [shared] = await sql<{ n: string }>(
      `SELECT count() AS n FROM (SELECT work_id FROM \`${database}\`.link_works_topics WHERE key IN (${topics.map((key) => `'${key}'`).join(', ')}) GROUP BY work_id HAVING count() > 1)`,
    )
    expect(Number(shared!.n)).toBeGreaterThan(0)
    const filters: [string, Oqo['filter_rows'] & object][] = [
      ['an author', anyOf('authorships.author.id', [author!])],
      ['three topics', anyOf('topics.id', topics)],
      ['a cited work', anyOf('cites', [cited!])],
      ['an author in lower case', anyOf('authorships.author.id', [author!.toLowerCase()])],
    ]
    const sorts = [
      [{ field: 'cited_by_count', direction: 'desc' }],
      [{ field: 'cited_by_count', direction: 'asc' }],
      [{ field: 'publication_date', direction: 'desc' }],
      [
        { field: 'publication_year', direction: 'asc' },
        { field: 'cited_by_count', direction: 'desc' },
      ],
      [],
    ] as const
    for (const [label, filter_rows] of filters)
      for (const corpus of ['core', 'all', 'expansion'] as const)
        for (const sort of sorts)
          for (const page of [1, 2]) {
            const plan = planOf({ get_rows: 'works', filter_rows, corpus }, { sort, perPage: 4, page })
            const fromLinks = await pageRows(plan, LOADED)
            const fromWorks = await pageRows(plan, PLAIN_LAYOUT)
            const what = `${label}, ${corpus}, ${JSON.stringify(sort)}, page ${page}`
            expect(fromLinks.sql, what).not.toContain('`works`')
            expect(fromWorks.sql, what).toContain('`works`')
            expect(fromLinks.rows, what).toEqual(fromWorks.rows)
            if (corpus === 'all' && page === 1) expect(fromLinks.rows.length, what).toBeGreaterThan(1)
          }
  }, 120_000)

  it('counts and pages the expansion corpus apart from the core', async () => {
    const [xpac] = await sql<{ key: string; n: string }>(
      `SELECT key, count() AS n FROM \`${database}\`.link_works_topics WHERE work_is_xpac GROUP BY key ORDER BY n DESC, key LIMIT 1`,
    )
    expect(xpac).toBeDefined()
    const counts = await Promise.all(
      (['core', 'expansion', 'all'] as const).map(
        async (corpus) =>
          (
            await clickhouse.queryRows(
              planOf({ get_rows: 'works', filter_rows: anyOf('topics.id', [xpac!.key]), corpus }),
            )
          ).count,
      ),
    )
    expect(counts[1]).toBe(Number(xpac!.n))
    expect(counts[0]! + counts[1]!).toBe(counts[2])
  }, 60_000)

  it('answers as the DuckDB adapter does, and pages by cursor as by offset', async () => {
    const topics = await busiestKeys('link_works_topics', 2)
    const oqo: Oqo = { get_rows: 'works', filter_rows: anyOf('topics.id', topics), corpus: 'all' }
    const sort = [{ field: 'cited_by_count', direction: 'desc' }] as const
    const whole = planOf(oqo, { sort, perPage: 12 })
    const [fromDuckDb, fromClickHouse] = await Promise.all([
      duckdb.queryRows(whole),
      clickhouse.queryRows(whole),
    ])
    expect(fromClickHouse.count).toBe(fromDuckDb.count)
    expect(fromClickHouse.rows.map((row) => row.id)).toEqual(fromDuckDb.rows.map((row) => row.id))
    expect(fromClickHouse.rows.length).toBe(12)
    const ids: unknown[] = []
    let cursor = '*'
    for (let page = 0; page < 3; page++) {
      const planned = planQuery(oqo, { sort, perPage: 4, cursor })
      if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
      const result = await clickhouse.queryRows(planned.plan)
      expect(result.count).toBe(fromDuckDb.count)
      ids.push(...result.rows.map((row) => row.id))
      if (result.nextAfter === null) break
      cursor = encodeCursor(planned.sortSignature, result.nextAfter)
    }
    expect(ids).toEqual(fromClickHouse.rows.map((row) => row.id))
  }, 60_000)

  it('carries the count in the page, and asks it apart past the last page', async () => {
    const [author] = await busiestKeys('link_works_authors', 1)
    const oqo: Oqo = { get_rows: 'works', filter_rows: anyOf('authorships.author.id', [author!]) }
    const first = await clickhouse.queryRows(planOf(oqo, { perPage: 1 }))
    expect(first.count).toBeGreaterThan(1)
    const beyond = await clickhouse.queryRows(planOf(oqo, { perPage: 1, page: first.count + 1 }))
    expect(beyond.rows).toEqual([])
    expect(beyond.count).toBe(first.count)
    const none = await clickhouse.queryRows(
      planOf({ get_rows: 'works', filter_rows: anyOf('topics.id', ['T0']) }),
    )
    expect(none).toMatchObject({ count: 0, rows: [] })
  }, 60_000)
})

onChdb('type-ahead from the index of word starts', () => {
  it('ranks the names the scan of the names ranks, for every kind of typed text', async () => {
    const names = await sql<{ display_name: string }>(
      `SELECT display_name FROM \`${database}\`.works WHERE display_name LIKE '% %' ORDER BY cityHash64(id) LIMIT 30`,
    )
    const typed = new Set(['a', 'the', 'th', 'cancer', 'zzzz', 'é', 'covid 19', 'x'.repeat(40)])
    for (const { display_name } of names) {
      const [first, second = ''] = display_name.split(' ')
      typed.add(`${first} ${second.slice(0, 3)}`)
      typed.add(display_name)
      typed.add(display_name.slice(0, 12))
    }
    let indexed = 0
    for (const entity of ['works', 'authors'] as const)
      for (const raw of typed) {
        const text = normalizeAutocompleteText(raw)
        if (text === '') continue
        const request: AutocompleteRequest = { entity, text: raw, limit: 10, filter: null }
        const index = compileAutocomplete(database, entity, request, text, LOADED)
        const scan = compileAutocomplete(database, entity, request, text, PLAIN_LAYOUT)
        if (index.sql.includes('__autocomplete')) indexed++
        const ids = async (statement: typeof index) =>
          (await driver.rows<{ __id: string }>(statement)).map((row) => row.__id)
        expect(await ids(index), `${entity} ${raw}`).toEqual(await ids(scan))
      }
    expect(indexed).toBeGreaterThan(60)
  }, 120_000)

  it('answers through the adapter as the DuckDB adapter does; a filtered request scans', async () => {
    for (const request of [
      { entity: 'works', text: 'the eff', limit: 10, filter: null },
      { entity: 'authors', text: 'j', limit: 5, filter: null },
      {
        entity: 'works',
        text: 'a',
        limit: 10,
        filter: planOf({ get_rows: 'works', filter_rows: [{ column_id: 'type', value: 'article' }] }).filter,
      },
    ] satisfies AutocompleteRequest[]) {
      const [fromClickHouse, fromDuckDb] = await Promise.all([
        clickhouse.autocomplete!(request),
        duckdb.autocomplete!(request),
      ])
      expect(fromClickHouse.length, request.text).toBeGreaterThan(0)
      expect(fromClickHouse.map((record) => record.id)).toEqual(fromDuckDb.map((record) => record.id))
    }
  }, 60_000)
})
