// The text-tagging endpoints through `app.fetch`, over the sample catalog's model (trained by its ingest):
// every route and method, query and body forms, every refusal, the deprecated topics route, a catalog
// without a model, and, with metering on, the $0.01 charge and the 1-per-second limit in both stores.
import { DEFAULT_METERING_LIMITS } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { afterAll, describe, expect, it } from 'vitest'
import { call, NOON, rateLimitOf, STORE_KINDS, useMeteredApp } from './support/metered-app.ts'
import { post } from './support/query-requests.ts'
import { get, useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

// A sample work's own title: photogrammetry of heritage sites, with keywords and concepts to match.
const TITLE = 'Harnessing Photogrammetry to Create Alternative Views in Heritage'
const ABSTRACT = 'We use photogrammetry and 3D scanning to build 3D models of cultural heritage sites.'

interface Tag {
  id: string
  display_name: string
  score: number
}

const rawPost = async (path: string, body: string) => {
  const answer = await sample.app.fetch(new Request(`http://localhost${path}`, { method: 'POST', body }))
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> }
}

const expectTags = (tags: Tag[]) => {
  for (const tag of tags) {
    expect(tag.id).toMatch(/^https:\/\/openalex\.org\//)
    expect(tag.score).toBeGreaterThan(0)
    expect(tag.score).toBeLessThanOrEqual(1)
  }
  expect(tags.map((tag) => tag.score)).toEqual([...tags.map((tag) => tag.score)].sort((a, b) => b - a))
}

describe('GET and POST /text', () => {
  it('tags a title with keywords and concepts, counted in meta, sorted by score', async () => {
    const { status, body } = await get<{ meta: Record<string, number>; keywords: Tag[]; concepts: Tag[] }>(
      sample,
      `/text?title=${encodeURIComponent(TITLE)}&abstract=${encodeURIComponent(ABSTRACT)}`,
    )
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['meta', 'keywords', 'concepts'])
    expect(body.meta).toEqual({
      keywords_count: body.keywords.length,
      concepts_count: body.concepts.length,
      cost_usd: 0.01,
    })
    expectTags(body.keywords)
    expectTags(body.concepts)
    expect(body.concepts.map((tag) => tag.display_name)).toContain('Photogrammetry')
    expect(body.keywords.map((tag) => tag.display_name).slice(0, 5)).toContain('3D Scanning')
  })

  it('gives the same answer for the JSON body as for the query string', async () => {
    const viaQuery = await get(
      sample,
      `/text?title=${encodeURIComponent(TITLE)}&abstract=${encodeURIComponent(ABSTRACT)}`,
    )
    const viaBody = await post(sample.app, '/text', { title: TITLE, abstract: ABSTRACT })
    expect(viaBody.status).toBe(200)
    expect(viaBody.body).toEqual(viaQuery.body)
    // A POST without a body reads the query string.
    const bodiless = await sample.app.fetch(
      new Request(
        `http://localhost/text?title=${encodeURIComponent(TITLE)}&abstract=${encodeURIComponent(ABSTRACT)}`,
        {
          method: 'POST',
        },
      ),
    )
    expect(await bodiless.json()).toEqual(viaQuery.body)
  })

  it('gives few or no tags for text unlike anything in the catalog', async () => {
    const { status, body } = await post<{ keywords: Tag[]; concepts: Tag[] }>(sample.app, '/text', {
      title: 'Preheat the oven, whisk the eggs with sugar and bake the sponge cake for forty minutes',
    })
    expect(status).toBe(200)
    expect(body.keywords.length + body.concepts.length).toBeLessThanOrEqual(2)
  })
})

