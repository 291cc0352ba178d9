// The public API of @oqlkit/engine: query plans, the planner, and the storage adapter interface.
// Pure: no DuckDB, no Redis, no HTTP, no `node:` imports.

export type {
  AdapterCapabilities,
  EntityRecord,
  ExternalIdScheme,
  GroupBucket,
  GroupsResult,
  LookupResult,
  RowsResult,
  StorageAdapter,
} from './adapter/storage-adapter.ts'
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
export type {
  CursorPage,
  GroupDimension,
  OffsetPage,
  QueryPlan,
  SampleRequest,
  SortDirection,
  SortKey,
} from './plan/query-plan.ts'
export { decodeCursor, encodeCursor } from './planner/cursor-codec.ts'
export { PLAN_CODES, type PlanCode, type PlanDiagnostic } from './planner/plan-diagnostic.ts'
export {
  DEFAULT_PER_PAGE,
  MAX_GROUP_DIMENSIONS,
  MAX_PAGE_DEPTH,
  MAX_PER_PAGE,
  type PlanResult,
  planQuery,
  sortSignatureOf,
  type ViewParameters,
} from './planner/plan-query.ts'
