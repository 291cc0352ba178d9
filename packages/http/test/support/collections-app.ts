// An app with the collections API over one store, for the collection tests that need no catalog: the
// adapter refuses every call, which shows the collection routes never touch the catalog.
import type { CollectionStore, LookupResult, StorageAdapter } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { testCallers } from './collection-stores.ts'

const noCatalog: StorageAdapter = {
  capabilities: {},
  queryRows: () => Promise.reject(new Error('the collections API read the catalog')),
  queryGroups: () => Promise.reject(new Error('the collections API read the catalog')),
  findById: (): Promise<LookupResult> => Promise.reject(new Error('the collections API read the catalog')),
  findByExternalId: (): Promise<LookupResult> =>
    Promise.reject(new Error('the collections API read the catalog')),
  findRandom: (): Promise<LookupResult> => Promise.reject(new Error('the collections API read the catalog')),
  close: () => Promise.resolve(),
}

/** `createApp` with collections on `store` and the test keys; faults it logs are collected. */
export const collectionsApp = (store: CollectionStore, faults: unknown[]) =>
  createApp({
    adapter: noCatalog,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    collections: { store, callers: testCallers },
    logError: (error) => {
      faults.push(error)
    },
  })
