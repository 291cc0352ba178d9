// An updated search index on ClickHouse: a copy of the sample catalog whose works index carries a delta (its
// last works re-indexed into the delta and masked in the buckets, `giveWorksSearchDelta`), loaded into the
// shared chdb stand-in under a catalog name of its own. The loader keeps the buckets' rows of the documents not
// masked and adds the delta's; every search answers as the DuckDB adapter answers over the same folder, and as
// both answer over the index before (the re-indexed records are the same).
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { createDuckDbAdapter, type DuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { planQuery, type QueryPlan, type StorageAdapter } from '@oqlkit/engine'
import { copyOfSampleCatalog, giveWorksSearchDelta } from '@oqlkit/ingest/test-support'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadCatalogIntoClickHouse } from '../src/catalog-loader.ts'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

const CATALOG = 'search_delta'
let client: ClickHouseClient
let clickhouse: StorageAdapter
let duckdb: DuckDbAdapter
let before: DuckDbAdapter
let deltaDocs: number
let dispose: (() => void) | undefined

beforeAll(async () => {
  const sample = await sharedClickHouseSample()
  const copy = await copyOfSampleCatalog()
  dispose = copy.dispose
  deltaDocs = await giveWorksSearchDelta(copy.catalogDir, 0.04)
  client = createClient({ url: sample.url })
  await loadCatalogIntoClickHouse({ catalogDir: copy.catalogDir, client, catalog: CATALOG })
  clickhouse = createClickHouseAdapter({ client, catalog: CATALOG })
  duckdb = await createDuckDbAdapter({ catalogDir: copy.catalogDir })
  before = await createDuckDbAdapter({ catalogDir: sample.catalogDir })
}, 240_000)
afterAll(async () => {
  await duckdb?.close()
  await before?.close()
  await client?.close()
  dispose?.()
})

const planOf = (column_id: string, value: string): QueryPlan => {
  const oqo: Oqo = { get_rows: 'works', filter_rows: [{ column_id, value, operator: 'has' }] }
  const planned = planQuery(oqo, { sort: [{ field: 'relevance_score', direction: 'desc' }], perPage: 200 })
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

describe('an updated search index on ClickHouse (chdb behind the test stand-in for its HTTP interface)', () => {
  it('is a delta of re-indexed works, loaded with the rows the manifest counts', () => {
    // The load checks every table's rows against the manifest (postings: the buckets' not masked, and the
    // delta's) and fails on a difference: it succeeded.
    expect(deltaDocs).toBeGreaterThan(10)
  })

  it('answers every kind of search as DuckDB does over the same folder, and as over the index before', async () => {
    const cases: [string, string][] = [
      ['title.search', 'cancer'],
      ['default.search', 'climate change'],
      ['title_and_abstract.search', 'learning'],
      ['default.search', '"climate change"'],
      ['default.search', '"climate"~5~"health"'],
      ['display_name.search.exact', 'clim*'],
      ['default.search', 'the cancer'],
    ]
    let found = 0
    for (const [column, value] of cases) {
      const plan = planOf(column, value)
      const [a, b, c] = await Promise.all([
        clickhouse.queryRows(plan),
        duckdb.queryRows(plan),
        before.queryRows(plan),
      ])
      const label = `${column} ${value}`
      const scored = (rows: readonly Record<string, unknown>[]) =>
        rows.map((row) => [String(row.id), Number(row.relevance_score)] as const)
      for (const [other, name] of [
        [b, 'DuckDB'],
        [c, 'DuckDB before'],
      ] as const) {
        expect(a.count, `${label} against ${name}`).toBe(other.count)
        const wanted = new Map(scored(other.rows))
        const got = scored(a.rows)
        expect(got.map(([id]) => id).sort(), `${label} against ${name}`).toEqual([...wanted.keys()].sort())
        for (const [id, score] of got) expect(score, `${label} ${id}`).toBeCloseTo(wanted.get(id)!, 7)
      }
      found += a.rows.length
    }
    expect(found).toBeGreaterThan(100)
  }, 120_000)
})
