import { MAX_QUERY_BODY_BYTES, MAX_REQUEST_LINE_BYTES } from '@oqlkit/http'
import { translate } from '@oqlkit/oql'
import { afterAll, describe, expect, it } from 'vitest'
import { classicPath, getJson, post, rowsWithAllForms } from './support/query-requests.ts'
import { useSampleApp } from './support/sample-app.ts'
import { coreWorks, type Row, shortOf } from './support/sample-records.ts'

// The execute endpoint (rule 1 of the issue): GET /?oql=, GET /?oqo= and POST / answer what the classic list
// of the same query answers; every malformed request is a 400 with `validation`; view parameters follow the
// precedence body > query string > embedded in the OQO; long queries go by POST; cursors page to the end.

interface Envelope {
  meta: {
    count: number
    page: number | null
    per_page: number
    groups_count: number | null
    next_cursor?: string | null
    cost_usd: number
    x_query: { oql: string | null; oqo: Record<string, unknown>; url: string | null }
  }
  results?: Row[]
  group_by: unknown[]
}

interface Refusal {
  error: string
  code: string
  message: string
  validation: {
    valid: boolean
    errors: {
      type: string
      code: string
      message: string
      position?: number
      context: string | null
      location: string | null
    }[]
    warnings: unknown[]
  }
  oqo?: Record<string, unknown>
}

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const ok = async (response: Promise<{ status: number; body: unknown }>, label: string): Promise<Envelope> => {
  const { status, body } = await response
  if (status !== 200) throw new Error(`${label}: ${status} ${JSON.stringify(body).slice(0, 400)}`)
  return body as Envelope
}
const getOk = (path: string) => ok(getJson(sample.app, path), `GET ${path}`)
const postOk = (body: unknown, path = '/') =>
  ok(post(sample.app, path, body), `POST ${path} ${JSON.stringify(body)}`)
const oqlPath = (oql: string, rest = '') => `/?oql=${encodeURIComponent(oql)}${rest}`
const oqoPath = (oqo: unknown, rest = '') => `/?oqo=${encodeURIComponent(JSON.stringify(oqo))}${rest}`

const ids = (body: Envelope) => (body.results ?? []).map((row) => shortOf(row.id))

describe('GET /?oql=, GET /?oqo= and POST / answer as the classic list does', () => {
  const classic =
    '/works?filter=publication_year:2020,open_access.is_oa:true&sort=cited_by_count:desc&per_page=7'
  const oql = 'works where year is 2020 and open access is true'
  const oqo = {
    get_rows: 'works',
    filter_rows: [
      { column_id: 'publication_year', value: 2020 },
      { column_id: 'open_access.is_oa', value: true },
    ],
  }

  it('the same envelope: count, paging, the same entity objects, the same cost', async () => {
    const expected = await getOk(classic)
    expect(expected.results?.length).toBe(7)
    for (const body of [
      await getOk(oqlPath(oql, '&sort=cited_by_count:desc&per_page=7')),
      await getOk(oqoPath(oqo, '&sort=cited_by_count:desc&per-page=7')),
      await postOk({ oql, sort: 'cited_by_count:desc', per_page: 7 }),
      await postOk({ oqo, sort: 'cited_by_count:desc', per_page: 7 }),
    ]) {
      expect(Object.keys(body)).toEqual(['meta', 'results', 'group_by'])
      expect(body.results).toEqual(expected.results)
      // x_query.oqo and .oql keep the operand order the query was written in; the URL is the same.
      const {
        db_response_time_ms: _time,
        x_query,
        ...meta
      } = body.meta as Envelope['meta'] & {
        db_response_time_ms: number
      }
      const {
        db_response_time_ms: _expectedTime,
        x_query: expectedXQuery,
        ...expectedMeta
      } = expected.meta as Envelope['meta'] & { db_response_time_ms: number }
      expect(meta).toEqual(expectedMeta)
      expect(x_query.url).toBe(expectedXQuery.url)
    }
  })

  it('group_by buckets when the query groups', async () => {
    const expected = await getOk('/works?filter=publication_year:2020&group_by=type')
    const body = await postOk({ oql: 'works where year is 2020 group by type' })
    expect(body.results).toBeUndefined()
    expect(body.group_by).toEqual(expected.group_by)
    expect(body.meta.groups_count).toBe(expected.meta.groups_count)
    expect(body.meta.cost_usd).toBe(expected.meta.cost_usd)
  })

  it('select as a comma string or an array, page and per_page from the body', async () => {
    const expected = await getOk(
      '/works?filter=publication_year:2019&select=id,display_name&page=2&per_page=3',
    )
    expect(
      await postOk({ oql: 'works where year is 2019', select: 'id,display_name', page: 2, per_page: 3 }),
    ).toEqual({
      ...expected,
      meta: { ...expected.meta, db_response_time_ms: expect.any(Number) },
    })
    const asArray = await postOk({
      oql: 'works where year is 2019',
      select: ['id', 'display_name'],
      page: 2,
      per_page: 3,
    })
    expect(asArray.results).toEqual(expected.results)
  })

  it('a search costs what the classic search costs', async () => {
    const expected = await getOk('/works?search=climate&per_page=5')
    const body = await postOk({ oql: 'works where title/abstract has climate', per_page: 5 })
    expect(body.meta.cost_usd).toBe(expected.meta.cost_usd)
    expect(body.meta.cost_usd).toBeGreaterThan((await getOk('/works')).meta.cost_usd)
  })

  it('meta.x_query holds the query as translate() writes it', async () => {
    const body = await getOk(oqlPath(oql, '&sort=cited_by_count:desc'))
    const translated = translate({ oql })
    expect(body.meta.x_query.oql).toBe(translated.oql_oneline)
    expect(body.meta.x_query.oqo).toEqual(translated.oqo)
    expect(body.meta.x_query.url).toBe(`${classicPath(translated.oxurl ?? '')}&sort=cited_by_count:desc`)
  })

  it('GET / without oql or oqo is still the health check', async () => {
    const { status, body } = await getJson(sample.app, '/?api_key=abc')
    expect(status).toBe(200)
    expect(body).toMatchObject({ name: 'oqlkit', status: 'ok' })
  })
})

