import type { ApiKeyRecord } from './api-key.ts'

/**
 * Where API keys live, looked up by the SHA-256 of the key (`hashApiKey`). Implementations: the
 * in-memory store below (keys provisioned from a file), the embedded file-backed store of
 * `@oqlkit/adapter-duckdb` and the Redis store of `@oqlkit/adapter-redis`.
 */
export interface KeyStore {
  findKey(keyHash: string): Promise<ApiKeyRecord | undefined>
  /** Adds a key, or replaces the record of the same hash; resolves once the write is durable. */
  putKey(record: ApiKeyRecord): Promise<void>
  close(): Promise<void>
}

/** A key store in memory: keys a deployment provisions at start (`oqlkit serve --keys`), and tests. */
export const createMemoryKeyStore = (records: readonly ApiKeyRecord[] = []): KeyStore => {
  const byHash = new Map(records.map((record) => [record.keyHash, record]))
  return {
    findKey: async (keyHash) => byHash.get(keyHash),
    putKey: async (record) => {
      byHash.set(record.keyHash, record)
    },
    close: async () => {},
  }
}

/**
 * Several key stores read as one: the first that knows a hash answers (so provisioned keys override
 * stored ones); writes go to the last, the persistent store.
 */
export const layerKeyStores = (...stores: readonly [KeyStore, ...KeyStore[]]): KeyStore => {
  const persistent = stores[stores.length - 1] as KeyStore
  return {
    findKey: async (keyHash) => {
      for (const store of stores) {
        const found = await store.findKey(keyHash)
        if (found !== undefined) return found
      }
      return undefined
    },
    putKey: (record) => persistent.putKey(record),
    close: async () => {
      for (const store of stores) await store.close()
    },
  }
}
