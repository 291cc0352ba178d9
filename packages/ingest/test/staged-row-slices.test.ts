// The slices the ranged sort splits staged rows in: consecutive small parts share one, a large part is cut,
// and every staged row of the entity is in exactly one slice (the ranged build's row count check would
// catch a lost row; this names the slice that lost it).
import { describe, expect, it } from 'vitest'
import { type StagedPart, type StagedRowSlice, stagedRowSlices } from '../src/build/staged-row-slices.ts'

const part = (firstSeq: number, records: number, bytes: number): StagedPart => ({
  firstSeq: BigInt(firstSeq),
  records,
  bytes,
})

/** The staging numbers each slice holds of the parts' rows, in order. */
const rowsPerSlice = (parts: readonly StagedPart[], slices: readonly StagedRowSlice[]) =>
  slices.map(([first, last]) =>
    parts.flatMap((p) =>
      Array.from({ length: p.records }, (_, at) => p.firstSeq + BigInt(at)).filter(
        (seq) => seq >= first && seq <= last,
      ),
    ),
  )

describe('stagedRowSlices', () => {
  it('puts consecutive small parts in one slice up to the slice size, in order of their numbers', () => {
    // Staged out of order (parse workers finish in any order), other entities' numbers between them.
    const parts = [part(300, 10, 40), part(1, 10, 40), part(100, 10, 40), part(500, 10, 40)]
    expect(stagedRowSlices(parts, 100)).toEqual([
      [1n, 109n],
      [300n, 509n],
    ])
  })

  it('cuts a part larger than a slice into pieces of equal record counts, alone in their slices', () => {
    const parts = [part(1, 5, 10), part(10, 100, 350), part(200, 5, 10)]
    expect(stagedRowSlices(parts, 100)).toEqual([
      [1n, 5n],
      [10n, 34n],
      [35n, 59n],
      [60n, 84n],
      [85n, 109n],
      [200n, 204n],
    ])
  })

  it('covers every staged row exactly once, and skips parts with no rows', () => {
    const parts = [part(1, 7, 30), part(8, 0, 0), part(20, 13, 90), part(40, 1, 5), part(41, 50, 400)]
    const slices = stagedRowSlices(parts, 64)
    const covered = rowsPerSlice(parts, slices).flat()
    const staged = parts.flatMap((p) => Array.from({ length: p.records }, (_, at) => p.firstSeq + BigInt(at)))
    expect(covered).toEqual(staged)
    expect(new Set(covered).size).toBe(covered.length)
  })

  it('has no slice for an entity with no staged rows', () => {
    expect(stagedRowSlices([], 100)).toEqual([])
  })
})
