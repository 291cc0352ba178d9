// The query side of the DuckDB adapter: plan → SQL compiler, driver interface, and the StorageAdapter.
// README.md in this folder has the design and the measurements.
export { catalogSearchCompiler } from './catalog-search.ts'
export type { CatalogLoadMode } from './catalog-views.ts'

export type {
  CompiledGroupsQuery,
  CompiledQuery,
  CompiledRowsQuery,
  GroupKeyFormat,
  SqlParam,
  SqlStatement,
} from './compiled-query.ts'
export {
  CatalogOpenError,
  createDuckDbAdapter,
  type DuckDbAdapter,
  type DuckDbAdapterOptions,
  duckDbAdapterOver,
} from './duckdb-adapter.ts'
export {
  type DuckDbConnectionLike,
  type DuckDbDatabaseOptions,
  type DuckDbRow,
  openDuckDbDatabase,
} from './duckdb-driver.ts'
export {
  DuckDbPlanCompiler,
  type DuckDbPlanCompilerOptions,
  type SearchCompilerLike,
  type SemanticInputs,
  type SemanticMatch,
  type SemanticSearchTask,
} from './duckdb-plan-compiler.ts'
export type { SqlFragment } from './sql-fragment.ts'
export {
  isUnsupportedPlanError,
  UnsupportedPlanError,
  type UnsupportedPlanReason,
} from './unsupported-plan-error.ts'
