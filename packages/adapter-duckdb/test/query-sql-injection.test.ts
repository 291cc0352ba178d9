// User values in every position a plan carries them (filter values of each column kind and tier, IN lists,
// cursor values, sample seeds, singleton ids, external ids, search text) travel only as parameters: the SQL
// text never contains them, and running them neither fails nor changes the database.
import { FilterNodes, planQuery, type QueryPlan } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDuckDbAdapter, type DuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

const PAYLOADS = [
  "x' OR '1'='1",
  "'; DROP TABLE works; --",
  '"; DROP VIEW "works"; --',
  "W1') OR TRUE --",
  "1; SELECT * FROM read_text('/etc/passwd')",
  "$1 ?; ' || (SELECT record FROM works LIMIT 1) || '",
  "10.1/abc'); COPY works TO '/tmp/oqlkit-leak.csv'; --",
  "\\' OR 1=1 /* */",
]

// One column of each kind and tier: derived, link, JSON scalar, JSON list, external id, computed, choice.
const COLUMNS = [
  'display_name',
  'type',
  'doi',
  'doi_starts_with',
  'publication_date',
  'publication_year',
  'authorships.author.id',
  'authorships.countries',
  'authorships.institutions.type',
  'apc_list.currency',
  'biblio.volume',
  'ids.pmid',
  'cited_by',
  'related_to',
  'best_open_version',
  'keywords.id',
  'primary_topic.subfield.id',
]

let adapter: DuckDbAdapter
let dispose: () => void
let worksCount: number
beforeAll(async () => {
  const catalog = await ingestSampleCatalog()
  dispose = catalog.dispose
  adapter = await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'tables' })
  worksCount = (await adapter.queryRows(planOf({ get_rows: 'works', corpus: 'all' }))).count
}, 60_000)
afterAll(async () => {
  await adapter?.close()
  dispose?.()
})

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

const expectOnlyInParams = (plan: QueryPlan, payload: string) => {
  const compiled = adapter.compile(plan)
  for (const statement of [compiled, compiled.count]) {
    expect(statement.sql).not.toContain(payload)
    expect(statement.sql).not.toContain('DROP')
  }
}

describe('SQL injection', () => {
  it('filter values of every column tier are parameters, and match nothing', async () => {
    for (const column of COLUMNS)
      for (const payload of PAYLOADS) {
        const plan = planOf({ get_rows: 'works', filter_rows: [{ column_id: column, value: payload }] })
        expectOnlyInParams(plan, payload)
        expect((await adapter.queryRows(plan)).count, `${column} ${payload}`).toBe(0)
      }
  })

  it('negated values, OR lists and ranges are parameters too', async () => {
    for (const payload of PAYLOADS) {
      const negated = planOf({
        get_rows: 'works',
        filter_rows: [{ column_id: 'type', value: payload, is_negated: true }],
      })
      expectOnlyInParams(negated, payload)
      expect((await adapter.queryRows(negated)).count).toBe(worksCount)
      const list = planOf({
        get_rows: 'works',
        filter_rows: [
          {
            join: 'or',
            filters: [payload, `${payload}2`, 'W1'].map((value) => ({
              column_id: 'authorships.author.id',
              value,
            })),
          },
        ],
      })
      expectOnlyInParams(list, payload)
      expect((await adapter.queryRows(list)).count).toBe(0)
      const range = planOf({
        get_rows: 'works',
        filter_rows: [{ column_id: 'publication_date', value: payload, operator: '>=' }],
      })
      expectOnlyInParams(range, payload)
      expect((await adapter.queryRows(range)).count).toBe(0)
    }
  })

  it('cursor values and sample seeds are parameters', async () => {
    const base = planOf(
      { get_rows: 'works' },
      { sort: [{ field: 'display_name', direction: 'asc' }], cursor: '*' },
    )
    for (const payload of PAYLOADS) {
      const plan: QueryPlan = { ...base, page: { kind: 'cursor', after: [payload, payload], perPage: 25 } }
      expectOnlyInParams(plan, payload)
      await adapter.queryRows(plan)
      const sample = planOf({ get_rows: 'works', sample: 5, seed: payload })
      expectOnlyInParams(sample, payload)
      expect((await adapter.queryRows(sample)).rows).toHaveLength(5)
    }
  })

  it('singleton ids and external ids are parameters', async () => {
    for (const payload of PAYLOADS) {
      expect(await adapter.findById('works', payload)).toEqual({ status: 'missing' })
      expect(await adapter.findById('countries', payload)).toEqual({ status: 'missing' })
      for (const scheme of ['doi', 'orcid', 'issn', 'pmcid'] as const)
        expect(await adapter.findByExternalId('works', scheme, payload)).toEqual({ status: 'missing' })
    }
  })

  it('leaves the catalog as it was', async () => {
    expect((await adapter.queryRows(planOf({ get_rows: 'works', corpus: 'all' }))).count).toBe(worksCount)
    expect((await adapter.findRandom('works')).status).toBe('found')
  })

  it('runs a search whose text is hostile as a parameter only, and the catalog still answers', async () => {
    for (const payload of PAYLOADS) {
      const plan: QueryPlan = {
        ...planOf({ get_rows: 'works' }),
        filter: FilterNodes.search(
          { id: 'display_name.search', kind: 'search' },
          'display_name',
          'exact',
          payload,
        ),
      }
      const result = await adapter.queryRows(plan).catch((error: unknown) => error)
      // Either a clear rejection of text that is not a search, or an answer: never SQL run from the text.
      if (result instanceof Error) expect(result.name).toBe('UnsupportedPlanError')
      else expect((result as { count: number }).count).toBeGreaterThanOrEqual(0)
    }
    expect((await adapter.queryRows(planOf({ get_rows: 'works' }))).count).toBe(565)
  })
})
