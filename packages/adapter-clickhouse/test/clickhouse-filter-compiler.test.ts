// The ClickHouse filter compiler against the DuckDB adapter, filter by filter, on the same sample catalog:
// ClickHouse itself (chdb behind the test stand-in for its HTTP interface) counts the works each filter keeps,
// and the count must be DuckDB's. Values come from the sample's records, so each filter selects something.
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { type CatalogEntity, createColumnMap } from '@oqlkit/catalog'
import { planQuery, type StorageAdapter } from '@oqlkit/engine'
import { readSampleRecords } from '@oqlkit/ingest/test-support'
import type { Filter, Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLICKHOUSE_COLUMN_DIALECT } from '../src/clickhouse-column-dialect.ts'
import { compileClickHouseFilter, QueryParams, tableOf } from '../src/clickhouse-filter-compiler.ts'
import { entityTableName } from '../src/clickhouse-schema.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

let client: ClickHouseClient
let duckdb: StorageAdapter
let database: string
const map = createColumnMap(CLICKHOUSE_COLUMN_DIALECT)

beforeAll(async () => {
  const sample = await sharedClickHouseSample()
  client = createClient({
    url: sample.url,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
  })
  database = sample.database
  duckdb = await createDuckDbAdapter({ catalogDir: sample.catalogDir, threads: 1 })
}, 240_000)
afterAll(async () => {
  await duckdb?.close()
  await client?.close()
})

const leaf = (
  column_id: string,
  value: string | number | boolean | null,
  extra: Partial<Filter> = {},
): Filter => ({ column_id, value, ...extra }) as Filter

/** The works (all corpora) a filter keeps, counted by ClickHouse with the compiled predicate, and by DuckDB. */
const counts = async (entity: 'works' | 'authors', filters: Filter[]): Promise<[number, number]> => {
  const oqo = {
    get_rows: entity,
    filter_rows: filters,
    ...(entity === 'works' ? { corpus: 'all' } : {}),
  } as Oqo
  const planned = planQuery(oqo, { perPage: 1 })
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  const params = new QueryParams()
  const catalogEntity = entity as CatalogEntity
  const predicate = compileClickHouseFilter({ database, map, params }, catalogEntity, planned.plan.filter)
  const result = await client.query({
    query: `SELECT count() AS n FROM ${tableOf({ database, map, params }, entityTableName(catalogEntity))} WHERE ${predicate}`,
    query_params: params.values,
    format: 'JSONEachRow',
  })
  const [{ n }] = (await result.json()) as [{ n: string }]
  return [Number(n), (await duckdb.queryRows(planned.plan)).count]
}

const works = readSampleRecords('works')
const first = <T>(pick: (work: Record<string, unknown>) => T | undefined): T =>
  works.map(pick).find((value) => value !== undefined && value !== null) as T

onChdb('the ClickHouse filter compiler, counted against the DuckDB adapter on the sample catalog', () => {
  const author = first(
    (work) => (work.authorships as { author: { id: string } }[] | undefined)?.[0]?.author.id,
  )
  const institution = first(
    (work) =>
      (work.authorships as { institutions: { id: string }[] }[] | undefined)?.flatMap(
        (a) => a.institutions,
      )[0]?.id,
  )
  const doi = first((work) => work.doi as string | undefined)
  const topic = first((work) => (work.primary_topic as { id: string } | undefined)?.id)
  const cited = first((work) => (work.referenced_works as string[] | undefined)?.[0])
  // `cited_by:W` keeps the works W cites: a work citing another work of the sample.
  const sampleIds = new Set(works.map((work) => work.id))
  const citing = first((work) =>
    (work.referenced_works as string[] | undefined)?.some((id) => sampleIds.has(id)) ? work.id : undefined,
  )
  const cases: [string, Filter[]][] = [
    ['a year', [leaf('publication_year', 2020)]],
    ['a year range', [leaf('publication_year', 2015, { operator: '>' })]],
    ['a type, any case', [leaf('type', 'ARTICLE')]],
    ['a boolean', [leaf('open_access.is_oa', true)]],
    [
      'a negated boolean keeps works without the value',
      [leaf('open_access.is_oa', true, { is_negated: true })],
    ],
    ['an author (link)', [leaf('authorships.author.id', author)]],
    ['an institution by URL (link)', [leaf('authorships.institutions.id', institution)]],
    ['a DOI, bare', [leaf('doi', String(doi).replace('https://doi.org/', ''))]],
    ['a primary topic', [leaf('primary_topic.id', topic)]],
    ['cited by', [leaf('cited_by', citing as string)]],
    ['cites', [leaf('cites', cited)]],
    ['nested record list', [leaf('authorships.institutions.type', 'education')]],
    ['a missing value', [leaf('primary_location.source.id', null)]],
    ['not missing', [leaf('primary_location.source.id', null, { is_negated: true })]],
    [
      'an OR of years',
      [{ join: 'or', filters: [leaf('publication_year', 2019), leaf('publication_year', 2021)] }],
    ],
    ['has an ORCID (computed)', [leaf('has_orcid', true)]],
    ['best open version (choice)', [leaf('best_open_version', 'published')]],
    ['a date bound', [leaf('from_publication_date', '2020-06-01')]],
    ['institution continent (computed list)', [leaf('authorships.institutions.continent', 'Q46')]],
    ['an impossible number matches nothing', [leaf('publication_year', 'not a year')]],
  ]
  for (const [name, filters] of cases)
    it(name, async () => {
      const [clickhouse, duck] = await counts('works', filters)
      expect(clickhouse, JSON.stringify(filters)).toBe(duck)
      // A case that keeps no work, or every work, would agree whatever the compiler wrote.
      if (!name.includes('matches nothing')) {
        expect(duck, name).toBeGreaterThan(0)
        expect(duck, name).toBeLessThan(works.length)
      }
    })

  it('authors: a count range and an ORCID presence', async () => {
    for (const filters of [[leaf('works_count', 10, { operator: '>' })], [leaf('has_orcid', false)]]) {
      const [clickhouse, duck] = await counts('authors', filters)
      expect(clickhouse, JSON.stringify(filters)).toBe(duck)
    }
  })

  it('takes hostile values as values', async () => {
    for (const value of ["2020' OR 1=1 --", "W1'); DROP TABLE works; --", '\\', '%'])
      for (const column of [
        'publication_year',
        'type',
        'authorships.author.id',
        'doi',
        'authorships.institutions.type',
      ]) {
        const [clickhouse, duck] = await counts('works', [leaf(column, value)])
        expect(clickhouse, `${column} ${value}`).toBe(duck)
      }
    expect((await counts('works', []))[0]).toBe(works.length)
  })
})
