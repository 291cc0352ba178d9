// The public API of @oqlkit/catalog: the catalog format, storage-neutral, for both storage adapters and for
// ingest. The layout and manifest of a catalog folder (layout/), its records (records/), the column map in a
// dialect-neutral form and the SQL text helpers of every compiler (columns/, sql/), the search index's layout
// and planner (search/), the vector index and the text tagger of a catalog (vectors/, tagging/). What reading
// one record takes is also `@oqlkit/catalog/records`, for worker threads (records/index.ts).
export type { ColumnDialect } from './columns/column-dialect.ts'
export {
  type ColumnSource,
  formatGroupKey,
  type GroupKeyKind,
  type LinkSource,
  type ListSource,
  ownValuesOf,
  type ScalarSource,
} from './columns/column-source-shapes.ts'
export {
  type ColumnMap,
  catalogEntityInfoOf,
  catalogEntityOf,
  createColumnMap,
} from './columns/column-sources.ts'
export {
  linkExtremeColumnsOf,
  linkViewOf,
  narrowLinkKeyLetter,
  narrowLinkTableOf,
} from './columns/link-view-names.ts'
export { codecInputs, type ValueCodec, type ValueCodecs, valueCodecsFor } from './columns/value-codecs.ts'
export {
  CATALOG_FORMAT,
  CATALOG_FORMAT_VERSION,
  CATALOG_MANIFEST_FILE,
  type CatalogColumn,
  type CatalogEntityTable,
  type CatalogFile,
  type CatalogFormatVersion,
  type CatalogIngestRecord,
  type CatalogLinkTable,
  type CatalogManifest,
  type CatalogRecordStore,
  type CatalogTable,
  DELETED_ID_COLUMNS,
  DELETED_IDS_FILE,
  ENTITIES_DIR,
  ENTITY_ID_COLUMNS,
  ENTITY_TAIL_COLUMNS,
  EXTERNAL_ID_COLUMNS,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  IDS_DIR,
  LINK_COLUMNS,
  LINKS_DIR,
  linkFilePath,
  MERGED_ID_COLUMNS,
  MERGED_IDS_FILE,
  READABLE_CATALOG_FORMAT_VERSIONS,
  RECORDS_DIR,
  recordDictionaryPath,
  recordStorePath,
  SEARCH_DIR,
  SERVING_DATABASE_FILE,
  type SnapshotLayout,
  type SnapshotVersionRecord,
} from './layout/catalog-layout.ts'
export {
  type CatalogManifestResult,
  isCatalogRelativePath,
  readCatalogManifest,
} from './layout/catalog-manifest-reader.ts'
export { type CatalogVersion, catalogVersionOf } from './layout/catalog-version.ts'
export { type DerivedColumn, derivedColumnsOf } from './layout/entity-columns.ts'
export {
  type CatalogIdOrder,
  catalogIdOrder,
  ID_NUMBER_COLUMN,
  idOrderColumns,
  idOrderSql,
  letterIdComparator,
  letterIdOrderSql,
  PLAIN_LETTER_ID_PATTERN,
} from './layout/entity-id-order.ts'
export { LINK_TABLES, type LinkKeyTransform, type LinkTableSpec } from './layout/link-tables.ts'
export { type BulkLookupSteps, lookUpMany } from './records/bulk-lookup-steps.ts'
export * from './records/index.ts'
export { foundRecord, MISSING_RECORD } from './records/lookup-results.ts'
export { selectRecordFields } from './records/record-field-selection.ts'
export { type RecordLocation, RecordStoreReader } from './records/record-store-reader.ts'
export { type RecordLocations, RecordTextsReader, TEXT_KEYS } from './records/record-texts-reader.ts'
export { RecordTextsWorkerPool } from './records/record-texts-worker-pool.ts'
export { type ZstdBackend, zstdBackend } from './records/zstd-backend.ts'
export {
  type CatalogSearchQuery,
  catalogSearchQuery,
  invalidAnySearchError,
  invalidSearchError,
} from './search/catalog-search-query.ts'
export {
  SEARCHABLE_ENTITIES,
  STORED_FIELDS,
  type StoredField,
  storedFieldsOf,
  type WeightedField,
} from './search/search-fields.ts'
export { onlySearchesOf, searchGroupsOf } from './search/search-groups.ts'
export {
  BM25_B,
  BM25_K1,
  FREQUENT_TERMS,
  MAX_WILDCARD_EXPANSIONS,
  MIN_FREQUENT_ROWS,
  postingsFilesOf,
  SEARCH_INDEX_FORMAT,
  SEARCH_INDEX_FORMAT_VERSION,
  SEARCH_MODES,
  SEARCH_STEMMER_ID,
  SEARCH_TOKENIZER_ID,
  SEGMENT_GAP,
  type SearchDelta,
  type SearchEntityIndex,
  type SearchFieldStats,
  type SearchIndexFileKind,
  type SearchIndexManifest,
  type SearchMode,
  searchEntityDir,
  searchFilePath,
  searchIndexManifest,
} from './search/search-index-layout.ts'
export { hasUnreadableSearchIndex, searchIndexOf, withSearchIndex } from './search/search-index-manifest.ts'
export {
  estimatePostings,
  type NodePlan,
  planAnySearch,
  planSearch,
  prefixEnd,
  type SequencePlan,
  type TokenPlan,
} from './search/search-plan.ts'
export {
  allOf,
  anyOf,
  not,
  phrase,
  proximity,
  type SearchNode,
  type SearchProblem,
  type SearchProblemCode,
  type SearchQuery,
  word,
} from './search/search-query.ts'
export { searchMatchOfText } from './search/search-text-parser.ts'
export { unindexedSearchPath } from './search/unindexed-search-fields.ts'
export type * from './sql/compiled-query.ts'
export {
  boundList,
  comparisonOperatorOf,
  compileSqlFilter,
  filterSourceOf,
  normalisedList,
  type RangeOperator,
  type SqlDialect,
  sqlFilterVisitor,
} from './sql/filter-compiler.ts'
export { bucketOrder, type GroupedValues, groupedValuesOf } from './sql/group-keys.ts'
export { SearchRelationWriter } from './sql/search-relation-writer.ts'
export {
  type CompiledSortKey,
  compileSortKey,
  keysetAfter,
  pageOffset,
  type SortKeyDialect,
  type SortKeyTerm,
  type SortKeyType,
  sortKeyOutput,
  sortKeysOrder,
  sortKeyTypeOf,
} from './sql/sort-keys.ts'
export {
  FALSE_SQL,
  joinSql,
  param,
  paramList,
  raw,
  type SqlFragment,
  sql,
  TRUE_SQL,
  toStatement,
} from './sql/sql-fragment.ts'
export { constantLiteral, quoteIdentifier, quoteJsonMember, sqlInteger } from './sql/sql-text.ts'
export { loadCatalogTagger } from './tagging/catalog-text-tagger.ts'
export {
  TEXT_TAGGER_FORMAT,
  TEXT_TAGGER_FORMAT_VERSION,
  TEXT_TAGGER_MODEL_FILE,
  type TextTaggerManifest,
  textTaggerOf,
  withTextTagger,
} from './tagging/text-tagger-layout.ts'
export {
  OrderedReplyPool,
  type OrderedReplyPoolOptions,
} from './threads/ordered-reply-pool.ts'
export { startWorker } from './threads/worker-start.ts'
export { stopWorker } from './threads/worker-stop.ts'
export { loadCatalogEmbedder, useLiteEmbedderFor } from './vectors/catalog-embedder.ts'
export { isHeldOut } from './vectors/held-out-works.ts'
export {
  buildIvfIndex,
  type Int8RowSource,
  type IvfBuildOptions,
  type IvfBuildResult,
  type IvfCalibration,
  int8FileRowSource,
  int8MemoryRowSource,
} from './vectors/ivf-index-builder.ts'
export { decodeIvfIndex, encodeIvfIndex, ivfIndexFileBytes } from './vectors/ivf-index-file.ts'
export { answersExactly, IvfVectorIndex, VectorIndexError } from './vectors/ivf-vector-index.ts'
export {
  type LsaModelRecord,
  VECTOR_INDEX_FORMAT,
  VECTOR_INDEX_FORMAT_VERSION,
  VECTOR_QUANTIZATION,
  VECTORS_DIR,
  type VectorEmbedderRecord,
  type VectorIndexManifest,
  type VectorListIndexDeclined,
  type VectorListIndexRecord,
  WORK_VECTOR_LIST_INDEX_FILE,
  WORK_VECTOR_MATRIX_FILE,
  WORK_VECTORS_FILE,
} from './vectors/vector-index-layout.ts'
export { hasUnreadableVectors, vectorIndexOf, withVectorIndex } from './vectors/vector-index-manifest.ts'
export { quantizeVector } from './vectors/vector-quantizer.ts'
export {
  allocateMatrixValues,
  type VectorCandidates,
  type VectorMatch,
  WorkVectorMatrix,
} from './vectors/work-vector-matrix.ts'
export { WorkVectorSearcher } from './vectors/work-vector-searcher.ts'
