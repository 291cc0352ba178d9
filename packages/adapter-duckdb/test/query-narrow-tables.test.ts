// The `narrow` catalog mode: statements that do not read the record JSON run on the in-memory narrow tables,
// the others on the full views. (That their answers are right is the conformance suite's job, run in every
// mode; this file pins which relation each kind of statement reads.)
import { planQuery, type QueryPlan } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'
import { readsRecordColumn } from '../src/query/record-column-use.ts'

const narrow = new DuckDbPlanCompiler({ narrowTables: true, newSampleSeed: () => 'fixed' })
const views = new DuckDbPlanCompiler({ newSampleSeed: () => 'fixed' })

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const works = (...filter_rows: Oqo['filter_rows'] & object): Oqo => ({ get_rows: 'works', filter_rows })

describe('readsRecordColumn', () => {
  it.each([
    ['json_extract_string(record, ?)', true],
    ['SELECT e.record FROM "works" AS e', true],
    ['__w.RECORD', true],
    ['SELECT e.record_offset, e.record_bytes FROM "works__narrow" AS e', false],
    ["SELECT 'record' AS label", false],
    ['SELECT "record" FROM t', true],
    ['SELECT records FROM t', false],
    ['SELECT $record FROM t', false],
  ])('%s → %s', (text, expected) => {
    expect(readsRecordColumn(text)).toBe(expected)
  })
})

describe('DuckDbPlanCompiler in narrow mode', () => {
  it('counts, pages and sorts on derived columns from the narrow table', () => {
    const plan = planOf(
      works({ column_id: 'publication_year', value: 2020 }, { column_id: 'type', value: 'article' }),
      {
        sort: 'cited_by_count:desc',
      },
    )
    const query = narrow.compileRows(plan)
    expect(query.sql).toContain('FROM "works__narrow" AS e')
    expect(query.count.sql).toContain('FROM "works__narrow" AS e')
    expect(query.sql).not.toMatch(/FROM "works" AS e/)
  })

  it('groups from the narrow table', () => {
    const query = narrow.compileGroups(planOf({ get_rows: 'works', group_by: [{ column_id: 'type' }] }))
    expect(query.sql).toContain('FROM "works__narrow" AS e')
  })

  it('sends a statement that reads the record JSON to the full view', () => {
    // A column without a derived column of its own is read from the record (column-sources.ts tier 3).
    const plan = planOf(works({ column_id: 'authorships.institutions.type', value: 'education' }))
    const query = narrow.compileRows(plan)
    expect(readsRecordColumn(query.sql)).toBe(true)
    expect(query.sql).toContain('FROM "works" AS e')
    expect(query.sql).not.toContain('works__narrow')
  })

  it('is off unless asked for', () => {
    const query = views.compileRows(planOf(works({ column_id: 'publication_year', value: 2020 })))
    expect(query.sql).not.toContain('__narrow')
  })
})
