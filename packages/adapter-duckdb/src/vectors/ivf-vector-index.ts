// Semantic search without scoring every work: an inverted-file (IVF) index over the works' int8 vectors.
// The vectors are split into lists by nearest centroid (spherical k-means, `ivf-index-builder.ts`); a query
// orders the lists by the cosine between it and their centroids and scores the rows of the nearest lists
// exactly (the matrix's kernel, the matrix's scores), until it has scored `scanRows` rows. The works it
// returns are thus the exact nearest among the rows it scored: an answer can only miss a work, never rank one
// wrongly. `scanRows` is set at build time, the fewest rows that found 97% of the ten nearest neighbours of
// sample works (the recall is measured there and recorded in catalog.json).
import { int8RowDot, NearestRows } from './nearest-rows.ts'
import type { VectorCandidates, VectorMatch, WorkVectorMatrix } from './work-vector-matrix.ts'

export class VectorIndexError extends Error {
  override readonly name = 'VectorIndexError'
}

export interface IvfIndexParts {
  readonly dimensions: number
  /** Unit vectors, `dimensions` float32 numbers a list. */
  readonly centroids: Float32Array
  /** `lists + 1` ascending positions in `rows`: list `l` holds `rows[offsets[l] .. offsets[l + 1])`. */
  readonly offsets: Uint32Array
  /** The matrix's rows grouped by list, ascending within a list: every row once. */
  readonly rows: Uint32Array
  /** The rows a search scores (at least; it finishes the list it is in). */
  readonly scanRows: number
}

export class IvfVectorIndex {
  readonly dimensions: number
  readonly centroids: Float32Array
  readonly offsets: Uint32Array
  readonly rows: Uint32Array
  readonly scanRows: number
  readonly #centroidViews: Float32Array[]

  /** Checks that the parts fit together (the lists cover `rows` exactly); not that `rows` is a permutation. */
  constructor(parts: IvfIndexParts) {
    const { dimensions, centroids, offsets, rows, scanRows } = parts
    if (!Number.isSafeInteger(dimensions) || dimensions < 1)
      throw new VectorIndexError(`The list index has ${dimensions} dimensions`)
    const lists = offsets.length - 1
    if (lists < 1 || centroids.length !== lists * dimensions)
      throw new VectorIndexError(
        `The list index has ${centroids.length} centroid numbers for ${lists} lists of ${dimensions} dimensions`,
      )
    if (offsets[0] !== 0 || offsets[lists] !== rows.length)
      throw new VectorIndexError(
        `The list index's lists cover rows ${offsets[0]} to ${offsets[lists]}, where it holds ${rows.length} rows`,
      )
    for (let list = 0; list < lists; list++)
      if (offsets[list]! > offsets[list + 1]!)
        throw new VectorIndexError(`The list index's list ${list} ends before it starts`)
    if (!Number.isSafeInteger(scanRows) || scanRows < 1)
      throw new VectorIndexError(`The list index scans ${scanRows} rows a search`)
    this.dimensions = dimensions
    this.centroids = centroids
    this.offsets = offsets
    this.rows = rows
    this.scanRows = scanRows
    this.#centroidViews = Array.from({ length: lists }, (_, list) =>
      centroids.subarray(list * dimensions, (list + 1) * dimensions),
    )
  }

  get lists(): number {
    return this.offsets.length - 1
  }

  /** The lists by the cosine between `query` and their centroids, nearest first, ties by list. */
  listOrder(query: Float32Array): Uint32Array {
    const d = this.dimensions
    const scores = new Float64Array(this.lists)
    for (let list = 0; list < this.lists; list++)
      scores[list] = floatDot(this.#centroidViews[list]!, query, d)
    const order = new Uint32Array(this.lists)
    for (let list = 0; list < order.length; list++) order[list] = list
    return order.sort((x, y) => scores[y]! - scores[x]! || x - y)
  }

  /**
   * The `limit` rows of `matrix` nearest to `query` (a unit vector) among those the nearest lists hold, best
   * first, ties by id; only `candidates` when given.
   *
   * The rule for filters: a search scores `scanRows` candidate rows, whatever the filter keeps. When the filter
   * keeps that many rows or fewer, the exact scan of the kept rows scores no more than the index would, so the
   * answer is exact. When it keeps more, the lists are read in the same order and rows the filter drops are
   * passed over (a byte read, not a cosine) until `scanRows` kept rows are scored: a filter that keeps a tenth
   * of the works makes the search walk about ten times as many lists, so the kept works near the query are
   * still reached. Either way a search costs at most `scanRows` cosines and one pass over the mask.
   */
  nearest(
    matrix: WorkVectorMatrix,
    query: Float32Array,
    limit: number,
    candidates?: VectorCandidates,
  ): VectorMatch[] {
    matrix.checkQuery(query)
    if (matrix.rows !== this.rows.length || matrix.dimensions !== this.dimensions)
      throw new VectorIndexError(
        `The list index covers ${this.rows.length} rows of ${this.dimensions} dimensions; the matrix holds ${matrix.rows} of ${matrix.dimensions}`,
      )
    const kept = candidates?.count ?? matrix.rows
    if (kept <= this.scanRows) return matrix.nearest(query, limit, candidates)
    const d = this.dimensions
    const { values, norms } = matrix
    const mask = candidates?.mask
    const rows = this.rows
    const offsets = this.offsets
    const target = Math.max(this.scanRows, limit)
    const best = new NearestRows(limit)
    let scored = 0
    for (const list of this.listOrder(query)) {
      const end = offsets[list + 1]!
      for (let at = offsets[list]!; at < end; at++) {
        const row = rows[at]!
        if (mask !== undefined && mask[row] !== 1) continue
        best.offer(row, int8RowDot(values, row * d, query, d) / norms[row]!)
        scored++
      }
      if (scored >= target) break
    }
    return matrix.matchesOf(best)
  }
}

/** `a · b` over the first `d` numbers. */
export function floatDot(a: Float32Array, b: Float32Array, d: number): number {
  let x = 0
  let y = 0
  let z = 0
  let w = 0
  let k = 0
  for (; k + 3 < d; k += 4) {
    x += a[k]! * b[k]!
    y += a[k + 1]! * b[k + 1]!
    z += a[k + 2]! * b[k + 2]!
    w += a[k + 3]! * b[k + 3]!
  }
  for (; k < d; k++) x += a[k]! * b[k]!
  return x + y + z + w
}
