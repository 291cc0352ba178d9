import { connectRedis, createRedisKeyStore, type RedisClient } from '@oqlkit/adapter-redis'
import { describeKeyStoreConformance } from '@oqlkit/engine/testing'
import { afterAll } from 'vitest'
import { redisTargetsForTests, removeRedisKeys } from './redis-test-gate.ts'

// Every key this file writes starts with this prefix (glob characters included, which listing must treat
// as plain text); all of them are deleted at the end.
const PREFIX = `oqlkit-test:keys-${process.pid}-${Date.now().toString(36)}:[a*]?`
let prefixes = 0

for (const redis of await redisTargetsForTests()) {
  const clients: RedisClient[] = []
  afterAll(async () => {
    for (const opened of clients) opened.disconnect()
    if (redis.reachable)
      await removeRedisKeys(redis.url, `${PREFIX.replace(/[*?[\]\\]/g, (character) => `\\${character}`)}*`)
  })

  // Two connections on one prefix: two server processes, or a server and the `oqlkit keys` command. In a
  // cluster, listing walks every master.
  describeKeyStoreConformance(
    redis.name,
    async () => {
      const prefix = `${PREFIX}${++prefixes}:`
      const first = await connectRedis(redis.url)
      const second = await connectRedis(redis.url)
      clients.push(first, second)
      return {
        store: createRedisKeyStore({ client: first, prefix }),
        other: createRedisKeyStore({ client: second, prefix }),
        dispose: async () => {},
      }
    },
    { skip: !redis.reachable },
  )
}
