// Builds the list index of semantic search (`ivf-vector-index.ts`) from the works' int8 vectors, in two reads
// of the matrix and nothing held but a sample and a list number a row:
//
//   1. A seeded sample of the rows (about 40 a list) as unit vectors. Spherical k-means (cosine, centroids of
//      unit length) in two levels: about √lists top centroids, then each top cluster split into leaves in
//      proportion to its share of the sample, so the lists come out of similar sizes. Two levels because one
//      would cost every row a cosine with every centroid: at 10M works and 3,000 lists, ten times the work.
//   2. Every row goes to the nearest leaf of its four nearest top clusters (rows on the border of a top
//      cluster are often nearest a leaf of the next). In the same read, the exact ten nearest rows of 200
//      sample rows (other than themselves) are found, and the search is calibrated on them: for each
//      neighbour, the rows a search from its query scores before reaching its list; `scanRows` is the least
//      that reaches the target share (97%) of all of them.
//
// When the vectors have no structure for lists to follow (random directions, or a model whose neighbourhoods
// are noise), reaching the target takes most of the rows: past half of them the index would save less than it
// costs in memory and build time, and none is built (the search stays the exact scan). That is judged first
// on the sample alone, between steps 1 and 2 (`sampleScanShare`: its points put in their lists, its own
// nearest neighbours of the calibration queries): clearly past the bound there, the pass over every row is
// not made.
//
// Deterministic: the sample and the seeds of k-means come from `seed`, the arithmetic runs in one order, so
// the same vectors and seed give the same index, byte for byte.
import { SeededGaussian } from '@oqlkit/text-models'
import {
  assignEveryRow,
  type Int8RowSource,
  offerTopCluster,
  squares,
  TOP_CLUSTERS_SEARCHED,
} from './ivf-row-pass.ts'
import { floatDot, IvfVectorIndex } from './ivf-vector-index.ts'
import { integerQuery, NearestRows } from './nearest-rows.ts'

export type { Int8RowSource } from './ivf-row-pass.ts'

export interface IvfBuildOptions {
  /** Seed of the sample and of k-means (default 1). */
  readonly seed?: number
  /** Lists (default √rows, rounded). */
  readonly lists?: number
  /** Share of the calibration queries' ten nearest neighbours a search must reach (default 0.97). */
  readonly targetRecall?: number
  /** Sample rows whose neighbours calibrate the search (default 200). */
  readonly calibrationQueries?: number
  /** No index when a search would have to score more than this share of the rows (default 0.5). */
  readonly maxScanShare?: number
  /** k-means rounds at each level, at most (default 10; fewer when the lists stop changing). */
  readonly iterations?: number
  /** Rows assigned to lists so far, of all. */
  readonly onProgress?: (done: number, total: number) => void
}

/** How the index was calibrated, as catalog.json records it. */
export interface IvfCalibration {
  readonly lists: number
  readonly scanRows: number
  /** The share of the calibration queries' ten nearest neighbours a search of `scanRows` rows reaches. */
  readonly recall: number
  readonly targetRecall: number
  readonly queries: number
  /** Rows the centroids were trained on. */
  readonly sampleRows: number
  /** The share of the rows a search would score, as the sample alone showed it (`sampleScanShare`). */
  readonly sampleScanShare: number
  readonly seed: number
}

export type IvfBuildResult =
  | { readonly index: IvfVectorIndex; readonly calibration: IvfCalibration }
  | {
      readonly index: undefined
      /** Of the sample alone when it was `decidedOn` the sample (`scanRows` then scaled to all rows). */
      readonly calibration: IvfCalibration
      /** What showed that no index pays: the sample, before the pass over every row, or that pass. */
      readonly decidedOn: 'sample' | 'all rows'
      readonly reason: string
    }

