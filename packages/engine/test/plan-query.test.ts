import { encodeCursor, FilterNodes, planQuery, sortSignatureOf, type ViewParameters } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

const works = (
  filter_rows: NonNullable<Oqo['filter_rows']>,
  extra: Omit<Partial<Oqo>, 'filter_rows'> = {},
): Oqo => ({
  get_rows: 'works',
  filter_rows,
  ...extra,
})
const ref = (id: string, kind: string) => ({ id, kind })

const planOf = (oqo: Oqo, view: ViewParameters = {}) => {
  const result = planQuery(oqo, view)
  if (!result.ok) throw new Error(JSON.stringify(result.errors))
  return result.plan
}

const errorsOf = (oqo: Oqo, view: ViewParameters = {}) => {
  const result = planQuery(oqo, view)
  return result.ok ? [] : result.errors.map((error) => [error.code, error.parameter])
}

describe('planQuery: the filter', () => {
  it('maps leaves to comparison, missing, search and collection nodes, negation to not', () => {
    const plan = planOf(
      works([
        { column_id: 'publication_year', value: 2020, operator: '>=' },
        { column_id: 'language', value: null, is_negated: true },
        { column_id: 'title_and_abstract.search.exact', value: 'graph', operator: 'has' },
        { column_id: 'authorships.author.id', value: 'col_abc', operator: 'in collection' },
      ]),
    )
    expect(plan.filter).toEqual(
      FilterNodes.and([
        FilterNodes.comparison(ref('publication_year', 'number') as never, '>=', 2020),
        FilterNodes.not(FilterNodes.missing(ref('language', 'enum') as never)),
        FilterNodes.search(
          ref('title_and_abstract.search.exact', 'search') as never,
          'title_and_abstract',
          'exact',
          'graph',
        ),
        FilterNodes.collection(ref('authorships.author.id', 'entity_id') as never, 'col_abc'),
      ]),
    )
  })

  it('turns from_/to_ date columns into inclusive bounds on the date', () => {
    const plan = planOf(
      works([
        { column_id: 'from_publication_date', value: '2020-01-01' },
        { column_id: 'to_publication_date', value: '2020-12-31' },
      ]),
    )
    expect(plan.filter).toMatchObject({
      kind: 'and',
      children: [
        { kind: 'comparison', column: { id: 'publication_date' }, operator: '>=', value: '2020-01-01' },
        { kind: 'comparison', column: { id: 'publication_date' }, operator: '<=', value: '2020-12-31' },
      ],
    })
  })

  it('collapses an OR of equalities on one column into an in-list', () => {
    const plan = planOf(
      works([
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'article' },
            { column_id: 'type', value: 'review' },
            { column_id: 'is_retracted', value: true },
          ],
        },
      ]),
    )
    expect(plan.filter).toMatchObject({
      kind: 'or',
      children: [
        { kind: 'in-list', column: { id: 'type' }, values: ['article', 'review'] },
        { kind: 'comparison', column: { id: 'is_retracted' }, operator: '=', value: true },
      ],
    })
  })

  it('has no filter for a bare entity, and plans are frozen', () => {
    const plan = planOf({ get_rows: 'authors' })
    expect(plan.filter).toBeNull()
    expect(Object.isFrozen(plan)).toBe(true)
  })
})

