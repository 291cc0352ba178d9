// The WebAssembly kernel against the products computed plainly in JavaScript: exact integer sums for the
// rounded query, at the extremes of int8 rows and of query scale, any block of rows, and within its stated
// error of the float product.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Int8RowKernel, KERNEL_BLOCK_ROWS, kernelOf } from '../src/vectors/int8-dot-kernel.ts'
import { int8RowDot } from '../src/vectors/nearest-rows.ts'
import { allocateMatrixValues, WorkVectorMatrix } from '../src/vectors/work-vector-matrix.ts'

/** The query the kernel scores against: each component rounded at its scale. */
const roundedQuery = (query: Float32Array, scale: number): number[] =>
  Array.from(query, (value) => Math.round(value * scale))

describe('Int8RowKernel', () => {
  it('gives the exact integer product of every row with the rounded query, from any row, at the extremes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(16, 32, 256, 1536),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 1_000 }),
        fc.boolean(),
        (width, rows, seed, extreme) => {
          const kernel = Int8RowKernel.create(rows, width)!
          // Extreme rows are all -128 or 127 against a query of one sign: the largest sums a row can make.
          for (let at = 0; at < kernel.values.length; at++)
            kernel.values[at] = extreme
              ? seed % 2 === 0
                ? 127
                : -128
              : ((at * 7919 + seed * 104_729) % 256) - 128
          const query = Float32Array.from({ length: width }, (_, k) =>
            extreme ? 1 : Math.sin(k * 1.7 + seed) * (k % 5 === 0 ? 1e4 : 1),
          )
          const scale = kernel.setQuery(query)
          expect(scale).toBeGreaterThan(0)
          const rounded = roundedQuery(query, scale)
          const from = seed % rows
          const scores = kernel.score(from, rows - from)
          for (let row = from; row < rows; row++) {
            let sum = 0
            for (let k = 0; k < width; k++) sum += kernel.values[row * width + k]! * rounded[k]!
            expect(scores[row - from]).toBe(sum)
          }
        },
      ),
      { numRuns: 120 },
    )
  })

  it('scores rows given by number, in any order and repeated, as it scores them in place', () => {
    const kernel = Int8RowKernel.create(50, 32)!
    for (let at = 0; at < kernel.values.length; at++) kernel.values[at] = ((at * 131) % 255) - 127
    kernel.setQuery(Float32Array.from({ length: 32 }, (_, k) => Math.cos(k)))
    const inPlace = [...kernel.score(0, 50)]
    const rows = Int32Array.from([49, 0, 7, 7, 23, 1])
    expect([...kernel.scoreRows(rows, 1, 4)]).toEqual([0, 7, 7, 23].map((row) => inPlace[row]))
    expect(() => kernel.scoreRows(Int32Array.from([50]), 0, 1)).toThrow(RangeError)
    expect(() => kernel.scoreRows(rows, 4, 3)).toThrow(RangeError)
  })

  it('is within its error bound of the float product', () => {
    const width = 256
    const rows = 2_000
    const kernel = Int8RowKernel.create(rows, width)!
    for (let at = 0; at < kernel.values.length; at++) kernel.values[at] = ((at * 2_654_435_761) >>> 24) - 128
    const query = Float32Array.from({ length: width }, (_, k) => Math.cos(k * 0.37) / 11)
    const scale = kernel.setQuery(query)
    const scores = kernel.score(0, rows)
    let largestShare = 0
    for (let row = 0; row < rows; row++) {
      const values = kernel.values.subarray(row * width, (row + 1) * width)
      const norm = Math.hypot(...values)
      const error = Math.abs(scores[row]! / scale - int8RowDot(kernel.values, row * width, query, width))
      expect(error).toBeLessThanOrEqual(kernel.errorBound(norm))
      largestShare = Math.max(largestShare, error / kernel.errorBound(norm))
    }
    // The bound is not loose by orders of magnitude: some rows come within a tenth of it.
    expect(largestShare).toBeGreaterThan(0.01)
  })

  it('scores a zero query as zero with scale 0, and refuses widths it cannot read and ranges it does not hold', () => {
    const kernel = Int8RowKernel.create(3, 16)!
    kernel.values.fill(5)
    expect(kernel.setQuery(new Float32Array(16))).toBe(0)
    expect([...kernel.score(0, 3)]).toEqual([0, 0, 0])
    expect(kernel.errorBound(10)).toBe(0)
    expect(Int8RowKernel.create(10, 8)).toBeUndefined()
    expect(Int8RowKernel.create(10, 0)).toBeUndefined()
    // More than WebAssembly memory can hold: no kernel, so the caller scores in JavaScript.
    expect(Int8RowKernel.create(2 ** 26, 256)).toBeUndefined()
    expect(() => kernel.score(2, 2)).toThrow(RangeError)
    expect(() => kernel.score(0, KERNEL_BLOCK_ROWS + 1)).toThrow(RangeError)
    expect(() => kernel.setQuery(new Float32Array(8))).toThrow(RangeError)
  })

  it('holds the rows a loader reads into allocateMatrixValues, which a matrix then scans without a copy', () => {
    const values = allocateMatrixValues(4, 32)
    expect(kernelOf(values)).toBeDefined()
    values.set(Int8Array.from({ length: 128 }, (_, at) => (at % 7) - 3))
    const norms = Float32Array.from({ length: 4 }, (_, row) =>
      Math.hypot(...values.subarray(row * 32, row * 32 + 32)),
    )
    const matrix = new WorkVectorMatrix(['W1', 'W2', 'W3', 'W4'], values, norms, 32)
    expect(matrix.values).toBe(values)
    // Widths the kernel cannot read are kept as given.
    const odd = new Int8Array(6).fill(1)
    expect(new WorkVectorMatrix(['W1', 'W2'], odd, new Float32Array(2).fill(Math.sqrt(3)), 3).values).toBe(
      odd,
    )
    expect(kernelOf(allocateMatrixValues(2, 3))).toBeUndefined()
  })
})
