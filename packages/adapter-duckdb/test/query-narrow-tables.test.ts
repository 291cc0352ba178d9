// The `narrow` catalog mode: every statement runs on the serving database's narrow tables, JSON-tier columns
// included (they read record-path columns, not the record). (That their answers are right is the conformance
// suite's job, run in every mode; this file pins which relation each kind of statement reads.)
import { planQuery, type QueryPlan } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'

const narrow = new DuckDbPlanCompiler({ narrowTables: true, newSampleSeed: () => 'fixed' })
const views = new DuckDbPlanCompiler({ newSampleSeed: () => 'fixed' })

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const works = (...filter_rows: Oqo['filter_rows'] & object): Oqo => ({ get_rows: 'works', filter_rows })

describe('DuckDbPlanCompiler in narrow mode', () => {
  it('counts, pages and sorts on derived columns from the narrow table', () => {
    const plan = planOf(
      works({ column_id: 'publication_year', value: 2020 }, { column_id: 'type', value: 'article' }),
      {
        sort: [{ field: 'cited_by_count', direction: 'desc' }],
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

  it('runs a JSON-tier filter on the narrow table, by its record-path column', () => {
    // A column without a derived column of its own is read by its path (column-sources.ts tier 3).
    const plan = planOf(works({ column_id: 'authorships.institutions.type', value: 'education' }))
    const query = narrow.compileRows(plan)
    expect(query.sql).toContain('FROM "works__narrow" AS e')
    expect(query.sql).toContain('"json__authorships__institutions__type"')
    expect(query.sql).not.toMatch(/FROM "works" AS e/)
  })

  it('finds the works of a link filter by row number in the in-memory link table, and ties by row', () => {
    // With a second condition: a link leaf alone reads its page from the link table (query-narrow-links.test.ts).
    const plan = planOf(
      works(
        { column_id: 'authorships.author.id', value: 'A5023888391' },
        { column_id: 'type', value: 'article' },
      ),
      { sort: [{ field: 'cited_by_count', direction: 'desc' }] },
    )
    const query = narrow.compileRows(plan)
    // The narrow copy holds an author id as its number.
    expect(query.sql).toContain(
      'e."__row_number" IN (SELECT work_row FROM "link_works_authors__narrow" WHERE key IN (TRY_CAST(? AS UBIGINT)))',
    )
    expect(query.params).toContain('5023888391')
    // Narrow rows are in id order: the id tiebreak orders by row number and still reports the id.
    expect(query.sql).toContain('ORDER BY "cited_by_count" DESC NULLS LAST, e."__row_number" ASC NULLS LAST')
    // The page carries row numbers only; its ids and record locations are looked up for its rows alone.
    expect(query.sql).toContain('SELECT e."__row_number" AS __row')
    expect(query.sql).toContain('e."__row_number" AS __k1')
    expect(query.sql).not.toMatch(/e\."id"|record_offset/)
    expect(query.locate?.idKeyIndex).toBe(1)
    expect(query.locate?.statementFor([7, 3])).toEqual({
      sql: 'SELECT "row" AS __row, "id" AS __id, record_offset AS __ro, record_bytes AS __rb FROM "works__locations" WHERE "row" IN (?, ?)',
      params: [7, 3],
    })
    const missing = narrow.compileRows(planOf(works({ column_id: 'authorships.author.id', value: null })))
    expect(missing.count.sql).toContain(
      'e."__row_number" NOT IN (SELECT work_row FROM "link_works_authors__narrow")',
    )
  })

  it('joins a grouped link table by row number', () => {
    // Filtered: the whole corpus would be counted from the link table alone (query-narrow-links.test.ts).
    const query = narrow.compileGroups(
      planOf({
        get_rows: 'works',
        filter_rows: [{ column_id: 'publication_year', value: 2020 }],
        group_by: [{ column_id: 'authorships.institutions.country_code' }],
      }),
    )
    expect(query.sql).toContain('e."__row_number" AS __row')
    expect(query.sql).toContain(
      'LEFT JOIN "link_works_institution_countries__narrow" AS __l0 ON __l0.work_row = __base.__row',
    )
  })

  it('writes a link filter by row number beside a JSON-tier filter', () => {
    const plan = planOf(
      works(
        { column_id: 'authorships.author.id', value: 'A5023888391' },
        { column_id: 'authorships.institutions.type', value: 'education' },
      ),
    )
    const query = narrow.compileRows(plan)
    expect(query.sql).toContain('FROM "works__narrow" AS e')
    expect(query.sql).toContain('e."__row_number" IN (SELECT work_row FROM "link_works_authors__narrow"')
  })

  it('is off unless asked for', () => {
    const query = views.compileRows(planOf(works({ column_id: 'publication_year', value: 2020 })))
    expect(query.sql).not.toContain('__narrow')
  })
})
