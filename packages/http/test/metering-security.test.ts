// Keys tried in every transport (api_key=, Authorization: Bearer, the api_key header) and shape: empty,
// unknown, malformed, oversized, injected, a key's hash, a masked key, wrong schemes, two keys at once.
// Every attempt is refused with 400 or 401 and the X-RateLimit headers of the caller's address, no answer
// echoes what was sent, and nothing changes: no budget is charged, no key is stored.
import { hashApiKey } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import { call, type MeteredApp, rateLimitOf, STORE_KINDS, useMeteredApp } from './support/metered-app.ts'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()

const ENDPOINTS = [
  '/works?per_page=1',
  '/works/random',
  '/rate-limit',
  '/?oql=works%20where%20year%20is%202020',
  '/no-such-path',
]

const withQuery = (path: string, pair: string): string => `${path}${path.includes('?') ? '&' : '?'}${pair}`

interface Attempt {
  readonly name: string
  /** What the attempt sends that must never come back in an answer (when long enough to tell). */
  readonly secret: string
  readonly query?: string
  readonly authorization?: string
  /** The `api_key` request header. */
  readonly apiKeyHeader?: string
}

const attemptsFor = async (valid: string, other: string): Promise<Attempt[]> => {
  const unknown = `oqk_${'A'.repeat(43)}`
  const malformedKeys: [string, string][] = [
    ['too short', 'abc123'],
    ['one character too long', 'k'.repeat(129)],
    ['10,000 characters', 'k'.repeat(10_000)],
    ['spaces', 'key with spaces in it'],
    ['a trailing space', `${valid} `],
    ['a leading newline', `\n${valid}`],
    ['a null byte', `${valid}\u0000`],
    ['CR LF', `${valid}\r\nX-Admin: 1`],
    ['SQL', "' OR '1'='1' -- and more"],
    ['a path', '../../../../etc/passwd'],
    ['JSON', '{"$ne":null,"keyHash":1}'],
    ['unicode', 'ключ-ключ-ключ-ключ-ключ'],
    ['a masked key', `${valid.slice(0, 4)}…${valid.slice(-4)}`],
    ['a Lua fragment', "x'); redis.call('FLUSHALL'); --"],
  ]
  const wellFormedButWrong: [string, string][] = [
    ['unknown', unknown],
    ['the valid key in upper case', valid.toUpperCase()],
    ['the valid key, one character longer', `${valid}x`],
    ['the valid key without its last character', valid.slice(0, -1)],
    ["the valid key's hash", await hashApiKey(valid)],
  ]
  const attempts: Attempt[] = []
  for (const [name, key] of [...malformedKeys, ...wellFormedButWrong]) {
    attempts.push({ name: `api_key: ${name}`, secret: key, query: `api_key=${encodeURIComponent(key)}` })
    // Header values cannot carry control characters, and HTTP strips whitespace around them (so
    // `Bearer <key> ` is the valid key): those stay query-only.
    if (/^[\u0020-\u007e\u0080-\u00ff]*$/.test(key) && key === key.trim())
      attempts.push(
        { name: `Bearer: ${name}`, secret: key, authorization: `Bearer ${key}` },
        { name: `api_key header: ${name}`, secret: key, apiKeyHeader: key },
      )
  }
  attempts.push(
    {
      name: 'Basic credentials',
      secret: btoa(`user:${valid}`),
      authorization: `Basic ${btoa(`user:${valid}`)}`,
    },
    { name: 'a Token scheme', secret: valid, authorization: `Token ${valid}` },
    { name: 'Bearer without a key', secret: '', authorization: 'Bearer' },
    { name: 'Bearer and a space', secret: '', authorization: 'Bearer ' },
    { name: 'an empty Authorization header', secret: '', authorization: '' },
    { name: 'an empty api_key=', secret: '', query: 'api_key=' },
    { name: 'an empty api_key header', secret: '', apiKeyHeader: '' },
    {
      name: 'an empty api_key= beside a valid Bearer',
      secret: valid,
      query: 'api_key=',
      authorization: `Bearer ${valid}`,
    },
    {
      name: 'an empty Authorization beside a valid api_key=',
      secret: valid,
      query: `api_key=${valid}`,
      authorization: '',
    },
    {
      name: 'api_key header and Bearer, different',
      secret: other,
      apiKeyHeader: valid,
      authorization: `Bearer ${other}`,
    },
    {
      name: 'api_key header and api_key=, different',
      secret: other,
      apiKeyHeader: other,
      query: `api_key=${valid}`,
    },
    { name: 'api_key header twice, different', secret: other, apiKeyHeader: `${valid}, ${other}` },
    { name: 'Bearer with two keys', secret: other, authorization: `Bearer ${valid} ${other}` },
    { name: 'two Bearer credentials', secret: other, authorization: `Bearer ${valid}, Bearer ${other}` },
    { name: 'no space after Bearer', secret: valid, authorization: `Bearer${valid}` },
    { name: 'a bare key', secret: valid, authorization: valid },
    { name: 'api_key twice, different', secret: other, query: `api_key=${valid}&api_key=${other}` },
    {
      name: 'api_key and Bearer, different',
      secret: other,
      query: `api_key=${valid}`,
      authorization: `Bearer ${other}`,
    },
    {
      name: 'a valid key and an unknown one',
      secret: unknown,
      query: `api_key=${unknown}`,
      authorization: `Bearer ${valid}`,
    },
  )
  return attempts
}

