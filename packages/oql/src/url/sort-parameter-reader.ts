import type { SortTerm } from '@oqlkit/oqo-schema'

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
