// The public API of @oqlkit/adapter-duckdb: the catalog layout, snapshot ingest, the full-text search
// index, the DuckDB storage adapter that runs the engine's plans, and the scale generator.
export * from './catalog/index.ts'
export * from './generate/index.ts'
export * from './ingest/index.ts'
export * from './query/index.ts'
export * from './search/index.ts'
