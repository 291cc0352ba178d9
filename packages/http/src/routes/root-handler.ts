import type { StorageAdapter } from '@oqlkit/engine'
import { type DataVersion, dataVersionJson } from '../envelope/data-version.ts'

/** What the server says about its catalog at `GET /`; the composition root fills it in. */
export interface CatalogInfo {
  readonly createdAt: string
  /** Records per entity (API path names: `works`, `work-types`, …). */
  readonly entities: Readonly<Record<string, number>>
  /** The version of its data (`catalogVersionOf`), named in every answer; none without. */
  readonly version?: DataVersion
  /**
   * Every version the server answers from, the default first, when it serves several catalogs
   * (`createCatalogsApp`); without, only `version`. Asked at each request where the versions come and go
   * while the server runs (a ClickHouse that loads fill).
   */
  readonly versions?: readonly DataVersion[] | (() => Promise<readonly DataVersion[]>)
}

const versionsOf = async (catalog: CatalogInfo): Promise<readonly DataVersion[]> => {
  const { versions } = catalog
  if (typeof versions === 'function') return await versions()
  return versions ?? (catalog.version === undefined ? [] : [catalog.version])
}

/**
 * `GET /` without `oql=` or `oqo=`: a small JSON document about the server and its catalog (clients use
 * it as a health check). With either, the root is the execute endpoint (`query-execute-handler.ts`).
 */
export const rootHandler =
  (adapter: StorageAdapter, catalog: CatalogInfo, version: string) => async (): Promise<unknown> => ({
    name: 'oqlkit',
    version,
    status: 'ok',
    catalog: {
      created_at: catalog.createdAt,
      entities: catalog.entities,
      total: Object.values(catalog.entities).reduce((sum, count) => sum + count, 0),
      ...(catalog.version === undefined ? {} : { data_version: dataVersionJson(catalog.version) }),
    },
    // The versions of the data this server answers from (`data_version=` picks one), the default first.
    data_versions: (await versionsOf(catalog)).map((version, at) => ({
      ...dataVersionJson(version),
      default: at === 0,
    })),
    capabilities: adapter.capabilities,
  })