describe('the corpus queries that have all three forms give one answer in every form', () => {
  const rows = rowsWithAllForms()

  it('there are such rows', () => expect(rows.length).toBeGreaterThan(100))

  // Rows whose query this catalog cannot answer (semantic search, unknown collections) must fail alike.
  it.each(rows.map((row) => [row.id, row] as const))('row %i', async (_, row) => {
    const answers = [
      await getJson<Envelope>(sample.app, classicPath(row.oxurl!)),
      await getJson<Envelope>(sample.app, oqlPath(row.oql!)),
      await getJson<Envelope>(sample.app, oqoPath(row.oqo)),
      await post<Envelope>(sample.app, '/', { oql: row.oql }),
      await post<Envelope>(sample.app, '/', { oqo: row.oqo }),
    ]
    const [expected, ...others] = answers
    for (const answer of others) {
      expect(answer.status).toBe(expected!.status)
      if (expected!.status !== 200) {
        expect((answer.body as unknown as Refusal).message).toBe(
          (expected!.body as unknown as Refusal).message,
        )
        continue
      }
      const { body } = answer
      const want = expected!.body
      expect(body.meta.count).toBe(want.meta.count)
      expect(body.meta.cost_usd).toBe(want.meta.cost_usd)
      expect(body.meta.groups_count).toBe(want.meta.groups_count)
      expect(body.meta.x_query.url).toBe(want.meta.x_query.url)
      expect(body.group_by).toEqual(want.group_by)
      // A sample is drawn at random: the same rows, in any order.
      if (row.oqo?.sample === undefined) expect(body.results).toEqual(want.results)
      else expect(ids(body).sort()).toEqual(ids(want).sort())
    }
  })
})

