import {
  CURSOR_SAMPLE_SEED,
  DEFAULT_MAX_PER_PAGE,
  decodeCursor,
  encodeCursor,
  groupSignatureOf,
  planQuery,
  sampleSignatureOf,
  type ViewParameters,
} from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

// The view rules the classic API needs beyond the filter: bucket order and cursors, sample paging, seeds,
// relevance direction, and messages that list what is valid.

const grouped = (group_by: NonNullable<Oqo['group_by']>, extra: Partial<Oqo> = {}): Oqo => ({
  get_rows: 'works',
  group_by,
  ...extra,
})

const errorsOf = (oqo: Oqo, view: ViewParameters = {}) => {
  const result = planQuery(oqo, view)
  return result.ok ? [] : result.errors.map((error) => [error.code, error.parameter])
}

const planOf = (oqo: Oqo, view: ViewParameters = {}) => {
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
    expect(
      planOf(grouped([{ column_id: 'type' }]), { sort: [{ field: 'key', direction: 'desc' }] }).plan
        .groupOrder,
    ).toEqual({
      by: 'key',
      direction: 'desc',
    })
    expect(
      planOf(grouped([{ column_id: 'type' }]), { sort: [{ field: 'count', direction: 'asc' }] }).plan
        .groupOrder,
    ).toEqual({
      by: 'count',
      direction: 'asc',
    })
  })

  it('refuses row sorts, two keys and bad directions on buckets', () => {
    for (const sort of [
      [{ field: 'cited_by_count', direction: 'desc' }],
      [
        { field: 'key', direction: 'asc' },
        { field: 'count', direction: 'desc' },
      ],
      [{ field: 'key', direction: null, text: 'key:up', writtenDirection: 'up' }],
    ] as const)
      expect(errorsOf(grouped([{ column_id: 'type' }]), { sort })).toEqual([['invalid_sort', 'sort']])
    const result = planQuery(grouped([{ column_id: 'type' }]), {
      sort: [{ field: 'cited_by_count', direction: 'desc' }],
    })
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

  it('answers up to 200 buckets on a page when per_page is not given; an explicit per_page pages them', () => {
    expect(planOf(grouped([{ column_id: 'type' }])).plan.page).toEqual({
      kind: 'offset',
      page: 1,
      perPage: 200,
    })
    expect(planOf(grouped([{ column_id: 'type' }]), { perPage: 5 }).plan.page).toEqual({
      kind: 'offset',
      page: 1,
      perPage: 5,
    })
    // Rows may be capped lower by the operator; buckets keep the public server's 200.
    expect(planQuery(grouped([{ column_id: 'type' }]), { perPage: 200 }, { maxPerPage: 100 }).ok).toBe(true)
    expect(errorsOf(grouped([{ column_id: 'type' }]), { perPage: 201 })).toEqual([
      ['invalid_per_page', 'per_page'],
    ])
  })

  it('names the groupable fields when a column cannot be grouped by', () => {
    const result = planQuery(grouped([{ column_id: 'display_name' }]))
    expect(result.ok ? '' : result.errors[0]!.message).toContain('publication_year')
  })
})

describe('planQuery: page size', () => {
  const works: Oqo = { get_rows: 'works' }

  it('takes up to 200 per page by default, and the limit the operator sets', () => {
    expect(DEFAULT_MAX_PER_PAGE).toBe(200)
    expect(planOf(works, { perPage: 200, cursor: '*' }).plan.page.perPage).toBe(200)
    expect(errorsOf(works, { perPage: 201 })).toEqual([['invalid_per_page', 'per_page']])
    const strict = planQuery(works, { perPage: 101 }, { maxPerPage: 100 })
    expect(strict.ok ? '' : strict.errors[0]!.message).toContain('from 1 to 100')
    expect(planQuery(works, { perPage: 500 }, { maxPerPage: 500 }).ok).toBe(true)
  })

  it('keeps basic paging within 10,000 results whatever the page size', () => {
    expect(errorsOf(works, { perPage: 200, page: 50 })).toEqual([])
    expect(errorsOf(works, { perPage: 200, page: 51 })).toEqual([['invalid_page', 'page']])
    expect(planQuery(works, { perPage: 500, page: 21 }, { maxPerPage: 500 }).ok).toBe(false)
  })
})

describe('planQuery: samples, seeds and relevance', () => {
  const works: Oqo = { get_rows: 'works' }

  it('needs sample for a seed and a seed for later pages', () => {
    expect(errorsOf({ ...works, seed: '7' })).toEqual([['seed_without_sample', 'seed']])
    expect(errorsOf({ ...works, sample: 50 }, { page: 2, perPage: 10 })).toEqual([
      ['sample_page_without_seed', 'page'],
    ])
    expect(errorsOf({ ...works, sample: 50, seed: '7' }, { page: 2, perPage: 10 })).toEqual([])
  })

  it('walks a sample by cursor: a position in it, bound to its size, seed and page size', () => {
    const first = planOf({ ...works, sample: 50, seed: '7' }, { cursor: '*', perPage: 20 })
    expect(first.plan.page).toEqual({ kind: 'cursor', after: null, perPage: 20 })
    expect(first.plan.sample).toEqual({ size: 50, seed: '7' })
    expect(first.sortSignature).toBe(sampleSignatureOf(50, '7', 20))
    const next = encodeCursor(first.sortSignature, [20])
    expect(planOf({ ...works, sample: 50, seed: '7' }, { cursor: next, perPage: 20 }).plan.page).toEqual({
      kind: 'cursor',
      after: [20],
      perPage: 20,
    })
    // another seed, size or page size, or a position off the page grid: not this walk's cursor
    for (const [oqo, perPage] of [
      [{ ...works, sample: 50, seed: '8' }, 20],
      [{ ...works, sample: 60, seed: '7' }, 20],
      [{ ...works, sample: 50, seed: '7' }, 10],
    ] as const)
      expect(errorsOf(oqo, { cursor: next, perPage })).toEqual([['invalid_cursor', 'cursor']])
    const odd = encodeCursor(first.sortSignature, [15])
    expect(errorsOf({ ...works, sample: 50, seed: '7' }, { cursor: odd, perPage: 20 })).toEqual([
      ['invalid_cursor', 'cursor'],
    ])
  })

  it('draws an unseeded sample walked by cursor with one fixed seed, so its pages agree', () => {
    const first = planOf({ ...works, sample: 50 }, { cursor: '*' })
    expect(first.plan.sample).toEqual({ size: 50, seed: CURSOR_SAMPLE_SEED })
    // Offset pages without a seed stay a new draw each time (the adapter picks the seed).
    expect(planOf({ ...works, sample: 50 }).plan.sample).toEqual({ size: 50, seed: null })
  })

  it('sorts by relevance descending only', () => {
    const searching: Oqo = {
      get_rows: 'works',
      filter_rows: [{ column_id: 'fulltext.search', value: 'graph', operator: 'has' }],
    }
    expect(errorsOf(searching, { sort: [{ field: 'relevance_score', direction: 'asc' }] })).toEqual([
      ['relevance_sort_ascending', 'sort'],
    ])
    expect(errorsOf(searching, { sort: [{ field: 'relevance_score', direction: 'desc' }] })).toEqual([])
  })

  it('lists the sortable and selectable fields in its refusals', () => {
    const sort = planQuery(works, { sort: [{ field: 'colour', direction: 'asc' }] })
    expect(sort.ok ? '' : sort.errors[0]!.message).toContain('cited_by_count')
    const select = planQuery(works, { select: ['colour'] })
    expect(select.ok ? '' : select.errors[0]!.message).toContain('display_name')
  })
})