describe('planQuery: order and pages', () => {
  it('parses sort keys, ends every order with the id, and sorts searches by relevance by default', () => {
    expect(
      planOf(works([]), {
        sort: [
          { field: 'cited_by_count', direction: 'desc' },
          { field: 'publication_year', direction: 'asc' },
        ],
      }).sort,
    ).toEqual([
      { column: ref('cited_by_count', 'number'), direction: 'desc' },
      { column: ref('publication_year', 'number'), direction: 'asc' },
      { column: 'id', direction: 'asc' },
    ])
    expect(
      planOf(works([{ column_id: 'display_name.search', value: 'graph', operator: 'has' }])).sort,
    ).toEqual([
      { column: 'relevance_score', direction: 'desc' },
      { column: 'id', direction: 'asc' },
    ])
  })

  it('rejects bad sorts, naming the parameter', () => {
    expect(errorsOf(works([]), { sort: [{ field: 'colour', direction: 'desc' }] })).toEqual([
      ['invalid_sort', 'sort'],
    ])
    expect(
      errorsOf(works([]), {
        sort: [
          { field: 'cited_by_count', direction: null, text: 'cited_by_count:up', writtenDirection: 'up' },
        ],
      }),
    ).toEqual([['invalid_sort', 'sort']])
    expect(errorsOf(works([]), { sort: [{ field: 'relevance_score', direction: 'desc' }] })).toEqual([
      ['relevance_sort_requires_search', 'sort'],
    ])
  })

  it('checks per_page, page depth and cursor rules', () => {
    expect(errorsOf(works([]), { perPage: 201 })).toEqual([['invalid_per_page', 'per_page']])
    expect(errorsOf(works([]), { perPage: 0 })).toEqual([['invalid_per_page', 'per_page']])
    expect(errorsOf(works([]), { page: 401, perPage: 25 })).toEqual([['invalid_page', 'page']])
    expect(errorsOf(works([]), { page: 400, perPage: 25 })).toEqual([])
    expect(errorsOf(works([]), { page: 2, cursor: '*' })).toEqual([['cursor_with_page', 'cursor']])
    expect(errorsOf(works([]), { cursor: 'not-a-cursor' })).toEqual([['invalid_cursor', 'cursor']])
  })

  it('reads back a cursor issued for the same sort, and refuses it for another', () => {
    const first = planOf(works([]), { cursor: '*', sort: [{ field: 'cited_by_count', direction: 'desc' }] })
    expect(first.page).toEqual({ kind: 'cursor', after: null, perPage: 25 })
    const cursor = encodeCursor(sortSignatureOf(first.sort), [120, 'W1'])
    expect(
      planOf(works([]), { cursor, sort: [{ field: 'cited_by_count', direction: 'desc' }] }).page,
    ).toEqual({
      kind: 'cursor',
      after: [120, 'W1'],
      perPage: 25,
    })
    expect(errorsOf(works([]), { cursor, sort: [{ field: 'publication_year', direction: 'asc' }] })).toEqual([
      ['invalid_cursor', 'cursor'],
    ])
  })
})

describe('planQuery: sample, select and group_by', () => {
  it('samples with a seed, and refuses sample with sort or group_by', () => {
    expect(planOf(works([], { sample: 10, seed: '7' })).sample).toEqual({ size: 10, seed: '7' })
    expect(planOf(works([], { sample: 10 })).sample).toEqual({ size: 10, seed: null })
    expect(
      errorsOf(works([], { sample: 10 }), { sort: [{ field: 'publication_year', direction: 'asc' }] }),
    ).toEqual([['sample_with_sort', 'sample']])
    expect(errorsOf(works([], { sample: 10, group_by: [{ column_id: 'type' }] }))).toEqual([
      ['sample_with_sort', 'sample'],
    ])
  })

  it('plans group dimensions with their unknown bucket, and checks select', () => {
    const plan = planOf(works([], { group_by: [{ column_id: 'type' }, { column_id: 'language' }] }), {
      includeUnknown: ['language'],
    })
    expect(plan.groupBy).toEqual([
      { column: ref('type', 'enum'), includeUnknown: false },
      { column: ref('language', 'enum'), includeUnknown: true },
    ])
    expect(planOf(works([]), { select: ['id', 'display_name'] }).select).toEqual(['id', 'display_name'])
    expect(errorsOf(works([]), { select: ['id', 'colour'] })).toEqual([['invalid_select', 'select']])
    expect(errorsOf(works([], { group_by: [{ column_id: 'type' }] }), { select: ['id'] })).toEqual([
      ['invalid_select', 'select'],
    ])
    expect(errorsOf(works([], { group_by: [{ column_id: 'display_name' }] }))).toEqual([
      ['invalid_group_by', 'group_by'],
    ])
  })

  it('refuses a select that is not a list of names, as plain JavaScript may pass it', () => {
    for (const select of ['id,title', 'id', null, 7, [1, 'id'], { id: true }]) {
      const result = planQuery(works([]), { select } as unknown as Parameters<typeof planQuery>[1])
      expect(result.ok, JSON.stringify(select)).toBe(false)
      if (result.ok) continue
      expect(result.errors.map((error) => [error.code, error.parameter])).toEqual([
        ['invalid_select', 'select'],
      ])
      expect(result.errors[0]!.message).toContain('select must be a list of field names')
    }
    const written = planQuery(works([]), { select: 'id,title' } as unknown as Parameters<typeof planQuery>[1])
    expect(written.ok ? '' : written.errors[0]!.message).toContain('the string "id,title"')
  })

  it('keeps the corpus of works and ignores it elsewhere', () => {
    expect(planOf(works([], { corpus: 'all' })).corpus).toBe('all')
    expect(planOf(works([])).corpus).toBe('core')
    expect(planOf({ get_rows: 'authors' }).corpus).toBe('all')
  })
})
