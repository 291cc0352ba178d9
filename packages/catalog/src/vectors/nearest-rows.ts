// What every vector scan shares: the inner product of one stored int8 row with a float query, and the bounded
// set of the best rows seen so far. The exact scan and the list index score rows with the same function and
// keep them with the same rule, so a row the index reaches gets the very score the exact scan gives it, and
// equal scores are broken the same way (the smaller row, which is the smaller id: rows are in id order).

/**
 * `values[at..at+d) · query`. Four sums side by side: the additions of the loop do not wait on each other
 * (about a third faster than one sum in V8 on 256 dimensions).
 */
export function int8RowDot(values: Int8Array, at: number, query: Float32Array, d: number): number {
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
  return a + b + c + e
}

/**
 * A float vector as integers for `int8RowIntDot` and the WebAssembly kernel (`int8-dot-kernel.ts`): scaled so
 * that each fits 16 bits (the kernel's lanes) and no sum of a row's products can pass 2^31 (128 · |q| · d),
 * which leaves the products' relative error under 1e-4 up to 512 dimensions.
 */
export function integerQuery(query: Float32Array): { readonly values: Int32Array; readonly scale: number } {
  let largest = 0
  for (let k = 0; k < query.length; k++) largest = Math.max(largest, Math.abs(query[k]!))
  const bound = Math.min(2 ** 15 - 1, Math.floor((2 ** 31 - 1) / (128 * Math.max(1, query.length))))
  const scale = largest === 0 || !Number.isFinite(largest) ? 0 : bound / largest
  return { values: Int32Array.from(query, (value) => Math.round(value * scale)), scale }
}

/** A query rounded to integers, and the scale it was rounded at (0 for a zero query). */
export type IntegerQuery = ReturnType<typeof integerQuery>

/**
 * `values[at..at+d) · query` in 32-bit integers (divide by the query's scale for the float product): about a
 * third faster than `int8RowDot` in V8, for the passes of an index build that score every row many times
 * over and only compare the scores (which list is nearest, which rows are a sample's neighbours).
 */
export function int8RowIntDot(values: Int8Array, at: number, query: Int32Array, d: number): number {
  let a = 0
  let b = 0
  let k = 0
  for (; k + 7 < d; k += 8) {
    a =
      (a +
        values[at + k]! * query[k]! +
        values[at + k + 1]! * query[k + 1]! +
        values[at + k + 2]! * query[k + 2]! +
        values[at + k + 3]! * query[k + 3]!) |
      0
    b =
      (b +
        values[at + k + 4]! * query[k + 4]! +
        values[at + k + 5]! * query[k + 5]! +
        values[at + k + 6]! * query[k + 6]! +
        values[at + k + 7]! * query[k + 7]!) |
      0
  }
  for (; k < d; k++) a = (a + values[at + k]! * query[k]!) | 0
  return a + b
}

export interface ScoredRow {
  readonly row: number
  readonly score: number
}

/**
 * The `limit` best rows offered, in any order of offering: the highest scores, and of equal scores the
 * smaller rows. Unordered slots and the weakest of them, replaced by anything better: a search keeps at most
 * 50, so finding the next weakest by a walk over the slots costs less than keeping a heap in order.
 */
export class NearestRows {
  readonly limit: number
  readonly #rows: Int32Array
  readonly #scores: Float64Array
  #size = 0
  #weakest = 0

  constructor(limit: number) {
    this.limit = Math.max(0, Math.floor(limit))
    this.#rows = new Int32Array(this.limit)
    this.#scores = new Float64Array(this.limit)
  }

  get size(): number {
    return this.#size
  }

  /** The score a row must beat to be kept: the weakest kept score once `limit` rows are kept, -∞ before. */
  get bar(): number {
    return this.limit > 0 && this.#size === this.limit
      ? this.#scores[this.#weakest]!
      : Number.NEGATIVE_INFINITY
  }

  offer(row: number, score: number): void {
    if (this.#size < this.limit) {
      this.#rows[this.#size] = row
      this.#scores[this.#size] = score
      this.#size++
      if (this.#size === this.limit) this.#weakest = this.#weakestSlot()
      return
    }
    if (this.limit === 0) return
    // Only a strictly better row replaces the weakest: never a NaN, never an equal score of a later row.
    const weakestScore = this.#scores[this.#weakest]!
    if (!(score > weakestScore || (score === weakestScore && row < this.#rows[this.#weakest]!))) return
    this.#rows[this.#weakest] = row
    this.#scores[this.#weakest] = score
    this.#weakest = this.#weakestSlot()
  }

  /** Best first; of equal scores the smaller row first. */
  sorted(): ScoredRow[] {
    const found = Array.from({ length: this.#size }, (_, slot) => ({
      row: this.#rows[slot]!,
      score: this.#scores[slot]!,
    }))
    return found.sort((x, y) => y.score - x.score || x.row - y.row)
  }

  /** The slot of the lowest score, and of equal scores the largest row. */
  #weakestSlot(): number {
    const scores = this.#scores
    const rows = this.#rows
    let weakest = 0
    for (let slot = 1; slot < this.#size; slot++)
      if (
        scores[slot]! < scores[weakest]! ||
        (scores[slot] === scores[weakest] && rows[slot]! > rows[weakest]!)
      )
        weakest = slot
    return weakest
  }
}
