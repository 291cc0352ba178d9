// Semantic search without scoring every work: an inverted-file (IVF) index over the works' int8 vectors.
// The vectors are split into lists by nearest centroid (spherical k-means, `ivf-index-builder.ts`); a query
// orders the lists by the cosine between it and their centroids and scores the rows of the nearest lists
// exactly (the matrix's kernel, the matrix's scores), until it has scored `scanRows` rows. The works it
// returns are thus the exact nearest among the rows it scored: an answer can only miss a work, never rank one
// wrongly. `scanRows` is set at build time, the fewest rows that found 97% of the ten nearest neighbours of
// sample works (the recall is measured there and recorded in catalog.json).
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
    const scores = this.#listScores(query)
    const order = new Uint32Array(this.lists)
    for (let list = 0; list < order.length; list++) order[list] = list
    return order.sort((x, y) => scores[y]! - scores[x]! || x - y)
  }

  #listScores(query: Float32Array): Float64Array {
    const scores = new Float64Array(this.lists)
    for (let list = 0; list < this.lists; list++)
      scores[list] = floatDot(this.#centroidViews[list]!, query, this.dimensions)
    return scores
  }

  /**
   * The `limit` rows of `matrix` nearest to `query` (a unit vector) among those the nearest lists hold, best
   * first, ties by id; only `candidates` when given.
   *
   * The rule for filters: a search through the lists scores `scanRows` kept rows, whatever the filter
   * keeps. Rows the filter drops are passed over (a byte read, not a cosine) as the lists are read in the
   * same order, so a filter that keeps a tenth of the works makes the search walk about ten times as many
   * lists, and the kept works near the query are still reached. The narrower the filter, the longer that
   * walk: past a point, scoring every kept row exactly costs less, and that answer is exact. The point: the
   * exact scan scores `kept` rows; the lists score `scanRows` and pass over about `scanRows × rows / kept`,
   * each pass a `passesPerScore(rows)`th of a score. So a filter is answered exactly when `kept × (kept −
   * scanRows) ≤ scanRows × rows / passesPerScore(rows)`: about twice `scanRows` at 1M works (18,000 kept
   * rows, of 9,662 scored), nearly four times at 10M (360,000 of 97,191), and always when it keeps no more
   * than `scanRows`.
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
    if (answersExactly(kept, this.scanRows, matrix.rows)) return matrix.nearest(query, limit, candidates)
    const mask = candidates?.mask
    const rows = this.rows
    const offsets = this.offsets
    const target = Math.max(this.scanRows, limit)
    // The rows of the nearest lists, then scored together (by the matrix's kernel when it has one). Lists are
    // taken nearest first from a heap: a search reads a few of them (about 10 of 1,000 at 1M works), so
    // sorting all of them (3,000 at 10M) would cost more than choosing them.
    const nearestLists = new ListHeap(this.#listScores(query))
    let reached = new Int32Array(Math.min(rows.length, target + 1024))
    let scored = 0
    for (let list = nearestLists.next(); list >= 0; list = nearestLists.next()) {
      const end = offsets[list + 1]!
      for (let at = offsets[list]!; at < end; at++) {
        const row = rows[at]!
        if (mask !== undefined && mask[row] !== 1) continue
        if (scored === reached.length) {
          const larger = new Int32Array(Math.min(rows.length, reached.length * 2))
          larger.set(reached)
          reached = larger
        }
        reached[scored++] = row
      }
      if (scored >= target) break
    }
    // Scored in row order: a list's rows lie all over the matrix, and reading the lists' rows one list after
    // another jumps back and forth through it, each row a wait on memory. Ascending, the reads go forward:
    // at 10M works (97,191 rows of a 2.6 GB matrix a search) 56 -> 32 ms a search, the sort included.
    return matrix.nearestAmong(query, limit, reached.subarray(0, scored).sort())
  }
}

/** Whether scoring the `kept` rows exactly costs no more than a search through the lists (see `nearest`). */
export function answersExactly(kept: number, scanRows: number, rows: number): boolean {
  return kept <= scanRows || kept * (kept - scanRows) <= (scanRows * rows) / passesPerScore(rows)
}

/**
 * Rows passed over (their filter byte read) in the time of one kept row scored (read where it lies), by the
 * size of the filter's mask: while the mask stays in the processor's cache a pass is a few nanoseconds, past
 * it each one waits on memory too. bench:semantic, filters keeping 2% of the rows: at 1M rows a pass ~4.5 ns
 * and a score ~385 ns (about 85 to 1); at 10M ~33 ns against ~350 ns (about 10 to 1), where the 64 of 1M
 * sent a 2% filter through the lists at 190 ms instead of 70 ms scored exactly.
 */
const passesPerScore = (rows: number): number => (rows <= CACHED_MASK_ROWS ? 64 : 10)

/** A mask of up to this many one-byte rows is taken to stay cached during a search (measured at 1M and 10M). */
const CACHED_MASK_ROWS = 4_000_000

/**
 * The lists in `listOrder`'s order (highest score first, ties by list), one at a time: a binary max-heap built
 * in linear time, each list taken in logarithmic time; -1 when none is left.
 */
class ListHeap {
  readonly #scores: Float64Array
  readonly #heap: Int32Array
  #size: number

  constructor(scores: Float64Array) {
    this.#scores = scores
    this.#size = scores.length
    this.#heap = Int32Array.from({ length: scores.length }, (_, list) => list)
    for (let slot = (this.#size >>> 1) - 1; slot >= 0; slot--) this.#sink(slot)
  }

  next(): number {
    if (this.#size === 0) return -1
    const top = this.#heap[0]!
    this.#size--
    this.#heap[0] = this.#heap[this.#size]!
    this.#sink(0)
    return top
  }

  /** Whether list `x` comes before list `y`. */
  #before(x: number, y: number): boolean {
    const scores = this.#scores
    return scores[x]! > scores[y]! || (scores[x] === scores[y] && x < y)
  }

  #sink(from: number): void {
    const heap = this.#heap
    let slot = from
    for (;;) {
      const left = 2 * slot + 1
      if (left >= this.#size) return
      const right = left + 1
      const child = right < this.#size && this.#before(heap[right]!, heap[left]!) ? right : left
      if (!this.#before(heap[child]!, heap[slot]!)) return
      const moved = heap[slot]!
      heap[slot] = heap[child]!
      heap[child] = moved
      slot = child
    }
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
