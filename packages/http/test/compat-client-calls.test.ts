// Calls real clients (pyalex, openalexR) make, unchanged but for the base URL, against the sample catalog:
// pages of up to 200, list parameters sent to singletons, samples walked by cursor, the totals of
// `apc_sum` and `cited_by_count_sum`, a group_by answered whole by one call, and error bodies in the words
// the clients' own error handling matches.
import { createMemoryKeyStore, createMemoryMeterStore, DEFAULT_METERING_LIMITS } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { afterAll, describe, expect, it } from 'vitest'
import { get, type SampleApp, useSampleApp } from './support/sample-app.ts'
import { coreWorks, sampleRecords, shortOf } from './support/sample-records.ts'

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

interface ListBody {
  meta: Record<string, unknown> & { count: number; per_page: number; next_cursor?: string | null }
  results: { id: string }[]
  group_by: { key: string; count: number }[]
}

interface ErrorBody {
  error: string
  code: string
  message: string
  parameter?: string
}

const list = async (path: string, app: SampleApp = sample): Promise<ListBody> => {
  const response = await get<ListBody>(app, path)
  expect(response.status, `${path}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(200)
  return response.body
}

const refusal = async (path: string, app: SampleApp = sample): Promise<ErrorBody> => {
  const response = await get<ErrorBody>(app, path)
  expect(response.status, path).toBe(400)
  return response.body
}

/** Follows `meta.next_cursor` from `cursor=*` to the end, returning the ids of every page in order. */
const walk = async (path: string): Promise<{ ids: string[]; pages: number }> => {
  const ids: string[] = []
  let cursor: string | null | undefined = '*'
  let pages = 0
  while (cursor !== null && cursor !== undefined) {
    const body = await list(`${path}&cursor=${encodeURIComponent(cursor)}`)
    ids.push(...body.results.map((result) => shortOf(result.id)))
    cursor = body.meta.next_cursor
    pages++
    expect(pages).toBeLessThan(50)
  }
  return { ids, pages }
}

describe('per_page up to 200', () => {
  it('answers per-page=200 with a cursor, as the public server does', async () => {
    const body = await list('/authors?per-page=200&cursor=*')
    expect(body.meta.per_page).toBe(200)
    expect(body.results).toHaveLength(Math.min(200, body.meta.count))
    expect(body.meta.count).toBeGreaterThan(100)
  })

  it('refuses 201, and keeps page numbers within 10,000 results', async () => {
    const tooMany = await refusal('/works?per_page=201')
    expect(tooMany).toMatchObject({ code: 'invalid_per_page', parameter: 'per_page' })
    expect(tooMany.message).toContain('1 to 200')
    expect((await list('/works?per_page=200&page=50')).meta.per_page).toBe(200)
    expect(await refusal('/works?per_page=200&page=51')).toMatchObject({ code: 'invalid_page' })
  })

  it('holds to the limit the operator sets (createApp maxPerPage, oqlkit serve --max-per-page)', async () => {
    const strict: SampleApp = {
      ...sample,
      app: createApp({
        adapter: sample.adapter,
        catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
        maxPerPage: 100,
      }),
    }
    expect((await list('/works?per_page=100', strict)).results).toHaveLength(100)
    const refused = await refusal('/works?per_page=101', strict)
    expect(refused).toMatchObject({ code: 'invalid_per_page', parameter: 'per_page' })
    expect(refused.message).toContain('1 to 100')
    // The execute endpoint plans with the same limit.
    const execute = await get<ErrorBody>(strict, `/?oql=${encodeURIComponent('works')}&per_page=101`)
    expect(execute.status).toBe(400)
    // Buckets are small: a group_by still answers 200 on a page.
    expect((await list('/works?group_by=publication_year&per_page=200', strict)).meta.per_page).toBe(200)
  })
})

describe('list parameters on singletons', () => {
  const work = coreWorks()[0]!
  const workId = shortOf(work.id)
  const institution = shortOf(sampleRecords('institutions')[0]!.id)

  it('ignores what clients add to every call, as the public server does', async () => {
    const plain = await get(sample, `/institutions/${institution}`)
    expect(plain.status).toBe(200)
    for (const query of [
      'per-page=1',
      'per_page=1&page=1',
      'cursor=*',
      'sort=cited_by_count:desc&filter=type:article',
      'sample=5&seed=1',
      'group_by=type',
      'search=cancer&search.title=x',
      'apc_sum=true&cited_by_count_sum=true',
      'mailto=someone@example.org',
    ]) {
      const response = await get(sample, `/institutions/${institution}?${query}`)
      expect(response.status, query).toBe(200)
      expect(response.body, query).toEqual(plain.body)
    }
    const random = await get<{ id: string }>(sample, '/works/random?per-page=1')
    expect(random.status).toBe(200)
    expect(random.body.id).toMatch(/^https:\/\/openalex\.org\/W\d+$/)
  })

  it('still selects, and still refuses a parameter no endpoint has', async () => {
    const selected = await get(sample, `/works/${workId}?select=id,display_name&per_page=3`)
    expect(selected.status).toBe(200)
    expect(selected.body).toEqual({ id: work.id, display_name: work.display_name })
    const unknown = await refusal(`/works/${workId}?colour=red`)
    expect(unknown).toMatchObject({ code: 'unknown_parameter', parameter: 'colour' })
    expect(unknown.message).not.toMatch(/[{}]/)
  })
})

describe('samples walked by cursor', () => {
  it('pages through the sample: /authors?sample=20&per-page=100&cursor=*', async () => {
    const body = await list('/authors?sample=20&per-page=100&cursor=*')
    expect(body.meta.count).toBe(20)
    expect(body.results).toHaveLength(20)
    expect(new Set(body.results.map((result) => result.id)).size).toBe(20)
    expect(body.meta.next_cursor).toBeNull()
  })

  it('gives a seeded sample page by page, the same rows as its numbered pages', async () => {
    const walked = await walk('/works?sample=45&seed=5&per_page=20')
    expect(walked.pages).toBe(3)
    expect(walked.ids).toHaveLength(45)
    expect(new Set(walked.ids).size).toBe(45)
    const numbered: string[] = []
    for (const page of [1, 2, 3])
      numbered.push(
        ...(await list(`/works?sample=45&seed=5&per_page=20&page=${page}`)).results.map((result) =>
          shortOf(result.id),
        ),
      )
    expect(walked.ids).toEqual(numbered)
  })

  it('walks an unseeded sample consistently: each walk the same sample, no row twice', async () => {
    const first = await walk('/works?sample=30&per_page=7')
    expect(first.ids).toHaveLength(30)
    expect(new Set(first.ids).size).toBe(30)
    expect((await walk('/works?sample=30&per_page=7')).ids).toEqual(first.ids)
  })

  it('refuses a cursor of another sample', async () => {
    const next = (await list('/works?sample=30&seed=1&per_page=10&cursor=*')).meta.next_cursor
    expect(typeof next).toBe('string')
    const refused = await refusal(`/works?sample=30&seed=2&per_page=10&cursor=${encodeURIComponent(next!)}`)
    expect(refused).toMatchObject({ code: 'invalid_cursor', parameter: 'cursor' })
  })
})

describe('apc_sum and cited_by_count_sum', () => {
  const total = (rows: readonly Record<string, unknown>[], read: (row: Record<string, unknown>) => unknown) =>
    rows.reduce<number>((sum, row) => {
      const value = read(row)
      return sum + (typeof value === 'number' ? value : 0)
    }, 0)
  const usd = (field: string) => (row: Record<string, unknown>) =>
    (row[field] as { value_usd?: unknown } | null | undefined)?.value_usd

  it('adds the totals of the whole result to meta, not of the page', async () => {
    const articles = coreWorks().filter((work) => work.type === 'article')
    const body = await list('/works?filter=type:article&apc_sum=true&cited_by_count_sum=true&per_page=1')
    expect(body.meta.count).toBe(articles.length)
    expect(body.results).toHaveLength(1)
    const expected = {
      apc_list_sum_usd: total(articles, usd('apc_list')),
      apc_paid_sum_usd: total(articles, usd('apc_paid')),
      cited_by_count_sum: total(articles, (work) => work.cited_by_count),
    }
    for (const value of Object.values(expected)) expect(value).toBeGreaterThan(0)
    for (const [name, value] of Object.entries(expected))
      expect(body.meta[name] as number).toBeCloseTo(value, 6)
    // The same totals beside a group_by and a sample.
    const grouped = await list('/works?filter=type:article&group_by=publication_year&apc_sum=true')
    expect(grouped.meta.apc_list_sum_usd as number).toBeCloseTo(expected.apc_list_sum_usd, 6)
    const sampled = await list('/works?filter=type:article&sample=5&cited_by_count_sum=true')
    expect(sampled.meta.cited_by_count_sum).toBe(expected.cited_by_count_sum)
  })

  it('adds nothing unless asked, and refuses what cannot be totalled', async () => {
    const plain = await list('/works?per_page=1&apc_sum=false')
    expect(Object.keys(plain.meta)).not.toContain('apc_list_sum_usd')
    expect(Object.keys(plain.meta)).not.toContain('cited_by_count_sum')
    // On another entity: the citations of every author the list holds (read back page by page).
    const authors = await list('/authors?per_page=1&cited_by_count_sum=true')
    let served = 0
    let cursor: string | null | undefined = '*'
    while (cursor !== null && cursor !== undefined) {
      type Page = { meta: { next_cursor: string | null }; results: { cited_by_count: number }[] }
      const page: { body: Page } = await get<Page>(
        sample,
        `/authors?per_page=200&select=cited_by_count&cursor=${encodeURIComponent(cursor)}`,
      )
      served += total(page.body.results, (author) => author.cited_by_count)
      cursor = page.body.meta.next_cursor
    }
    expect(served).toBeGreaterThan(0)
    expect(authors.meta.cited_by_count_sum).toBe(served)
    expect(await refusal('/authors?apc_sum=true')).toMatchObject({
      code: 'invalid_sum',
      parameter: 'apc_sum',
    })
    expect(await refusal('/works?apc_sum=yes')).toMatchObject({
      code: 'invalid_parameter',
      parameter: 'apc_sum',
    })
  })
})

describe('group_by answers its groups from one call', () => {
  it('gives up to 200 buckets when per_page is not given; an explicit per_page pages them', async () => {
    const body = await list('/works?group_by=publication_year')
    expect(body.meta.per_page).toBe(200)
    expect(body.meta.groups_count).toBe(body.group_by.length)
    expect(body.group_by.length).toBeGreaterThan(25)
    const counted = new Map<string, number>()
    for (const work of coreWorks()) {
      const year = String(work.publication_year)
      counted.set(year, (counted.get(year) ?? 0) + 1)
    }
    expect(new Map(body.group_by.map((bucket) => [bucket.key, bucket.count]))).toEqual(counted)
    const paged = await list('/works?group_by=publication_year&per_page=5&page=2')
    expect(paged.group_by).toEqual(body.group_by.slice(5, 10))
  })
})

describe('error bodies clients read', () => {
  // pyalex raises its QueryError, with the body's `message`, for a 400 whose `error` contains "query
  // parameters" and for a 401 whose `error` contains "API key"; any other refusal reaches its users as a
  // bare HTTP error. The public server words them so; our stable code travels beside, in `code`.
  const pyalexQueryError = (
    status: number,
    body: { error?: unknown; message?: unknown },
  ): string | undefined =>
    typeof body.error === 'string' &&
    ((status === 400 && body.error.includes('query parameters')) ||
      (status === 401 && body.error.includes('API key')))
      ? String(body.message)
      : undefined

  it('words a 400 of the entity routes as the public server does, the stable code in code', async () => {
    for (const path of [
      '/works?filter=publication_year_error:2020',
      '/authors?filter=publication_year_error:2020',
      '/works/W2741809807?select=colour',
      '/autocomplete/works?q=x&colour=red',
    ]) {
      const response = await get<ErrorBody>(sample, path)
      expect(response.status, path).toBe(400)
      expect(response.body.error, path).toBe('Invalid query parameters error.')
      expect(pyalexQueryError(response.status, response.body), path).toBe(response.body.message)
    }
    const unknownField = await refusal('/works?filter=publication_year_error:2020')
    expect(unknownField).toMatchObject({
      error: 'Invalid query parameters error.',
      code: 'invalid_column',
      parameter: 'filter',
      message: expect.stringContaining('publication_year_error'),
    })
    // Several problems: the first at the top, every one under errors with its own code; a bad per_page among
    // them does not make the whole a pagination error.
    const several = (await refusal(
      '/works?per_page=500&sort=colour&select=id&group_by=type',
    )) as ErrorBody & {
      errors?: { code: string; message: string; parameter?: string }[]
    }
    expect(several.error).toBe('Invalid query parameters error.')
    expect(several.errors?.map((problem) => problem.code).sort()).toEqual([
      'invalid_per_page',
      'invalid_select',
      'invalid_sort',
    ])
    expect(several.errors?.[0]).toMatchObject({ code: several.code, message: several.message })
    expect(several.errors?.every((problem) => !('error' in problem))).toBe(true)
  })

  it('words page and per_page out of range as its pagination error, which pyalex does not catch', async () => {
    for (const path of ['/works?per_page=200&page=51', '/works?per_page=201', '/works?page=0']) {
      const body = await refusal(path)
      expect(body.error, path).toBe('Pagination error.')
      expect(['invalid_page', 'invalid_per_page'], path).toContain(body.code)
      expect(pyalexQueryError(400, body), path).toBeUndefined()
    }
  })

  it('words a 401 of the entity routes as the public proxy does, the stable code in code', async () => {
    const metered = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      metering: {
        keys: createMemoryKeyStore(),
        meter: createMemoryMeterStore(),
        limits: DEFAULT_METERING_LIMITS,
      },
    })
    const unknownKey = `oqk_${'A'.repeat(43)}`
    for (const [path, headers, code] of [
      [`/works?filter=publication_year:2020&api_key=${unknownKey}`, {}, 'invalid_api_key'],
      ['/works/W2741809807', { authorization: `Bearer ${unknownKey}` }, 'invalid_api_key'],
      ['/authors', { authorization: 'Basic dXNlcjpwYXNz' }, 'invalid_authorization'],
    ] as const) {
      const response = await metered.fetch(new Request(`http://localhost${path}`, { headers }))
      expect(response.status, path).toBe(401)
      const body = (await response.json()) as ErrorBody
      expect(body, path).toMatchObject({ error: 'Invalid or missing API key', code })
      expect(pyalexQueryError(response.status, body), path).toBe(body.message)
    }
  })

  it('words other refusals by their status, with the same fields', async () => {
    const missing = await get<ErrorBody>(sample, '/works/W1')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ error: 'Not Found', code: 'not_found' })
    const response = await sample.app.fetch(new Request('http://localhost/works', { method: 'DELETE' }))
    expect(response.status).toBe(405)
    expect(await response.json()).toMatchObject({ error: 'Method Not Allowed', code: 'method_not_allowed' })
    const body = await sample.app.fetch(
      new Request('http://localhost/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      }),
    )
    expect(body.status).toBe(400)
    expect(await body.json()).toMatchObject({ error: 'Bad Request', code: 'invalid_body' })
  })
})

