// `sample` (≤ 10,000) with `seed`, and `select` (top-level fields) on lists and singletons, against the
// sample records.
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { getList, request, resultIds } from './support/contract-http.ts'
import { byId, idSet, records, shortId, where } from './support/sample-oracle.ts'

const context = useContractApp()

describe('sample', () => {
  it('returns N distinct served records; meta.count is N', async () => {
    const body = await getList(context.app, '/works?sample=20')
    expect(body.meta.count).toBe(20)
    expect(body.results).toHaveLength(20)
    const ids = resultIds(body.results)
    expect(new Set(ids).size).toBe(20)
    const all = new Set(idSet(records('works')))
    for (const id of ids) expect(all.has(id)).toBe(true)
  })

  it('the same seed gives the same sample; another seed another one', async () => {
    const a = resultIds((await getList(context.app, '/works?sample=25&seed=42')).results)
    const b = resultIds((await getList(context.app, '/works?sample=25&seed=42')).results)
    const c = resultIds((await getList(context.app, '/works?sample=25&seed=43')).results)
    expect(b).toEqual(a)
    expect(c).not.toEqual(a)
  })

  it('pages of a seeded sample partition it', async () => {
    const whole = resultIds((await getList(context.app, '/authors?sample=50&seed=7&per_page=50')).results)
    const pages: string[] = []
    for (const page of [1, 2, 3]) {
      const body = await getList(context.app, `/authors?sample=50&seed=7&per_page=20&page=${page}`)
      expect(body.meta.count).toBe(50)
      pages.push(...resultIds(body.results))
    }
    expect(pages).toHaveLength(50)
    expect(pages.sort()).toEqual(whole)
  })

  it('a sample larger than the result is the whole result; 10,000 is allowed', async () => {
    const body = await getList(context.app, '/work-types?sample=10000&per_page=100')
    expect(body.meta.count).toBe(records('work-types').length)
    expect(resultIds(body.results)).toEqual(idSet(records('work-types')))
  })

  it('filters apply to the sample', async () => {
    const body = await getList(
      context.app,
      `/works?filter=${encodeURIComponent('type:article')}&sample=30&seed=3`,
    )
    expect(body.meta.count).toBe(30)
    for (const result of body.results) expect(byId('works', String(result.id))?.type).toBe('article')
    const few = where('works', (w) => w.type === 'book')
    const small = await getList(
      context.app,
      `/works?filter=${encodeURIComponent('type:book')}&sample=1000&per_page=100`,
    )
    expect(small.meta.count).toBe(few.length)
  })

  it('on a vocabulary and on institutions', async () => {
    expect((await getList(context.app, '/countries?sample=5&seed=1')).results).toHaveLength(5)
    expect((await getList(context.app, '/institutions?sample=12&seed=abc')).results).toHaveLength(12)
  })
})

describe('select', () => {
  it.each([
    ['works', ['id', 'display_name']],
    ['works', ['id', 'doi', 'publication_year', 'cited_by_count']],
    ['authors', ['id', 'display_name', 'orcid']],
    ['institutions', ['id', 'ror', 'country_code']],
    ['sources', ['id', 'issn_l']],
    ['topics', ['id', 'display_name', 'works_count']],
    ['countries', ['id', 'country_code']],
    ['work-types', ['display_name']],
  ])('/%s?select=%s keeps only those fields, with the stored values', async (entity, fields) => {
    const body = await getList(context.app, `/${entity}?select=${fields.join(',')}&per_page=30`)
    expect(body.results.length).toBeGreaterThan(0)
    expect(body.meta.count).toBe(records(entity).length)
    for (const result of body.results) {
      for (const key of Object.keys(result))
        expect(fields, `${entity}: ${key} was not selected`).toContain(key)
      if (!fields.includes('id')) continue
      const record = byId(entity, String(result.id))!
      for (const field of fields)
        if (field in record)
          expect(result[field], `${entity} ${shortId(result.id)}.${field}`).toEqual(record[field])
    }
  })

  it('select with a filter and a sort', async () => {
    const body = await getList(
      context.app,
      `/works?select=id,cited_by_count&sort=cited_by_count:desc&filter=${encodeURIComponent('publication_year:2020')}`,
    )
    const expected = where('works', (w) => w.publication_year === 2020)
      .map((w) => w.cited_by_count as number)
      .sort((a, b) => b - a)
      .slice(0, 25)
    expect(body.results.map((r) => r.cited_by_count)).toEqual(expected)
  })

  it('relevance_score can be selected with a search', async () => {
    const body = await getList(context.app, '/works?search=biodiversity&select=id,relevance_score')
    for (const result of body.results) {
      expect(Object.keys(result).sort()).toEqual(['id', 'relevance_score'])
      expect(typeof result.relevance_score).toBe('number')
    }
  })

  it('select on singletons', async () => {
    const work = records('works')[0]!
    const response = await request(context.app, `/works/${shortId(work.id)}?select=id,display_name,doi`)
    expect(response.status).toBe(200)
    const body = response.json as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['display_name', 'doi', 'id'].filter((k) => k in work).sort())
    expect(body.display_name).toEqual(work.display_name)
    const author = records('authors')[0]!
    const one = await request(context.app, `/authors/${shortId(author.id)}?select=id,display_name`)
    expect(one.status).toBe(200)
    expect(one.json).toEqual({ id: author.id, display_name: author.display_name })
  })
})