const DEFAULT_TARGET_RECALL = 0.97
const DEFAULT_CALIBRATION_QUERIES = 200
const DEFAULT_MAX_SCAN_SHARE = 0.5
const DEFAULT_ITERATIONS = 10
const SAMPLE_ROWS_PER_LIST = 40
/** Sample floats at most (128 MB): 131,072 rows of 256 dimensions. */
const MAX_SAMPLE_FLOATS = 2 ** 25
/** Neighbours per calibration query: the recall@10 the target is about. */
const CALIBRATION_NEIGHBOURS = 10
/**
 * How far past `maxScanShare` the sample's estimate must be before the pass over every row is skipped: a
 * margin for the estimate's error, so that an index the full pass would keep is not lost. Measured (estimate
 * on the sample against the full pass's share, seed 1): random 256-dimensional rows 0.835 vs 0.873 (20k) and
 * 0.855 vs 0.856 (100k); clustered 0.065 vs 0.065 (20k × 256); random 24-dimensional 0.528 vs 0.519 (3k),
 * 0.385 vs 0.366 (20k). Within 0.04 each time: past 0.6 of the rows on the sample, no index is built.
 */
const SAMPLE_DECLINE_MARGIN = 1.2

export async function buildIvfIndex(
  source: Int8RowSource,
  options: IvfBuildOptions = {},
): Promise<IvfBuildResult> {
  const { rows: total, dimensions: d } = source
  if (total < 1) throw new RangeError('A list index needs at least one row')
  const seed = options.seed ?? 1
  const wantedLists = Math.max(1, Math.min(total, Math.round(options.lists ?? Math.sqrt(total))))
  const targetRecall = options.targetRecall ?? DEFAULT_TARGET_RECALL
  const iterations = options.iterations ?? DEFAULT_ITERATIONS

  // 1. The sample, and the top and leaf centroids trained on it.
  const sampleWanted = Math.min(total, SAMPLE_ROWS_PER_LIST * wantedLists, Math.floor(MAX_SAMPLE_FLOATS / d))
  const sample = await readSample(source, sampleWanted / total, seed)
  const random = new SeededGaussian(seed)
  const topCount = Math.max(1, Math.min(sample.count, Math.round(Math.sqrt(wantedLists))))
  const everyPoint = Int32Array.from({ length: sample.count }, (_, index) => index)
  const top = sphericalKMeans(sample.points, everyPoint, d, topCount, random, iterations)
  const membersOf: number[][] = Array.from({ length: topCount }, () => [])
  for (const [index, cluster] of top.assignment.entries()) membersOf[cluster]!.push(index)
  const leafStarts = new Int32Array(topCount + 1)
  const leafParts: Float32Array[] = []
  for (let cluster = 0; cluster < topCount; cluster++) {
    const members = Int32Array.from(membersOf[cluster]!)
    const leaves = Math.max(
      1,
      Math.min(members.length, Math.round((wantedLists * members.length) / sample.count)),
    )
    leafParts.push(
      members.length === 0
        ? top.centroids.slice(cluster * d, (cluster + 1) * d)
        : sphericalKMeans(sample.points, members, d, leaves, random, iterations).centroids,
    )
    leafStarts[cluster + 1] = leafStarts[cluster]! + leafParts[cluster]!.length / d
  }
  const lists = leafStarts[topCount]!
  const centroids = new Float32Array(lists * d)
  for (const [cluster, part] of leafParts.entries()) centroids.set(part, leafStarts[cluster]! * d)

  // 2. Whether lists can pay at all, judged on the sample before the full pass (which at 100k rows of no
  // structure cost 10-15 s only to throw its index away).
  const queryCount = Math.min(options.calibrationQueries ?? DEFAULT_CALIBRATION_QUERIES, sample.count)
  const queryPoints = calibrationPoints(sample, queryCount, seed)
  const maxShare = options.maxScanShare ?? DEFAULT_MAX_SCAN_SHARE
  const estimate = sampleScanShare(
    sample,
    d,
    top.centroids,
    topCount,
    leafStarts,
    centroids,
    queryPoints,
    targetRecall,
  )
  if (estimate.share > maxShare * SAMPLE_DECLINE_MARGIN)
    return {
      index: undefined,
      calibration: {
        lists,
        scanRows: Math.min(total, Math.ceil(estimate.share * total)),
        recall: estimate.recall,
        targetRecall,
        queries: queryPoints.length,
        sampleRows: sample.count,
        sampleScanShare: estimate.share,
        seed,
      },
      decidedOn: 'sample',
      reason: `on a sample of ${sample.count} rows, a search would score ${(100 * estimate.share).toFixed(0)}% of the rows to reach ${targetRecall} of the nearest works: the vectors have too little structure for lists to pay`,
    }

  // 3. Every row to its list; the calibration queries' exact neighbours on the way.
  const queries = queryPoints.map((point) => sample.points.subarray(point * d, (point + 1) * d))
  // Each centroid has its own integer scale: a row's scores are compared once divided by it.
  const { listOf, sizes, neighbours } = await assignEveryRow(source, {
    tops: viewsOf(top.centroids, topCount, d).map((centroid) => integerQuery(centroid)),
    leaves: viewsOf(centroids, lists, d).map((centroid) => integerQuery(centroid)),
    leafStarts,
    queries: queries.map((query) => integerQuery(query)),
    queryRows: queryPoints.map((point) => sample.rows[point]!),
    neighboursPerQuery: CALIBRATION_NEIGHBOURS,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  })

  const offsets = new Uint32Array(lists + 1)
  for (let list = 0; list < lists; list++) offsets[list + 1] = offsets[list]! + sizes[list]!
  const listed = new Uint32Array(total)
  const filled = offsets.slice(0, lists)
  for (let each = 0; each < total; each++) listed[filled[listOf[each]!]!++] = each

  // 4. Calibration: the rows a search scores before it reaches each neighbour's list.
  const unscanned = new IvfVectorIndex({ dimensions: d, centroids, offsets, rows: listed, scanRows: total })
  const costs: number[] = []
  queries.forEach((query, index) => {
    const before = new Float64Array(lists)
    let sum = 0
    for (const list of unscanned.listOrder(query)) {
      before[list] = sum
      sum += sizes[list]!
    }
    for (const found of neighbours[index]!.sorted()) costs.push(before[listOf[found.row]!]!)
  })
  costs.sort((x, y) => x - y)
  // A list is read when the rows scored before it are fewer than `scanRows`: the neighbour of cost c needs c + 1.
  const reach = costs.length === 0 ? 0 : costs[Math.max(0, Math.ceil(targetRecall * costs.length) - 1)]!
  const scanRows = Math.min(total, reach + 1)
  const reached = costs.filter((cost) => cost < scanRows).length
  const calibration: IvfCalibration = {
    lists,
    scanRows,
    recall: costs.length === 0 ? 1 : reached / costs.length,
    targetRecall,
    queries: queries.length,
    sampleRows: sample.count,
    sampleScanShare: estimate.share,
    seed,
  }
  if (scanRows > maxShare * total)
    return {
      index: undefined,
      calibration,
      decidedOn: 'all rows',
      reason: `a search would score ${scanRows} of ${total} rows to reach ${targetRecall} of the nearest works: the vectors have too little structure for lists to pay`,
    }
  return {
    index: new IvfVectorIndex({ dimensions: d, centroids, offsets, rows: listed, scanRows }),
    calibration,
  }
}

