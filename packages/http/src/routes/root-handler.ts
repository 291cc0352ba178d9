import type { StorageAdapter } from '@oqlkit/engine'

/** What the server says about its catalog at `GET /`; the composition root fills it in. */
export interface CatalogInfo {
  readonly createdAt: string
  /** Records per entity (API path names: `works`, `work-types`, …). */
  readonly entities: Readonly<Record<string, number>>
}

/**
 * `GET /` without `oql=` or `oqo=`: a small JSON document about the server and its catalog (clients use
 * it as a health check). With either, the root is the execute endpoint (`query-execute-handler.ts`).
 */
export const rootHandler =
  (adapter: StorageAdapter, catalog: CatalogInfo, version: string) => (): unknown => ({
    name: 'oqlkit',
    version,
    status: 'ok',
    catalog: {
      created_at: catalog.createdAt,
      entities: catalog.entities,
      total: Object.values(catalog.entities).reduce((sum, count) => sum + count, 0),
    },
    capabilities: adapter.capabilities,
  })
