import { readOqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

describe('readOqo', () => {
  it('separates the transitional embedded view keys, with a warning for each', () => {
    const result = readOqo({
      get_rows: 'works',
      filter_rows: [{ column_id: 'is_oa', value: 'true' }],
      sort_by: [{ column_id: 'cited_by_count', direction: 'desc' }, { column_id: 'publication_year' }],
      select: 'id, display_name',
      per_page: 50,
      page: 2,
    })
    expect(result).toEqual({
      ok: true,
      oqo: { get_rows: 'works', filter_rows: [{ column_id: 'open_access.is_oa', value: true }] },
      view: {
        sort: 'cited_by_count:desc,publication_year:asc',
        select: ['id', 'display_name'],
        per_page: 50,
        page: 2,
      },
      warnings: expect.arrayContaining([
        expect.objectContaining({ code: 'embedded_view_parameter', path: 'sort_by' }),
      ]),
    })
    expect(result.warnings).toHaveLength(4)
  })

  it('reads the oldest sort keys and a select list', () => {
    const result = readOqo({
      get_rows: 'authors',
      sort_by_column: 'works_count',
      sort_by_order: 'desc',
      select: ['id'],
      cursor: '*',
    })
    expect(result.ok && result.view).toEqual({ sort: 'works_count:desc', select: ['id'], cursor: '*' })
  })

  it('returns the errors, and no OQO, for an invalid object', () => {
    const result = readOqo({ get_rows: 'works', per_page: 500 })
    expect(result.ok).toBe(false)
    expect(!result.ok && result.errors.map((error) => error.path)).toEqual(['per_page'])
  })

  it('sorts operands when asked', () => {
    const result = readOqo(
      {
        get_rows: 'works',
        filter_rows: [
          { column_id: 'type', value: 'review' },
          { column_id: 'type', value: 'article' },
        ],
      },
      { sortOperands: true },
    )
    expect(result.ok && result.oqo.filter_rows).toEqual([
      { column_id: 'type', value: 'article' },
      { column_id: 'type', value: 'review' },
    ])
  })
})
