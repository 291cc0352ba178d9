import type { ApiKeyRecord } from './api-key.ts'

/**
 * Where API keys live, looked up by the SHA-256 of the key (`hashApiKey`). Implementations: the
 * in-memory store below (keys provisioned from a file), the embedded file-backed store of
 * `@oqlkit/adapter-duckdb` and the Redis store of `@oqlkit/adapter-redis`.
 */
export interface KeyStore {
  /** The live record of a hash: undefined for an unknown key and for a revoked one (`revokedAt`). */
  findKey(keyHash: string): Promise<ApiKeyRecord | undefined>
  /**
   * Adds a key, or replaces the record of the same hash; resolves once the write is durable. Revoking a
   * key is putting its record with `revokedAt`.
   */
  putKey(record: ApiKeyRecord): Promise<void>
  /** Every record the store holds, revoked ones included, oldest first (`oqlkit keys list`). */
  listKeys(): Promise<readonly ApiKeyRecord[]>
  close(): Promise<void>
}

/** A record as `findKey` answers it: a revoked key is not found. */
export const liveKeyRecord = (record: ApiKeyRecord | undefined): ApiKeyRecord | undefined =>
  record?.revokedAt === undefined ? record : undefined

/** Records in the order `listKeys` gives them: by creation time, then hash. */
export const compareKeyRecords = (a: ApiKeyRecord, b: ApiKeyRecord): number =>
  a.createdAt.localeCompare(b.createdAt) || a.keyHash.localeCompare(b.keyHash)

/** A key store in memory: keys a deployment provisions at start (`oqlkit serve --keys`), and tests. */
export const createMemoryKeyStore = (records: readonly ApiKeyRecord[] = []): KeyStore => {
  const byHash = new Map(records.map((record) => [record.keyHash, record]))
  return {
    findKey: async (keyHash) => liveKeyRecord(byHash.get(keyHash)),
    putKey: async (record) => {
      byHash.set(record.keyHash, record)
    },
    listKeys: async () => [...byHash.values()].sort(compareKeyRecords),
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
    // A hash the first stores know is theirs (a revoked one too: it hides the same hash further down).
    listKeys: async () => {
      const byHash = new Map<string, ApiKeyRecord>()
      for (const store of stores)
        for (const record of await store.listKeys())
          if (!byHash.has(record.keyHash)) byHash.set(record.keyHash, record)
      return [...byHash.values()].sort(compareKeyRecords)
    },
    close: async () => {
      for (const store of stores) await store.close()
    },
  }
}
