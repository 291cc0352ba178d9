// A test expectation for JSON values (what `JSON.parse` makes): the conformance suite compares whole records
// with it, where vitest's \`toEqual\` alone was a fifth of the DuckDB conformance file's time.
import { expect } from 'vitest'

/**
 * Whether two JSON values (what `JSON.parse` makes) are the same: the same primitives, arrays of the same
 * values in order, plain objects with the same keys and values. Anything else counts as different.
 */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((value, index) => sameJson(value, b[index]))
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype)
    return false
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  const right = b as Record<string, unknown>
  return keys.every(
    (key) => Object.hasOwn(right, key) && sameJson((a as Record<string, unknown>)[key], right[key]),
  )
}

/**
 * `actual` equals `expected`, both JSON values (records, lists of them). `sameJson` decides first: vitest's
 * `toEqual` over whole records (18 KB a work in the sample) was a fifth of the DuckDB conformance file's
 * time. Values it finds the same are `toEqual` too; on a difference `toEqual` runs, to judge and report it.
 */
export const expectSameJson = (actual: unknown, expected: unknown, message?: string): void => {
  if (!sameJson(actual, expected)) expect(actual, message).toEqual(expected)
}