/**
 * The share of the rows a search must score to reach `targetRecall` of the calibration queries' ten nearest
 * neighbours, and the recall it reaches, estimated on the sample alone: each sample point goes to its list as
 * every row will (the nearest leaf of its nearest top clusters), the lists' sizes are their sample counts, and
 * a query's neighbours are its nearest sample points. What the full pass measures, at a fraction of its cost.
 */
function sampleScanShare(
  sample: Sample,
  d: number,
  topCentroids: Float32Array,
  topCount: number,
  leafStarts: Int32Array,
  centroids: Float32Array,
  queryPoints: readonly number[],
  targetRecall: number,
): { readonly share: number; readonly recall: number } {
  const lists = leafStarts[topCount]!
  const topViews = viewsOf(topCentroids, topCount, d)
  const leafViews = viewsOf(centroids, lists, d)
  const listOf = new Int32Array(sample.count)
  const sizes = new Float64Array(lists)
  const pickedScores = new Float64Array(TOP_CLUSTERS_SEARCHED)
  const pickedClusters = new Int32Array(TOP_CLUSTERS_SEARCHED)
  for (let point = 0; point < sample.count; point++) {
    const vector = sample.points.subarray(point * d, (point + 1) * d)
    let picked = 0
    for (let cluster = 0; cluster < topCount; cluster++)
      picked = offerTopCluster(
        pickedScores,
        pickedClusters,
        0,
        picked,
        floatDot(vector, topViews[cluster]!, d),
        cluster,
      )
    let leaf = leafStarts[pickedClusters[0]!]!
    let leafScore = Number.NEGATIVE_INFINITY
    for (let pick = 0; pick < picked; pick++) {
      const cluster = pickedClusters[pick]!
      for (let candidate = leafStarts[cluster]!; candidate < leafStarts[cluster + 1]!; candidate++) {
        const score = floatDot(vector, leafViews[candidate]!, d)
        if (score > leafScore || (score === leafScore && candidate < leaf)) {
          leaf = candidate
          leafScore = score
        }
      }
    }
    listOf[point] = leaf
    sizes[leaf]!++
  }
  const costs: number[] = []
  for (const query of queryPoints) {
    const vector = sample.points.subarray(query * d, (query + 1) * d)
    const nearest = new NearestRows(CALIBRATION_NEIGHBOURS)
    for (let point = 0; point < sample.count; point++)
      if (point !== query)
        nearest.offer(point, floatDot(vector, sample.points.subarray(point * d, (point + 1) * d), d))
    const scores = leafViews.map((centroid) => floatDot(vector, centroid, d))
    const order = Array.from({ length: lists }, (_, list) => list).sort(
      (x, y) => scores[y]! - scores[x]! || x - y,
    )
    const before = new Float64Array(lists)
    let sum = 0
    for (const list of order) {
      before[list] = sum
      sum += sizes[list]!
    }
    for (const found of nearest.sorted()) costs.push(before[listOf[found.row]!]!)
  }
  if (costs.length === 0) return { share: 0, recall: 1 }
  costs.sort((x, y) => x - y)
  const reach = costs[Math.max(0, Math.ceil(targetRecall * costs.length) - 1)]!
  const scanned = reach + 1
  return {
    share: Math.min(1, scanned / sample.count),
    recall: costs.filter((cost) => cost < scanned).length / costs.length,
  }
}

