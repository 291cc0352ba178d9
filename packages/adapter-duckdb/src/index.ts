// The public API of @oqlkit/adapter-duckdb: what the server, the command line, the benchmarks and the tests of
// other packages use. The catalog layout and its manifest, snapshot ingest, the full-text search index, the
// DuckDB storage adapter that runs the engine's plans, the vectors of semantic search, the text tagger of a
// catalog. Text models themselves (tokenizer, LSA, the tagging model, the embeddings client) are
// @oqlkit/text-models; the file-backed key, meter and collection stores are @oqlkit/file-stores.

export {
  type CatalogEntity,
  type CatalogEntityInfo,
  catalogEntityInfo,
} from './catalog/catalog-entities.ts'
export {
  CATALOG_FORMAT_VERSION,
  type CatalogFile,
  type CatalogFormatVersion,
  type CatalogManifest,
  READABLE_CATALOG_FORMAT_VERSIONS,
} from './catalog/catalog-layout.ts'
export { type CatalogManifestResult, readCatalogManifest } from './catalog/catalog-manifest-reader.ts'
export { normalizeExternalId } from './catalog/external-id-schemes.ts'
export { fullOpenAlexId, LETTER_ID_PATTERN, shortOpenAlexId } from './catalog/openalex-id-normalizer.ts'
export { RECORD_CODEC_ID, RECORD_CODEC_IDS, type RecordCodecId } from './catalog/record-codec.ts'
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
export type { ColumnDialect } from './query/column-dialect.ts'
export {
  type ColumnMap,
  type ColumnSource,
  createColumnMap,
  formatGroupKey,
  type GroupKeyKind,
  type LinkSource,
  type ListSource,
  ownValuesOf,
  type ScalarSource,
} from './query/column-sources.ts'
export {
  CatalogOpenError,
  createDuckDbAdapter,
  type DuckDbAdapter,
  type DuckDbAdapterOptions,
} from './query/duckdb-adapter.ts'
export { type DuckDbDatabaseOptions, openDuckDbDatabase } from './query/duckdb-driver.ts'
export { selectRecordFields } from './query/record-field-selection.ts'
export { type RecordLocation, RecordStoreReader } from './query/record-store-reader.ts'
export { searchGroupsOf } from './query/search-groups.ts'
export { codecInputs, type ValueCodec, type ValueCodecs, valueCodecsFor } from './query/value-codecs.ts'
export { type CatalogWorkVectors, readCatalogWorkVectors } from './query/work-vector-loader.ts'
export {
  CatalogIndexError,
  type IndexCatalogSearchOptions,
  type IndexCatalogSearchResult,
  indexCatalogSearch,
} from './search/catalog-search-indexer.ts'
// What another engine needs to search the same index with the same scores (the ClickHouse adapter): the
// engine's search node as an index query, planned into index terms, and the index's fields and constants.
export {
  type CatalogSearchQuery,
  catalogSearchQuery,
  invalidAnySearchError,
  invalidSearchError,
} from './search/catalog-search-query.ts'
export { STORED_FIELDS, type WeightedField } from './search/search-fields.ts'
export type { SearchBuildProgress } from './search/search-index-builder.ts'
export {
  BM25_B,
  BM25_K1,
  MAX_WILDCARD_EXPANSIONS,
  SEARCH_MODES,
  type SearchEntityIndex,
  type SearchFieldStats,
  type SearchIndexManifest,
  type SearchMode,
} from './search/search-index-layout.ts'
export { searchIndexOf } from './search/search-index-manifest.ts'
export {
  estimatePostings,
  type NodePlan,
  planAnySearch,
  planSearch,
  type SequencePlan,
  type TokenPlan,
} from './search/search-plan.ts'
export { unindexedSearchPath } from './search/unindexed-search-fields.ts'
export { type BuildSession, connectionSession } from './sql/build-session.ts'
export { loadCatalogTagger } from './tagging/catalog-text-tagger.ts'
export { readCatalogTrainingWorks } from './tagging/catalog-training-works.ts'
export { type BuildTextTaggerOptions, trainTextTagModel } from './tagging/text-tagger-builder.ts'
export { type TextTaggerManifest, textTaggerOf } from './tagging/text-tagger-layout.ts'
export {
  type IndexCatalogVectorsOptions,
  type IndexCatalogVectorsResult,
  indexCatalogVectors,
} from './vectors/catalog-vector-indexer.ts'
export { isHeldOut } from './vectors/held-out-works.ts'
export {
  buildIvfIndex,
  type Int8RowSource,
  type IvfBuildOptions,
  type IvfBuildResult,
  type IvfCalibration,
  int8MemoryRowSource,
} from './vectors/ivf-index-builder.ts'
export { answersExactly, IvfVectorIndex, VectorIndexError } from './vectors/ivf-vector-index.ts'
export type { VectorIndexManifest } from './vectors/vector-index-layout.ts'
export { hasUnreadableVectors, vectorIndexOf } from './vectors/vector-index-manifest.ts'
export { readWorkTexts, type WorkText } from './vectors/work-text-reader.ts'
export type { VectorsChoice } from './vectors/work-vector-builder.ts'
export { type VectorCandidates, type VectorMatch, WorkVectorMatrix } from './vectors/work-vector-matrix.ts'
export { WorkVectorSearcher } from './vectors/work-vector-searcher.ts'
