import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { get, useSampleApp } from './support/sample-app.ts'

// Every refusal of the entity API: a JSON body {error, message} that names the parameter or field at fault
// and says what is valid; 404 JSON for unknown paths and ids; never a 500 for input, however odd.

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

interface ErrorBody {
  error: string
  code: string
  message: string
  parameter?: string
  errors?: { code: string; message: string; parameter?: string }[]
}

const refusal = async (path: string) => {
  const response = await get<ErrorBody>(sample, path)
  expect(response.headers.get('content-type'), path).toContain('application/json')
  return response
}

describe('400: the request cannot mean anything', () => {
  // [path, error code, parameter, text the message must contain (the field at fault, and what is valid)]
  const cases: ReadonlyArray<readonly [string, string, string, readonly string[]]> = [
    ['/works?colour=red', 'unknown_parameter', 'colour', ["'colour'", 'filter', 'per_page', 'group_by']],
    ['/works?filtr=type:article', 'unknown_parameter', 'filtr', ["Did you mean 'filter'"]],
    [
      '/works?filter=colour:red',
      'invalid_column',
      'filter',
      ["'colour'", 'Valid filters of /works', 'publication_year'],
    ],
    [
      '/authors?filter=publication_year:2020',
      'invalid_column',
      'filter',
      ["'publication_year'", 'Valid filters of /authors'],
    ],
    ['/works?sort=colour:desc', 'invalid_sort', 'sort', ["'colour'", 'Sortable fields', 'cited_by_count']],
    ['/works?sort=cited_by_count:up', 'invalid_sort', 'sort', ['cited_by_count:asc or cited_by_count:desc']],
    ['/works?group_by=colour', 'invalid_group_by', 'group_by', ["'colour'"]],
    ['/works?group_by=type&sort=cited_by_count:desc', 'invalid_sort', 'sort', ['key:asc', 'count:desc']],
    [
      '/works?filter=publication_year:twenty',
      'invalid_value_type',
      'filter',
      ["'twenty'", 'publication_year', 'number'],
    ],
    ['/works?filter=is_oa:maybe', 'invalid_value_type', 'filter', ["'maybe'", 'is_oa:true']],
    [
      '/works?filter=from_publication_date:2020-13-45',
      'invalid_value_type',
      'filter',
      ['from_publication_date', 'YYYY-MM-DD'],
    ],
    ['/works?filter=cited_by_count:99999999999999999999', 'value_out_of_range', 'filter', ['cited_by_count']],
    ['/works?per_page=201', 'invalid_per_page', 'per_page', ['1 to 200']],
    ['/works?per-page=0', 'invalid_per_page', 'per_page', ['1 to 200']],
    ['/works?per_page=ten', 'invalid_per_page', 'per_page', ["'ten'"]],
    ['/works?page=401', 'invalid_page', 'page', ['10000', 'cursor']],
    ['/works?page=100&per_page=201', 'invalid_per_page', 'per_page', ['1 to 200']],
    ['/works?page=0', 'invalid_page', 'page', ['positive']],
    ['/works?page=2&cursor=*', 'cursor_with_page', 'cursor', ['page']],
    ['/works?cursor=bm90LWEtY3Vyc29y', 'invalid_cursor', 'cursor', ['cursor=*']],
    ['/works?sample=10&sort=cited_by_count:desc', 'sample_with_sort', 'sample', ['sort or group_by']],
    ['/works?sample=10&group_by=type', 'sample_with_sort', 'sample', ['sort or group_by']],
    ['/works?sample=10001', 'invalid_sample', 'sample', ['10000']],
    ['/works?sample=10&page=2', 'sample_page_without_seed', 'page', ['seed']],
    ['/works?sample=10&seed=1&cursor=*&page=2', 'cursor_with_page', 'cursor', ['page']],
    ['/works?seed=42', 'seed_without_sample', 'seed', ['sample']],
    ['/works?sort=relevance_score:desc', 'relevance_sort_requires_search', 'sort', ['search']],
    [
      '/works?search=cancer&sort=relevance_score:asc',
      'relevance_sort_ascending',
      'sort',
      ['relevance_score:desc'],
    ],
    ['/works?select=id&group_by=type', 'invalid_select', 'select', ['group_by']],
    ['/works?select=id,colour', 'invalid_select', 'select', ["'colour'", 'Valid fields', 'display_name']],
    ['/works?select=open_access.is_oa', 'invalid_select', 'select', ["'open_access.is_oa'"]],
    [
      `/works?filter=openalex:${Array.from({ length: 101 }, (_, i) => `W${i + 1}`).join('|')}`,
      'too_many_values',
      'filter',
      ['101', '100'],
    ],
    [
      '/works?filter=type:article&filter=is_oa:true',
      'repeated_parameter',
      'filter',
      ['Only one filter parameter'],
    ],
    ['/works?sort=cited_by_count&sort=publication_year', 'repeated_parameter', 'sort', ['sort=']],
    ['/works?oql=works', 'oql_not_allowed_here', 'oql', ['root']],
    ['/works?q=united', 'invalid_parameter', 'q', ['group_by']],
    ['/works?group_by=type:sometimes', 'invalid_group_by', 'group_by', [':include_unknown']],
    ['/works?group_by=a,b,c,d', 'invalid_group_by', 'group_by', ['group_by']],
    ['/works?filter=type', 'invalid_filter', 'filter', ['key:value']],
    ['/works?filter=type:', 'empty_value', 'filter', ['type']],
    ['/authors?search.title=einstein', 'unknown_parameter', 'search.title', ['authors']],
    ['/works/W2741809807?select=colour', 'invalid_select', 'select', ["'colour'"]],
    ['/works/W2741809807?per_page=3&colour=red', 'unknown_parameter', 'colour', ['select', 'ignored']],
  ]

  it.each(cases)('%s → %s', async (path, error, parameter, mentions) => {
    const response = await refusal(path)
    expect(response.status).toBe(400)
    expect(response.body.code).toBe(error)
    expect(response.body.parameter).toBe(parameter)
    for (const text of mentions) expect(response.body.message).toContain(text)
  })

  it('lists every problem when there are several', async () => {
    const response = await refusal('/works?per_page=500&sort=colour&select=id&group_by=type')
    expect(response.status).toBe(400)
    expect(response.body.errors?.map((problem) => problem.code).sort()).toEqual([
      'invalid_per_page',
      'invalid_select',
      'invalid_sort',
    ])
  })
})

