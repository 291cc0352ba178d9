import { DEFAULT_REDIS_URL, probeRedis, type RedisAvailability } from '@oqlkit/adapter-redis'

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
