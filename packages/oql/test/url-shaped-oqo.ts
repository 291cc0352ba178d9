import type { Filter, Oqo } from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import fc from 'fast-check'

const COMPARISONS = new Set(['<', '>', '<=', '>='])

/** The filter with the negation taken off its comparisons (a classic URL cannot negate `>` and the like). */
const withoutNegatedComparisons = (filter: Filter): Filter => {
  if ('filters' in filter) return { ...filter, filters: filter.filters.map(withoutNegatedComparisons) }
  if (filter.is_negated !== true || !COMPARISONS.has(filter.operator ?? 'is')) return filter
  const { is_negated: _, ...rest } = filter
  return rest as Filter
}

/**
 * OQOs shaped like classic URLs, so most of them have one: filters that are leaves at the top level (no
 * branches) and no negated comparison. Three draws in four; the fourth is any OQO of `oqoArbitrary()`, so
 * branches, ORs and the constructs a URL refuses still come up.
 */
export const urlShapedOqoArbitrary = (): fc.Arbitrary<Oqo> =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: oqoArbitrary({ maxDepth: 0 }).map((oqo) =>
        oqo.filter_rows === undefined
          ? oqo
          : { ...oqo, filter_rows: oqo.filter_rows.map(withoutNegatedComparisons) },
      ),
    },
    { weight: 1, arbitrary: oqoArbitrary() },
  )