const snapshot = async (metered: MeteredApp, valid: string, address: string) => ({
  key: (await rateLimitOf(metered, { key: valid })).rate_limit,
  anonymous: (await rateLimitOf(metered, { address })).rate_limit,
  storedKeys: await metered.stores.storedKeyCount(),
})

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`API keys under attack, ${kind.name}`, () => {
    const metered = useMeteredApp(kind, sample)
    const address = '203.0.113.99'

    it('refuses every bad key in every transport with 400 or 401, echoes none, and changes nothing', async () => {
      const valid = await metered.provision({ userId: 'victim', admin: true, prepaidUsd: 1 })
      const other = await metered.provision({ userId: 'other' })
      const before = await snapshot(metered, valid, address)
      const attempts = await attemptsFor(valid, other)
      expect(attempts.length).toBeGreaterThan(60)
      for (const attempt of attempts)
        for (const endpoint of ENDPOINTS) {
          const path = attempt.query === undefined ? endpoint : withQuery(endpoint, attempt.query)
          const headers: Record<string, string> = {}
          if (attempt.authorization !== undefined) headers.authorization = attempt.authorization
          if (attempt.apiKeyHeader !== undefined) headers.api_key = attempt.apiKeyHeader
          const answer = await call(metered, path, { headers, address })
          const context = `${attempt.name} on ${endpoint}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`
          expect([400, 401], context).toContain(answer.status)
          expect(answer.body.code, context).toMatch(
            /^(invalid_api_key|invalid_authorization|conflicting_api_keys)$/,
          )
          if (answer.status === 401)
            expect(answer.headers.get('www-authenticate'), context).toMatch(/^Bearer realm="oqlkit"/)
          // The address's anonymous budget, unspent by the refusal.
          expect(answer.headers.get('x-ratelimit-limit'), context).toBe('0.1')
          expect(answer.headers.get('x-ratelimit-remaining'), context).toBe(
            String(before.anonymous.daily_remaining_usd),
          )
          expect(answer.headers.get('x-ratelimit-credits-used'), context).toBe('0')
          expect(answer.headers.get('x-ratelimit-reset'), context).toBe(
            String(before.anonymous.resets_in_seconds),
          )
          const text = JSON.stringify(answer.body)
          if (attempt.secret.length >= 8) expect(text.includes(attempt.secret), context).toBe(false)
          expect(text.includes(valid), context).toBe(false)
        }
      expect(await snapshot(metered, valid, address)).toEqual(before)
    }, 120_000)

    it('refuses an empty key in every transport with a 401 that says it is empty', async () => {
      const empty: [string, string, Record<string, string>][] = [
        ['api_key=', '/rate-limit?api_key=', {}],
        ['api_key= twice', '/rate-limit?api_key=&api_key=', {}],
        ['Authorization', '/rate-limit', { authorization: '' }],
        ['Authorization: Bearer', '/rate-limit', { authorization: 'Bearer' }],
        ['Authorization: Bearer and spaces', '/rate-limit', { authorization: 'Bearer   ' }],
        ['api_key header', '/rate-limit', { api_key: '' }],
        ['api_key header of spaces', '/rate-limit', { api_key: '   ' }],
      ]
      for (const [name, path, headers] of empty) {
        const answer = await call(metered, path, { headers, address })
        expect(answer.status, name).toBe(401)
        expect(answer.body, name).toMatchObject({
          code: 'invalid_api_key',
          message: expect.stringMatching(/^The API key is empty/),
        })
      }
    })

    it('never stores a key in plain text, and never lets the stored hash stand in for the key', async () => {
      const key = await metered.provision({ userId: 'hashed' })
      const hash = await hashApiKey(key)
      expect((await call(metered, `/rate-limit?api_key=${key}`)).status).toBe(200)
      expect((await call(metered, `/rate-limit?api_key=${hash}`)).status).toBe(401)
      expect(await metered.stores.keys.findKey(hash)).toMatchObject({ userId: 'hashed', keyHash: hash })
      expect(JSON.stringify(await metered.stores.keys.findKey(hash))).not.toContain(key)
    })
  })
}

describe('the sample app', () => {
  it('logged no fault while under attack', () => {
    expect(sample.faults).toEqual([])
  })
})
