// The works' vectors in memory, for semantic search: one int8 matrix with a row per work in id order, each
// row's norm, and the ids. A query is scored against every row, or every row a filter keeps, by the exact
// cosine over what is stored. In JavaScript rather than SQL: DuckDB's `array_inner_product` needs float
// arrays, and casting a million int8 vectors to float on every query cost about 2 s at 1M works, where this
// loop reads the int8 bytes as they are (see BENCHMARKS.md, "Semantic search").

export interface VectorMatch {
  readonly id: string
  /** The cosine between the query and the work's stored vector. */
  readonly score: number
}

export class VectorMatrixError extends Error {
  override readonly name = 'VectorMatrixError'
}

export class WorkVectorMatrix {
  readonly ids: readonly string[]
  /** Row-major, `dimensions` components a row. */
  readonly values: Int8Array
  readonly norms: Float32Array
  readonly dimensions: number

  constructor(ids: readonly string[], values: Int8Array, norms: Float32Array, dimensions: number) {
    if (values.length !== ids.length * dimensions || norms.length !== ids.length)
      throw new VectorMatrixError(
        `The vector matrix holds ${values.length} components and ${norms.length} norms for ${ids.length} works of ${dimensions} dimensions`,
      )
    for (let row = 1; row < ids.length; row++)
      if (!(ids[row - 1]! < ids[row]!))
        throw new VectorMatrixError(`The vectors' ids are not in ascending order at ${ids[row]}`)
    this.ids = ids
    this.values = values
    this.norms = norms
    this.dimensions = dimensions
  }

  get rows(): number {
    return this.ids.length
  }

  /** A mask of the rows of `ids` (ascending, as DuckDB sorts them); ids without a vector are skipped. */
  rowsOf(ids: readonly string[]): Uint8Array {
    const mask = new Uint8Array(this.rows)
    let row = 0
    for (const id of ids) {
      // Both lists ascend: one merge walk, with a binary search to jump over long gaps.
      if (row < this.rows && this.ids[row]! < id) row = this.#firstRowFrom(id, row)
      if (row < this.rows && this.ids[row] === id) mask[row] = 1
    }
    return mask
  }

  #firstRowFrom(id: string, from: number): number {
    let low = from
    let high = this.rows
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.ids[middle]! < id) low = middle + 1
      else high = middle
    }
    return low
  }

  /**
   * The `limit` rows nearest to `query` (a unit vector of `dimensions` numbers), best first, ties by id; only
   * rows whose `keep` byte is 1 when a mask is given.
   */
  nearest(query: Float32Array, limit: number, keep?: Uint8Array): VectorMatch[] {
    const d = this.dimensions
    if (query.length !== d)
      throw new VectorMatrixError(
        `The query vector has ${query.length} numbers; the matrix has ${d} dimensions`,
      )
    const values = this.values
    const norms = this.norms
    // The best rows so far, unordered, and the weakest of them (replaced by anything better).
    const bestRows = new Int32Array(Math.max(0, limit))
    const bestScores = new Float64Array(Math.max(0, limit))
    let size = 0
    let weakest = 0
    for (let row = 0, at = 0; row < this.rows; row++, at += d) {
      if (keep !== undefined && keep[row] !== 1) continue
      // Four sums side by side: the loop's additions do not wait on each other.
      let a = 0
      let b = 0
      let c = 0
      let e = 0
      let k = 0
      for (; k + 3 < d; k += 4) {
        a += values[at + k]! * query[k]!
        b += values[at + k + 1]! * query[k + 1]!
        c += values[at + k + 2]! * query[k + 2]!
        e += values[at + k + 3]! * query[k + 3]!
      }
      for (; k < d; k++) a += values[at + k]! * query[k]!
      const score = (a + b + c + e) / norms[row]!
      if (size < limit) {
        bestRows[size] = row
        bestScores[size] = score
        size++
        if (size === limit) weakest = weakestOf(bestScores, bestRows, size)
      } else if (limit > 0 && score > bestScores[weakest]!) {
        // Strictly better: on equal scores the earlier row, the smaller id, stays.
        bestRows[weakest] = row
        bestScores[weakest] = score
        weakest = weakestOf(bestScores, bestRows, size)
      }
    }
    const order = Array.from({ length: size }, (_, index) => index).sort(
      (x, y) => bestScores[y]! - bestScores[x]! || bestRows[x]! - bestRows[y]!,
    )
    return order.map((index) => ({ id: this.ids[bestRows[index]!]!, score: bestScores[index]! }))
  }
}

/** The slot holding the weakest entry: the lowest score, and of equal scores the latest row. */
const weakestOf = (scores: Float64Array, rows: Int32Array, size: number): number => {
  let weakest = 0
  for (let slot = 1; slot < size; slot++)
    if (
      scores[slot]! < scores[weakest]! ||
      (scores[slot] === scores[weakest] && rows[slot]! > rows[weakest]!)
    )
      weakest = slot
  return weakest
}
