import type { StorageAdapter } from '@oqlkit/engine'
import { H3 } from 'h3'

/** What the server says about its catalog at `GET /`; the composition root fills it in. */
export interface CatalogInfo {
  readonly createdAt: string
  /** Records per entity (API path names: `works`, `work-types`, …). */
  readonly entities: Readonly<Record<string, number>>
}

export interface AppOptions {
  readonly adapter: StorageAdapter
  readonly catalog: CatalogInfo
  readonly version?: string
}

/**
 * The oqlkit API as an h3 app: handlers validate, call the library and return JSON. Today it answers
 * the root health document; the entity, query and metering routes arrive with their issues. Serve it
 * with h3's `serve`, or call `app.fetch(request)` in process (as the tests do).
 */
export const createApp = (options: AppOptions): H3 => {
  const app = new H3()
  app.get('/', () => ({
    name: 'oqlkit',
    version: options.version ?? '0.0.0',
    status: 'ok',
    catalog: {
      created_at: options.catalog.createdAt,
      entities: options.catalog.entities,
      total: Object.values(options.catalog.entities).reduce((sum, count) => sum + count, 0),
    },
    capabilities: options.adapter.capabilities,
  }))
  return app
}
