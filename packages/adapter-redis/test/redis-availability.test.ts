import { probeRedis } from '@oqlkit/adapter-redis'
import { describe, expect, it } from 'vitest'
import { redisForTests } from './redis-test-gate.ts'

const redis = await redisForTests()

// A port nothing listens on (Redis's own port range is far from it), for the unreachable case.
const DEAD_URL = 'redis://127.0.0.1:1'

describe('probeRedis', () => {
  it('reports an unreachable server with the reason, quickly and without throwing', async () => {
    const started = performance.now()
    const result = await probeRedis(DEAD_URL, 500)
    expect(result.reachable).toBe(false)
    expect(result.reachable === false && result.reason).toMatch(/ECONNREFUSED|connect/i)
    expect(performance.now() - started).toBeLessThan(5000)
  })

  it.skipIf(!redis.reachable)('reports the version of a real server', async () => {
    const result = await probeRedis(redis.url)
    expect(result).toMatchObject({ reachable: true, url: redis.url })
    expect(result.reachable && result.version).toMatch(/^\d+\.\d+/)
  })
})

describe('the Redis test gate', () => {
  it('fails instead of skipping when Redis is required and missing', async () => {
    await expect(redisForTests({ OQLKIT_REDIS_URL: DEAD_URL, OQLKIT_REQUIRE_REDIS: '1' })).rejects.toThrow(
      /Redis is required .* did not answer/,
    )
  })

  it('lets tests skip, saying why, when Redis is optional and missing', async () => {
    const result = await redisForTests({ OQLKIT_REDIS_URL: DEAD_URL })
    expect(result.reachable).toBe(false)
  })
})