/** A matrix file's rows, read in blocks of about 16 MB. */
export function int8FileRowSource(
  read: (position: number, length: number) => Promise<Int8Array>,
  rows: number,
  dimensions: number,
): Int8RowSource {
  const blockRows = Math.max(1, Math.floor((16 * 1024 * 1024) / dimensions))
  return {
    rows,
    dimensions,
    async *blocks() {
      for (let first = 0; first < rows; first += blockRows) {
        const count = Math.min(blockRows, rows - first)
        yield await read(first * dimensions, count * dimensions)
      }
    },
  }
}

/** Rows held in memory, as one source. */
export function int8MemoryRowSource(values: Int8Array, dimensions: number): Int8RowSource {
  return {
    rows: values.length / dimensions,
    dimensions,
    async *blocks() {
      yield values
    },
  }
}

interface Sample {
  readonly count: number
  /** The sampled rows, ascending. */
  readonly rows: Int32Array
  /** Their unit vectors, `d` floats each. */
  readonly points: Float32Array
}

const readSample = async (source: Int8RowSource, share: number, seed: number): Promise<Sample> => {
  const d = source.dimensions
  const rows: number[] = []
  const parts: Float32Array[] = []
  let row = 0
  for await (const block of source.blocks())
    for (let at = 0; at < block.length; at += d, row++) {
      if (share < 1 && seededRowFraction(row, seed) >= share) continue
      const length = Math.sqrt(squares(block, at, d))
      // A zero vector has no direction to train on (the builder stores none, but a source might).
      if (length === 0) continue
      const point = new Float32Array(d)
      for (let k = 0; k < d; k++) point[k] = block[at + k]! / length
      rows.push(row)
      parts.push(point)
    }
  if (parts.length === 0) throw new RangeError('The vector source has no row that is not zero')
  const points = new Float32Array(parts.length * d)
  for (const [index, point] of parts.entries()) points.set(point, index * d)
  return { count: parts.length, rows: Int32Array.from(rows), points }
}

/** The sample points whose neighbours calibrate the search: the `count` of lowest hash under another seed. */
const calibrationPoints = (sample: Sample, count: number, seed: number): number[] =>
  Array.from({ length: sample.count }, (_, point) => point)
    .map((point) => ({ point, order: seededRowFraction(sample.rows[point]!, seed ^ 0x5bd1e995) }))
    .sort((x, y) => x.order - y.order || x.point - y.point)
    .slice(0, count)
    .map((entry) => entry.point)
    .sort((x, y) => x - y)

