// The public API of @oqlkit/adapter-duckdb: the catalog layout and snapshot ingest. The query
// adapter (SQL compiler, search index, embedded stores) arrives with the rest of the storage issue.
export * from './catalog/index.ts'
export * from './ingest/index.ts'