describe('404, 405 and 414', () => {
  it.each([
    '/planets',
    '/planets/P1',
    '/works/W1',
    '/works/A2090344885',
    '/oa-statuses',
    '/works/W2741809807/ngrams',
  ])('%s answers a JSON 404', async (path) => {
    const response = await refusal(path)
    expect(response.status).toBe(404)
    expect(response.body.code).toBe('not_found')
    expect(response.body.message.length).toBeGreaterThan(10)
  })

  it('names the entity paths when the entity is unknown', async () => {
    const response = await refusal('/planets')
    expect(response.body.message).toContain('/works')
    expect(response.body.message).toContain('/work-types')
  })

  it('answers other methods on the API paths with 405', async () => {
    const response = await sample.app.fetch(new Request('http://localhost/works', { method: 'DELETE' }))
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toContain('GET')
    expect(((await response.json()) as ErrorBody).code).toBe('method_not_allowed')
  })

  it('refuses a request line over 8,190 bytes with 414, pointing to POST /', async () => {
    const filler = 'x'.repeat(8190)
    const response = await refusal(`/works?filter=display_name.search:${filler}`)
    expect(response.status).toBe(414)
    expect(response.body.code).toBe('request_line_too_long')
    expect(response.body.message).toContain('POST')
    const fits = `/works?filter=display_name.search:${'x'.repeat(8190 - 'GET /works?filter=display_name.search: HTTP/1.1'.length)}`
    expect((await get(sample, fits)).status).toBe(200)
  })
})

describe('never a 500 for input', () => {
  const PARAMETER_NAMES = [
    'filter',
    'search',
    'sort',
    'per_page',
    'page',
    'cursor',
    'sample',
    'seed',
    'select',
    'group_by',
    'q',
    'x',
  ]
  const VALUE = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      'type:article',
      'publication_year:>2020',
      'cited_by_count:desc',
      '*',
      '!null',
      'is_oa:true|false',
      '"a,b"',
      '%',
      '%ZZ',
      '|||',
      ':::',
      ',,,',
      'authorships.author.id:A1',
      'relevance_score:desc',
      'key:asc',
      '10',
      '0',
      '-1',
      '1e9',
    ),
  )
  const QUERY = fc.array(fc.tuple(fc.constantFrom(...PARAMETER_NAMES), VALUE), { maxLength: 4 })
  const PATH = fc.constantFrom(
    '/works',
    '/authors',
    '/work-types',
    '/countries',
    '/works/W2741809807',
    '/autocomplete/works',
    '/autocomplete',
  )

  it('says what is wrong with a path it cannot decode, rather than a bare "Bad Request"', async () => {
    for (const path of ['/query/oql/%ED%BD%95', '/works/%ED%BD%95']) {
      const answer = await get(sample, path)
      expect(answer.status).toBe(400)
      expect(answer.body).toMatchObject({ code: 'bad_request' })
      expect((answer.body as { message: string }).message).toMatch(/malformed percent-encoding/)
    }
  })

  it('answers arbitrary query strings with 2xx, 3xx or a JSON 4xx/501', async () => {
    await fc.assert(
      fc.asyncProperty(PATH, QUERY, async (path, pairs) => {
        const query = pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')
        const response = await sample.app.fetch(new Request(`http://localhost${path}?${query}`))
        const text = await response.text()
        expect(response.status, `${path}?${query}: ${text.slice(0, 300)}`).not.toBe(500)
        if (response.status >= 400) expect(() => JSON.parse(text)).not.toThrow()
      }),
      { numRuns: 150 },
    )
  })
})
