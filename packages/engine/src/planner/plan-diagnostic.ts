import type { EntityType } from '@oqlkit/oqo-schema/registry'

/** Stable codes of planning errors: a query that parses but cannot be run as asked. */
export const PLAN_CODES = {
  invalid_sort:
    'A sort field does not exist, cannot be sorted by, or has a bad direction (buckets of a group_by sort by key or count).',
  relevance_sort_requires_search: 'relevance_score sorting needs a search in the query.',
  relevance_sort_ascending: 'relevance_score sorts descending only.',
  invalid_per_page:
    "per_page is not an integer from 1 to the server's limit (200 unless its operator set another).",
  invalid_page: 'page is not a positive integer, or pages past 10,000 results were asked for.',
  invalid_cursor: 'The cursor is not one this server issued (or it belongs to another query).',
  cursor_with_page: 'cursor and page cannot be used together.',
  sample_with_sort: 'sample cannot be combined with sort or group_by.',
  sample_page_without_seed: 'Pages after the first of a sample need a seed, or they would overlap.',
  seed_without_sample: 'seed was given without sample.',
  invalid_select: 'A select field is not a top-level field of the entity, or select was used with group_by.',
  invalid_group_by: 'A group_by column cannot be grouped by, or more dimensions were asked for than allowed.',
  invalid_filter: 'A filter column cannot be used to filter.',
  invalid_sum: 'A total (apc_sum, cited_by_count_sum) was asked of an entity without the column it sums.',
  value_out_of_range: 'A filter number is larger than any stored value can be (past 2^53 - 1).',
  invalid_semantic_search:
    'A semantic search on an entity other than works, negated, in an OR, repeated, combined with a full-text search, or empty.',
  semantic_query_too_long: 'The semantic search text is longer than 2,000 characters.',
} as const

export type PlanCode = keyof typeof PLAN_CODES

/**
 * The rules whose refusal a request's layer words in its own terms (the HTTP layer names URL parameters
 * and routes): the planner says which rule and gives the values, as data.
 */
export type PlanRule =
  | 'bucket_sort_one_key'
  | 'relevance_needs_search'
  | 'seed_needs_sample'
  | 'sample_pages_need_seed'
  | 'page_past_depth'
  | 'cursor_not_issued'
  | 'sum_column_missing'
  | 'value_past_max'
  | 'semantic_on_works_only'
  | 'semantic_with_full_text'
  | 'semantic_text_empty'

export interface PlanDiagnostic {
  readonly code: PlanCode
  /** What was wrong and how to fix it, in words about the query (none about URLs or routes). */
  readonly message: string
  /** The rule refused, when a caller may word it itself (arktype's way: the words are the caller's). */
  readonly rule?: PlanRule
  /** The field or parameter at fault, as data. */
  readonly field?: string
  /** What it must be. */
  readonly expected?: string
  /** What it was. */
  readonly actual?: string
  /** Other values the words need (the sample's size, the page size, …). */
  readonly values?: Readonly<Record<string, string | number>>
  /** The request parameter at fault (`sort`, `per_page`, …), so a 400 can name it. */
  readonly parameter: string
  /**
   * The entity whose registry lists what is valid instead (its columns), when that is the fix: the HTTP
   * layer points the client to where it serves that list. Words about routes are the HTTP layer's.
   */
  readonly validIn?: EntityType
}
