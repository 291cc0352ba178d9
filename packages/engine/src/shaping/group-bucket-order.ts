import type { GroupBucket } from '../adapter/storage-adapter.ts'
import type { GroupOrder } from '../plan/query-plan.ts'
import type { RawGroupKey } from './group-key-labeler.ts'

const rank = (key: RawGroupKey): number =>
  key === null ? 3 : typeof key === 'boolean' ? 0 : typeof key === 'number' ? 1 : 2

/** Keys in ascending order: booleans (false first), numbers, text (by code unit); unknown last. */
export const compareGroupKeys = (left: RawGroupKey, right: RawGroupKey): number => {
  const byRank = rank(left) - rank(right)
  if (byRank !== 0 || left === null || right === null) return byRank
  if (left === right) return 0
  return left < right ? -1 : 1
}

const compareKeyLists = (left: readonly RawGroupKey[], right: readonly RawGroupKey[]): number => {
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const order = compareGroupKeys(left[index] ?? null, right[index] ?? null)
    if (order !== 0) return order
  }
  return 0
}

/**
 * Buckets in the requested order; ties broken by the keys ascending (as adapters do), so the order is
 * total. Unknown keys stay last when sorting by key in either direction, as nulls do for rows.
 */
export const orderBuckets = (buckets: readonly GroupBucket[], order: GroupOrder): GroupBucket[] => {
  const sign = order.direction === 'asc' ? 1 : -1
  return [...buckets].sort((left, right) => {
    if (order.by === 'count') {
      const byCount = (left.count - right.count) * sign
      return byCount !== 0 ? byCount : compareKeyLists(left.keys, right.keys)
    }
    const last = left.keys.at(-1) ?? null
    const otherLast = right.keys.at(-1) ?? null
    if ((last === null) !== (otherLast === null)) return last === null ? 1 : -1
    const byKey = compareKeyLists(left.keys, right.keys) * sign
    return byKey !== 0 ? byKey : right.count - left.count
  })
}
