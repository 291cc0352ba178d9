// The in-memory vector scan against a plain reference: every cosine computed here in the simplest way,
// sorted, cut to the limit. Random int8 vectors, masks, ties and the edges of the limit.

import { SeededGaussian } from '@oqlkit/text-models'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { int8RowDot, NearestRows } from '../src/vectors/nearest-rows.ts'
import { VectorMatrixError, WorkVectorMatrix } from '../src/vectors/work-vector-matrix.ts'

const random = new SeededGaussian(17)

const matrixOf = (rows: number, dimensions: number) => {
  const ids = Array.from({ length: rows }, (_, row) => `W${String(1000 + row)}`)
  const values = Int8Array.from({ length: rows * dimensions }, () =>
    Math.max(-127, Math.min(127, Math.round(random.next() * 40))),
  )
  const norms = Float32Array.from({ length: rows }, (_, row) =>
    Math.hypot(...values.subarray(row * dimensions, (row + 1) * dimensions)),
  )
  return new WorkVectorMatrix(ids, values, norms, dimensions)
}

const unitQuery = (dimensions: number): Float32Array => {
  const query = Float32Array.from({ length: dimensions }, () => random.next())
  const length = Math.hypot(...query)
  return query.map((value) => value / length)
}

const reference = (matrix: WorkVectorMatrix, query: Float32Array, limit: number, keep?: Uint8Array) => {
  const scored = matrix.ids.flatMap((id, row) => {
    if (keep !== undefined && keep[row] !== 1) return []
    let dot = 0
    for (let k = 0; k < matrix.dimensions; k++) dot += matrix.values[row * matrix.dimensions + k]! * query[k]!
    return [{ id, score: dot / matrix.norms[row]! }]
  })
  scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
  return scored.slice(0, limit)
}

/** What a float pass over every row finds: the float product of each row, kept by the same rule. */
const floatPass = (matrix: WorkVectorMatrix, query: Float32Array, limit: number, keep?: Uint8Array) => {
  const best = new NearestRows(limit)
  const d = matrix.dimensions
  for (let row = 0; row < matrix.rows; row++)
    if (keep === undefined || keep[row] === 1)
      best.offer(row, int8RowDot(matrix.values, row * d, query, d) / matrix.norms[row]!)
  return best.sorted().map((found) => ({ id: matrix.ids[found.row]!, score: found.score }))
}

/**
 * Rows a unit or two apart from one base vector: their cosines to a query differ by less than the integer
 * pass's error, so the pass must keep all of them for the float product to choose among.
 */
const nearTies = (rows: number, dimensions: number, seed: number): WorkVectorMatrix => {
  const noise = new SeededGaussian(seed)
  const base = Int8Array.from({ length: dimensions }, () =>
    Math.max(-120, Math.min(120, Math.round(noise.next() * 50))),
  )
  const values = new Int8Array(rows * dimensions)
  for (let row = 0; row < rows; row++)
    for (let k = 0; k < dimensions; k++)
      values[row * dimensions + k] = base[k]! + (noise.next() > 1.5 ? 1 : noise.next() < -1.5 ? -1 : 0)
  const norms = Float32Array.from({ length: rows }, (_, row) =>
    Math.hypot(...values.subarray(row * dimensions, (row + 1) * dimensions)),
  )
  const ids = Array.from({ length: rows }, (_, row) => `W${String(100_000 + row)}`)
  return new WorkVectorMatrix(ids, values, norms, dimensions)
}

