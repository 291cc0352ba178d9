// `describeKeyStoreConformance`: what every KeyStore must do, as one vitest suite: find live keys by hash,
// list every record (revoked ones too) oldest first, replace a record by putting it again, and hide a
// revoked key from `findKey` so a server refuses it (401) like an unknown one.
import { describe, expect, it } from 'vitest'
import type { ApiKeyRecord } from '../metering/api-key.ts'
import { keyRecordOf } from '../metering/key-record-reader.ts'
import type { KeyStore } from '../metering/key-store.ts'

export interface KeyStoreUnderTest {
  /** A store holding no keys (a fresh folder, a fresh Redis prefix). */
  readonly store: KeyStore
  /** A second view of the same keys, as another process has it (the CLI beside a server); or the same. */
  readonly other: KeyStore
  readonly dispose: () => Promise<void>
}

let sequence = 0
const recordOf = (userId: string, createdAt: string): Promise<ApiKeyRecord> =>
  keyRecordOf(
    `conformance-key-${userId}-${++sequence}-${Date.now().toString(36)}`,
    { userId },
    new Date(createdAt),
  )

/** Long enough for a store that caches found keys (the embedded one re-reads its log after a second). */
const CACHE_MS = 1100

export const describeKeyStoreConformance = (
  name: string,
  open: () => Promise<KeyStoreUnderTest>,
  options: { readonly skip?: boolean } = {},
): void => {
  describe.skipIf(options.skip === true)(`KeyStore conformance: ${name}`, () => {
    const withStore = async (body: (opened: KeyStoreUnderTest) => Promise<void>): Promise<void> => {
      const opened = await open()
      try {
        await body(opened)
      } finally {
        await opened.dispose()
      }
    }

    it('lists every record, oldest first, and nothing for an empty store', () =>
      withStore(async ({ store }) => {
        expect(await store.listKeys()).toEqual([])
        const later = await recordOf('later', '2030-01-02T00:00:00.000Z')
        const earlier = await recordOf('earlier', '2030-01-01T00:00:00.000Z')
        await store.putKey(later)
        await store.putKey(earlier)
        expect(await store.listKeys()).toEqual([earlier, later])
      }))

    it('replaces the record of a hash when it is put again, listing it once', () =>
      withStore(async ({ store, other }) => {
        const record = await recordOf('changed', '2030-01-01T00:00:00.000Z')
        await store.putKey(record)
        const changed = { ...record, dailyBudgetUsd: 7, prepaidUsd: 12.5 }
        await other.putKey(changed)
        expect(await other.listKeys()).toEqual([changed])
        expect(await store.listKeys()).toEqual([changed])
        await new Promise((done) => setTimeout(done, CACHE_MS))
        expect(await store.findKey(record.keyHash)).toEqual(changed)
      }))

    it('hides a revoked key from findKey, also from a view that found it before, and still lists it', () =>
      withStore(async ({ store, other }) => {
        const kept = await recordOf('kept', '2030-01-01T00:00:00.000Z')
        const revoked = await recordOf('revoked', '2030-01-02T00:00:00.000Z')
        await store.putKey(kept)
        await store.putKey(revoked)
        expect(await store.findKey(revoked.keyHash)).toEqual(revoked)
        const revocation = { ...revoked, revokedAt: '2030-01-03T00:00:00.000Z' }
        await other.putKey(revocation)
        expect(await other.findKey(revoked.keyHash)).toBeUndefined()
        await new Promise((done) => setTimeout(done, CACHE_MS))
        expect(await store.findKey(revoked.keyHash)).toBeUndefined()
        expect(await store.findKey(kept.keyHash)).toEqual(kept)
        expect(await store.listKeys()).toEqual([kept, revocation])
      }))
  })
}
