// The planner's rules for semantic search: where it may stand in a filter, on which entity, how long its text
// may be, and what it plans to (a semantic search node sorted by relevance, with the `semantic` cost class).
import {
  checkSemanticSearch,
  costClassOfPlan,
  planQuery,
  SEMANTIC_SEARCH_LIMITS,
  semanticSearchOf,
} from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

const leaf = (value: string, column_id = 'abstract.search.semantic') => ({
  column_id,
  value,
  operator: 'has' as const,
})
const works = (filter_rows: NonNullable<Oqo['filter_rows']>): Oqo => ({ get_rows: 'works', filter_rows })
const codesOf = (oqo: Oqo): string[] => {
  const planned = planQuery(oqo)
  return planned.ok ? [] : planned.errors.map((error) => error.code)
}

describe('planning a semantic search', () => {
  it('plans a top-level semantic node, sorted by relevance, priced as semantic', () => {
    const planned = planQuery(works([leaf('coral reefs'), { column_id: 'publication_year', value: 2020 }]))
    expect(planned.ok).toBe(true)
    if (!planned.ok) return
    const node = semanticSearchOf(planned.plan.filter)
    expect(node).toMatchObject({ kind: 'search', mode: 'semantic', text: 'coral reefs' })
    expect(planned.plan.sort[0]).toEqual({ column: 'relevance_score', direction: 'desc' })
    expect(costClassOfPlan(planned.plan)).toBe('semantic')
  })

  it('reads the classic semantic.search filter as a semantic search', () => {
    const planned = planQuery(works([leaf('coral reefs', 'semantic.search')]))
    expect(planned.ok && semanticSearchOf(planned.plan.filter)?.mode).toBe('semantic')
  })

  it('takes up to 2,000 characters, counted as code points', () => {
    expect(codesOf(works([leaf('x'.repeat(SEMANTIC_SEARCH_LIMITS.maxQueryLength))]))).toEqual([])
    expect(codesOf(works([leaf('😀'.repeat(2000))]))).toEqual([])
    expect(codesOf(works([leaf('x'.repeat(2001))]))).toEqual(['semantic_query_too_long'])
  })

  it.each([
    ['negated', works([{ ...leaf('a'), is_negated: true }])],
    [
      'in an OR',
      works([{ join: 'or', filters: [leaf('a'), { column_id: 'publication_year', value: 2020 }] }]),
    ],
    ['twice', works([leaf('a'), leaf('b')])],
    [
      'beside a full-text search',
      works([leaf('a'), { column_id: 'title.search', value: 'b', operator: 'has' }]),
    ],
    ['blank', works([leaf('   ')])],
  ])('refuses a semantic search %s', (_, oqo) => {
    expect(codesOf(oqo)).toContain('invalid_semantic_search')
  })

  it('names the parameter and says what to do', () => {
    const planned = planQuery(works([leaf('a'), leaf('b')]))
    expect(planned.ok).toBe(false)
    if (planned.ok) return
    expect(planned.errors[0]).toMatchObject({ parameter: 'search.semantic' })
    expect(planned.errors[0]!.message).toMatch(/one semantic search/)
  })

  it('refuses a semantic search node on another entity', () => {
    const node = {
      kind: 'search',
      column: { id: 'x.search.semantic', kind: 'search' },
      field: 'x',
      mode: 'semantic',
      text: 'a',
    } as const
    const [refusal] = checkSemanticSearch('authors', node)
    expect(refusal?.message).toMatch(/only supported for works/)
    // The rule as data, for the HTTP layer to word in URL terms.
    expect(refusal).toMatchObject({ rule: 'semantic_on_works_only', expected: 'works', actual: 'authors' })
    expect(checkSemanticSearch('works', node)).toEqual([])
  })
})
