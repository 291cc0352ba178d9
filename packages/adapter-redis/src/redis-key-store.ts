import { type KeyStore, readApiKeyRecord } from '@oqlkit/engine'
import type { Redis } from 'ioredis'

export interface RedisKeyStoreOptions {
  readonly client: Redis
  /** Prefix of every key the store writes (default `oqlkit:`). */
  readonly prefix?: string
}

/**
 * API keys on Redis, shared by every server process: `<prefix>apikey:<sha256>` holds the record as
 * JSON (the key itself is never stored). A write is acknowledged by Redis; how durable that is depends
 * on the server's persistence settings (AOF with `appendfsync always` for no loss at all).
 */
export const createRedisKeyStore = (options: RedisKeyStoreOptions): KeyStore => {
  const { client } = options
  const prefix = options.prefix ?? 'oqlkit:'
  const keyOf = (keyHash: string) => `${prefix}apikey:${keyHash}`
  return {
    findKey: async (keyHash) => {
      const stored = await client.get(keyOf(keyHash))
      if (stored === null) return undefined
      try {
        return readApiKeyRecord(JSON.parse(stored))
      } catch {
        return undefined
      }
    },
    putKey: async (record) => {
      await client.set(keyOf(record.keyHash), JSON.stringify(record))
    },
    close: async () => {},
  }
}
