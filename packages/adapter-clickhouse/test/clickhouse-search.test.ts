// Full-text search on ClickHouse: the sample catalog's search index loaded into ClickHouse itself (chdb,
// behind the test stand-in for a server's HTTP interface), every kind of search answered as the DuckDB
// adapter answers it over the same catalog folder: the same records, in the same order, with the same
// relevance scores; and the same refusals. The loaded index carries a delta of re-indexed works (the shared
// sample's fixture): its answers are also those of the index before it, as DuckDB reads that.
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { createDuckDbAdapter, type DuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { type CatalogManifest, createColumnMap, readCatalogManifest, searchIndexOf } from '@oqlkit/catalog'
import {
  encodeCursor,
  planQuery,
  type QueryPlan,
  type StorageAdapter,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servedVersion } from '../src/catalog-versions.ts'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { CLICKHOUSE_COLUMN_DIALECT } from '../src/clickhouse-column-dialect.ts'
import { compileClickHouseFilter, QueryParams } from '../src/clickhouse-filter-compiler.ts'
import { compileRows } from '../src/clickhouse-plan-compiler.ts'
import { compileClickHouseSearch, expansionLimitOfClickHouse } from '../src/clickhouse-search-compiler.ts'
import { statementSearches } from '../src/clickhouse-search-relations.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

let client: ClickHouseClient
let clickhouse: StorageAdapter
let duckdb: DuckDbAdapter
let catalogDir: string

beforeAll(async () => {
  const sample = await sharedClickHouseSample()
  catalogDir = sample.catalogDir
  client = createClient({ url: sample.url })
  clickhouse = createClickHouseAdapter({ client, catalog: sample.catalog })
  duckdb = await createDuckDbAdapter({ catalogDir })
}, 240_000)
afterAll(async () => {
  await duckdb?.close()
  await client?.close()
})

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const search = (column_id: string, value: string, extra = {}): Oqo['filter_rows'] & object => [
  { column_id, value, operator: 'has', ...extra },
]

/** The page's ids and scores from both adapters, for one plan. */
const bothAnswer = async (plan: QueryPlan) => {
  const [fromDuckDb, fromClickHouse] = await Promise.all([duckdb.queryRows(plan), clickhouse.queryRows(plan)])
  return { fromDuckDb, fromClickHouse }
}

const expectSameAnswer = async (label: string, plan: QueryPlan) => {
  const { fromDuckDb, fromClickHouse } = await bothAnswer(plan)
  expect(fromClickHouse.count, label).toBe(fromDuckDb.count)
  const scored = (rows: readonly Record<string, unknown>[]) =>
    rows.map((row) => [row.id, row.relevance_score === undefined ? undefined : Number(row.relevance_score)])
  const expected = scored(fromDuckDb.rows)
  const actual = scored(fromClickHouse.rows)
  expect(
    actual.map(([id]) => id),
    label,
  ).toEqual(expected.map(([id]) => id))
  actual.forEach(([, score], index) => {
    const wanted = expected[index]![1]
    if (wanted === undefined) expect(score, label).toBeUndefined()
    else expect(score as number, label).toBeCloseTo(wanted as number, 7)
  })
  return { fromDuckDb, fromClickHouse }
}

onChdb(
  'an updated index on ClickHouse: the buckets not masked and the delta (chdb behind the test stand-in)',
  () => {
    it('answers as DuckDB does over the index before the delta', async () => {
      const read = await readCatalogManifest(catalogDir)
      if (!read.ok) throw new Error(read.message)
      expect(searchIndexOf(read.manifest)?.entities.works?.delta?.docs).toBeGreaterThan(10)
      const before = await createDuckDbAdapter({ catalogDir: await sharedSampleCatalog() })
      try {
        let found = 0
        for (const [column, value] of [
          ['title.search', 'cancer'],
          ['default.search', 'climate change'],
          ['default.search', '"climate"~5~"health"'],
          ['display_name.search.exact', 'clim*'],
          ['default.search', 'the cancer'],
        ] as const) {
          const plan = planOf(
            { get_rows: 'works', filter_rows: search(column, value) },
            { sort: [{ field: 'relevance_score', direction: 'desc' }], perPage: 200 },
          )
          const [fromClickHouse, fromBefore] = await Promise.all([
            clickhouse.queryRows(plan),
            before.queryRows(plan),
          ])
          const label = `${column} ${value}`
          expect(fromClickHouse.count, label).toBe(fromBefore.count)
          const wanted = new Map(fromBefore.rows.map((row) => [String(row.id), Number(row.relevance_score)]))
          expect(fromClickHouse.rows.map((row) => String(row.id)).sort(), label).toEqual(
            [...wanted.keys()].sort(),
          )
          for (const row of fromClickHouse.rows)
            expect(Number(row.relevance_score), `${label} ${String(row.id)}`).toBeCloseTo(
              wanted.get(String(row.id))!,
              7,
            )
          found += fromClickHouse.rows.length
        }
        expect(found).toBeGreaterThan(100)
      } finally {
        await before.close()
      }
    }, 120_000)
  },
)

onChdb('full-text search on ClickHouse (chdb behind the test stand-in for its HTTP interface)', () => {
  it('finds, orders and scores every kind of search as the DuckDB adapter does', async () => {
    const cases: [string, string, string][] = [
      ['a word', 'title.search', 'cancer'],
      ['a word, exact mode', 'display_name.search.exact', 'cancer'],
      ['the default field (title, abstract, full text)', 'default.search', 'climate change'],
      ['the abstract', 'abstract.search', 'neural networks'],
      ['title and abstract', 'title_and_abstract.search', 'learning'],
      ['a phrase', 'default.search', '"climate change"'],
      ['a phrase and a word', 'default.search', '"machine learning" model'],
      ['proximity of two phrases', 'default.search', '"climate"~5~"health"'],
      ['a phrase with slop', 'default.search', '"health mental"~3'],
      ['a wildcard', 'display_name.search.exact', 'clim*'],
      ['a wildcard of one letter', 'display_name.search.exact', 'canc?r'],
      ['words of which one is frequent', 'default.search', 'the cancer'],
      ['a word no record has', 'default.search', 'zyxwvutsrq'],
      [
        'raw affiliation strings, which the index does not hold (a scan)',
        'raw_affiliation_strings.search',
        'university of',
      ],
      [
        'raw affiliation strings, accents folded',
        'raw_affiliation_strings.search',
        'hopital europeen georges pompidou',
      ],
    ]
    for (const [label, column, value] of cases) {
      const { fromClickHouse } = await expectSameAnswer(
        label,
        planOf(
          { get_rows: 'works', filter_rows: search(column, value) },
          { sort: [{ field: 'relevance_score', direction: 'desc' }], perPage: 50 },
        ),
      )
      // Every case but the word no record has finds something, so each compares real matches.
      if (value !== 'zyxwvutsrq') expect(fromClickHouse.count, label).toBeGreaterThan(0)
    }
  }, 120_000)

  it('searches with other filters, negated, in OR, sorted otherwise, in groups and in totals', async () => {
    await expectSameAnswer(
      'with a year',
      planOf(
        {
          get_rows: 'works',
          filter_rows: [
            ...search('title.search', 'climate'),
            { column_id: 'publication_year', value: 2015, operator: '>' },
          ],
        },
        { sort: [{ field: 'publication_year', direction: 'desc' }], perPage: 50 },
      ),
    )
    const negated = await expectSameAnswer(
      'negated',
      planOf(
        { get_rows: 'works', filter_rows: search('title.search', 'climate', { is_negated: true }) },
        { perPage: 25 },
      ),
    )
    expect(negated.fromClickHouse.rows[0]).not.toHaveProperty('relevance_score')
    await expectSameAnswer(
      'two searches',
      planOf(
        {
          get_rows: 'works',
          filter_rows: [...search('title.search', 'health'), ...search('abstract.search', 'children')],
        },
        { sort: [{ field: 'relevance_score', direction: 'desc' }], perPage: 50 },
      ),
    )
    const plan = planOf({
      get_rows: 'works',
      filter_rows: search('default.search', 'climate'),
      group_by: [{ column_id: 'type' }],
    })
    const [groupsDuckDb, groupsClickHouse] = await Promise.all([
      duckdb.queryGroups(plan),
      clickhouse.queryGroups(plan),
    ])
    expect(groupsClickHouse).toEqual(groupsDuckDb)
  }, 60_000)

  it('evaluates a search the filter requires once in a page: joined INNER, with no `id IN` leaf beside it', async () => {
    // ClickHouse inlines a WITH relation at each use: a LEFT JOIN of its scores beside `id IN (SELECT id FROM
    // __r0)` evaluated the search twice. The answers are the DuckDB adapter's (the test above and the
    // conformance suite); here, the page statement's shape.
    const database = (await servedVersion(client, 'sample'))!.database
    const manifest = (await readCatalogManifest(catalogDir)) as { ok: true; manifest: CatalogManifest }
    const pageOf = (filters: NonNullable<Oqo['filter_rows']>) => {
      const sql = compileRows(
        database,
        { index: searchIndexOf(manifest.manifest) },
        'works',
        planOf({ get_rows: 'works', filter_rows: filters }, { perPage: 10 }),
      ).page.sql
      return {
        inner: sql.match(/INNER JOIN \(SELECT id AS __sid/g)?.length ?? 0,
        left: sql.match(/LEFT JOIN \(SELECT id AS __sid/g)?.length ?? 0,
        leaves: sql.match(/`id` IN \(SELECT id FROM __r\d+\)/g)?.length ?? 0,
      }
    }
    const year = { column_id: 'publication_year', value: 2015, operator: '>' } as const
    expect(pageOf(search('title.search', 'climate'))).toEqual({ inner: 1, left: 0, leaves: 0 })
    expect(pageOf([...search('title.search', 'climate'), year])).toEqual({ inner: 1, left: 0, leaves: 0 })
    // Two required searches: the first drives the join, the second keeps its leaf (either would do).
    expect(pageOf([...search('title.search', 'health'), ...search('abstract.search', 'children')])).toEqual({
      inner: 1,
      left: 1,
      leaves: 1,
    })
    // Not required of every row: in an OR with another filter, or negated (no scores to join).
    const either = [{ join: 'or', filters: [...search('title.search', 'climate'), year] }] as NonNullable<
      Oqo['filter_rows']
    >
    expect(pageOf(either)).toEqual({ inner: 0, left: 1, leaves: 1 })
    expect(pageOf(search('title.search', 'climate', { is_negated: true }))).toEqual({
      inner: 0,
      left: 0,
      leaves: 1,
    })
  })

  it('answers an OR of searches (search=a|b|…) as DuckDB does, as one relation however many its terms', async () => {
    type Filters = NonNullable<Oqo['filter_rows']>
    const anyOf = (filters: Filters): Filters => [{ join: 'or', filters }] as Filters
    const view = { sort: [{ field: 'relevance_score', direction: 'desc' }], perPage: 50 } as const
    const cases: [string, Filters][] = [
      ['words', anyOf([...search('title.search', 'cancer'), ...search('title.search', 'climate')])],
      [
        'a word repeated, a phrase, two words, a wildcard, another field and a NOT',
        anyOf([
          ...search('title.search', 'cancer'),
          ...search('title.search', 'cancer'),
          ...search('title.search', '"climate change"'),
          ...search('title.search', 'mental health'),
          ...search('display_name.search.exact', 'clim*'),
          ...search('abstract.search', 'children'),
          ...search('title.search', 'neural', { is_negated: true }),
        ]),
      ],
      ['a word 100 times', anyOf(Array.from({ length: 100 }, () => search('title.search', 'health')[0]!))],
    ]
    for (const [label, filter_rows] of cases) {
      const { fromClickHouse } = await expectSameAnswer(
        label,
        planOf({ get_rows: 'works', filter_rows }, view),
      )
      expect(fromClickHouse.count, label).toBeGreaterThan(0)
    }
    // 100 terms are one relation, one join of its scores and one condition, as 2 are.
    const database = (await servedVersion(client, 'sample'))!.database
    const manifest = (await readCatalogManifest(catalogDir)) as { ok: true; manifest: CatalogManifest }
    const shapeOf = (n: number) => {
      const words = Array.from({ length: n }, (_, i) => search('title.search', `word${i}`)[0]!)
      const filter = planOf({ get_rows: 'works', filter_rows: anyOf(words) }).filter
      const context = { database, map: createColumnMap(CLICKHOUSE_COLUMN_DIALECT), params: new QueryParams() }
      const searches = statementSearches(context, 'works', filter, {
        index: searchIndexOf(manifest.manifest),
      })
      const where = compileClickHouseFilter(searches.context, 'works', filter)
      return {
        relations: new Set(`${searches.with}${searches.scoreJoins}${where}`.match(/__r\d+\b/g)).size,
        joins: searches.scoreJoins.match(/\bJOIN\b/g)?.length ?? 0,
        conditions: where.match(/\bIN\b/g)?.length ?? 0,
        branches: (searches.with.match(/\bUNION ALL\b/g)?.length ?? 0) + 1,
      }
    }
    expect(shapeOf(2)).toEqual({ relations: 1, joins: 1, conditions: 1, branches: 2 })
    expect(shapeOf(100)).toEqual({ relations: 1, joins: 1, conditions: 1, branches: 100 })
  }, 120_000)

  it('pages through a relevance order by cursor as by offset', async () => {
    const view = { sort: [{ field: 'relevance_score', direction: 'desc' }], perPage: 7 } as const
    const oqo: Oqo = { get_rows: 'works', filter_rows: search('default.search', 'health') }
    const byOffset = await clickhouse.queryRows(planOf(oqo, { ...view, perPage: 21 }))
    const ids: unknown[] = []
    let cursor = '*'
    for (let page = 0; page < 3; page++) {
      const planned = planQuery(oqo, { ...view, cursor })
      if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
      const result = await clickhouse.queryRows(planned.plan)
      ids.push(...result.rows.map((row) => row.id))
      if (result.nextAfter === null) break
      cursor = encodeCursor(planned.sortSignature, result.nextAfter)
    }
    expect(ids).toEqual(byOffset.rows.map((row) => row.id))
  }, 60_000)

  it('searches other entities: those numbered by id (authors) and by rank (work types)', async () => {
    await expectSameAnswer(
      'authors',
      planOf(
        { get_rows: 'authors', filter_rows: search('default.search', 'john') },
        { sort: [{ field: 'relevance_score', direction: 'desc' }] },
      ),
    )
    await expectSameAnswer(
      'work types',
      planOf(
        { get_rows: 'work-types', filter_rows: search('display_name.search', 'article') },
        { sort: [{ field: 'relevance_score', direction: 'desc' }] },
      ),
    )
  }, 60_000)

  it('refuses what DuckDB refuses, with the same codes', async () => {
    const refusals = [
      search('default.search', `${'word '.repeat(101)}`),
      search('display_name.search.exact', 'a* b* c* d* e* f* g* h* i* j* k*'),
      search('display_name.search.exact', '*'),
    ]
    for (const filter_rows of refusals) {
      const plan = planOf({ get_rows: 'works', filter_rows })
      const fromDuckDb = await duckdb.queryRows(plan).catch((error: unknown) => error)
      const fromClickHouse = await clickhouse.queryRows(plan).catch((error: unknown) => error)
      expect(fromDuckDb).toBeInstanceOf(UnsupportedPlanError)
      expect(fromClickHouse).toBeInstanceOf(UnsupportedPlanError)
      expect((fromDuckDb as UnsupportedPlanError).reason).toBe('invalid_search')
      expect((fromClickHouse as UnsupportedPlanError).reason).toBe('invalid_search')
      expect((fromClickHouse as Error).message).toBe((fromDuckDb as Error).message)
    }
  }, 60_000)

  it('fails a wildcard that stands for more index terms than allowed, with a message that says so', async () => {
    // The sample's index has few terms per prefix: the limit is lowered to show the guard at work.
    const database = (await servedVersion(client, 'sample'))!.database
    const manifest = (await readCatalogManifest(catalogDir)) as { ok: true; manifest: CatalogManifest }
    const index = searchIndexOf(manifest.manifest)!.entities.works!
    const run = async (max: number) => {
      const params = new QueryParams()
      const compiled = compileClickHouseSearch(
        { entity: 'works', field: 'display_name', mode: 'exact', match: { kind: 'word', text: 'inte*' } },
        {
          context: { database, map: createColumnMap(CLICKHOUSE_COLUMN_DIALECT), params },
          index,
          prefix: 's',
          maxWildcardExpansions: max,
        },
      )
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
      const result = await client.query({
        query: `WITH ${compiled.ctes.join(', ')} ${compiled.select}`,
        query_params: params.values,
        format: 'JSONEachRow',
      })
      return (await result.json()) as { id: string }[]
    }
    expect((await run(100)).length).toBeGreaterThan(0)
    const error = await run(1).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(expansionLimitOfClickHouse(error)).toBe(
      '"inte*" matches more than 1 words of the index; a wildcard may stand for at most 1. Write more letters before the wildcard.',
    )
    expect(expansionLimitOfClickHouse(new Error('Code: 47. DB::Exception: other'))).toBeUndefined()
  }, 60_000)

  it('passes hostile search text as parameters: it finds what DuckDB finds and changes nothing', async () => {
    for (const payload of ["'); DROP TABLE works; --", '{p0:String}', '\\\'" OR 1=1', 'a`b` $1 ?']) {
      await expectSameAnswer(
        payload,
        planOf({ get_rows: 'works', filter_rows: search('default.search', payload) }),
      )
    }
    expect((await clickhouse.queryRows(planOf({ get_rows: 'works' }))).count).toBe(
      (await duckdb.queryRows(planOf({ get_rows: 'works' }))).count,
    )
  }, 60_000)
})
