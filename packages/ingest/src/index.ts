// The public API of @oqlkit/ingest: an OpenAlex snapshot (either public layout, JSON Lines or Parquet) into
// a catalog folder, resumable and updatable in place, with DuckDB as its build engine: the entity and link
// tables, the record stores, the serving database of @oqlkit/adapter-duckdb, the full-text search index, the
// text tagger and the work vectors. What a catalog folder is, is @oqlkit/catalog's.

export { DICTIONARY_EXAMPLES, recordCodingFor } from './build/record-store-assembler.ts'
export { StagingDatabase } from './build/staging-database.ts'
export { IngestError, type IngestErrorCode, isIngestError } from './ingest-error.ts'
export type {
  EntityIngestCounts,
  IngestPhase,
  IngestProgress,
  IngestProgressListener,
  IngestSummary,
} from './ingest-progress.ts'
export { type IngestOptions, ingestSnapshot } from './ingest-snapshot.ts'
export { recordExtractionSpecOf } from './parse/record-extraction-spec.ts'
export { recordExtractorOf } from './parse/record-extractor.ts'
export { planSnapshot } from './plan/snapshot-planner.ts'
export {
  DEFAULT_INDEX_MEMORY_LIMIT,
  type IndexCatalogSearchOptions,
  type IndexCatalogSearchResult,
  indexCatalogSearch,
} from './search/catalog-search-indexer.ts'
export { buildSearchIndex, type SearchBuildProgress } from './search/search-index-builder.ts'
export { readCatalogTrainingWorks } from './tagging/catalog-training-works.ts'
export { type BuildTextTaggerOptions, trainTextTagModel } from './tagging/text-tagger-builder.ts'
export { type BuildSession, connectionSession } from './texts/build-session.ts'
export { CatalogIndexError } from './texts/catalog-extension-builder.ts'
export { RecordTextsFiles, type RecordTextsThreads } from './texts/record-texts-file.ts'
export {
  type IndexCatalogVectorsOptions,
  type IndexCatalogVectorsResult,
  indexCatalogVectors,
} from './vectors/catalog-vector-indexer.ts'
export { readWorkTexts, type WorkText } from './vectors/work-text-reader.ts'
export type { VectorsChoice } from './vectors/work-vector-builder.ts'
