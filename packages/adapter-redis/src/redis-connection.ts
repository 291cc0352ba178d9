import { Redis } from 'ioredis'

/**
 * A client for the stores: connects at once, and fails a command after a few reconnection attempts
 * instead of queueing it forever, so a server whose Redis is gone answers 500 rather than hanging.
 */
export const connectRedis = async (url: string): Promise<Redis> => {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 2000 })
  // Connection errors reach the commands that fail because of them; unhandled, they would crash.
  client.on('error', () => {})
  await client.connect()
  return client
}
