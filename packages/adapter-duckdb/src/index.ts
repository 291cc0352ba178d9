// The public API of @oqlkit/adapter-duckdb: the catalog layout, snapshot ingest, the full-text search
// index, the DuckDB storage adapter that runs the engine's plans, and the embedded
// (file-backed) key, meter and collection stores, and semantic search (text model, LSA, vectors).
export * from './catalog/index.ts'
export * from './collections/index.ts'
export * from './embeddings-client/index.ts'
export * from './ingest/index.ts'
export * from './latent-semantics/index.ts'
export * from './metering/index.ts'
export * from './query/index.ts'
export * from './search/index.ts'
export * from './tagging/index.ts'
export * from './text-model/index.ts'
export * from './vectors/index.ts'
