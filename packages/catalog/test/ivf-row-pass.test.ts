// The index builder's pass over every row, block by block through the kernel, against the same pass written
// row by row with `int8RowIntDot` (what the builder did before): the same list for every row, the same list
// sizes and the same calibration neighbours with the same scores, across block boundaries, for widths the
// kernel reads and widths it does not.
import { SeededGaussian } from '@oqlkit/text-models'
import { describe, expect, it } from 'vitest'
import type { Int8RowSource } from '../src/vectors/ivf-index-builder.ts'
import { assignEveryRow, offerTopCluster, TOP_CLUSTERS_SEARCHED } from '../src/vectors/ivf-row-pass.ts'
import { type IntegerQuery, int8RowIntDot, integerQuery, NearestRows } from '../src/vectors/nearest-rows.ts'

const rowsOf = (count: number, d: number, seed: number): Int8Array => {
  const random = new SeededGaussian(seed)
  const centres = Array.from({ length: 6 }, () => Array.from({ length: d }, () => random.next() * 40))
  const values = new Int8Array(count * d)
  for (let row = 0; row < count; row++) {
    const centre = centres[row % centres.length]!
    for (let k = 0; k < d; k++)
      values[row * d + k] = Math.max(-127, Math.min(127, Math.round(centre[k]! + random.next() * 25)))
  }
  // Some rows of zeros: they get a list but are nobody's neighbour.
  values.fill(0, 5 * d, 6 * d)
  return values
}

/** The rows in blocks of `blockRows`, as a file source gives them. */
const sourceOf = (values: Int8Array, d: number, blockRows: number): Int8RowSource => ({
  rows: values.length / d,
  dimensions: d,
  async *blocks() {
    for (let at = 0; at < values.length; at += blockRows * d) yield values.subarray(at, at + blockRows * d)
  },
})

const queriesOf = (count: number, d: number, seed: number): IntegerQuery[] => {
  const random = new SeededGaussian(seed)
  return Array.from({ length: count }, () =>
    integerQuery(Float32Array.from({ length: d }, () => random.next())),
  )
}

/** The pass row by row, as the builder made it before the kernel. */
const rowByRow = (
  values: Int8Array,
  d: number,
  tops: IntegerQuery[],
  leaves: IntegerQuery[],
  leafStarts: Int32Array,
  queries: IntegerQuery[],
  queryRows: number[],
) => {
  const total = values.length / d
  const listOf = new Uint32Array(total)
  const sizes = new Uint32Array(leaves.length)
  const neighbours = queries.map(() => new NearestRows(10))
  const scores = new Float64Array(TOP_CLUSTERS_SEARCHED)
  const clusters = new Int32Array(TOP_CLUSTERS_SEARCHED)
  for (let row = 0, at = 0; row < total; row++, at += d) {
    let picked = 0
    tops.forEach((top, cluster) => {
      picked = offerTopCluster(
        scores,
        clusters,
        0,
        picked,
        int8RowIntDot(values, at, top.values, d) / top.scale,
        cluster,
      )
    })
    let leaf = leafStarts[clusters[0]!]!
    let leafScore = Number.NEGATIVE_INFINITY
    for (let pick = 0; pick < picked; pick++)
      for (
        let candidate = leafStarts[clusters[pick]!]!;
        candidate < leafStarts[clusters[pick]! + 1]!;
        candidate++
      ) {
        const score = int8RowIntDot(values, at, leaves[candidate]!.values, d) / leaves[candidate]!.scale
        if (score > leafScore || (score === leafScore && candidate < leaf)) {
          leaf = candidate
          leafScore = score
        }
      }
    listOf[row] = leaf
    sizes[leaf]!++
    let squares = 0
    for (let k = 0; k < d; k++) squares += values[at + k]! * values[at + k]!
    const norm = Math.fround(Math.sqrt(squares))
    if (norm === 0) continue
    queries.forEach((query, index) => {
      if (queryRows[index] !== row)
        neighbours[index]!.offer(row, int8RowIntDot(values, at, query.values, d) / query.scale / norm)
    })
  }
  return { listOf, sizes, neighbours: neighbours.map((found) => found.sorted()) }
}

describe('the pass over every row', () => {
  it.each([
    [32, 20_000, 7_001],
    [256, 3_000, 1_000],
    [24, 2_500, 999],
  ])(
    'gives each row the list and each query the neighbours a row-by-row pass gives (%i dimensions, %i rows, blocks of %i)',
    async (d, total, blockRows) => {
      const values = rowsOf(total, d, d)
      const tops = queriesOf(5, d, 1)
      // Top cluster t has t + 1 leaves (the last none of its own beyond the first).
      const leafStarts = Int32Array.from([0, 1, 3, 6, 10, 15])
      const leaves = queriesOf(15, d, 2)
      const queries = queriesOf(12, d, 3)
      const queryRows = queries.map((_, index) => index * 97)
      const expected = rowByRow(values, d, tops, leaves, leafStarts, queries, queryRows)
      const progress: number[] = []
      const found = await assignEveryRow(sourceOf(values, d, blockRows), {
        tops,
        leaves,
        leafStarts,
        queries,
        queryRows,
        neighboursPerQuery: 10,
        onProgress: (done) => progress.push(done),
      })
      expect(found.listOf).toEqual(expected.listOf)
      expect(found.sizes).toEqual(expected.sizes)
      expect(found.neighbours.map((each) => each.sorted())).toEqual(expected.neighbours)
      // Rows land in more than one list, and no query is its own neighbour.
      expect(new Set(found.listOf).size).toBeGreaterThan(3)
      found.neighbours.forEach((each, index) => {
        expect(each.sorted().map((near) => near.row)).not.toContain(queryRows[index])
      })
      expect(progress.at(-1)).toBe(total)
    },
  )

  it('says when the source gives fewer rows than it claims', async () => {
    const values = rowsOf(100, 16, 5)
    const source = { ...sourceOf(values, 16, 40), rows: 120 }
    const query = queriesOf(1, 16, 1)
    await expect(
      assignEveryRow(source, {
        tops: query,
        leaves: query,
        leafStarts: Int32Array.from([0, 1]),
        queries: [],
        queryRows: [],
        neighboursPerQuery: 10,
      }),
    ).rejects.toThrow(/gave 100 rows where it said 120/)
  })
})
