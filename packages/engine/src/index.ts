// The public API of @oqlkit/engine: query plans, the planner, the storage adapter interface, result
// shaping, request costs and metering (keys, budgets, rate limits). Pure: no DuckDB, no Redis, no HTTP,
// no `node:` imports.

export { lookupEntities, MAX_LOOKUP_IDS } from './adapter/bulk-lookup.ts'
export {
  type InterruptReason,
  isQueryInterruptedError,
  QueryInterruptedError,
  throwIfInterrupted,
} from './adapter/query-interrupted-error.ts'
export { settlesWithin } from './adapter/settles-within.ts'
export type {
  AdapterCapabilities,
  AutocompleteRequest,
  Citation,
  CitationDirection,
  CitationsResult,
  EntityRecord,
  ExternalIdScheme,
  GroupBucket,
  GroupsResult,
  LookupKey,
  LookupOptions,
  LookupResult,
  QueryOptions,
  RowsResult,
  StorageAdapter,
} from './adapter/storage-adapter.ts'
export {
  isUnsupportedPlanError,
  UnsupportedPlanError,
  type UnsupportedPlanReason,
} from './adapter/unsupported-plan-error.ts'
export {
  type CollectionEntityId,
  DEFAULT_ID_BASE,
  entityIdUrl,
  readCollectionEntityId,
} from './collections/collection-entity-id.ts'
export {
  COLLECTION_ERROR_CODES,
  CollectionError,
  type CollectionErrorCode,
  type CollectionErrorKind,
  collectionErrorKindOf,
  isCollectionError,
  writeCollectionNotFoundMessage,
  writeForbiddenCollectionMessage,
} from './collections/collection-error.ts'
export {
  type CollectionLookup,
  hasCollectionFilters,
  refuseCollectionSearches,
  resolveCollectionFilters,
} from './collections/collection-filter-resolver.ts'
export {
  type CollectionChanges,
  type CollectionInput,
  collectionFullError,
  looksLikeUrl,
  readCollectionChanges,
  readCollectionInput,
  readDescription,
  readDisplayName,
  readEntityIds,
  readEntityType,
} from './collections/collection-input-reader.ts'
export * from './collections/collection-record.ts'
export {
  type AdminQuery,
  type CollectionCaller,
  CollectionService,
  type CollectionServiceOptions,
  type PageRequest,
  type ResolvedCollection,
} from './collections/collection-service.ts'
export {
  CollectionLogError,
  type CollectionOperation,
  CollectionState,
  type Decision,
  type StoredCollection,
} from './collections/collection-state.ts'
export type {
  AddResult,
  CollectionDraft,
  CollectionQuery,
  CollectionStore,
  CollectionUpdate,
  RemoveResult,
} from './collections/collection-store.ts'
export { createMemoryCollectionStore } from './collections/memory-collection-store.ts'
export { englishProfanityFilter, type ProfanityFilter } from './collections/profanity-filter.ts'
export { type PlanWorkload, workloadOfPlan } from './cost/plan-workload.ts'
export { type CostClass, costClassOfPlan, costUsdOf, ENDPOINT_COSTS_USD } from './cost/request-cost.ts'
export {
  type Embedder,
  EmbedderError,
  type EmbedderFailure,
  type EmbedderIdentity,
  embeddersMatch,
  isEmbedderError,
  unitVector,
  writeEmbedderMismatchMessage,
} from './embedding/embedder.ts'
export { SEMANTIC_SEARCH_LIMITS } from './embedding/semantic-search-limits.ts'
export {
  API_KEY_PATTERN,
  type ApiKeyRecord,
  apiKeyIdOf,
  generateApiKey,
  hashApiKey,
  ISSUED_KEY_PREFIX,
  isWellFormedApiKey,
  maskApiKey,
} from './metering/api-key.ts'
export { allowanceOf, type Caller, subjectOf } from './metering/caller-allowance.ts'
export {
  type ChargeDecision,
  countersOn,
  decideCharge,
  prepaidAvailableMicroUsd,
  type RateWindowState,
  refundCounters,
} from './metering/charge-decision.ts'
export { classRateOf, classRateSubject } from './metering/class-rate-limit.ts'
export {
  type KeyGrant,
  type KeysFileReading,
  keyGrantProblems,
  keyRecordOf,
  readApiKeyRecord,
  readKeysFile,
  storedBudgetOf,
} from './metering/key-record-reader.ts'
export {
  compareKeyRecords,
  createMemoryKeyStore,
  type KeyStore,
  layerKeyStores,
  liveKeyRecord,
} from './metering/key-store.ts'
export {
  createMemoryMeterStore,
  MeterLedger,
  type MeterLogEntry,
  readMeterLogEntry,
} from './metering/meter-ledger.ts'
export type * from './metering/meter-store.ts'
export {
  DEFAULT_METERING_LIMITS,
  fromMicroUsd,
  type MeteringLimits,
  MICRO_USD_PER_USD,
  MS_PER_DAY,
  nextUtcMidnightMs,
  secondsUntilUtcMidnight,
  toMicroUsd,
  utcDayOf,
} from './metering/metering-limits.ts'
export { type UsageSummary, usageSummary } from './metering/usage-summary.ts'
export {
  filterWithout,
  type LeafKind,
  leavesOf,
  type PlacedLeaf,
  searchNodesOf,
} from './plan/filter-leaves.ts'
export {
  type AndNode,
  type CollectionNode,
  type ColumnRef,
  type ComparisonNode,
  type ComparisonOperator,
  type FilterNode,
  type FilterNodeKind,
  FilterNodes,
  type FilterValue,
  type FilterVisitor,
  type InListNode,
  type MissingNode,
  type NotNode,
  type OrNode,
  type SearchMode,
  type SearchNode,
  visitFilter,
} from './plan/filter-node.ts'
export * from './plan/query-plan.ts'
export { decodeCursor, encodeCursor } from './planner/cursor-codec.ts'
export { GROUP_SORT_VALUES } from './planner/group-order-parser.ts'
export { PLAN_CODES, type PlanCode, type PlanDiagnostic, type PlanRule } from './planner/plan-diagnostic.ts'
export {
  CURSOR_SAMPLE_SEED,
  DEFAULT_GROUPS_PER_PAGE,
  DEFAULT_MAX_PER_PAGE,
  DEFAULT_PER_PAGE,
  groupSignatureOf,
  MAX_GROUP_DIMENSIONS,
  MAX_PAGE_DEPTH,
  type PlanOptions,
  type PlanResult,
  planQuery,
  SUM_PARAMETERS,
  type SumParameter,
  sampleSignatureOf,
  sortSignatureOf,
  type ViewParameters,
} from './planner/plan-query.ts'
export { selectableFields, unknownSelectFields, writeUnknownSelectMessage } from './planner/select-fields.ts'
export { checkSemanticSearch, semanticSearchOf } from './planner/semantic-search-rules.ts'
export {
  AUTOCOMPLETE_ENTITY_NAMES,
  type AutocompleteResult,
  toAutocompleteResult,
  WORKS_FILTER_KEYS,
} from './shaping/autocomplete-result.ts'
export { type AutocompleteQuery, autocompleteEntities } from './shaping/autocomplete-search.ts'
export { autocompleteTier, normalizeAutocompleteText } from './shaping/autocomplete-text.ts'
export { findDisplayNames } from './shaping/display-name-lookup.ts'
export { selectFields, shapeEntity } from './shaping/entity-shaper.ts'
export {
  type ExecuteOptions,
  executeQuery,
  MAX_BUCKETS_IN_MEMORY,
  type PlannedQuery,
} from './shaping/execute-query.ts'
export { compareGroupKeys, orderBuckets } from './shaping/group-bucket-order.ts'
export { type GroupKeyLabel, labelGroupKeys, type RawGroupKey } from './shaping/group-key-labeler.ts'
export { pickJsonMembers } from './shaping/json-member-picker.ts'
export { isQueryLimitError, QueryLimitError } from './shaping/query-limit-error.ts'
export type { GroupsResponse, GroupView, QueryResponse, RowsResponse } from './shaping/query-response.ts'
export {
  DEFAULT_STREAM_BATCH_SIZE,
  type RowBatch,
  type RowStreamOptions,
  streamRows,
} from './shaping/row-stream.ts'
export {
  MAP_KEYS_THRESHOLD,
  RowShapes,
  type ShapedColumn,
  shapeOfValueKind,
  type ValueShape,
} from './shaping/row-value-shapes.ts'
export {
  MAX_SNOWBALL_DEPTH,
  MAX_SNOWBALL_NODES,
  MAX_SNOWBALL_SEEDS,
  SNOWBALL_DIRECTIONS,
  type SnowballDirection,
  type SnowballEdge,
  type SnowballNode,
  type SnowballRequest,
  type SnowballResult,
  snowballWorks,
} from './snowball/citation-snowball.ts'
export { isSnowballTooLargeError, SnowballTooLargeError } from './snowball/snowball-graph.ts'
export {
  TAG_KINDS,
  type Tag,
  type Tagger,
  type TaggingInput,
  type TagKind,
  TEXT_TAGGING_LIMITS,
  taggingInputLength,
} from './tagging/tagger.ts'