describe('messages clients can format', () => {
  // pyalex and openalexR put server messages through string formatting, where `{id}` or a JSON example is
  // a placeholder to fill in: no refusal of these routes may hold a brace.
  const send = async (path: string, init?: RequestInit): Promise<{ status: number; text: string }> => {
    const response = await sample.app.fetch(new Request(`http://localhost${path}`, init))
    return { status: response.status, text: await response.text() }
  }
  const json = (body: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })

  it('writes routes and JSON bodies in words', async () => {
    const refusals = [
      await send('/no/such/route/here'),
      await send('/works?oql=works'),
      await send('/works/W2741809807?colour=red'),
      await send('/', json('{}')),
      await send('/', json('{"oql": "works", "sample": 3}')),
      await send('/', json('{"oqo": 3}')),
      await send('/?oql=works', json('{"oql": "works"}')),
      await send('/query', json('[]')),
      await send('/query', json('{"colour": 1}')),
      await send('/text', json('not json')),
      await send('/text', json('[1]')),
      await send(`/?oqo=${encodeURIComponent('{"get_rows":"works","group_by":[3]}')}`),
      await send('/works?search=clim*%20abc'),
    ]
    // Every message of a body: the top one, and those of each problem or validation error.
    const messagesOf = (value: unknown): string[] =>
      typeof value !== 'object' || value === null
        ? []
        : Object.entries(value).flatMap(([key, inner]) =>
            key === 'message' && typeof inner === 'string' ? [inner] : messagesOf(inner),
          )
    for (const refusal of refusals) {
      expect(refusal.status, refusal.text).toBeGreaterThanOrEqual(400)
      const messages = messagesOf(JSON.parse(refusal.text))
      expect(messages.length, refusal.text).toBeGreaterThan(0)
      for (const message of messages) expect(message).not.toMatch(/[{}]/)
    }
    const descriptor = JSON.parse((await send('/query')).text) as { msg: string }
    expect(descriptor.msg).not.toMatch(/[{}]/)
  })
})
