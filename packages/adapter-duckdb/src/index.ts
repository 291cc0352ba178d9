// The public API of @oqlkit/adapter-duckdb: what the server, the command line, the benchmarks and the tests of
// other packages use. The catalog layout and its manifest, snapshot ingest, the full-text search index, the
// DuckDB storage adapter that runs the engine's plans, the vectors of semantic search, the text tagger of a
// catalog. Text models themselves (tokenizer, LSA, the tagging model, the embeddings client) are
// @oqlkit/text-models; the file-backed key, meter and collection stores are @oqlkit/file-stores.

export { RecordTextsFiles, type RecordTextsThreads } from './catalog/record-texts-file.ts'
export {
  type JsonLinesParquetOptions,
  PARQUET_MEMORY_LIMIT,
  PARQUET_ROW_GROUP_ROWS,
  writeJsonLinesAsParquet,
} from './export/json-lines-parquet-writer.ts'
export { duckDbTypeOf } from './export/value-shape-sql.ts'
export { IngestError, type IngestErrorCode, isIngestError } from './ingest/ingest-error.ts'
export type {
  EntityIngestCounts,
  IngestPhase,
  IngestProgress,
  IngestProgressListener,
  IngestSummary,
} from './ingest/ingest-progress.ts'
export { type IngestOptions, ingestSnapshot } from './ingest/ingest-snapshot.ts'
export {
  type AutocompleteIndexLayout,
  type AutocompleteIndexOptions,
  autocompleteIndexStatements,
  readAutocompleteLayouts,
} from './query/autocomplete-index.ts'
export { rankAutocompleteMatches } from './query/autocomplete-lookup.ts'
export { normalizedNameSql } from './query/catalog-views.ts'
export {
  CatalogOpenError,
  createDuckDbAdapter,
  type DuckDbAdapter,
  type DuckDbAdapterOptions,
} from './query/duckdb-adapter.ts'
export { type DuckDbDatabaseOptions, openDuckDbDatabase } from './query/duckdb-driver.ts'
export { type CatalogWorkVectors, readCatalogWorkVectors } from './query/work-vector-loader.ts'
export {
  CatalogIndexError,
  type IndexCatalogSearchOptions,
  type IndexCatalogSearchResult,
  indexCatalogSearch,
} from './search/catalog-search-indexer.ts'
// What another engine needs to search the same index with the same scores (the ClickHouse adapter): the
// engine's search node as an index query, planned into index terms, and the index's fields and constants.
export type { SearchBuildProgress } from './search/search-index-builder.ts'
export { type BuildSession, connectionSession } from './sql/build-session.ts'
export { readCatalogTrainingWorks } from './tagging/catalog-training-works.ts'
export { type BuildTextTaggerOptions, trainTextTagModel } from './tagging/text-tagger-builder.ts'
export {
  type IndexCatalogVectorsOptions,
  type IndexCatalogVectorsResult,
  indexCatalogVectors,
} from './vectors/catalog-vector-indexer.ts'
export { readWorkTexts, type WorkText } from './vectors/work-text-reader.ts'
export type { VectorsChoice } from './vectors/work-vector-builder.ts'