describe('POST / bodies that are refused with 400 invalid_body', () => {
  const refused = async (body: unknown, options: Parameters<typeof post>[3] = {}, path = '/') => {
    const response = await post<Refusal>(sample.app, path, body, options)
    expect(response.status, JSON.stringify(response.body)).toBe(400)
    expect(response.body.code).toBe('invalid_body')
    expect(response.body.validation.valid).toBe(false)
    expect(response.body.validation.warnings).toEqual([])
    expect(response.body.validation.errors[0]).toMatchObject({ type: 'invalid_body', code: 'invalid_body' })
    expect(response.body.oqo).toBeUndefined()
    return response.body
  }

  it.each([
    ['another top-level key', { oql: 'works', filter: 'publication_year:2020' }, 'filter'],
    ['a misspelt sibling', { oql: 'works', perpage: 5 }, 'perpage'],
    ['per-page instead of per_page', { oql: 'works', 'per-page': 5 }, 'per-page'],
    ['api_key in the body', { oql: 'works', api_key: 'k' }, 'api_key'],
    ['a top-level sample', { oql: 'works', sample: 5 }, 'inside the OQO'],
    ['a top-level seed', { oqo: { get_rows: 'works', sample: 5 }, seed: '1' }, 'inside the OQO'],
    ['both oql and oqo', { oql: 'works', oqo: { get_rows: 'works' } }, 'both'],
    ['neither oql nor oqo', { sort: 'cited_by_count:desc' }, 'exactly one'],
    ['oql that is not a string', { oql: { get_rows: 'works' } }, 'oql must be a string'],
    ['oqo that is not an object', { oqo: '{"get_rows":"works"}' }, 'oqo must be a JSON object'],
    ['oqo that is an array', { oqo: [{ get_rows: 'works' }] }, 'oqo must be a JSON object'],
    ['per_page that is not a number', { oql: 'works', per_page: '5' }, 'per_page'],
    ['page that is not a whole number', { oql: 'works', page: 1.5 }, 'page'],
    ['select that is neither a string nor a list of strings', { oql: 'works', select: [1, 2] }, 'select'],
    ['an empty cursor', { oql: 'works', cursor: '' }, 'cursor'],
  ])('%s', async (_, body, mention) => {
    expect((await refused(body)).message).toContain(mention)
  })

  it('a sample and seed inside the OQO are fine', async () => {
    const body = await postOk({ oqo: { get_rows: 'works', sample: 5, seed: '1' } })
    expect(body.results).toHaveLength(5)
  })

  it('no Content-Type', async () => {
    expect((await refused({ oql: 'works' }, { contentType: null })).message).toContain(
      'Content-Type: application/json',
    )
  })

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp'])(
    'Content-Type %s',
    async (type) => {
      expect((await refused({ oql: 'works' }, { contentType: type })).message).toContain(type)
    },
  )

  it('a JSON content type with a charset is accepted', async () => {
    const response = await post(
      sample.app,
      '/',
      { oql: 'works' },
      { contentType: 'application/json; charset=utf-8' },
    )
    expect(response.status).toBe(200)
  })

  it.each([
    ['not JSON', '{"oql": works}', 'not valid JSON'],
    ['an array', '[{"oql": "works"}]', 'an array'],
    ['a string', '"works"', 'string'],
    ['null', 'null', 'null'],
    ['empty', '', 'empty'],
  ])('a body that is %s', async (_, raw, mention) => {
    expect((await refused(undefined, { raw })).message).toContain(mention)
  })

  it('lists every problem of a body', async () => {
    const body = await refused({ oql: 'works', oqo: { get_rows: 'works' }, sample: 3, colour: 'blue' })
    expect(body.validation.errors.map((error) => error.location).sort()).toEqual(
      [null, 'colour', 'sample'].sort(),
    )
  })

  it('oql= in the URL of a POST', async () => {
    expect((await refused({ oql: 'works' }, {}, '/?oql=works')).message).toContain('body')
  })
})

