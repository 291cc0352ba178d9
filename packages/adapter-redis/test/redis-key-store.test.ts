import { connectRedis, createRedisKeyStore } from '@oqlkit/adapter-redis'
import { describeKeyStoreConformance } from '@oqlkit/engine/testing'
import type { Redis } from 'ioredis'
import { afterAll } from 'vitest'
import { redisForTests } from './redis-test-gate.ts'

const redis = await redisForTests()

// Every key this file writes starts with this prefix (glob characters included, which listing must treat
// as plain text); all of them are deleted at the end.
const PREFIX = `oqlkit-test:keys-${process.pid}-${Date.now().toString(36)}:[a*]?`
const clients: Redis[] = []
let prefixes = 0

afterAll(async () => {
  const [first] = clients
  if (first !== undefined) {
    const written = await first.keys(`${PREFIX.replace(/[*?[\]\\]/g, (character) => `\\${character}`)}*`)
    if (written.length > 0) await first.del(...written)
  }
  for (const opened of clients) opened.disconnect()
})

// Two connections on one prefix: two server processes, or a server and the `oqlkit keys` command.
describeKeyStoreConformance(
  'Redis',
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
