// The index builder's pass over every row (`ivf-index-builder.ts`, step 3): each row to the nearest leaf of
// its nearest top clusters, and the calibration queries' exact nearest rows found on the way. Rows are scored
// a block at a time by the WebAssembly kernel (`int8-dot-kernel.ts`), one centroid or query over the whole
// block per call, instead of row by row in JavaScript: the leaves a row needs are those of its own top
// clusters, so the block's rows are gathered by top cluster and each leaf scores only the rows that picked
// its cluster. The integer products are `int8RowIntDot`'s, so the lists and neighbours are those a row-by-row
// pass gives.
import { int8BlockScorer, KERNEL_BLOCK_ROWS } from './int8-dot-kernel.ts'
import { type IntegerQuery, NearestRows } from './nearest-rows.ts'

/** The int8 rows of a matrix, read in order. */
export interface Int8RowSource {
  readonly rows: number
  readonly dimensions: number
  /** Every row once, in order, in blocks of whole rows. Called once per read (twice a build). */
  blocks(): AsyncIterable<Int8Array>
}

/**
 * Top clusters whose leaves a row may join: its nearest leaf among theirs. A row near the border of its top
 * cluster is often nearest a leaf of the next one, which a query near it ranks early; with one top cluster
 * searched such rows land in lists the query reaches late. Measured on clustered vectors (100k of 256
 * dimensions; rows a search must score for 97% recall): 1 top cluster 6,039, 2 2,378, 3 1,807, 4 1,586, every
 * leaf 1,531; assignment costs √lists cosines a top cluster.
 */
export const TOP_CLUSTERS_SEARCHED = 4

/**
 * Offers `cluster` at `score` to the best `TOP_CLUSTERS_SEARCHED` kept in `scores` and `clusters` from
 * `base`, best first (of equal scores the first offered); `picked` of them are kept so far. Returns how many
 * are kept after.
 */
export function offerTopCluster(
  scores: Float64Array,
  clusters: Int32Array,
  base: number,
  picked: number,
  score: number,
  cluster: number,
): number {
  if (picked === TOP_CLUSTERS_SEARCHED && !(score > scores[base + picked - 1]!)) return picked
  const kept = picked < TOP_CLUSTERS_SEARCHED ? picked + 1 : picked
  let slot = kept - 1
  for (; slot > 0 && score > scores[base + slot - 1]!; slot--) {
    scores[base + slot] = scores[base + slot - 1]!
    clusters[base + slot] = clusters[base + slot - 1]!
  }
  scores[base + slot] = score
  clusters[base + slot] = cluster
  return kept
}

export interface RowPassInputs {
  /** The top centroids, and each leaf's, as integer queries. */
  readonly tops: readonly IntegerQuery[]
  readonly leaves: readonly IntegerQuery[]
  /** The leaves of top cluster `t` are `leafStarts[t]` to `leafStarts[t + 1]`. */
  readonly leafStarts: Int32Array
  /** The calibration queries, and the row each was drawn from (not its own neighbour). */
  readonly queries: readonly IntegerQuery[]
  readonly queryRows: readonly number[]
  readonly neighboursPerQuery: number
  readonly onProgress?: (done: number, total: number) => void
}

export interface RowPassResult {
  /** Each row's list. */
  readonly listOf: Uint32Array
  readonly sizes: Uint32Array
  /** Each calibration query's nearest rows, by cosine over the stored vectors. */
  readonly neighbours: readonly NearestRows[]
}

export async function assignEveryRow(source: Int8RowSource, inputs: RowPassInputs): Promise<RowPassResult> {
  const { rows: total, dimensions: d } = source
  const lists = inputs.leafStarts[inputs.tops.length]!
  const listOf = new Uint32Array(total)
  const sizes = new Uint32Array(lists)
  const neighbours = inputs.queries.map(() => new NearestRows(inputs.neighboursPerQuery))
  // Room for a block of rows, and after it the same number gathered by top cluster.
  const scorer = int8BlockScorer(2 * KERNEL_BLOCK_ROWS, d)
  const block = new BlockState(KERNEL_BLOCK_ROWS)
  let row = 0
  for await (const part of source.blocks()) {
    for (let at = 0; at < part.length; ) {
      const count = Math.min(KERNEL_BLOCK_ROWS, (part.length - at) / d)
      scorer.values.set(part.subarray(at, at + count * d), 0)
      block.reset(count)
      pickTopClusters(scorer, inputs, block)
      pickLeaves(scorer, inputs, block, d)
      for (let index = 0; index < count; index++) {
        listOf[row + index] = block.leaf[index]!
        sizes[block.leaf[index]!]!++
        // The norm as the matrix stores it (float32), so the calibration ranks rows as the search does.
        block.norm[index] = Math.fround(Math.sqrt(squares(scorer.values, index * d, d)))
      }
      offerNeighbours(scorer, inputs, block, row, neighbours)
      row += count
      at += count * d
    }
    inputs.onProgress?.(row, total)
  }
  if (row !== total) throw new RangeError(`The vector source gave ${row} rows where it said ${total}`)
  return { listOf, sizes, neighbours }
}