describe('queries that fail: 400 with validation, never an empty result', () => {
  const refusal = async (request: Promise<{ status: number; body: unknown }>) => {
    const { status, body } = await request
    expect(status, JSON.stringify(body)).toBe(400)
    const refused = body as Refusal
    expect(refused.validation.valid).toBe(false)
    expect(refused.validation.errors.length).toBeGreaterThan(0)
    expect(refused.code).toBe(refused.validation.errors[0]!.code)
    expect(['Invalid query parameters error.', 'Pagination error.']).toContain(refused.error)
    expect(refused.message).toBe(refused.validation.errors[0]!.message)
    return refused
  }

  it('a parse error, with its position and the text around it, and no oqo', async () => {
    for (const request of [
      getJson(sample.app, oqlPath('works where colour is blue')),
      post(sample.app, '/', { oql: 'works where colour is blue' }),
    ]) {
      const body = await refusal(request)
      expect(body.validation.errors[0]).toMatchObject({
        type: 'parse_error',
        code: 'OQL_UNKNOWN_FIELD',
        position: 12,
        context: 'works where colour is blue',
      })
      expect(body.oqo).toBeUndefined()
      expect(body.validation).toEqual(translate({ oql: 'works where colour is blue' }).validation)
    }
  })

  it('a query that parses but fails validation includes the oqo', async () => {
    const body = await refusal(post(sample.app, '/', { oql: 'works where country is uk' }))
    expect(body.validation.errors[0]).toMatchObject({
      code: 'invalid_value',
      location: 'filter_rows[0].value',
    })
    expect(body.oqo).toEqual({
      get_rows: 'works',
      filter_rows: [{ column_id: 'authorships.countries', value: 'UK' }],
    })

    const oqo = { get_rows: 'works', filter_rows: [{ column_id: 'publication_yaer', value: 2020 }] }
    const fromOqo = await refusal(getJson(sample.app, oqoPath(oqo)))
    expect(fromOqo.validation.errors[0]).toMatchObject({
      code: 'invalid_column',
      location: 'filter_rows[0].column_id',
    })
    expect(fromOqo.oqo).toEqual(oqo)
  })

  it('a view the query cannot have (a bad sort, a sample with a sort) includes the oqo', async () => {
    const body = await refusal(
      post(sample.app, '/', { oql: 'works where year is 2020', sort: 'colour:desc' }),
    )
    expect(body.validation.errors[0]).toMatchObject({ code: 'invalid_sort', location: 'sort' })
    expect(body.oqo).toMatchObject({ get_rows: 'works' })
    const sampled = await refusal(
      post(sample.app, '/', { oql: 'works sample 10', sort: 'cited_by_count:desc' }),
    )
    expect(sampled.code).toBe('sample_with_sort')
    const paging = await refusal(getJson(sample.app, oqlPath('works', '&per_page=500')))
    expect(paging).toMatchObject({ error: 'Pagination error.', code: 'invalid_per_page' })
  })

  it.each([
    ['an empty oql', '/?oql=', 'invalid_oql'],
    ['blank oql', '/?oql=%20%20', 'invalid_oql'],
    ['an oqo that is not JSON', '/?oqo=%7Bget_rows', 'invalid_oqo'],
    ['an oqo that is not an object', '/?oqo=42', 'invalid_oqo'],
    [
      'both oql and oqo',
      `/?oql=works&oqo=${encodeURIComponent('{"get_rows":"works"}')}`,
      'invalid_parameter',
    ],
    [
      'a parameter the endpoint does not take',
      '/?oql=works&filter=publication_year:2020',
      'unknown_parameter',
    ],
    ['a repeated parameter', '/?oql=works&sort=id&sort=id', 'repeated_parameter'],
    ['a page that is not a number', '/?oql=works&page=two', 'invalid_page'],
  ])('GET with %s', async (_, path, code) => {
    await refusal(getJson(sample.app, path))
    expect((await getJson<Refusal>(sample.app, path)).body.code).toBe(code)
  })

  it('oql on an entity path is a 400: OQL runs only at the root', async () => {
    const { status, body } = await getJson(
      sample.app,
      `/works?oql=${encodeURIComponent('works where year is 2020')}`,
    )
    expect(status).toBe(400)
    expect(body).toMatchObject({ code: 'oql_not_allowed_here', parameter: 'oql' })
    expect(body.message).toContain('root')
  })
})

describe('precedence of view parameters: body siblings > query string > embedded in the OQO', () => {
  const embedded = {
    get_rows: 'works',
    filter_rows: [{ column_id: 'publication_year', value: 2020 }],
    per_page: 4,
    sort_by: [{ column_id: 'publication_date', direction: 'asc' }],
    select: 'id',
  }
  const expectedOrder = async (sort: string, perPage: number, select: string) =>
    ids(await getOk(`/works?filter=publication_year:2020&sort=${sort}&per_page=${perPage}&select=${select}`))

  it('embedded values apply when nothing else says', async () => {
    const body = await postOk({ oqo: embedded })
    expect(body.meta.per_page).toBe(4)
    expect(ids(body)).toEqual(await expectedOrder('publication_date:asc', 4, 'id'))
    expect(Object.keys(body.results![0]!)).toEqual(['id'])
  })

  it('the query string wins over embedded values', async () => {
    const body = await postOk({ oqo: embedded }, '/?per_page=3&sort=cited_by_count:desc')
    expect(body.meta.per_page).toBe(3)
    expect(ids(body)).toEqual(await expectedOrder('cited_by_count:desc', 3, 'id'))
    const viaGet = await getOk(oqoPath(embedded, '&per-page=3&sort=cited_by_count:desc'))
    expect(ids(viaGet)).toEqual(ids(body))
  })

  it('body siblings win over the query string and embedded values, parameter by parameter', async () => {
    const body = await postOk(
      { oqo: embedded, per_page: 2, select: ['id', 'cited_by_count'] },
      '/?per_page=3&sort=cited_by_count:desc',
    )
    expect(body.meta.per_page).toBe(2)
    // sort from the query string, per_page and select from the body.
    expect(ids(body)).toEqual(await expectedOrder('cited_by_count:desc', 2, 'id'))
    expect(Object.keys(body.results![0]!).sort()).toEqual(['cited_by_count', 'id'])
    const bodySort = await postOk(
      { oqo: embedded, sort: 'publication_year:desc' },
      '/?sort=cited_by_count:desc',
    )
    expect(ids(bodySort)).toEqual(await expectedOrder('publication_year:desc', 4, 'id'))
  })
})

