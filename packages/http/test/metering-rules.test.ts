// Every metering rule of issue 9 over HTTP, against both stores: keys in either transport, the
// anonymous and keyed budgets, prepaid balances and their expiry, costs per call, the headers on every
// response, the /rate-limit report, 429s for budgets and for the request rate (never charged), refunds
// of failed calls, and the midnight UTC refill. Money is compared in micro-dollars to stay exact.
import { ENDPOINT_COSTS_USD, toMicroUsd } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import {
  type Answer,
  call,
  type MeteredApp,
  NOON,
  rateLimitOf,
  STORE_KINDS,
  useMeteredApp,
} from './support/metered-app.ts'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
const MIDNIGHT = Date.UTC(2030, 0, 11)

const micro = (usd: unknown): number => toMicroUsd(Number(usd))
const usedOf = async (metered: MeteredApp, who: { key?: string; address?: string }): Promise<number> =>
  micro((await rateLimitOf(metered, who)).rate_limit.daily_used_usd)

let addresses = 0
const freshAddress = (): string => `198.51.100.${++addresses}`

const expectRateLimitHeaders = (answer: Answer, credits: number, context: string): void => {
  expect(answer.headers.get('x-ratelimit-limit'), context).toMatch(/^\d+(\.\d+)?$/)
  expect(answer.headers.get('x-ratelimit-remaining'), context).toMatch(/^\d+(\.\d+)?(e-\d+)?$/)
  expect(micro(answer.headers.get('x-ratelimit-credits-used')), context).toBe(toMicroUsd(credits))
  expect(answer.headers.get('x-ratelimit-reset'), context).toMatch(/^\d+$/)
}

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`metering over HTTP, ${kind.name}`, () => {
    const metered = useMeteredApp(kind, sample)

    it('accepts a key as api_key=, as a Bearer token and as an api_key header, and reports it masked', async () => {
      const key = await metered.provision({ userId: 'transport' })
      const byQuery = await call(metered, `/rate-limit?api_key=${key}`)
      const byHeader = await call(metered, '/rate-limit', { headers: { authorization: `Bearer ${key}` } })
      const lowerCaseScheme = await call(metered, '/rate-limit', {
        headers: { authorization: `bearer ${key}` },
      })
      // openalexR sends the key only this way.
      const byApiKeyHeader = await call(metered, '/rate-limit', { headers: { api_key: key } })
      // The same key in several transports is one key; none of them takes precedence.
      const all = await call(metered, `/rate-limit?api_key=${key}`, {
        headers: { authorization: `Bearer ${key}`, api_key: key },
      })
      for (const answer of [byQuery, byHeader, lowerCaseScheme, byApiKeyHeader, all]) {
        expect(answer.status).toBe(200)
        expect(answer.body.api_key).toBe(`${key.slice(0, 4)}…${key.slice(-4)}`)
      }
      // The key is charged, whichever way it came, and the anonymous budget of the address is not.
      const address = freshAddress()
      await call(metered, '/works?per_page=1', { address, headers: { authorization: `Bearer ${key}` } })
      await call(metered, `/works?per_page=1&api_key=${key}`, { address })
      const viaApiKeyHeader = await call(metered, '/works?per_page=1', { address, headers: { api_key: key } })
      expect(viaApiKeyHeader.headers.get('x-ratelimit-limit')).toBe('1')
      expect(await usedOf(metered, { key })).toBe(3 * toMicroUsd(ENDPOINT_COSTS_USD.list))
      expect(await usedOf(metered, { address })).toBe(0)
    })

    it('reports the budget, its use, the prepaid pool, the reset and the prices at /rate-limit', async () => {
      const key = await metered.provision({
        userId: 'report',
        prepaidUsd: 5,
        prepaidExpiresAt: '2030-06-01T00:00:00Z',
      })
      metered.clock.now = NOON
      await call(metered, `/works?per_page=1&api_key=${key}`)
      expect(await rateLimitOf(metered, { key })).toEqual({
        api_key: `${key.slice(0, 4)}…${key.slice(-4)}`,
        rate_limit: {
          daily_budget_usd: 1,
          daily_used_usd: 0.0001,
          daily_remaining_usd: 0.9999,
          prepaid_balance_usd: 5,
          prepaid_remaining_usd: 5,
          prepaid_expires_at: '2030-06-01T00:00:00.000Z',
          resets_at: '2030-01-11T00:00:00.000Z',
          resets_in_seconds: 43_200,
          endpoint_costs_usd: {
            singleton: 0,
            list: 0.0001,
            search: 0.001,
            semantic: 0.01,
            content: 0.01,
            text: 0.01,
          },
        },
      })
    })

    it('gives a caller without a key $0.10 a day per address, and a key $1 unless it says otherwise', async () => {
      const [one, two] = [freshAddress(), freshAddress()]
      const anonymous = await rateLimitOf(metered, { address: one })
      expect(anonymous.api_key).toBeNull()
      expect(anonymous.rate_limit).toMatchObject({
        daily_budget_usd: 0.1,
        prepaid_balance_usd: 0,
        prepaid_remaining_usd: 0,
      })
      await call(metered, '/works?per_page=1', { address: one })
      await call(metered, '/works?per_page=1', { address: one })
      expect(await usedOf(metered, { address: one })).toBe(200)
      expect(await usedOf(metered, { address: two })).toBe(0)
      const plain = await metered.provision({ userId: 'plain' })
      const own = await metered.provision({ userId: 'own', dailyBudgetUsd: 2.5 })
      expect((await rateLimitOf(metered, { key: plain })).rate_limit.daily_budget_usd).toBe(1)
      expect((await rateLimitOf(metered, { key: own })).rate_limit.daily_budget_usd).toBe(2.5)
      // A keyed call spends the key's budget, not the address's.
      await call(metered, `/works?per_page=1&api_key=${own}`, { address: two })
      expect(await usedOf(metered, { address: two })).toBe(0)
    })

    it('spends the anonymous $0.10 in exactly 100 searches, then answers 429 until midnight UTC', async () => {
      metered.clock.now = NOON
      const address = freshAddress()
      for (let i = 0; i < 100; i++) {
        metered.clock.now += 11 // 100 calls within the second would be rate-limited
        const answer = await call(metered, `/works?search=climate&per_page=1&page=${1 + (i % 3)}`, {
          address,
        })
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      }
      const refused = await call(metered, '/works?search=climate&per_page=1', { address })
      expect(refused.status).toBe(429)
      expect(refused.body).toMatchObject({
        code: 'budget_exhausted',
        retry_after_seconds: Math.ceil((MIDNIGHT - metered.clock.now) / 1000),
      })
      expect(refused.headers.get('retry-after')).toBe(
        String(Math.ceil((MIDNIGHT - metered.clock.now) / 1000)),
      )
      expect(refused.body.message).toMatch(/midnight UTC/)
      expect(await usedOf(metered, { address })).toBe(100_000)
    })

    it('prices each call from the one table, and says so in meta.cost_usd and X-RateLimit-Credits-Used', async () => {
      const key = await metered.provision({ userId: 'prices' })
      const auth = { headers: { authorization: `Bearer ${key}` } }
      const first = await call(metered, '/works?per_page=1', auth)
      const workId = String((first.body.results as { id: string }[])[0]?.id)
        .split('/')
        .pop()
      const cases: [string, number][] = [
        ['/works?per_page=2', ENDPOINT_COSTS_USD.list],
        ['/works?filter=publication_year:2020', ENDPOINT_COSTS_USD.list],
        ['/works?group_by=publication_year', ENDPOINT_COSTS_USD.list],
        ['/authors?search=smith', ENDPOINT_COSTS_USD.search],
        ['/works?filter=title.search:climate', ENDPOINT_COSTS_USD.search],
        [`/works/${workId}`, ENDPOINT_COSTS_USD.singleton],
        ['/autocomplete/works?q=clim', 0],
        ['/', 0],
        ['/rate-limit', 0],
        ['/?oql=works where year is 2020', ENDPOINT_COSTS_USD.list],
        ['/?oql=works where title has "climate"', ENDPOINT_COSTS_USD.search],
        ['/query/oql/works where year is 2020', 0],
        ['/validate?q=works where year is 2020', 0],
        ['/properties', 0],
        ['/query/spec', 0],
      ]
      for (const [path, cost] of cases) {
        const before = await usedOf(metered, { key })
        const answer = await call(metered, path.replaceAll(' ', '%20').replaceAll('"', '%22'), auth)
        expect(answer.status, `${path}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBeLessThan(400)
        expectRateLimitHeaders(answer, cost, path)
        const meta = answer.body.meta as { cost_usd?: number } | undefined
        if (meta?.cost_usd !== undefined) expect(meta.cost_usd, path).toBe(cost)
        expect((await usedOf(metered, { key })) - before, path).toBe(toMicroUsd(cost))
      }
      const posted = await call(metered, '/', {
        ...auth,
        method: 'POST',
        headers: { ...auth.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ oql: 'works where title has "climate"', per_page: 1 }),
      })
      expect(posted.status, JSON.stringify(posted.body).slice(0, 300)).toBe(200)
      expectRateLimitHeaders(posted, ENDPOINT_COSTS_USD.search, 'POST /')
    })

    it('puts the X-RateLimit headers on every response, errors included', async () => {
      metered.clock.now = NOON + 1000 * 60
      const address = freshAddress()
      const answers = {
        list: await call(metered, '/works?per_page=1', { address }),
        badFilter: await call(metered, '/works?filter=colour:blue', { address }),
        unknownPath: await call(metered, '/no-such-thing', { address }),
        unknownWork: await call(metered, '/works/W1', { address }),
        wrongMethod: await call(metered, '/works', { address, method: 'DELETE' }),
      }
      for (const [name, answer] of Object.entries(answers)) {
        expectRateLimitHeaders(answer, name === 'list' ? ENDPOINT_COSTS_USD.list : 0, name)
        expect(answer.headers.get('x-ratelimit-limit'), name).toBe('0.1')
        expect(answer.headers.get('x-ratelimit-reset'), name).toBe(
          String((MIDNIGHT - metered.clock.now) / 1000),
        )
      }
      expect(answers.list.headers.get('x-ratelimit-remaining')).toBe('0.0999')
      expect(answers.badFilter.status).toBe(400)
    })

    it('does not charge a call that fails', async () => {
      const key = await metered.provision({ userId: 'refund' })
      const failed = await call(metered, `/works?filter=publication_year:abc&api_key=${key}`)
      expect(failed.status).toBe(400)
      const badSort = await call(metered, `/works?sort=colour&api_key=${key}`)
      expect(badSort.status).toBe(400)
      expect(badSort.headers.get('x-ratelimit-credits-used')).toBe('0')
      expect(await usedOf(metered, { key })).toBe(0)
    })

    it('answers 429 when the budget cannot pay, charges nothing for it, and still serves free calls', async () => {
      metered.clock.now = NOON
      const key = await metered.provision({ userId: 'small', dailyBudgetUsd: 0.0003 })
      for (let i = 0; i < 3; i++)
        expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(200)
      const refused = await call(metered, `/works?per_page=1&api_key=${key}`)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('content-type')).toContain('application/json')
      expect(refused.body).toMatchObject({
        code: 'budget_exhausted',
        retry_after_seconds: 43_200,
        retry_at: '2030-01-11T00:00:00.000Z',
      })
      expect(refused.headers.get('retry-after')).toBe('43200')
      expectRateLimitHeaders(refused, 0, '429')
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
      expect(await usedOf(metered, { key })).toBe(300)
      // A search costs more than a list: refused too; a singleton is free: served.
      expect((await call(metered, `/works?search=x&api_key=${key}`)).status).toBe(429)
      expect((await call(metered, `/works/random?api_key=${key}`)).status).toBe(200)
    })

    it('refills daily budgets at midnight UTC', async () => {
      metered.clock.now = NOON
      const key = await metered.provision({ userId: 'midnight', dailyBudgetUsd: 0.0001 })
      expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(200)
      metered.clock.now = MIDNIGHT - 1
      const lastMoment = await call(metered, `/works?per_page=1&api_key=${key}`)
      expect(lastMoment.status).toBe(429)
      expect(lastMoment.headers.get('retry-after')).toBe('1')
      metered.clock.now = MIDNIGHT
      expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(200)
      expect((await rateLimitOf(metered, { key })).rate_limit).toMatchObject({
        daily_used_usd: 0.0001,
        resets_at: '2030-01-12T00:00:00.000Z',
        resets_in_seconds: 86_400,
      })
    })

    it('spends a prepaid balance after the daily budget, never resets it, and stops at its expiry', async () => {
      metered.clock.now = NOON
      const key = await metered.provision({
        userId: 'prepaid',
        dailyBudgetUsd: 0.0001,
        prepaidUsd: 0.0002,
        prepaidExpiresAt: new Date(MIDNIGHT + 3_600_000).toISOString(),
      })
      for (let i = 0; i < 3; i++)
        expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(200)
      expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(429)
      expect((await rateLimitOf(metered, { key })).rate_limit).toMatchObject({
        daily_used_usd: 0.0001,
        daily_remaining_usd: 0,
        prepaid_balance_usd: 0.0002,
        prepaid_remaining_usd: 0,
      })
      // The next day the daily budget is back; the prepaid pool is not.
      metered.clock.now = MIDNIGHT + 60_000
      expect((await rateLimitOf(metered, { key })).rate_limit).toMatchObject({
        daily_used_usd: 0,
        prepaid_remaining_usd: 0,
      })
      const topped = await metered.provision({
        userId: 'prepaid-expiring',
        dailyBudgetUsd: 0,
        prepaidUsd: 1,
        prepaidExpiresAt: new Date(MIDNIGHT + 3_600_000).toISOString(),
      })
      expect((await call(metered, `/works?per_page=1&api_key=${topped}`)).status).toBe(200)
      metered.clock.now = MIDNIGHT + 3_600_000
      const expired = await call(metered, `/works?per_page=1&api_key=${topped}`)
      expect(expired.status).toBe(429)
      expect((await rateLimitOf(metered, { key: topped })).rate_limit).toMatchObject({
        prepaid_balance_usd: 1,
        prepaid_remaining_usd: 0,
      })
    })

    it('accepts 100 requests a second from one key, refuses the rest with 429 and Retry-After, uncharged', async () => {
      metered.clock.now = NOON + 5 * 60_000
      const key = await metered.provision({ userId: 'burst' })
      const answers = await Promise.all(
        Array.from({ length: 150 }, () =>
          call(metered, '/rate-limit', { headers: { authorization: `Bearer ${key}` } }),
        ),
      )
      const refused = answers.filter((answer) => answer.status === 429)
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(100)
      expect(refused).toHaveLength(50)
      for (const answer of refused) {
        expect(answer.body).toMatchObject({ code: 'rate_limited', retry_after_seconds: 1 })
        expect(answer.headers.get('retry-after')).toBe('1')
      }
      // A paid call in a full window is refused and not charged.
      const list = await call(metered, `/works?per_page=1&api_key=${key}`)
      expect(list.status).toBe(429)
      metered.clock.now += 1000
      expect(await usedOf(metered, { key })).toBe(0)
      expect((await call(metered, `/works?per_page=1&api_key=${key}`)).status).toBe(200)
      // Addresses without a key have windows of their own.
      const address = freshAddress()
      const anonymous = await Promise.all(
        Array.from({ length: 101 }, () => call(metered, '/rate-limit', { address })),
      )
      expect(anonymous.filter((answer) => answer.status === 429)).toHaveLength(1)
    })
  })
}

describe('client addresses without a trusted proxy', () => {
  const kind = STORE_KINDS[0]!
  const metered = useMeteredApp(kind, sample, { trustProxy: false })

  it('ignores X-Forwarded-For, so a client cannot claim a fresh budget per call', async () => {
    await call(metered, '/works?per_page=1', { address: '192.0.2.1' })
    await call(metered, '/works?per_page=1', { address: '192.0.2.2' })
    expect(await usedOf(metered, { address: '192.0.2.3' })).toBe(200)
  })
})

describe('the sample app', () => {
  it('logged no fault while metered', () => {
    expect(sample.faults).toEqual([])
  })
})
