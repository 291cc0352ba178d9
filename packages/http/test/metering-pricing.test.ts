// What each request costs before it runs (`priceRequest`), for the routes the in-process tests cannot
// charge for real: semantic search (the sample has no vectors), the text endpoints (not served yet),
// OQO bodies, and requests that are free because they will be refused anyway.
import type { CostClass } from '@oqlkit/engine'
import { MAX_REQUEST_LINE_BYTES, priceRequest } from '@oqlkit/http'
import { describe, expect, it } from 'vitest'

const price = (path: string, init?: RequestInit): Promise<CostClass | undefined> => {
  const request = new Request(`http://localhost${path}`, init)
  return priceRequest(request, new URL(request.url).pathname)
}

const post = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
})

describe('priceRequest', () => {
  it('prices lists by their plan: list, search or semantic', async () => {
    expect(await price('/works')).toBe('list')
    expect(await price('/works?filter=is_oa:true&group_by=publication_year')).toBe('list')
    expect(await price('/works?search=climate')).toBe('search')
    expect(await price('/works?filter=title.search:climate')).toBe('search')
    expect(await price('/works?filter=title.search:!climate')).toBe('search')
    expect(await price('/works?search.semantic=rising%20seas')).toBe('semantic')
  })

  it('prices the execute endpoints like the classic list of the same query', async () => {
    expect(await price('/?oql=works%20where%20year%20is%202020')).toBe(
      await price('/works?filter=publication_year:2020'),
    )
    expect(await price('/?oqo=%7B%22get_rows%22%3A%22works%22%7D')).toBe('list')
    expect(await price('/', post('{"oql": "works where title has \\"climate\\""}'))).toBe('search')
    expect(
      await price(
        '/',
        post(
          JSON.stringify({
            oqo: {
              get_rows: 'works',
              filter_rows: [{ column_id: 'abstract.search.semantic', value: 'seas', operator: 'has' }],
            },
          }),
        ),
      ),
    ).toBe('semantic')
  })

  it('prices singletons at 0 and the text endpoints as text', async () => {
    expect(await price('/works/W2741809807')).toBe('singleton')
    expect(await price('/works/doi:10.1/abc')).toBe('singleton')
    expect(await price('/text?title=a%20title%20long%20enough')).toBe('text')
    expect(await price('/text/keywords', post('{"title": "x"}'))).toBe('text')
  })

  it('leaves free what the API description prices at nothing', async () => {
    for (const path of [
      '/',
      '/query/oql/works',
      '/validate?q=works',
      '/parse-context?q=works&pos=3',
      '/properties',
      '/properties/works',
      '/query/spec',
      '/autocomplete/works?q=x',
      '/rate-limit',
      '/me/collections',
    ])
      expect(await price(path), path).toBeUndefined()
    expect(await price('/query', post('{"oql": "works where title has \\"x\\""}'))).toBeUndefined()
  })

  it('leaves free what will be refused: queries that do not plan, over-long lines, unreadable bodies', async () => {
    expect(await price('/works?filter=colour:blue')).toBeUndefined()
    expect(await price('/?oql=works%20where%20((')).toBeUndefined()
    expect(await price(`/works?filter=doi:${'x'.repeat(MAX_REQUEST_LINE_BYTES)}`)).toBeUndefined()
    expect(await price('/', post('{"oql": '))).toBeUndefined()
    expect(
      await price(
        '/',
        post(JSON.stringify({ oql: `works where title has "${'x'.repeat(5 * 1024 * 1024)}"` })),
      ),
    ).toBeUndefined()
    expect(await price('/works', { method: 'DELETE' })).toBeUndefined()
  })

  it('prices a page as large as the operator allows, as the handler will plan it', async () => {
    const request = new Request('http://localhost/works?per_page=300&select=id')
    expect(await priceRequest(request, '/works')).toBeUndefined()
    expect(await priceRequest(request, '/works', { maxPerPage: 500 })).toBe('list')
    const search = new Request('http://localhost/works?search=climate&per_page=300')
    expect(await priceRequest(search, '/works', { maxPerPage: 500 })).toBe('search')
  })

  it('leaves free, and does not throw on, OQOs that are not queries', async () => {
    for (const oqo of ['{}', '[]', 'null', '{"get_rows":5}', '{"get_rows":"works","filter_rows":[null]}'])
      expect(await price(`/?oqo=${encodeURIComponent(oqo)}`)).toBeUndefined()
  })

  it('leaves the body for the handler to read', async () => {
    const request = new Request('http://localhost/', post('{"oql": "works"}'))
    await priceRequest(request, '/')
    expect(await request.json()).toEqual({ oql: 'works' })
  })
})
