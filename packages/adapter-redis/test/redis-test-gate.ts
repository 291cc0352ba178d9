import {
  connectRedis,
  DEFAULT_REDIS_URL,
  keyspaceNodes,
  probeRedis,
  type RedisAvailability,
} from '@oqlkit/adapter-redis'
import { afterAll } from 'vitest'
import { RedisServerMissingError, startLocalRedisCluster } from './support/local-redis-cluster.ts'

export const REQUIRE_REDIS_VARIABLE = 'OQLKIT_REQUIRE_REDIS'

/**
 * Decides whether Redis-backed tests run. With OQLKIT_REQUIRE_REDIS=1 (as `.ci/run` sets it) a
 * missing Redis is an error, so CI can never pass by skipping; without it the tests skip and say why.
 */
export const redisForTests = async (
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<RedisAvailability> => {
  const availability = await probeRedis(env.OQLKIT_REDIS_URL ?? DEFAULT_REDIS_URL)
  if (availability.reachable) return availability
  const required = env[REQUIRE_REDIS_VARIABLE] === '1' || env[REQUIRE_REDIS_VARIABLE] === 'true'
  if (required)
    throw new Error(
      `Redis is required (${REQUIRE_REDIS_VARIABLE}=1) but ${availability.url} did not answer: ${availability.reason}. Start Redis or unset ${REQUIRE_REDIS_VARIABLE}.`,
    )
  console.warn(`Skipping Redis-backed tests: ${availability.url} did not answer (${availability.reason}).`)
  return availability
}

export const REQUIRE_REDIS_CLUSTER_VARIABLE = 'OQLKIT_REQUIRE_REDIS_CLUSTER'

/**
 * A local three-node Redis Cluster for the calling test file, stopped after its tests. With
 * OQLKIT_REQUIRE_REDIS_CLUSTER=1 (as `.ci/run` sets it) a missing `redis-server` is an error; without
 * it the tests skip and say why.
 */
export const redisClusterForTests = async (
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<RedisAvailability> => {
  try {
    const cluster = await startLocalRedisCluster()
    afterAll(() => cluster.stop())
    return { reachable: true, url: cluster.url, version: 'cluster' }
  } catch (error) {
    const required =
      env[REQUIRE_REDIS_CLUSTER_VARIABLE] === '1' || env[REQUIRE_REDIS_CLUSTER_VARIABLE] === 'true'
    if (required || !(error instanceof RedisServerMissingError)) throw error
    console.warn(`Skipping Redis Cluster tests: ${error.message}.`)
    return { reachable: false, url: 'redis-cluster://not-started', reason: error.message }
  }
}

/** The single Redis and a local Redis Cluster, each to run a test file's suites against. */
export const redisTargetsForTests = async (): Promise<readonly (RedisAvailability & { name: string })[]> => [
  { name: 'Redis', ...(await redisForTests()) },
  { name: 'Redis Cluster', ...(await redisClusterForTests()) },
]

/** Deletes the keys matching a SCAN pattern from every node: what a test file wrote. */
export const removeRedisKeys = async (url: string, pattern: string): Promise<void> => {
  const client = await connectRedis(url)
  try {
    for (const node of keyspaceNodes(client)) {
      let cursor = '0'
      do {
        const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
        // One key a command: in a cluster, keys of several slots cannot share a DEL.
        await Promise.all(batch.map((key) => node.unlink(key)))
        cursor = next
      } while (cursor !== '0')
    }
  } finally {
    client.disconnect()
  }
}
