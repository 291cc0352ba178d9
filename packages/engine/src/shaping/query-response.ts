import type { EntityRecord } from '../adapter/storage-adapter.ts'

/**
 * One bucket of a grouped response, as the API writes it: the key in URL form for entity ids and
 * vocabulary codes (`https://openalex.org/I136199984`, `https://openalex.org/types/article`), the raw
 * value otherwise (`2020`, `true`), `unknown` for rows without a value; the key's display name; the
 * number of rows; and, with more than one dimension, the buckets of the next one inside it.
 */
export interface GroupView {
  readonly key: string
  readonly key_display_name: string
  readonly count: number
  readonly groups?: readonly GroupView[]
}

/** A page of entities: what an adapter returned, shaped for the API, with the paging facts of the envelope. */
export interface RowsResponse {
  readonly kind: 'rows'
  /** Rows that match (for a sample: the sample size, or fewer when fewer rows match). */
  readonly count: number
  /** The page number, or null under cursor paging. */
  readonly page: number | null
  readonly perPage: number
  /** Under cursor paging, the cursor of the next page, or null after the last; undefined otherwise. */
  readonly nextCursor: string | null | undefined
  readonly results: readonly EntityRecord[]
  /** The results as the adapter's stored UTF-8 JSON bytes, when they are those records unchanged. */
  readonly resultsJsonBytes?: readonly Uint8Array[]
  /** The totals the plan asked for, by their `meta` field (`apc_list_sum_usd`, …); absent when none. */
  readonly sums?: Readonly<Record<string, number>>
}

/** A page of group buckets. */
export interface GroupsResponse {
  readonly kind: 'groups'
  /** Rows that match the filter; with a bucket filter (`q`), the number of buckets kept. */
  readonly count: number
  /** Buckets there are in all (before paging). */
  readonly groupsCount: number
  readonly page: number | null
  readonly perPage: number
  readonly nextCursor: string | null | undefined
  readonly groups: readonly GroupView[]
  /** The totals the plan asked for, over the rows the filter keeps (not the buckets); absent when none. */
  readonly sums?: Readonly<Record<string, number>>
}

export type QueryResponse = RowsResponse | GroupsResponse
