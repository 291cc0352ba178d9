import { Redis } from 'ioredis'

/** Where the Redis-backed stores and their tests connect unless told otherwise. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'

export type RedisAvailability =
  | { readonly reachable: true; readonly url: string; readonly version: string }
  | { readonly reachable: false; readonly url: string; readonly reason: string }

/**
 * Asks a Redis server for its version, once, without retrying: a quick yes or no with the reason.
 * Used by tests to decide between running and skipping, and by `oqlkit serve` to fail early.
 */
export const probeRedis = async (
  url: string = DEFAULT_REDIS_URL,
  timeoutMs = 1000,
): Promise<RedisAvailability> => {
  const client = new Redis<'legacy'>(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  })
  // A refused connection is reported through the promise below; this keeps it off the error event.
  client.on('error', () => {})
  try {
    await client.connect()
    const info = await client.info('server')
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown'
    return { reachable: true, url, version }
  } catch (error) {
    return {
      reachable: false,
      url,
      reason: (error instanceof Error ? error.message : String(error)).replace(/\.$/, ''),
    }
  } finally {
    client.disconnect()
  }
}
