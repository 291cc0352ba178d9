import {
  type ApiKeyRecord,
  compareKeyRecords,
  type KeyStore,
  liveKeyRecord,
  readApiKeyRecord,
} from '@oqlkit/engine'
import { DEFAULT_KEY_PREFIX, keyspaceNodes, type RedisStoreOptions } from './redis-connection.ts'

export type RedisKeyStoreOptions = RedisStoreOptions

/**
 * API keys on Redis, shared by every server process: `<prefix>apikey:<sha256>` holds the record as
 * JSON (the key itself is never stored). A write is acknowledged by Redis; how durable that is depends
 * on the server's persistence settings (AOF with `appendfsync always` for no loss at all).
 */
/** A stored value read back; a damaged or foreign one is skipped. */
const readStored = (stored: string | null): ApiKeyRecord | undefined => {
  if (stored === null) return undefined
  try {
    return readApiKeyRecord(JSON.parse(stored))
  } catch {
    return undefined
  }
}

/** A prefix as a literal in a SCAN pattern (a prefix may hold glob characters). */
const escapeGlob = (text: string): string => text.replace(/[*?[\]\\]/g, (character) => `\\${character}`)

export const createRedisKeyStore = (options: RedisKeyStoreOptions): KeyStore => {
  const { client } = options
  const prefix = options.prefix ?? DEFAULT_KEY_PREFIX
  const keyOf = (keyHash: string) => `${prefix}apikey:${keyHash}`
  return {
    // Every request reads the record, so a key revoked by `oqlkit keys revoke` is refused at once.
    findKey: async (keyHash) => liveKeyRecord(readStored(await client.get(keyOf(keyHash)))),
    putKey: async (record) => {
      await client.set(keyOf(record.keyHash), JSON.stringify(record))
    },
    listKeys: async () => {
      // SCAN, not KEYS: it does not block the server while it walks a large keyspace. In a cluster each
      // master holds part of the keys, so each is walked, and its values read from it in one pipeline
      // (MGET would refuse keys of different slots).
      const pattern = `${escapeGlob(prefix)}apikey:*`
      const records: ApiKeyRecord[] = []
      for (const node of keyspaceNodes(client)) {
        const names = new Set<string>()
        let cursor = '0'
        do {
          const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
          for (const name of batch) names.add(name)
          cursor = next
        } while (cursor !== '0')
        const all = [...names]
        for (let start = 0; start < all.length; start += 1000) {
          const pipeline = node.pipeline()
          for (const name of all.slice(start, start + 1000)) pipeline.get(name)
          for (const [error, value] of (await pipeline.exec()) ?? []) {
            if (error) throw error
            const record = readStored(value as string | null)
            if (record !== undefined) records.push(record)
          }
        }
      }
      return records.sort(compareKeyRecords)
    },
    close: async () => {},
  }
}
