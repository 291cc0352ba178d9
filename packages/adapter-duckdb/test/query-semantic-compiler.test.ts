// The SQL of a semantic search, without a database: the text never in the SQL, the other filters as the
// statement of the candidates (so they narrow them before the 50 nearest are taken), the matches read by the
// count and the page as bound constants (one search per request), and the refusals.

import { quoteIdentifier, type SqlParam } from '@oqlkit/catalog'
import { isUnsupportedPlanError, planQuery, type QueryPlan, type UnsupportedPlanError } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { readWorksIdsNumbered, SEARCH_DOC_COLUMN } from '../src/query/catalog-views.ts'
import { openDuckDbDatabase } from '../src/query/duckdb-driver.ts'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'

const TEXT = "coral reefs'); DROP TABLE works; --"
const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const plan = planOf({
  get_rows: 'works',
  filter_rows: [
    { column_id: 'abstract.search.semantic', value: TEXT, operator: 'has' },
    { column_id: 'publication_year', value: 2015, operator: '>' },
  ],
})
const compiler = new DuckDbPlanCompiler({ semantic: { dimensions: 4 } })

describe('semantic search SQL', () => {
  it('lists the candidates the other filters keep, in id order, and never writes the text', () => {
    const [search, ...more] = compiler.semanticSearches(plan)
    expect(more).toEqual([])
    expect(search!.text).toBe(TEXT)
    const { sql, params } = search!.candidates!
    expect(sql).toMatch(
      /^SELECT e\."id" AS id FROM "works" AS e WHERE .*"publication_year" > \? ORDER BY e\."id_num", e\."id"$/,
    )
    expect(sql).not.toContain('DROP')
    expect(params).toEqual([2015])
    // Over a narrow table, in its row order, which is id order.
    const narrow = new DuckDbPlanCompiler({ semantic: { dimensions: 4 }, narrowTables: true })
    expect(narrow.semanticSearches(plan)[0]!.candidates!.sql).toMatch(
      /FROM "works__narrow" AS e .*ORDER BY e\."__row_number"$/,
    )
    // Every work of the catalog is a candidate when nothing narrows them: no statement.
    const alone = planOf({
      get_rows: 'works',
      corpus: 'all',
      filter_rows: [{ column_id: 'abstract.search.semantic', value: TEXT, operator: 'has' }],
    })
    expect(compiler.semanticSearches(alone)).toEqual([{ text: TEXT, candidates: null }])
    // A plan without a semantic search has none to run.
    expect(compiler.semanticSearches(planOf({ get_rows: 'works' }))).toEqual([])
  })

  it('reads the matches in the count and the page without scanning again', () => {
    const matches = new Map([
      [
        TEXT,
        [
          { doc: 'W1', score: 0.9 },
          { doc: 'W2', score: 0.8 },
        ],
      ],
    ])
    const rows = compiler.compileRows(plan, { matches })
    for (const statement of [rows, rows.count]) {
      expect(statement.sql).not.toContain('array_inner_product')
      expect(statement.sql).toContain('VALUES (?, ?), (?, ?)')
      expect(statement.params).toEqual(expect.arrayContaining(['W1', 0.9, 'W2', 0.8]))
      expect(statement.sql).not.toContain('DROP')
    }
    // Relevance is the cosine itself, with no citation boost.
    expect(rows.sql).not.toContain('cited_by_count')
    expect(rows.scored).toBe(true)
    const none = compiler.compileRows(plan, { matches: new Map([[TEXT, []]]) })
    expect(none.sql).toContain('WHERE FALSE')
  })

  it('joins the matches on the numbers in their ids when every id is a plain number, and answers alike', async () => {
    const matches = new Map([
      [
        TEXT,
        [
          // Kept (a year after 2015), an expansion work, kept, and too early.
          { doc: 'W17', score: 0.9 },
          { doc: 'W27', score: 0.85 },
          { doc: 'W59', score: 0.8 },
          { doc: 'W100', score: 0.7 },
        ],
      ],
    ])
    const narrow = new DuckDbPlanCompiler({ semantic: { dimensions: 4 }, narrowTables: true })
    const byText = narrow.compileRows(plan, { matches })
    const byNumber = narrow.compileRows(plan, { matches, numberedIds: true })
    expect(byText.sql).toContain('ON __s0.doc = e."id"')
    expect(byNumber.sql).toContain(`ON __s0.doc = e.${quoteIdentifier(SEARCH_DOC_COLUMN)}`)
    expect(byNumber.sql).toContain('TRY_CAST(substr(CAST(doc AS VARCHAR), 2) AS UBIGINT)')
    // Over the views (no narrow tables) the flag changes nothing.
    expect(compiler.compileRows(plan, { matches, numberedIds: true }).sql).toBe(
      compiler.compileRows(plan, { matches }).sql,
    )

    // Both statements over a table of works: the same rows, scores and count.
    const db = await openDuckDbDatabase({ connections: 1, threads: 1 })
    try {
      await db.all(
        `CREATE TABLE works__narrow AS SELECT 'W' || i AS id, CAST(i AS UBIGINT) AS ${quoteIdentifier(SEARCH_DOC_COLUMN)},
           i - 1 AS __row_number, i % 9 = 0 AS is_xpac, 2000 + i % 30 AS publication_year FROM range(1, 200) AS r(i)`,
      )
      const run = async (statement: { sql: string; params: readonly SqlParam[] }) =>
        (await db.all(statement.sql, statement.params)).map((row) => JSON.stringify(row))
      expect(await run(byNumber)).toEqual(await run(byText))
      expect(await run(byNumber.count)).toEqual(await run(byText.count))
      expect((await run(byText)).length, 'W17 and W59 pass the filters').toBe(2)
    } finally {
      await db.close()
    }
  })

  it('takes the works for numbered only when every id is a plain number of one letter and the table holds the numbers', async () => {
    const db = await openDuckDbDatabase({ connections: 1, threads: 1 })
    try {
      const numbered = () => readWorksIdsNumbered(db, 'memory')
      await db.all(`CREATE TABLE works__narrow (id VARCHAR)`)
      expect(await numbered(), 'a table built before the numbers').toBe(false)
      await db.all(`ALTER TABLE works__narrow ADD COLUMN ${quoteIdentifier(SEARCH_DOC_COLUMN)} UBIGINT`)
      await db.all(`INSERT INTO works__narrow VALUES ('W1', 1), ('W123', 123)`)
      expect(await numbered()).toBe(true)
      // W0123 has the number of W123: joined on numbers, one would find the other.
      await db.all(`INSERT INTO works__narrow VALUES ('W0123', 123)`)
      expect(await numbered()).toBe(false)
      // X5 has the number of W5: the letters must agree too.
      await db.all(`DELETE FROM works__narrow WHERE id = 'W0123'`)
      expect(await numbered()).toBe(true)
      await db.all(`INSERT INTO works__narrow VALUES ('X5', 5)`)
      expect(await numbered()).toBe(false)
    } finally {
      await db.close()
    }
  })

  it('refuses without vectors, and without the query vector', () => {
    const reasonOf = (run: () => unknown): string => {
      try {
        run()
      } catch (error) {
        expect(isUnsupportedPlanError(error)).toBe(true)
        return `${(error as UnsupportedPlanError).reason}: ${(error as Error).message}`
      }
      return 'compiled'
    }
    expect(reasonOf(() => new DuckDbPlanCompiler().compileRows(plan))).toMatch(
      /^semantic_search: .*no vectors of works/,
    )
    expect(
      reasonOf(() =>
        new DuckDbPlanCompiler({ semanticUnavailable: 'start with --embeddings-url' }).compileRows(plan),
      ),
    ).toMatch(/--embeddings-url/)
    expect(reasonOf(() => compiler.compileRows(plan))).toMatch(/^semantic_search: .*not looked up/)
    expect(reasonOf(() => new DuckDbPlanCompiler().semanticSearches(plan))).toMatch(/no vectors of works/)
  })
})