describe('WorkVectorMatrix', () => {
  it('finds the same nearest works as a plain sort of every cosine, for odd widths too', () => {
    for (const dimensions of [1, 3, 8, 37, 256]) {
      const matrix = matrixOf(500, dimensions)
      for (const limit of [1, 5, 50]) {
        const query = unitQuery(dimensions)
        const found = matrix.nearest(query, limit)
        const expected = reference(matrix, query, limit)
        expect(found.map((match) => match.id)).toEqual(expected.map((match) => match.id))
        found.forEach((match, index) => {
          expect(match.score).toBeCloseTo(expected[index]!.score, 9)
        })
      }
    }
  })

  it('finds exactly what a float pass over every row finds, near-ties, masks and queries of any scale included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(1, 2, 7, 16, 64, 256, 1536),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.constantFrom(1e-6, 1, 1e6),
        fc.boolean(),
        (rows, dimensions, limit, seed, size, masked) => {
          const matrix = seed % 2 === 0 ? nearTies(rows, dimensions, seed) : matrixOf(rows, dimensions)
          const noise = new SeededGaussian(seed + 1)
          const query = Float32Array.from({ length: dimensions }, () => noise.next() * size)
          const keep = masked
            ? Uint8Array.from({ length: rows }, (_, row) => ((row * seed) % 3 === 0 ? 1 : 0))
            : undefined
          expect(matrix.nearest(query, limit, keep)).toEqual(floatPass(matrix, query, limit, keep))
        },
      ),
      { numRuns: 150 },
    )
  })

  it('finds among any rows, in any order, what a float pass over those rows finds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.constantFrom(7, 16, 256),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 1_000 }),
        (rows, dimensions, limit, seed) => {
          const matrix = seed % 2 === 0 ? nearTies(rows, dimensions, seed) : matrixOf(rows, dimensions)
          const noise = new SeededGaussian(seed + 2)
          const query = Float32Array.from({ length: dimensions }, () => noise.next())
          // A shuffled subset, as a list index gathers rows list by list.
          const among = Int32Array.from(
            Array.from({ length: rows }, (_, row) => row)
              .filter((row) => (row * 7 + seed) % 4 !== 0)
              .sort((a, b) => ((a * 2_654_435_761) % 1_000) - ((b * 2_654_435_761) % 1_000)),
          )
          const keep = Uint8Array.from({ length: rows }, (_, row) => ((row * 7 + seed) % 4 !== 0 ? 1 : 0))
          expect(matrix.nearestAmong(query, limit, among)).toEqual(floatPass(matrix, query, limit, keep))
        },
      ),
      { numRuns: 100 },
    )
  })

  it('finds the float pass’s nearest where the integer query ranks two rows the other way', () => {
    // The largest component sets the query's integer unit u (1/32767 here): 0.49u rounds to 0 and 0.51u to 1,
    // so A (+1 at two 0.49u components) is nearer than B (+1 at 0.51u and -0.49u) in floats, and farther in
    // integers. Both have the same norm. Only a scan that keeps rows within the integers' error finds A.
    const unit = 1 / 32_767
    const query = Float32Array.from({ length: 16 }, (_, k) =>
      k === 0 ? 1 : k === 1 || k === 2 ? 0.49 * unit : k === 3 ? 0.51 * unit : k === 4 ? -0.49 * unit : 0,
    )
    const b = [100, 0, 0, 1, 1, ...new Array(11).fill(0)]
    const a = [100, 1, 1, 0, 0, ...new Array(11).fill(0)]
    const matrix = new WorkVectorMatrix(
      ['W1', 'W2'],
      Int8Array.from([...b, ...a]),
      new Float32Array(2).fill(Math.hypot(...a)),
      16,
    )
    expect(floatPass(matrix, query, 1).map((match) => match.id)).toEqual(['W2'])
    expect(matrix.nearest(query, 1)).toEqual(floatPass(matrix, query, 1))
  })

  it('keeps to the rows of a mask, and returns fewer than the limit when fewer pass', () => {
    const matrix = matrixOf(300, 16)
    const query = unitQuery(16)
    const kept = matrix.ids.filter((_, row) => row % 7 === 3)
    const keep = matrix.rowsOf(kept)
    expect(keep.reduce((sum, bit) => sum + bit, 0)).toBe(kept.length)
    expect(matrix.nearest(query, 10, keep)).toEqual(
      reference(matrix, query, 10, keep).map((match) => expect.objectContaining({ id: match.id })),
    )
    expect(matrix.nearest(query, 100, keep)).toHaveLength(kept.length)
    expect(matrix.nearest(query, 10, new Uint8Array(300))).toEqual([])
    expect(matrix.nearest(query, 0)).toEqual([])
  })

  it('breaks ties by id, the earlier first, in and out of the kept set', () => {
    // Every row the same vector: every score equal, so the order is the ids'.
    const ids = ['W1', 'W2', 'W3', 'W4', 'W5']
    const values = Int8Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? 3 : 4))
    const matrix = new WorkVectorMatrix(ids, values, new Float32Array(5).fill(5), 2)
    expect(matrix.nearest(Float32Array.from([0.6, 0.8]), 3).map((match) => match.id)).toEqual([
      'W1',
      'W2',
      'W3',
    ])
    expect(matrix.nearest(Float32Array.from([0.6, 0.8]), 3)[0]!.score).toBeCloseTo(1, 6)
  })

  it('maps ids to rows by a merge walk: ids it does not hold are skipped', () => {
    const matrix = new WorkVectorMatrix(
      ['W10', 'W20', 'W30', 'W40'],
      new Int8Array(4),
      new Float32Array(4).fill(1),
      1,
    )
    expect([...matrix.rowsOf(['W05', 'W20', 'W25', 'W40', 'W50'])]).toEqual([0, 1, 0, 1])
    expect([...matrix.rowsOf([])]).toEqual([0, 0, 0, 0])
  })

  it('refuses a matrix whose parts disagree or whose ids are out of order, and a query of another width', () => {
    expect(() => new WorkVectorMatrix(['W1'], new Int8Array(3), new Float32Array(1), 2)).toThrow(
      VectorMatrixError,
    )
    expect(() => new WorkVectorMatrix(['W2', 'W1'], new Int8Array(2), new Float32Array(2), 1)).toThrow(
      /ascending/,
    )
    const matrix = matrixOf(3, 4)
    expect(() => matrix.nearest(new Float32Array(3), 1)).toThrow(/3 numbers/)
  })
})
