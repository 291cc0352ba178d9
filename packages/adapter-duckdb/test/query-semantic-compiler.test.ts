// The SQL of a semantic search, without a database: the query vector and the text only ever as parameters,
// the other filters inside the scan (so they narrow the candidates before the 50 nearest are taken), the
// matches read by the count and the page as bound constants (one scan per request), and the refusals.
import { planQuery, type QueryPlan } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'
import { vectorParameter } from '../src/query/semantic-search-sql.ts'
import { isUnsupportedPlanError, type UnsupportedPlanError } from '../src/query/unsupported-plan-error.ts'

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
const vector = Float32Array.from([0.5, -0.5, 0.5, 0.5])
const compiler = new DuckDbPlanCompiler({ semantic: { dimensions: 4 } })

describe('semantic search SQL', () => {
  it('scans with the vector as a parameter, the filters inside the scan, and never the text', () => {
    const [scan, ...more] = compiler.semanticStatements(plan, new Map([[TEXT, vector]]))
    expect(more).toEqual([])
    expect(scan!.text).toBe(TEXT)
    const { sql, params } = scan!.statement
    expect(sql).toContain('array_inner_product')
    expect(sql).toContain('LIMIT ?')
    expect(sql).not.toContain('DROP')
    expect(sql).not.toContain('0.5')
    expect(params).toContain(vectorParameter(vector))
    expect(params).toContain(50)
    // The year filter is a condition of the candidates, inside the scan.
    expect(sql).toMatch(/__v\.id IN \(SELECT "id" FROM "works" WHERE .*publication_year/)
    expect(params).toContain(2015)
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

  it('compiles the scan into the statements when given only the vector (compile-only path)', () => {
    const rows = compiler.compileRows(plan, { vectors: new Map([[TEXT, vector]]) })
    expect(rows.sql).toContain('array_inner_product')
    expect(rows.count.sql).toContain('array_inner_product')
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
    expect(reasonOf(() => compiler.compileRows(plan))).toMatch(/^semantic_search: .*not computed/)
  })
})
