import type { EntityType, SortDirection } from '@oqlkit/oqo-schema/registry'
import type { ColumnRef, FilterNode } from './filter-node.ts'

// The typed view's sort terms are the language's (oqo-schema), read by oql and planned here.
export type { SortDirection, SortTerm } from '@oqlkit/oqo-schema'

/**
 * One sort key. `relevance_score` sorts by search relevance and needs a search in the filter; `id` is
 * the entity's own id, the tiebreak that makes every order total.
 */
export interface SortKey {
  readonly column: ColumnRef | 'relevance_score' | 'id'
  readonly direction: SortDirection
}

/** Page by number: rows `(page - 1) * perPage` onwards. */
export interface OffsetPage {
  readonly kind: 'offset'
  readonly page: number
  readonly perPage: number
}

/**
 * Page by cursor (keyset): rows strictly after the sort-key values of the last row of the previous
 * page (`after`), or from the start when `after` is null (`cursor=*`). Group buckets and the rows of a
 * sample have no sort keys of their own, so in a plan with `groupBy` or `sample` a cursor's `after` is
 * `[offset]`: the number of buckets or rows earlier pages returned (the engine pages them by position and
 * hands the adapter an offset page).
 */
export interface CursorPage {
  readonly kind: 'cursor'
  readonly after: readonly unknown[] | null
  readonly perPage: number
}

export interface SampleRequest {
  readonly size: number
  /** The same seed gives the same sample of the same rows; null draws a new sample each time. */
  readonly seed: string | null
}

export interface GroupDimension {
  readonly column: ColumnRef
  /** Whether rows without a value form an "unknown" bucket. */
  readonly includeUnknown: boolean
}

/**
 * How group buckets are ordered: by their row count or by their key. Ties are broken by the key,
 * ascending, so the order is total and pages of buckets do not overlap.
 */
export interface GroupOrder {
  readonly by: 'count' | 'key'
  readonly direction: SortDirection
}

/** The order buckets come in when the request names none. */
export const DEFAULT_GROUP_ORDER: GroupOrder = Object.freeze({ by: 'count', direction: 'desc' })

/**
 * A total a response carries in `meta` beside its page: the sum of a numeric column over every row the
 * query's filter keeps (`apc_sum=true` gives `apc_list_sum_usd` and `apc_paid_sum_usd`).
 */
export interface ColumnSum {
  /** The `meta` field it fills. */
  readonly name: string
  readonly column: ColumnRef
}

/** A whole query, ready for an adapter: what rows, in what order, which page, and how grouped. */
export interface QueryPlan {
  readonly kind: 'query'
  readonly entity: EntityType
  readonly corpus: 'core' | 'expansion' | 'all'
  readonly filter: FilterNode | null
  /** Always ends with `id`, so every order is total and cursors are stable. */
  readonly sort: readonly SortKey[]
  readonly page: OffsetPage | CursorPage
  readonly sample: SampleRequest | null
  /** Top-level fields to return, or null for whole records. */
  readonly select: readonly string[] | null
  readonly groupBy: readonly GroupDimension[]
  /** The order of the buckets of a grouped plan (count descending unless asked otherwise). */
  readonly groupOrder: GroupOrder
  /** Totals over the whole result for `meta` (absent or empty: none), answered by `sumColumns`. */
  readonly sums?: readonly ColumnSum[]
}
