// The view of a query: how its rows are ordered, shaped and paged. It travels beside the OQO rather than in
// it, so its typed form lives here, where the language's readers (oql) and the planner (engine) both stand:
// oql reads a request's text into it once, the engine plans from it.

/** Which way a sort orders. */
export type SortDirection = 'asc' | 'desc'

/**
 * One term of a requested sort (`cited_by_count:desc`), read for its syntax only: which fields may sort which
 * entity is the planner's knowledge, not the reader's.
 */
export interface SortTerm {
  /** What comes before the first colon. */
  readonly field: string
  /**
   * `asc` or `desc`; `null` when the term's direction is neither, or the term has a second colon
   * (`year:desc:x`): whoever meets it says what was wrong, in the words of its own context.
   */
  readonly direction: SortDirection | null
  /** The term as written (`cited_by_count:up`), for messages about it; the field when not given. */
  readonly text?: string
  /** What was written where the direction goes (`up`), for messages about it. */
  readonly writtenDirection?: string
}

/** The view of a query, typed: its sort terms in the order asked, the fields selected, and its paging. */
export interface QueryView {
  /**
   * Given even when empty (`sort=,`) if the request wrote a sort, which a sample refuses.
   */
  readonly sort?: readonly SortTerm[]
  readonly select?: readonly string[]
  readonly page?: number
  readonly perPage?: number
  /** `*` for the first page of cursor paging, then a cursor the server issued. */
  readonly cursor?: string
}
