import { decodeCursor, encodeCursor, groupSignatureOf, planQuery } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

// The view rules the classic API needs beyond the filter: bucket order and cursors, sample paging, seeds,
// relevance direction, and messages that list what is valid.

const grouped = (group_by: NonNullable<Oqo['group_by']>, extra: Partial<Oqo> = {}): Oqo => ({
  get_rows: 'works',
  group_by,
  ...extra,
})

const errorsOf = (oqo: Oqo, view = {}) => {
  const result = planQuery(oqo, view)
  return result.ok ? [] : result.errors.map((error) => [error.code, error.parameter])
}

const planOf = (oqo: Oqo, view = {}) => {
  const result = planQuery(oqo, view)
  if (!result.ok) throw new Error(JSON.stringify(result.errors))
  return result
}

describe('planQuery: group buckets', () => {
  it('orders buckets by count descending unless sort names key or count', () => {
    expect(planOf(grouped([{ column_id: 'type' }])).plan.groupOrder).toEqual({
      by: 'count',
      direction: 'desc',
    })
    expect(planOf(grouped([{ column_id: 'type' }]), { sort: 'key:desc' }).plan.groupOrder).toEqual({
      by: 'key',
      direction: 'desc',
    })
    expect(planOf(grouped([{ column_id: 'type' }]), { sort: 'count' }).plan.groupOrder).toEqual({
      by: 'count',
      direction: 'asc',
    })
  })

  it('refuses row sorts, two keys and bad directions on buckets', () => {
    for (const sort of ['cited_by_count:desc', 'key:asc,count:desc', 'key:up'])
      expect(errorsOf(grouped([{ column_id: 'type' }]), { sort })).toEqual([['invalid_sort', 'sort']])
    const result = planQuery(grouped([{ column_id: 'type' }]), { sort: 'cited_by_count:desc' })
    expect(result.ok ? '' : result.errors[0]!.message).toContain('key:asc, key:desc, count:asc or count:desc')
  })

  it('reads a bucket cursor as an offset at a page boundary of the same grouping', () => {
    const first = planOf(grouped([{ column_id: 'type' }]), { cursor: '*', perPage: 10 })
    expect(first.plan.page).toEqual({ kind: 'cursor', after: null, perPage: 10 })
    expect(first.sortSignature).toBe(groupSignatureOf(first.plan.groupBy, first.plan.groupOrder, 10))
    const next = encodeCursor(first.sortSignature, [20])
    expect(planOf(grouped([{ column_id: 'type' }]), { cursor: next, perPage: 10 }).plan.page).toEqual({
      kind: 'cursor',
      after: [20],
      perPage: 10,
    })
    // another page size, another grouping, an offset off the page grid: not this query's cursor
    expect(errorsOf(grouped([{ column_id: 'type' }]), { cursor: next, perPage: 20 })).toEqual([
      ['invalid_cursor', 'cursor'],
    ])
    expect(errorsOf(grouped([{ column_id: 'language' }]), { cursor: next, perPage: 10 })).toEqual([
      ['invalid_cursor', 'cursor'],
    ])
    const odd = encodeCursor(first.sortSignature, [15])
    expect(errorsOf(grouped([{ column_id: 'type' }]), { cursor: odd, perPage: 10 })).toEqual([
      ['invalid_cursor', 'cursor'],
    ])
    expect(decodeCursor(next, first.sortSignature)).toEqual([20])
  })

  it('names the groupable fields when a column cannot be grouped by', () => {
    const result = planQuery(grouped([{ column_id: 'display_name' }]))
    expect(result.ok ? '' : result.errors[0]!.message).toContain('publication_year')
  })
})

describe('planQuery: samples, seeds and relevance', () => {
  const works: Oqo = { get_rows: 'works' }

  it('needs sample for a seed, a seed for later pages, and pages (not cursors) for samples', () => {
    expect(errorsOf({ ...works, seed: '7' })).toEqual([['seed_without_sample', 'seed']])
    expect(errorsOf({ ...works, sample: 50 }, { page: 2, perPage: 10 })).toEqual([
      ['sample_page_without_seed', 'page'],
    ])
    expect(errorsOf({ ...works, sample: 50, seed: '7' }, { page: 2, perPage: 10 })).toEqual([])
    expect(errorsOf({ ...works, sample: 50 }, { cursor: '*' })).toEqual([['sample_with_cursor', 'cursor']])
  })

  it('sorts by relevance descending only', () => {
    const searching: Oqo = {
      get_rows: 'works',
      filter_rows: [{ column_id: 'fulltext.search', value: 'graph', operator: 'has' }],
    }
    expect(errorsOf(searching, { sort: 'relevance_score:asc' })).toEqual([
      ['relevance_sort_ascending', 'sort'],
    ])
    expect(errorsOf(searching, { sort: 'relevance_score:desc' })).toEqual([])
  })

  it('lists the sortable and selectable fields in its refusals', () => {
    const sort = planQuery(works, { sort: 'colour' })
    expect(sort.ok ? '' : sort.errors[0]!.message).toContain('cited_by_count')
    const select = planQuery(works, { select: ['colour'] })
    expect(select.ok ? '' : select.errors[0]!.message).toContain('display_name')
  })
})
