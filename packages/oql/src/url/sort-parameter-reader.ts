/** Which way a sort term orders: ascending unless the URL writes `:desc`. */
export type SortDirection = 'asc' | 'desc'

/**
 * One comma-separated term of a `sort` parameter (`cited_by_count:desc`), read for its syntax only: which
 * fields may sort which entity is the planner's knowledge, not the URL's.
 */
export interface SortTerm {
  /** The term as written, trimmed (`cited_by_count:desc`), for messages. */
  readonly text: string
  /** What comes before the first colon. */
  readonly field: string
  /** The direction written after the colon (`asc` when none is), even when it is not a direction. */
  readonly writtenDirection: string
  /**
   * `asc` or `desc`; `null` when the term's direction is neither, or the term has a second colon
   * (`year:desc:x`): the caller says what was wrong, in the words of its own context.
   */
  readonly direction: SortDirection | null
}

/**
 * Reads a classic `sort` parameter (`field[:asc|desc]`, comma-separated) into its terms, in the order
 * written; empty terms (`a,,b`, a trailing comma) are dropped. The one reader of this syntax, for row sorts
 * and for the bucket sort of a group_by alike.
 */
export const readSortParameter = (sort: string | undefined): readonly SortTerm[] =>
  (sort ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map((text) => {
      const [field = '', writtenDirection = 'asc', ...extra] = text.split(':')
      const direction =
        extra.length === 0 && (writtenDirection === 'asc' || writtenDirection === 'desc')
          ? writtenDirection
          : null
      return { text, field, writtenDirection, direction }
    })
