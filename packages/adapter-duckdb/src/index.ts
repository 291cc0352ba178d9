// The public API of @oqlkit/adapter-duckdb: the DuckDB storage adapter that runs the engine's plans over a
// catalog folder (the format is @oqlkit/catalog's), the serving database it reads (built once per catalog, by
// ingest), Parquet export, and the DuckDB SQL that ingest shares with the adapter (the column map's record
// paths, the search tokenizer). Snapshot ingest is @oqlkit/ingest; the file-backed key, meter and collection
// stores are @oqlkit/file-stores.
export {
  type JsonLinesParquetOptions,
  PARQUET_MEMORY_LIMIT,
  PARQUET_ROW_GROUP_ROWS,
  writeJsonLinesAsParquet,
} from './export/json-lines-parquet-writer.ts'
export { duckDbTypeOf } from './export/value-shape-sql.ts'
export {
  type AutocompleteIndexLayout,
  type AutocompleteIndexOptions,
  autocompleteIndexStatements,
  readAutocompleteLayouts,
} from './query/autocomplete-index.ts'
export { rankAutocompleteMatches } from './query/autocomplete-lookup.ts'
export {
  type CatalogTableRelations,
  catalogTableRelations,
  parquetRelation,
  type ServingTableRelationOptions,
  servingTableRelations,
  tablesInServingDatabase,
} from './query/catalog-table-relations.ts'
export { NARROW_ROW_COLUMN, normalizedNameSql, SERVING_DATABASE_NAME } from './query/catalog-views.ts'
export {
  CatalogOpenError,
  createDuckDbAdapter,
  type DuckDbAdapter,
  type DuckDbAdapterOptions,
} from './query/duckdb-adapter.ts'
export { recordPathColumnsOf } from './query/duckdb-column-map.ts'
export { type DuckDbDatabaseOptions, openDuckDbDatabase } from './query/duckdb-driver.ts'
export { createDuckDbInstance, type DuckDbInstanceOptions } from './query/duckdb-instance-factory.ts'
export { type CatalogWorkVectors, readCatalogWorkVectors } from './query/work-vector-loader.ts'
export { exactTokensSql } from './search/search-tokenizer-sql.ts'
export { type CatalogTableExportOptions, exportCatalogTables } from './serving/catalog-table-exporter.ts'
export { buildServingDatabase, type ServingDatabaseOptions } from './serving/serving-database-builder.ts'
export {
  SERVING_UPDATE_MAX_SHARE,
  type ServedTableRows,
  type ServingDatabaseUpdate,
  type ServingDatabaseUpdateOptions,
  updateServingDatabase,
} from './serving/serving-database-updater.ts'