interface KMeansResult {
  /** `k` unit vectors. */
  readonly centroids: Float32Array
  /** The centroid of each member, in the order of `members`. */
  readonly assignment: Int32Array
}

/**
 * Spherical k-means of `points[members]` (unit vectors): each member goes to the centroid of highest cosine,
 * each centroid becomes its members' mean scaled to unit length. Seeded by `k` distinct members chosen by
 * `random`; a centroid left without members takes the member farthest from its own centroid.
 */
export function sphericalKMeans(
  points: Float32Array,
  members: Int32Array,
  d: number,
  k: number,
  random: SeededGaussian,
  iterations: number,
): KMeansResult {
  const count = members.length
  const clusters = Math.max(1, Math.min(k, count))
  const centroids = new Float32Array(clusters * d)
  // A partial Fisher–Yates shuffle of the members: the first `clusters` are the seeds.
  const order = Int32Array.from(members)
  for (let slot = 0; slot < clusters; slot++) {
    const pick = slot + Math.floor(random.uniform() * (count - slot))
    const chosen = order[pick]!
    order[pick] = order[slot]!
    order[slot] = chosen
    centroids.set(points.subarray(chosen * d, (chosen + 1) * d), slot * d)
  }
  const assignment = new Int32Array(count).fill(-1)
  const similarity = new Float64Array(count)
  const sums = new Float64Array(clusters * d)
  const sizes = new Int32Array(clusters)
  for (let round = 0; round < iterations; round++) {
    const views = viewsOf(centroids, clusters, d)
    let changed = 0
    for (let index = 0; index < count; index++) {
      const point = points.subarray(members[index]! * d, (members[index]! + 1) * d)
      let best = 0
      let bestScore = Number.NEGATIVE_INFINITY
      for (let cluster = 0; cluster < clusters; cluster++) {
        const score = floatDot(point, views[cluster]!, d)
        if (score > bestScore) {
          best = cluster
          bestScore = score
        }
      }
      if (assignment[index] !== best) changed++
      assignment[index] = best
      similarity[index] = bestScore
    }
    if (changed === 0 && round > 0) break
    sums.fill(0)
    sizes.fill(0)
    for (let index = 0; index < count; index++) {
      const cluster = assignment[index]!
      const at = members[index]! * d
      sizes[cluster]!++
      for (let component = 0; component < d; component++)
        sums[cluster * d + component]! += points[at + component]!
    }
    // Members farthest from their centroid first: the seeds of centroids left empty.
    const farthest = sizes.includes(0)
      ? Array.from({ length: count }, (_, index) => index).sort(
          (x, y) => similarity[x]! - similarity[y]! || x - y,
        )
      : []
    let nextFarthest = 0
    for (let cluster = 0; cluster < clusters; cluster++) {
      if (sizes[cluster] === 0) {
        const member = members[farthest[nextFarthest++]!]!
        centroids.set(points.subarray(member * d, (member + 1) * d), cluster * d)
        continue
      }
      let length = 0
      for (let component = 0; component < d; component++) length += sums[cluster * d + component]! ** 2
      length = Math.sqrt(length)
      for (let component = 0; component < d; component++)
        centroids[cluster * d + component] = length === 0 ? 0 : sums[cluster * d + component]! / length
    }
  }
  return { centroids, assignment }
}

const viewsOf = (values: Float32Array, count: number, d: number): Float32Array[] =>
  Array.from({ length: count }, (_, index) => values.subarray(index * d, (index + 1) * d))

/**
 * A stable number in [0, 1) per (row, seed): which rows are sampled. An integer hash (xor-shift and multiply
 * rounds) rather than a generator, so the choice of a row does not depend on the rows read before it.
 */
export function seededRowFraction(row: number, seed: number): number {
  let hash = (row ^ Math.imul(seed | 0, 0x9e3779b1)) | 0
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x7feb352d)
  hash ^= hash >>> 15
  hash = Math.imul(hash, 0x846ca68b)
  hash ^= hash >>> 16
  return (hash >>> 0) / 0x1_0000_0000
}
