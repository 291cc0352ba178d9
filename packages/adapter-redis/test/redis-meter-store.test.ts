import {
  connectRedis,
  createRedisKeyStore,
  createRedisMeterStore,
  type RedisClient,
} from '@oqlkit/adapter-redis'
import { keyRecordOf, utcDayOf } from '@oqlkit/engine'
import { describeMeterStoreConformance } from '@oqlkit/engine/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { RedisScript } from '../src/redis-script.ts'
import { redisTargetsForTests, removeRedisKeys } from './redis-test-gate.ts'

// Every key this file writes starts with this prefix; all of them are deleted at the end.
const PREFIX = `oqlkit-test:${process.pid}-${Date.now().toString(36)}:`

for (const redis of await redisTargetsForTests()) {
  const skip = !redis.reachable
  const clients: RedisClient[] = []
  const client = async (): Promise<RedisClient> => {
    const opened = await connectRedis(redis.url)
    clients.push(opened)
    return opened
  }

  afterAll(async () => {
    for (const opened of clients) opened.disconnect()
    if (redis.reachable) await removeRedisKeys(redis.url, `${PREFIX}*`)
  })

  describeMeterStoreConformance(
    `${redis.name} (Lua)`,
    async () => ({
      store: createRedisMeterStore({ client: await client(), prefix: PREFIX, clock: 'caller' }),
      dispose: async () => {},
    }),
    { skip },
  )

  const NOW = Date.UTC(2030, 3, 4, 8)
  const request = (subject: string, cost: number, daily: number, id: string, nowMs = NOW) => ({
    subject,
    costMicroUsd: cost,
    allowance: { dailyBudgetMicroUsd: daily, prepaidMicroUsd: 0, prepaidExpiresAtMs: null },
    rate: { requests: 1_000_000, windowMs: 1000 },
    nowMs,
    requestId: id,
  })

  describe.skipIf(skip)(`the meter store on ${redis.name}`, () => {
    it('shares one budget between connections (as between server processes), exactly', async () => {
      const stores = [
        createRedisMeterStore({ client: await client(), prefix: PREFIX, clock: 'caller' }),
        createRedisMeterStore({ client: await client(), prefix: PREFIX, clock: 'caller' }),
      ]
      const outcomes = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          stores[i % 2]!.charge(request('key:shared', 100, 5000, `s${i}`)),
        ),
      )
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(50)
      expect((await stores[0]!.read('key:shared', NOW)).counters.dailyUsedMicroUsd).toBe(5000)
    })

    it("uses Redis's own clock unless told to use the caller's", async () => {
      const store = createRedisMeterStore({ client: await client(), prefix: PREFIX })
      const before = Date.now()
      const outcome = await store.charge(request('key:clock', 100, 1000, 'c1', 0))
      expect(outcome.nowMs).toBeGreaterThanOrEqual(before - 5000)
      expect(outcome.nowMs).toBeLessThanOrEqual(Date.now() + 5000)
      expect(outcome.ok && outcome.receipt.day).toBe(utcDayOf(outcome.nowMs))
    })

    it('lets a day of spending expire, but keeps prepaid spending', async () => {
      const redisClient = await client()
      const store = createRedisMeterStore({ client: redisClient, prefix: PREFIX, clock: 'caller' })
      await store.charge(request('key:daily-only', 100, 1000, 'd1'))
      const ttl = await redisClient.pttl(`${PREFIX}meter:{key:daily-only}`)
      expect(ttl).toBeGreaterThan(86_400_000)
      expect(ttl).toBeLessThanOrEqual(2 * 86_400_000)
      await store.charge({
        ...request('key:prepaid', 200, 100, 'p1'),
        allowance: { dailyBudgetMicroUsd: 100, prepaidMicroUsd: 500, prepaidExpiresAtMs: null },
      })
      expect(await redisClient.pttl(`${PREFIX}meter:{key:prepaid}`)).toBe(-1)
    })

    it('sends the whole script when Redis does not know it yet', async () => {
      const unknown = new RedisScript(`-- ${PREFIX}${Math.random()}\nreturn ARGV[1]`)
      expect(await unknown.run(await client(), [], ['hello'])).toBe('hello')
    })
  })

  describe.skipIf(skip)(`the key store on ${redis.name}`, () => {
    it('stores a record under the hash only, and finds it', async () => {
      const redisClient = await client()
      const store = createRedisKeyStore({ client: redisClient, prefix: PREFIX })
      const key = 'redis-key-store-000000001'
      const record = await keyRecordOf(key, { userId: 'r1', admin: true }, new Date(NOW))
      await store.putKey(record)
      expect(await store.findKey(record.keyHash)).toEqual(record)
      expect(await store.findKey('0'.repeat(64))).toBeUndefined()
      const stored = await redisClient.get(`${PREFIX}apikey:${record.keyHash}`)
      expect(stored).not.toContain(key)
    })

    it('does not trust a damaged value', async () => {
      const redisClient = await client()
      const store = createRedisKeyStore({ client: redisClient, prefix: PREFIX })
      await redisClient.set(`${PREFIX}apikey:${'1'.repeat(64)}`, '{"userId":"x","admin":"yes"')
      await redisClient.set(`${PREFIX}apikey:${'2'.repeat(64)}`, '{"userId":"x","admin":"yes"}')
      expect(await store.findKey('1'.repeat(64))).toBeUndefined()
      expect(await store.findKey('2'.repeat(64))).toBeUndefined()
    })
  })
}