describe('long queries go by POST; cursors page to the end', () => {
  const workIds = coreWorks().map((work) => shortOf(work.id))
  const longOql = `works where ${Array.from(
    { length: 45 },
    (_, index) => `(year is ${1900 + index} and openalex id is (${workIds.slice(0, 12).join(' or ')}))`,
  ).join(' or ')}`

  it('a GET line over 8,190 bytes is refused with a pointer to POST; the same query by POST runs', async () => {
    const path = oqlPath(longOql)
    expect(Buffer.byteLength(`GET ${path} HTTP/1.1`)).toBeGreaterThan(MAX_REQUEST_LINE_BYTES)
    const refused = await getJson(sample.app, path)
    expect(refused.status).toBe(414)
    expect(refused.body.message).toContain('POST')
    const body = await postOk({ oql: longOql, per_page: 100 })
    const wanted = coreWorks().filter(
      (work) =>
        workIds.slice(0, 12).includes(shortOf(work.id)) &&
        (work.publication_year as number) >= 1900 &&
        (work.publication_year as number) < 1945,
    )
    expect(body.meta.count).toBe(wanted.length)
  })

  it('a body over the cap is refused with 413, saying so', async () => {
    const huge = `works where title has (${'x'.repeat(MAX_QUERY_BODY_BYTES)})`
    const response = await post<Refusal>(sample.app, '/', { oql: huge })
    expect(response.status).toBe(413)
    expect(response.body.code).toBe('payload_too_large')
    expect(response.body.message).toContain('bytes')
    expect(response.body.validation.valid).toBe(false)
  })

  it('cursor paging through POST / reaches the last page, with every row once, as the classic list pages', async () => {
    const pageThrough = async (send: (cursor: string) => Promise<Envelope>) => {
      const seen: string[] = []
      let cursor: string | null | undefined = '*'
      let pages = 0
      while (typeof cursor === 'string') {
        const body: Envelope = await send(cursor)
        seen.push(...ids(body))
        cursor = body.meta.next_cursor
        pages++
      }
      return { seen, pages }
    }
    const viaPost = await pageThrough((cursor) =>
      postOk({
        oql: 'works where year >= 2000',
        sort: 'cited_by_count:desc',
        per_page: 25,
        select: 'id',
        cursor,
      }),
    )
    const viaClassic = await pageThrough((cursor) =>
      getOk(
        `/works?filter=publication_year:>1999&sort=cited_by_count:desc&per_page=25&select=id&cursor=${encodeURIComponent(cursor)}`,
      ),
    )
    const expected = coreWorks().filter((work) => (work.publication_year as number) >= 2000)
    expect(viaPost.pages).toBeGreaterThan(2)
    expect(new Set(viaPost.seen).size).toBe(viaPost.seen.length)
    expect([...viaPost.seen].sort()).toEqual(expected.map((work) => shortOf(work.id)).sort())
    expect(viaPost.seen).toEqual(viaClassic.seen)
  })

  it('a cursor of another query is refused', async () => {
    const first = await postOk({ oql: 'works', sort: 'cited_by_count:desc', per_page: 5, cursor: '*' })
    const response = await post<Refusal>(sample.app, '/', {
      oql: 'works',
      sort: 'publication_year:desc',
      per_page: 5,
      cursor: first.meta.next_cursor,
    })
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('invalid_cursor')
  })
})