/** What the pass knows of the rows of one block, by their place in it. */
class BlockState {
  count = 0
  readonly picked: Uint8Array
  readonly pickedScores: Float64Array
  readonly pickedClusters: Int32Array
  readonly leaf: Int32Array
  readonly leafScore: Float64Array
  readonly norm: Float64Array
  readonly gathered: Int32Array

  constructor(size: number) {
    this.picked = new Uint8Array(size)
    this.pickedScores = new Float64Array(size * TOP_CLUSTERS_SEARCHED)
    this.pickedClusters = new Int32Array(size * TOP_CLUSTERS_SEARCHED)
    this.leaf = new Int32Array(size)
    this.leafScore = new Float64Array(size)
    this.norm = new Float64Array(size)
    this.gathered = new Int32Array(size)
  }

  reset(count: number): void {
    this.count = count
    this.picked.fill(0, 0, count)
  }
}

type Scorer = ReturnType<typeof int8BlockScorer>

/** Each row's nearest top clusters, offered in cluster order as a row-by-row pass offers them. */
function pickTopClusters(scorer: Scorer, inputs: RowPassInputs, block: BlockState): void {
  const { picked, pickedScores, pickedClusters } = block
  inputs.tops.forEach((top, cluster) => {
    scorer.setIntegerQuery(top)
    const scores = scorer.score(0, block.count)
    for (let index = 0; index < block.count; index++)
      picked[index] = offerTopCluster(
        pickedScores,
        pickedClusters,
        index * TOP_CLUSTERS_SEARCHED,
        picked[index]!,
        scores[index]! / top.scale,
        cluster,
      )
  })
}

/**
 * Each row's nearest leaf among those of its top clusters: the best score, and of equal scores the first
 * leaf, whatever order they are scored in. The rows that picked a top cluster are copied after the block, so
 * each of its leaves scores them in one call.
 */
function pickLeaves(scorer: Scorer, inputs: RowPassInputs, block: BlockState, d: number): void {
  const { picked, pickedClusters, leaf, leafScore, gathered } = block
  for (let index = 0; index < block.count; index++) {
    leaf[index] = inputs.leafStarts[pickedClusters[index * TOP_CLUSTERS_SEARCHED]!]!
    leafScore[index] = Number.NEGATIVE_INFINITY
  }
  for (let cluster = 0; cluster < inputs.tops.length; cluster++) {
    let count = 0
    for (let index = 0; index < block.count; index++)
      for (let pick = 0; pick < picked[index]!; pick++)
        if (pickedClusters[index * TOP_CLUSTERS_SEARCHED + pick] === cluster) {
          scorer.values.copyWithin((KERNEL_BLOCK_ROWS + count) * d, index * d, (index + 1) * d)
          gathered[count++] = index
          break
        }
    if (count === 0) continue
    for (
      let candidate = inputs.leafStarts[cluster]!;
      candidate < inputs.leafStarts[cluster + 1]!;
      candidate++
    ) {
      const centroid = inputs.leaves[candidate]!
      scorer.setIntegerQuery(centroid)
      const scores = scorer.score(KERNEL_BLOCK_ROWS, count)
      for (let at = 0; at < count; at++) {
        const index = gathered[at]!
        const score = scores[at]! / centroid.scale
        if (score > leafScore[index]! || (score === leafScore[index] && candidate < leaf[index]!)) {
          leaf[index] = candidate
          leafScore[index] = score
        }
      }
    }
  }
}

/** The block's rows offered to each calibration query's nearest, in row order. */
function offerNeighbours(
  scorer: Scorer,
  inputs: RowPassInputs,
  block: BlockState,
  firstRow: number,
  neighbours: readonly NearestRows[],
): void {
  inputs.queries.forEach((query, at) => {
    scorer.setIntegerQuery(query)
    const scores = scorer.score(0, block.count)
    const own = inputs.queryRows[at]! - firstRow
    for (let index = 0; index < block.count; index++) {
      const norm = block.norm[index]!
      if (norm === 0 || index === own) continue
      neighbours[at]!.offer(firstRow + index, scores[index]! / query.scale / norm)
    }
  })
}

export const squares = (values: Int8Array, at: number, d: number): number => {
  let sum = 0
  for (let k = 0; k < d; k++) sum += values[at + k]! * values[at + k]!
  return sum
}
