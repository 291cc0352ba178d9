// Every error of the entity API contract: 400 `{error, message}` naming the bad parameter or field and, where
// the contract says so, listing what is valid; 404 JSON for unknown entities and ids; never a 5xx for bad
// input; GET request lines over 8,190 bytes → 414 or 400 pointing to POST /.
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { expectError, request } from './support/contract-http.ts'
import { idSet, records } from './support/sample-oracle.ts'

const context = useContractApp()

const f = (filter: string) => `filter=${encodeURIComponent(filter)}`

/** A 400 whose message mentions every given word (case-insensitive). */
async function expect400(path: string, ...mentions: (string | RegExp)[]) {
  const body = await expectError(context.app, path, 400)
  for (const mention of mentions) {
    const pattern =
      typeof mention === 'string' ? new RegExp(mention.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : mention
    expect(body.message, `GET ${path}: message mentions ${String(mention)}`).toMatch(pattern)
  }
  return body
}

describe('400 naming the problem', () => {
  it('an unknown parameter, listing the valid ones', async () => {
    await expect400('/works?foo=1', 'foo', 'filter', 'sort')
    await expect400('/authors?per_pag=5', 'per_pag', 'per_page')
  })

  it('oql on an entity path', async () => {
    await expect400('/works?oql=works', 'oql')
  })

  it('an unknown filter field, listing valid fields', async () => {
    await expect400(`/works?${f('publication_yaer:2020')}`, 'publication_yaer', 'publication_year')
    await expect400(`/authors?${f('no_such_field:1')}`, 'no_such_field', 'works_count')
    await expect400(`/countries?${f('publication_year:2020')}`, 'publication_year')
  })

  it('an unknown sort field, listing valid fields', async () => {
    await expect400('/works?sort=no_such_field:desc', 'no_such_field', 'cited_by_count')
    await expect400('/works?sort=cited_by_count:sideways', /cited_by_count|sideways|asc|desc/)
  })

  it('a bad value for the column kind names the field', async () => {
    await expect400(`/works?${f('publication_year:abc')}`, 'publication_year')
    await expect400(`/works?${f('open_access.is_oa:maybe')}`, 'open_access.is_oa')
    await expect400(`/works?${f('publication_date:2020-13-45')}`, 'publication_date')
    await expect400(`/works?${f('from_publication_date:yesterday')}`, 'from_publication_date')
    await expect400(`/works?${f('authorships.author.id:not-an-id')}`, 'authorships.author.id')
    await expect400(`/works?${f('cited_by_count:>ten')}`, 'cited_by_count')
    await expect400(`/authors?${f('works_count:1.5.5')}`, 'works_count')
  })

  it('a filter part without a colon, an empty value', async () => {
    await expect400(`/works?${f('publication_year')}`, 'publication_year')
    await expect400(`/works?${f('publication_year:')}`, 'publication_year')
  })

  it('per_page out of range or not a number', async () => {
    for (const value of ['0', '201', '-1', 'abc', '1.5'])
      await expect400(`/works?per_page=${value}`, /per[_-]page/)
    await expect400('/works?per-page=300', /per[_-]page/)
  })

  it('page not a positive number, or deeper than 10,000 results', async () => {
    await expect400('/works?page=0', 'page')
    await expect400('/works?page=abc', 'page')
    await expect400('/works?page=401', /10,?000/)
    await expect400('/works?page=101&per_page=100', /10,?000/)
    await expect400('/works?page=10001&per_page=1', /10,?000/)
  })

  it('cursor with page; an invalid cursor', async () => {
    await expect400('/works?cursor=*&page=2', 'cursor', 'page')
    await expect400('/works?cursor=not-a-cursor', 'cursor')
  })

  it('sample with sort or group_by, seed without sample, sample out of range', async () => {
    await expect400('/works?sample=10&sort=cited_by_count:desc', 'sample', 'sort')
    await expect400('/works?sample=10&group_by=type', 'sample', 'group')
    await expect400('/works?seed=42', 'seed', 'sample')
    await expect400('/works?sample=10001', 'sample', /10,?000/)
    await expect400('/works?sample=abc', 'sample')
    await expect400('/works?sample=-5', 'sample')
  })

  it('relevance sort without search; ascending relevance', async () => {
    await expect400('/works?sort=relevance_score:desc', 'relevance', 'search')
    await expect400('/works?search=biodiversity&sort=relevance_score:asc', 'relevance')
  })

  it('select with group_by; an unknown or nested select field', async () => {
    await expect400('/works?select=id&group_by=type', 'select', 'group')
    await expect400('/works?select=id,no_such_field', 'no_such_field', 'display_name')
    await expect400('/works?select=open_access.is_oa', 'open_access.is_oa')
  })

  it('more than 100 OR values', async () => {
    const ids = idSet(records('works')).slice(0, 101)
    await expect400(`/works?${f(`openalex_id:${ids.join('|')}`)}`, '100')
  })

  it('two filter parameters', async () => {
    await expect400(`/works?${f('publication_year:2020')}&${f('open_access.is_oa:true')}`, 'filter')
  })

  it('group_by: unknown field, a non-groupable field, an unknown suffix, too many dimensions', async () => {
    await expect400('/works?group_by=no_such_field', 'no_such_field')
    await expect400('/works?group_by=publication_date', 'publication_date')
    await expect400('/works?group_by=type:sideways', /include_unknown|sideways/)
    await expect400('/works?group_by=type,language,publication_year,open_access.is_oa', /3|three|dimension/)
  })

  it('an OR across two fields', async () => {
    await expect400(`/works?${f('type:article|publication_year:2020')}`, /or|\|/i)
  })

  it('a ! after the first value of an OR list is an error, or means what it says', async () => {
    // The reference server rejects `a|!b`; the contract only names a leading `!`. Either answer is fine,
    // but a 200 must mean type = article OR type != book.
    const response = await request(context.app, `/works?${f('type:article|!book')}`)
    if (response.status !== 400) {
      expect(response.status).toBe(200)
      const expected = records('works').filter((w) => w.type === 'article' || w.type !== 'book').length
      expect((response.json as { meta: { count: number } }).meta.count).toBe(expected)
    }
  })
})

describe('404 JSON', () => {
  it('an unknown entity path', async () => {
    await expectError(context.app, '/widgets', 404)
    await expectError(context.app, '/widgets?filter=a:b', 404)
  })

  it('an unknown id', async () => {
    await expectError(context.app, '/works/W1', 404)
    await expectError(context.app, '/topics/T1', 404)
  })
})

describe('never a 5xx for bad input', () => {
  it.each([
    '/works?filter=',
    '/works?filter=%',
    '/works?filter=%E0%A4%A',
    `/works?${f(':::')}`,
    `/works?${f(',,,')}`,
    `/works?${f('|')}`,
    `/works?${f('publication_year:>')}`,
    `/works?${f('publication_year:2020-')}`,
    `/works?${f('publication_year:-')}`,
    `/works?${f('publication_year:!null')}`,
    `/works?${f('cited_by_count:99999999999999999999999')}`,
    `/works?${f('publication_year:>99999999999999999999')}`,
    `/works?${f('cited_by_count:1-99999999999999999999')}`,
    `/works?${f('publication_year:1e400')}`,
    `/works?${f('publication_date:99999-01-01')}`,
    '/works?sample=99999999999999999999',
    '/works?sample=5&seed=99999999999999999999999999',
    `/works?${f('authorships.author.id:!')}`,
    `/works?${f('doi:"unterminated')}`,
    `/works?${f("display_name:'; DROP TABLE works; --")}`,
    `/works?${f('open_access.is_oa:null|true')}`,
    `/works?${f('title.search:!foo')}`,
    `/works?${f('title.search:*')}`,
    '/works?search=',
    '/works?search=%22',
    '/works?search=(((',
    '/works?search=a%20AND%20OR%20NOT',
    '/works?search=*ology',
    '/works?search.unknown=frogs',
    '/works?sort=',
    '/works?sort=:desc',
    '/works?sort=cited_by_count:desc:asc',
    '/works?group_by=',
    '/works?group_by=,',
    '/works?group_by=type&sort=cited_by_count:desc',
    '/works?group_by=type&page=2',
    '/works?group_by=open_access.is_oa&cursor=*',
    '/works?select=',
    '/works?select=,,',
    '/works?cursor=',
    '/works?cursor=eyJ4IjoxfQ==',
    '/works?cursor=%2A%2A',
    '/works?per_page=99999999999999999999',
    '/works?page=99999999999999999999',
    '/works?sample=0',
    '/works?sample=5&seed=',
    '/works?api_key=',
    '/works/%',
    '/works/W%00',
    '/works/doi:',
    '/works/pmid:abc',
    '/works/random?select=nope',
    '/autocomplete/works',
    '/autocomplete/widgets?q=a',
    '/autocomplete?q=',
    '/autocomplete/works?q=a&foo=1',
    `/${'x'.repeat(300)}`,
  ])('%s', async (path) => {
    const response = await request(context.app, path)
    expect(response.status, `GET ${path} → ${response.text.slice(0, 300)}`).toBeLessThan(500)
    if (response.status >= 400)
      expect(response.headers.get('content-type') ?? '', `GET ${path}: JSON error`).toContain(
        'application/json',
      )
  })
})

describe('semantic search, which ingest builds vectors for', () => {
  // A catalog without vectors answers 501 not_supported: semantic-search.test.ts covers it, and every
  // other refusal of search.semantic.
  it('answers at most 50 works as JSON, and refuses an empty text with a JSON 400', async () => {
    const response = await request(context.app, '/works?search.semantic=frogs&per_page=100')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type') ?? '').toContain('application/json')
    expect((response.json as { results: unknown[] }).results.length).toBeLessThanOrEqual(50)
    const empty = await request(context.app, '/works?search.semantic=')
    expect(empty.status).toBe(400)
    expect((empty.json as { message?: unknown }).message).toMatch(/semantic/i)
  })
})

describe('the GET request-line limit (8,190 bytes)', () => {
  /** `GET <path> HTTP/1.1` is the request line: the path plus 13 bytes. */
  const pathOfLength = (length: number) => {
    const ids = idSet(records('works')).map((id) => encodeURIComponent(`https://openalex.org/${id}`))
    let path = `/works?${f(`openalex_id:${ids.slice(0, 100).join('|')}`)}`
    let more = 100
    while (path.length < length && more < ids.length) {
      path += encodeURIComponent(`,authorships.author.id:!${ids[more]!.replace(/W/, 'A')}`)
      more++
    }
    return path.slice(0, length).replace(/%[0-9A-F]?$/, '')
  }

  it('a longer request line is refused with 414 or 400, pointing to POST /', async () => {
    const path = `${pathOfLength(8_300)}`
    expect(`GET ${path} HTTP/1.1`.length).toBeGreaterThan(8_190)
    const response = await request(context.app, path)
    expect([414, 400], `→ ${response.status} ${response.text.slice(0, 300)}`).toContain(response.status)
    expect(response.text).toMatch(/POST/)
  })

  it('a request line under the limit is served', async () => {
    const ids = idSet(records('works')).slice(0, 100)
    const path = `/works?${f(`openalex_id:${ids.map((id) => `https://openalex.org/${id}`).join('|')}`)}&per_page=100`
    expect(path.length).toBeLessThan(8_000)
    const response = await request(context.app, path)
    expect(response.status).toBe(200)
  })
})
