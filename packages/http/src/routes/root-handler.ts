import type { StorageAdapter } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { readQueryParameters } from '../request/query-parameters.ts'

/** What the server says about its catalog at `GET /`; the composition root fills it in. */
export interface CatalogInfo {
  readonly createdAt: string
  /** Records per entity (API path names: `works`, `work-types`, …). */
  readonly entities: Readonly<Record<string, number>>
}

/**
 * `GET /`: a small JSON document about the server and its catalog (clients use it as a health check).
 * With `oql=` or `oqo=` the root is the OQL execute endpoint, which this server does not offer yet.
 */
export const rootHandler =
  (adapter: StorageAdapter, catalog: CatalogInfo, version: string) =>
  (event: H3Event): unknown => {
    const asked = readQueryParameters(event.url.search).find(
      (parameter) => parameter.name === 'oql' || parameter.name === 'oqo',
    )
    if (asked !== undefined)
      throw ApiError.of(
        501,
        'not_supported',
        `Executing ${asked.name.toUpperCase()} at / is not available on this server yet. Write the query as a classic list request, such as /works?filter=publication_year:2020&sort=cited_by_count:desc.`,
        asked.written,
      )
    return {
      name: 'oqlkit',
      version,
      status: 'ok',
      catalog: {
        created_at: catalog.createdAt,
        entities: catalog.entities,
        total: Object.values(catalog.entities).reduce((sum, count) => sum + count, 0),
      },
      capabilities: adapter.capabilities,
    }
  }
