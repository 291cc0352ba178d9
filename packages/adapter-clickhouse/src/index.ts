// The public API of @oqlkit/adapter-clickhouse: where a catalog lives in ClickHouse (a URL read into a
// target, and a client for it), the tables and DDL a catalog becomes, on one server or a cluster, the load
// of a catalog folder into a new version database, and which version is served.

export {
  ClickHouseLoadError,
  type ClickHouseLoadErrorCode,
  type LoadOptions,
  type LoadProgress,
  type LoadSummary,
  loadCatalogIntoClickHouse,
} from './catalog-loader.ts'
export {
  type CatalogVersion,
  catalogVersionsStatements,
  dropOldVersions,
  listVersions,
  servedVersion,
} from './catalog-versions.ts'
export { type ClickHouseAdapterOptions, createClickHouseAdapter } from './clickhouse-adapter.ts'
export { type ClickHouseCatalogModels, readClickHouseCatalogModels } from './clickhouse-catalog-models.ts'
export { connectClickHouse } from './clickhouse-connection.ts'
export { catalogSchemaStatements, clickHouseTablesOf, type DdlTarget } from './clickhouse-schema.ts'
export type { ClickHouseColumn, ClickHouseTable, TableSource } from './clickhouse-table.ts'
export { type ClickHouseTarget, DEFAULT_CATALOG_NAME, readClickHouseTarget } from './clickhouse-target.ts'
