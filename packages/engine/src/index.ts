// The public API of @oqlkit/engine: query plans, the planner, the storage adapter interface, result
// shaping and request costs. Pure: no DuckDB, no Redis, no HTTP, no `node:` imports.

export type {
  AdapterCapabilities,
  AutocompleteRequest,
  EntityRecord,
  ExternalIdScheme,
  GroupBucket,
  GroupsResult,
  LookupResult,
  RowsResult,
  StorageAdapter,
} from './adapter/storage-adapter.ts'
export { type CostClass, costClassOfPlan, costUsdOf, ENDPOINT_COSTS_USD } from './cost/request-cost.ts'
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
export {
  type CursorPage,
  DEFAULT_GROUP_ORDER,
  type GroupDimension,
  type GroupOrder,
  type OffsetPage,
  type QueryPlan,
  type SampleRequest,
  type SortDirection,
  type SortKey,
} from './plan/query-plan.ts'
export { decodeCursor, encodeCursor } from './planner/cursor-codec.ts'
export { GROUP_SORT_VALUES } from './planner/group-order-parser.ts'
export { PLAN_CODES, type PlanCode, type PlanDiagnostic } from './planner/plan-diagnostic.ts'
export {
  DEFAULT_PER_PAGE,
  groupSignatureOf,
  MAX_GROUP_DIMENSIONS,
  MAX_PAGE_DEPTH,
  MAX_PER_PAGE,
  type PlanResult,
  planQuery,
  sortSignatureOf,
  type ViewParameters,
} from './planner/plan-query.ts'
export { selectableFields, unknownSelectFields, writeUnknownSelectMessage } from './planner/select-fields.ts'
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
export { isQueryLimitError, QueryLimitError } from './shaping/query-limit-error.ts'
export type { GroupsResponse, GroupView, QueryResponse, RowsResponse } from './shaping/query-response.ts'
