import { listQueryToOqo, readViewParameter, urlToOqo } from '@oqlkit/oql'
import { describe, expect, it } from 'vitest'

describe('readViewParameter: the one reader of a view parameter written as text', () => {
  it('reads sort into terms, select into fields, paging into numbers and the cursor trimmed', () => {
    expect(readViewParameter('sort', ' cited_by_count:desc, id ')).toEqual({
      ok: true,
      view: {
        sort: [
          {
            text: 'cited_by_count:desc',
            field: 'cited_by_count',
            writtenDirection: 'desc',
            direction: 'desc',
          },
          { text: 'id', field: 'id', writtenDirection: 'asc', direction: 'asc' },
        ],
      },
    })
    expect(readViewParameter('select', 'id, ,display_name')).toEqual({
      ok: true,
      view: { select: ['id', 'display_name'] },
    })
    expect(readViewParameter('page', ' 3 ')).toEqual({ ok: true, view: { page: 3 } })
    expect(readViewParameter('per_page', '50')).toEqual({ ok: true, view: { perPage: 50 } })
    expect(readViewParameter('cursor', ' * ')).toEqual({ ok: true, view: { cursor: '*' } })
  })

  it('gives nothing for an empty sort or select, as if it were not written', () => {
    expect(readViewParameter('sort', '  ')).toEqual({ ok: true, view: {} })
    expect(readViewParameter('select', ',')).toEqual({ ok: true, view: {} })
  })

  it('returns a problem as data (which parameter, what it must be, what was written), without words', () => {
    expect(readViewParameter('page', 'two')).toEqual({
      ok: false,
      problem: { code: 'invalid_page', name: 'page', expected: 'whole_number', actual: 'two' },
    })
    expect(readViewParameter('per_page', '-1')).toEqual({
      ok: false,
      problem: { code: 'invalid_per_page', name: 'per_page', expected: 'whole_number', actual: '-1' },
    })
    expect(readViewParameter('cursor', ' ')).toEqual({
      ok: false,
      problem: { code: 'invalid_cursor', name: 'cursor', expected: 'non_empty', actual: ' ' },
    })
  })
})

describe('listQueryToOqo: a routed list request read from its pairs', () => {
  it('reads the same OQO as the URL the pairs would make', () => {
    const pairs = ['filter=publication_year:2020,is_oa:true', 'search=climate%20change', 'group_by=type']
    const fromPairs = listQueryToOqo('works', pairs)
    const fromUrl = urlToOqo(`/works?${pairs.join('&')}`)
    expect(fromPairs.ok).toBe(true)
    expect(fromPairs).toEqual(fromUrl)
  })

  it('reports a bad filter as the URL reader does', () => {
    const fromPairs = listQueryToOqo('authors', ['filter=colour:red'])
    expect(fromPairs.ok).toBe(false)
    expect(fromPairs).toEqual(urlToOqo('/authors?filter=colour:red'))
  })
})
