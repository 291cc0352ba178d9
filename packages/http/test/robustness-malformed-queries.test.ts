// Malformed queries on a metered server: the metering middleware prices a request before the handler
// runs, and once planned any OQO it was given, so `{}` or a `null` node turned into a 500. Every shape
// here must be refused with the handler's 400 `validation` body, by GET and by POST, and charge nothing.
import { describe, expect, it } from 'vitest'
import { call, rateLimitOf, STORE_KINDS, useMeteredApp } from './support/metered-app.ts'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
const embedded = STORE_KINDS.find((kind) => kind.name === 'embedded store')!
const metered = useMeteredApp(embedded, sample)

/** OQO values (as JSON text) that are not queries, each of a different way to be wrong. */
const MALFORMED_OQOS = [
  '{}',
  '[]',
  'true',
  '1.5',
  'null',
  '"works"',
  '{"a":1}',
  '{"get_rows":5}',
  '{"get_rows":null}',
  '{"get_rows":"works","filter_rows":5}',
  '{"get_rows":"works","filter_rows":{"column_id":"type"}}',
  '{"get_rows":"works","filter_rows":[null]}',
  '{"get_rows":"works","filter_rows":[{"join":"or"}]}',
  '{"get_rows":"works","filter_rows":[{"join":"or","filters":null}]}',
  '{"get_rows":"works","filter_rows":[{"join":"or","filters":[null]}]}',
  '{"get_rows":"works","filter_rows":[{"column_id":5,"value":1}]}',
  '{"get_rows":"works","group_by":"type"}',
  '{"get_rows":"works","group_by":[null]}',
  '{"get_rows":"works","sort_by":7}',
  '{"get_rows":"works","sample":"many"}',
]

describe('malformed queries on a metered server', () => {
  it.each(MALFORMED_OQOS)('GET /?oqo=%s is a 400 with validation, and free', async (oqo) => {
    const address = '203.0.113.7'
    const answer = await call(metered, `/?oqo=${encodeURIComponent(oqo)}`, { address })
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body.validation).toMatchObject({ valid: false })
    expect(answer.headers.get('x-ratelimit-credits-used')).toBe('0')
    expect((await rateLimitOf(metered, { address })).rate_limit.daily_used_usd).toBe(0)
  })

  it.each(MALFORMED_OQOS)('POST / {"oqo": %s} is a 400 with validation', async (oqo) => {
    const answer = await call(metered, '/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"oqo": ${oqo}}`,
      address: '203.0.113.8',
    })
    expect(answer.status, JSON.stringify(answer.body)).toBe(400)
    expect(answer.body.validation).toMatchObject({ valid: false })
  })

  it('a missing or non-string get_rows is named in the message', async () => {
    for (const oqo of ['{}', '{"get_rows":5}']) {
      const answer = await call(metered, `/?oqo=${encodeURIComponent(oqo)}`, { address: '203.0.113.9' })
      expect(answer.body.message).toMatch(/get_rows/)
    }
  })

  it('POST bodies that are not an object with one query are 400s', async () => {
    for (const body of [
      '',
      '[]',
      'null',
      '{"oql": 5}',
      '{"oql": ""}',
      '{"oqo": {}, "oql": "works"}',
      '{"x":1}',
    ]) {
      const answer = await call(metered, '/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        address: '203.0.113.10',
      })
      expect(answer.status, `${body}: ${JSON.stringify(answer.body)}`).toBe(400)
    }
  })

  // A client that closes the connection mid-body (or breaks the chunked framing) makes the body stream
  // fail; found by the HTTP fuzzer, where Node's "aborted" error was logged as a fault and answered 500.
  it.each(['/', '/query', '/text'])(
    'POST %s with a body cut off mid-stream is a 400 invalid_body',
    async (path) => {
      const cutOff = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"oql": "works'))
          controller.error(new Error('aborted'))
        },
      })
      const answer = await call(metered, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: cutOff,
        duplex: 'half',
        address: '203.0.113.11',
      } as RequestInit)
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
      expect(answer.body.code).toBe('invalid_body')
      expect(sample.faults).toEqual([])
    },
  )

  // Found by the HTTP fuzzer: thousands of nested branches (or arrays) overflowed the stack in validation,
  // in messages quoting a value and in the JSON of the answer, each a 500.
  it.each([
    ['/', 'branches', 3_000],
    ['/query', 'branches', 3_000],
    ['/', 'arrays', 20_000],
    ['/query', 'arrays', 20_000],
    ['/text', 'arrays', 20_000],
  ] as const)('POST %s with %s nested %i deep is a 400', async (path, shape, depth) => {
    const body =
      shape === 'branches'
        ? `{"oqo":{"get_rows":"works","filter_rows":[${'{"join":"and","filters":['.repeat(depth)}{"column_id":"publication_year","value":2020,"operator":"is"}${']}'.repeat(depth)}]}}`
        : `{"oql":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const answer = await call(metered, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      address: '203.0.113.12',
    })
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(400)
    if (path !== '/text') expect(JSON.stringify(answer.body)).toMatch(/levels deep/)
    expect(sample.faults).toEqual([])
  })

  it('GET /?oqo= with arrays nested 3,000 deep is a 400', async () => {
    // Brackets unencoded, as a query may carry them, so that the request line stays under 8,190 bytes.
    const oqo = `${encodeURIComponent('{"get_rows":')}${'['.repeat(3_000)}${']'.repeat(3_000)}}`
    const answer = await call(metered, `/?oqo=${oqo}`, { address: '203.0.113.12' })
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(400)
    expect(JSON.stringify(answer.body)).toMatch(/levels deep/)
    expect(sample.faults).toEqual([])
  })

  it('no fault was logged', () => {
    expect(sample.faults).toEqual([])
  })
})