describe('the single-kind routes', () => {
  it.each(['keywords', 'concepts'] as const)(
    '/text/%s gives one list with meta.count, GET and POST',
    async (kind) => {
      const all = (
        await post<Record<string, Tag[]>>(sample.app, '/text', { title: TITLE, abstract: ABSTRACT })
      ).body
      const viaGet = await get<Record<string, unknown>>(
        sample,
        `/text/${kind}?title=${encodeURIComponent(TITLE)}&abstract=${encodeURIComponent(ABSTRACT)}`,
      )
      const viaPost = await post(sample.app, `/text/${kind}`, { title: TITLE, abstract: ABSTRACT })
      expect(viaGet.status).toBe(200)
      expect(viaGet.body).toEqual({ meta: { count: all[kind]!.length, cost_usd: 0.01 }, [kind]: all[kind] })
      expect(viaPost.body).toEqual(viaGet.body)
      expect(viaGet.headers.get('deprecation')).toBeNull()
    },
  )

  it('/text/topics still answers, with a Deprecation header and a warning', async () => {
    for (const response of [
      await get<Record<string, unknown>>(sample, `/text/topics?title=${encodeURIComponent(TITLE)}`),
      await post(sample.app, '/text/topics', { title: TITLE }),
    ]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('deprecation')).toBe('true')
      expect(response.headers.get('link')).toContain('/text/keywords')
      const body = response.body as { meta: { count: number }; topics: Tag[]; warning: string }
      expect(body.warning).toMatch(/deprecated.*\/text\/keywords/)
      expect(body.meta.count).toBe(body.topics.length)
      expect(body.topics.map((topic) => topic.display_name)).toContain('3D Surveying and Cultural Heritage')
      expectTags(body.topics)
    }
  })
})

describe('bad input: a 400 (or 413) that says what is wrong, and tags nothing', () => {
  const cases: ReadonlyArray<readonly [string, string, unknown, number, string, RegExp]> = [
    ['GET', '/text', undefined, 400, 'missing_parameter', /needs title=.*absent/],
    ['GET', '/text?title=', undefined, 400, 'missing_parameter', /empty/],
    [
      'GET',
      '/text?abstract=only%20an%20abstract%20here%20long',
      undefined,
      400,
      'missing_parameter',
      /title=/,
    ],
    ['GET', '/text?title=too%20short', undefined, 400, 'text_too_short', /9 characters; the minimum is 20/],
    [
      'GET',
      `/text/keywords?title=${'a'.repeat(1500)}&abstract=${'b'.repeat(501)}`,
      undefined,
      400,
      'text_too_long',
      /2001 characters; the maximum is 2000/,
    ],
    [
      'GET',
      `/text?title=${encodeURIComponent(TITLE)}&lang=en`,
      undefined,
      400,
      'unknown_parameter',
      /'lang' is not a parameter of \/text/,
    ],
    [
      'GET',
      `/text?title=${encodeURIComponent(TITLE)}&title=again`,
      undefined,
      400,
      'repeated_parameter',
      /more than once/,
    ],
    ['POST', '/text', { title: 'short' }, 400, 'text_too_short', /minimum is 20/],
    ['POST', '/text/concepts', { title: 'x'.repeat(2001) }, 400, 'text_too_long', /maximum is 2000/],
    ['POST', '/text', { abstract: ABSTRACT }, 400, 'missing_parameter', /absent/],
    [
      'POST',
      '/text',
      { title: TITLE, language: 'en' },
      400,
      'unknown_parameter',
      /'language' is not a field/,
    ],
    ['POST', '/text', { title: 7 }, 400, 'invalid_parameter', /title must be a string, not a number/],
    [
      'POST',
      '/text',
      { title: TITLE, abstract: ['a'] },
      400,
      'invalid_parameter',
      /abstract must be a string, not an array/,
    ],
    ['POST', '/text', ['title'], 400, 'invalid_body', /JSON object/],
    ['POST', '/text', '{not json', 400, 'invalid_body', /not JSON/],
    [
      'POST',
      `/text?title=${encodeURIComponent(TITLE)}`,
      { title: TITLE },
      400,
      'unknown_parameter',
      /when the text is in the body/,
    ],
    ['POST', '/text', { title: 'x'.repeat(70_000) }, 413, 'payload_too_large', /larger than 65536 bytes/],
  ]
  it.each(cases.map((entry) => [`${entry[0]} ${entry[1].slice(0, 60)} → ${entry[4]}`, entry] as const))(
    '%s',
    async (_, [method, path, body, status, code, message]) => {
      const response =
        method === 'GET'
          ? await get(sample, path)
          : typeof body === 'string'
            ? await rawPost(path, body)
            : await post(sample.app, path, body)
      expect(response.status).toBe(status)
      expect(response.body).toMatchObject({ code })
      expect(String((response.body as { message: string }).message)).toMatch(message)
    },
  )

  it('a title plus abstract of exactly 20 and 2,000 characters is accepted', async () => {
    expect(
      (await post(sample.app, '/text', { title: 'a'.repeat(10), abstract: 'b'.repeat(10) })).status,
    ).toBe(200)
    expect(
      (await post(sample.app, '/text', { title: 'a'.repeat(1000), abstract: 'b'.repeat(1000) })).status,
    ).toBe(200)
  })
})

