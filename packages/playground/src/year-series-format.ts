// A year group-by as a time series for its line chart. Pure, so its tests need no browser.
import type { Bucket } from './list-envelope.ts'

/**
 * A year's count, every year from the first to the last: a year without rows has no bucket, and is
 * drawn as the 0 it is rather than bridged by the line.
 */
export const yearPoints = (buckets: readonly Bucket[]): { x: number; y: number }[] => {
  const counts = new Map<number, number>()
  for (const bucket of buckets) {
    const year = Number(bucket.key)
    if (Number.isInteger(year)) counts.set(year, bucket.count)
  }
  if (counts.size === 0) return []
  const years = [...counts.keys()]
  const first = Math.min(...years)
  const last = Math.max(...years)
  return Array.from({ length: last - first + 1 }, (_, index) => ({
    x: first + index,
    y: counts.get(first + index) ?? 0,
  }))
}
