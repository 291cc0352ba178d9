// The planner refuses with data (rule, field, expected, actual); the HTTP layer writes the words, in URL
// terms. These are the words the API answered with when the planner wrote them itself.
import { type PlanDiagnostic, planQuery, type ViewParameters } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { planMessageOf } from '../src/errors/plan-problems.ts'

const refusal = (oqo: Oqo, view: ViewParameters = {}): PlanDiagnostic => {
  const planned = planQuery(oqo, view)
  if (planned.ok) throw new Error('the case plans')
  return planned.errors[0]!
}
const works: Oqo = { get_rows: 'works' }
const URL_WORDS = /[a-z_.]+=|cursor=\*|GET \/|\/works/

describe('planner refusals written by the HTTP layer', () => {
  it('words each rule in URL terms, from the data the planner gives', () => {
    const cases: [PlanDiagnostic, string][] = [
      [
        refusal({ ...works, sample: 10 }, { page: 2 }),
        'Pages of a sample need a seed, or each page draws a new sample and pages overlap. Add one: sample=10&seed=123&page=2.',
      ],
      [
        refusal(works, { page: 500, perPage: 25 }),
        'page 500 with per_page 25 reaches past result 10000; use cursor paging (cursor=*) to go deeper.',
      ],
      [
        refusal(works, { cursor: 'not-a-cursor' }),
        'This cursor was not issued for this query. Start with cursor=* and follow meta.next_cursor.',
      ],
      [
        refusal({ ...works, seed: '7' }),
        'seed picks which random sample is drawn, so it needs sample: add sample=N or drop seed.',
      ],
      [
        refusal(works, { sort: [{ field: 'relevance_score', direction: 'desc' }] }),
        'sort=relevance_score needs a search; add search= or a .search filter, or sort by another field.',
      ],
      [
        refusal({ get_rows: 'authors' }, { sums: ['apc_sum'] }),
        'apc_sum=true totals apc_list.value_usd and apc_paid.value_usd, which authors do not have; ask it of /works.',
      ],
      [
        refusal({ ...works, filter_rows: [{ column_id: 'cited_by_count', value: 1e20 }] }),
        `The value ${1e20} of 'cited_by_count' is out of range: numbers go up to 9007199254740991. Write a smaller number, or an open range such as cited_by_count:>1000.`,
      ],
    ]
    for (const [diagnostic, words] of cases) {
      expect(planMessageOf(diagnostic)).toBe(words)
      expect(diagnostic.message, 'the planner writes no URL words').not.toMatch(URL_WORDS)
    }
  })

  it('quotes a bucket sort as the request wrote it', () => {
    const diagnostic = refusal(
      { ...works, group_by: [{ column_id: 'type' }] },
      {
        sort: [
          { field: 'key', direction: 'asc', text: 'key' },
          { field: 'count', direction: 'asc', text: 'count' },
        ],
      },
    )
    expect(planMessageOf(diagnostic, { sort: 'key, count' })).toBe(
      'group_by buckets sort by one key; sort=key, count names 2. Write one of key:asc, key:desc, count:asc or count:desc.',
    )
    expect(planMessageOf(diagnostic)).toContain('sort=key,count names 2.')
    expect(diagnostic.message).not.toMatch(URL_WORDS)
  })
})