describe('a catalog without a model', () => {
  it('answers 501 tagger_unavailable, after checking the input', async () => {
    const app = createApp({ adapter: sample.adapter, catalog: { createdAt: 'x', entities: {} } })
    const response = await app.fetch(new Request(`http://localhost/text?title=${encodeURIComponent(TITLE)}`))
    expect(response.status).toBe(501)
    expect(await response.json()).toMatchObject({
      code: 'tagger_unavailable',
      message: expect.stringMatching(/re-ingest/i),
    })
    const bad = await app.fetch(new Request('http://localhost/text?title=short'))
    expect(bad.status).toBe(400)
  })
})

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`metering of /text (${kind.name})`, () => {
    const metered = useMeteredApp(kind, sample)
    const path = `/text?title=${encodeURIComponent(TITLE)}`

    it('charges $0.01 per call, visible in /rate-limit, and refunds a refused one', async () => {
      const key = await metered.provision({ userId: 'tagger-user' })
      metered.clock.now = NOON
      const first = await call(metered, `${path}&api_key=${key}`)
      expect(first.status).toBe(200)
      expect(first.headers.get('x-ratelimit-credits-used')).toBe('0.01')
      metered.clock.now = NOON + 1000
      const bad = await call(metered, `/text?title=short&api_key=${key}`, {})
      expect(bad.status).toBe(400)
      expect(bad.headers.get('x-ratelimit-credits-used')).toBe('0')
      metered.clock.now = NOON + 2500
      const report = await rateLimitOf(metered, { key })
      expect(report.rate_limit.daily_used_usd).toBeCloseTo(0.01, 10)
      expect(report.rate_limit.endpoint_costs_usd.text).toBe(0.01)
    })

    it('allows 1 text request per second per key (429 with Retry-After beyond), others unaffected', async () => {
      const key = await metered.provision({ userId: 'fast-tagger' })
      const other = await metered.provision({ userId: 'other-tagger' })
      metered.clock.now = NOON + 10_000
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          call(metered, '/text/keywords', {
            method: 'POST',
            body: JSON.stringify({ title: TITLE }),
            headers: { authorization: `Bearer ${key}` },
          }),
        ),
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429, 429, 429, 429])
      const refused = answers.find((answer) => answer.status === 429)!
      expect(refused.headers.get('retry-after')).toBe('1')
      expect(refused.body).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(/1 text request within 1 s/),
      })
      // Only the accepted call was charged.
      expect((await rateLimitOf(metered, { key })).rate_limit.daily_used_usd).toBeCloseTo(0.01, 10)
      // Another key, and other endpoints of the same key, are not held back.
      expect((await call(metered, `${path}&api_key=${other}`)).status).toBe(200)
      expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(200)
      // A second later the key may tag again.
      metered.clock.now += 1000
      expect((await call(metered, `${path}&api_key=${key}`)).status).toBe(200)
    })

    it('holds the limit per address without a key too', async () => {
      metered.clock.now = NOON + 20_000
      expect((await call(metered, path, { address: '198.51.100.7' })).status).toBe(200)
      expect((await call(metered, path, { address: '198.51.100.7' })).status).toBe(429)
      expect((await call(metered, path, { address: '198.51.100.8' })).status).toBe(200)
    })
  })
}

describe('the limit is configurable', () => {
  const metered = useMeteredApp(STORE_KINDS[0]!, sample, {
    limits: { ...DEFAULT_METERING_LIMITS, classRates: { text: { requests: 3, windowMs: 1000 } } },
  })
  it('allows what the limits say', async () => {
    const key = await metered.provision({ userId: 'three-a-second' })
    metered.clock.now = NOON + 30_000
    const statuses = []
    for (let i = 0; i < 4; i++)
      statuses.push((await call(metered, `/text?title=${encodeURIComponent(TITLE)}&api_key=${key}`)).status)
    expect(statuses).toEqual([200, 200, 200, 429])
  })
})
