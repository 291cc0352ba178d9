// The collection-management API on a port of its own ({user_url}), metered with the main API's stores:
// every answer carries the X-RateLimit headers (a refused key's too), keys come in every transport, the
// calls are free but count against the caller's request rate, and concurrent calls never exceed it.
// Against both metering stores (the embedded one, and Redis when it answers).
import {
  allowanceOf,
  createMemoryCollectionStore,
  DEFAULT_METERING_LIMITS,
  generateApiKey,
  hashApiKey,
  keyRecordOf,
  type MeteringLimits,
  subjectOf,
  toMicroUsd,
} from '@oqlkit/engine'
import { createCollectionsApp, meteredCaller } from '@oqlkit/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MeteringStores, NOON, STORE_KINDS } from './support/metered-app.ts'

/** Few requests per window, so the rate is reached without thousands of calls. */
const LIMITS: MeteringLimits = { ...DEFAULT_METERING_LIMITS, requestsPerWindow: 5, rateWindowMs: 1000 }
/** The midnight UTC after NOON, when budgets refill. */
const MIDNIGHT = NOON + 12 * 3600 * 1000

interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
}

for (const kind of STORE_KINDS) {
  describe.skipIf(kind.skip)(`the collections port, metered with the ${kind.name}`, () => {
    const clock = { now: NOON }
    let stores: MeteringStores
    let app: ReturnType<typeof createCollectionsApp>
    let key: string
    let addresses = 0
    const freshAddress = () => `192.0.2.${++addresses}`
    const toMidnight = () => String((MIDNIGHT - clock.now) / 1000)
    /** Each test its own second, so the request rate of one never spills into the next. */
    const nextSecond = () => {
      clock.now += 10_000
    }

    beforeAll(async () => {
      stores = await kind.open()
      app = createCollectionsApp({
        store: createMemoryCollectionStore(),
        callers: meteredCaller,
        metering: {
          keys: stores.keys,
          meter: stores.meter,
          clock: () => clock.now,
          trustProxy: true,
          limits: LIMITS,
        },
      })
      key = generateApiKey()
      await stores.keys.putKey(
        await keyRecordOf(key, { userId: 'ann', dailyBudgetUsd: 2 }, new Date(clock.now)),
      )
    })
    afterAll(async () => {
      await stores?.dispose()
    })

    const send = async (
      method: string,
      path: string,
      headers: Record<string, string>,
      address: string,
      body?: unknown,
    ): Promise<Answer> => {
      const response = await app.fetch(
        new Request(`http://localhost${path}`, {
          method,
          headers: {
            ...headers,
            'x-forwarded-for': address,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      )
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Record<string, unknown>,
      }
    }
    const rateLimitOf = (answer: Answer) => ({
      limit: answer.headers.get('x-ratelimit-limit'),
      remaining: answer.headers.get('x-ratelimit-remaining'),
      used: answer.headers.get('x-ratelimit-credits-used'),
      reset: answer.headers.get('x-ratelimit-reset'),
    })

    it("puts the key's X-RateLimit headers on every answer, spending nothing", async () => {
      nextSecond()
      const address = freshAddress()
      // What the key spent elsewhere (on the main API, which shares the meter) shows here.
      const holder = { kind: 'key', key: (await stores.keys.findKey(await hashApiKey(key)))! } as const
      await stores.meter.charge({
        subject: subjectOf(holder),
        costMicroUsd: toMicroUsd(0.25),
        allowance: allowanceOf(holder, LIMITS),
        rate: { requests: 1000, windowMs: 1000 },
        nowMs: clock.now,
        requestId: crypto.randomUUID(),
      })
      // That charge took a place in this second's window; the five calls below get a window of their own.
      nextSecond()
      const bearer = { authorization: `Bearer ${key}` }
      const answers = {
        created: await send('POST', '/me/collections', bearer, address, {
          display_name: 'Reading list',
          entity_type: 'works',
          entity_ids: ['W1'],
        }),
        listed: await send('GET', '/me/collections', { api_key: key }, address),
        badBody: await send('POST', '/me/collections', bearer, address, { display_name: '' }),
        unknownCollection: await send('GET', '/collections/col_0000000000', bearer, address),
        notAnAdmin: await send('GET', '/admin/collections', bearer, address),
      }
      expect(answers.created.status).toBe(201)
      expect(answers.listed.status).toBe(200)
      expect(answers.badBody.status).toBe(400)
      expect(answers.unknownCollection.status).toBe(404)
      expect(answers.notAnAdmin.status).toBe(403)
      for (const [name, answer] of Object.entries(answers))
        expect(rateLimitOf(answer), name).toEqual({
          limit: '2',
          remaining: '1.75',
          used: '0',
          reset: toMidnight(),
        })
    })

    it("answers callers without a key, and refused keys, with their address's anonymous allowance", async () => {
      nextSecond()
      const address = freshAddress()
      const answers: [string, Answer][] = [
        ['no key', await send('GET', '/me/collections', {}, address)],
        [
          'an unknown key',
          await send('GET', '/me/collections', { authorization: `Bearer ${generateApiKey()}` }, address),
        ],
        ['a malformed key', await send('GET', '/me/collections', { api_key: 'short' }, address)],
        ['an empty api_key=', await send('GET', '/me/collections?api_key=', {}, address)],
        ['an empty Authorization', await send('GET', '/me/collections', { authorization: '' }, address)],
      ]
      for (const [name, answer] of answers) {
        expect(answer.status, name).toBe(401)
        expect(rateLimitOf(answer), name).toEqual({
          limit: '0.1',
          remaining: '0.1',
          used: '0',
          reset: toMidnight(),
        })
      }
      expect(answers[0]![1].body.code).toBe('authentication_required')
      expect(answers[3]![1].body.message).toMatch(/^The API key is empty/)
      const conflict = await send(
        'GET',
        `/me/collections?api_key=${key}`,
        { api_key: generateApiKey() },
        address,
      )
      expect(conflict.status).toBe(400)
      expect(rateLimitOf(conflict).limit).toBe('0.1')
    })

    it('holds the request rate under concurrent calls: exactly the allowed number get through', async () => {
      nextSecond()
      const address = freshAddress()
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => send('GET', '/me/collections', { api_key: key }, address)),
      )
      const served = answers.filter((answer) => answer.status === 200)
      const refused = answers.filter((answer) => answer.status === 429)
      expect(served).toHaveLength(LIMITS.requestsPerWindow)
      expect(refused).toHaveLength(12 - LIMITS.requestsPerWindow)
      for (const answer of refused) {
        expect(answer.body.code).toBe('rate_limited')
        expect(answer.headers.get('retry-after')).toBe('1')
        expect(rateLimitOf(answer).limit).toBe('2')
      }
    })
  })
}
