// The works' vectors in memory, for semantic search: one int8 matrix with a row per work in id order, each
// row's norm, and the ids. A query is scored against every row, or every row a filter keeps, by the exact
// cosine over what is stored. In JavaScript rather than SQL: DuckDB's `array_inner_product` needs float
// arrays, and casting a million int8 vectors to float on every query cost about 2 s at 1M works, where this
// loop reads the int8 bytes as they are (see BENCHMARKS.md, "Semantic search"). A catalog with a list index
// (`ivf-vector-index.ts`) scores only the rows of the lists nearest the query, with the same kernel.
import { type CatalogIdOrder, letterIdComparator } from '../layout/entity-id-order.ts'
import { Int8RowKernel, KERNEL_BLOCK_ROWS, kernelOf } from './int8-dot-kernel.ts'
import { int8RowDot, NearestRows } from './nearest-rows.ts'

export interface VectorMatch {
  readonly id: string
  /** The cosine between the query and the work's stored vector. */
  readonly score: number
}

export class VectorMatrixError extends Error {
  override readonly name = 'VectorMatrixError'
}

/**
 * Room for a matrix's rows where its scans read them (the kernel's memory), so a loader reads the file there
 * and the matrix keeps no second copy; a plain array when the kernel cannot take them.
 */
export const allocateMatrixValues = (rows: number, dimensions: number): Int8Array =>
  Int8RowKernel.create(rows, dimensions)?.values ?? new Int8Array(rows * dimensions)

export class WorkVectorMatrix {
  readonly ids: readonly string[]
  /** Row-major, `dimensions` components a row. */
  readonly values: Int8Array
  readonly norms: Float32Array
  readonly dimensions: number
  /** Scores every row in WebAssembly when the width allows (a multiple of 16) and the memory could be had. */
  readonly #kernel: Int8RowKernel | undefined
  /** The catalog's id order, which the rows and every list of ids given to the matrix follow. */
  readonly #compare: (left: string, right: string) => number

  constructor(
    ids: readonly string[],
    values: Int8Array,
    norms: Float32Array,
    dimensions: number,
    order: CatalogIdOrder = 'by-number',
  ) {
    if (values.length !== ids.length * dimensions || norms.length !== ids.length)
      throw new VectorMatrixError(
        `The vector matrix holds ${values.length} components and ${norms.length} norms for ${ids.length} works of ${dimensions} dimensions`,
      )
    this.#compare = letterIdComparator(order)
    for (let row = 1; row < ids.length; row++)
      if (!(this.#compare(ids[row - 1]!, ids[row]!) < 0))
        throw new VectorMatrixError(`The vectors' ids are not in ascending id order at ${ids[row]}`)
    this.ids = ids
    this.#kernel = kernelOf(values) ?? Int8RowKernel.create(ids.length, dimensions)
    if (this.#kernel !== undefined && this.#kernel.values !== values) this.#kernel.values.set(values)
    // The kernel's copy is the one kept: a loader that read the rows into `allocateMatrixValues` made none.
    this.values = this.#kernel?.values ?? values
    this.norms = norms
    this.dimensions = dimensions
  }

  get rows(): number {
    return this.ids.length
  }

  /** A mask of the rows of `ids` (ascending in id order, as the catalog's rows are); ids without a vector are skipped. */
  rowsOf(ids: readonly string[]): Uint8Array {
    const mask = new Uint8Array(this.rows)
    let row = 0
    for (const id of ids) {
      // Both lists ascend: one merge walk, with a binary search to jump over long gaps.
      if (row < this.rows && this.#compare(this.ids[row]!, id) < 0) row = this.#firstRowFrom(id, row)
      if (row < this.rows && this.ids[row] === id) mask[row] = 1
    }
    return mask
  }

  #firstRowFrom(id: string, from: number): number {
    let low = from
    let high = this.rows
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#compare(this.ids[middle]!, id) < 0) low = middle + 1
      else high = middle
    }
    return low
  }

  /**
   * The rows of `ids` (ascending in id order) as a search's candidates; ids without a vector are
   * skipped. The kept rows are also listed when they are few (at most one row in 64), so an exact search over
   * a narrow filter reads them instead of walking the whole mask.
   */
  candidatesOf(ids: readonly string[]): VectorCandidates {
    const mask = this.rowsOf(ids)
    let count = 0
    for (let row = 0; row < mask.length; row++) count += mask[row]!
    if (count * LISTED_CANDIDATES_SHARE > this.rows) return { mask, count }
    return { mask, count, rows: rowsOfMask(mask, count) }
  }

  /**
   * The `limit` rows nearest to `query` (a unit vector of `dimensions` numbers), best first, ties by id; only
   * rows whose `keep` byte is 1 when a mask is given, only the listed rows when candidates list them.
   */
  nearest(query: Float32Array, limit: number, keep?: Uint8Array | VectorCandidates): VectorMatch[] {
    const listed = keep instanceof Uint8Array ? undefined : keep?.rows
    if (listed !== undefined) return this.nearestAmong(query, limit, listed)
    this.checkQuery(query)
    const best = new NearestRows(limit)
    if (best.limit === 0) return []
    const mask = keep instanceof Uint8Array ? keep : keep?.mask
    if (this.#kernel !== undefined) {
      // A filter that keeps few rows: the kernel scores those rows gathered, not every row of the matrix.
      if (
        keep !== undefined &&
        !(keep instanceof Uint8Array) &&
        keep.count * GATHERED_CANDIDATES_SHARE < this.rows
      )
        return this.nearestAmong(query, limit, rowsOfMask(keep.mask, keep.count))
      return this.#rescored(query, best, this.#closeRows(query, best.limit, mask))
    }
    const d = this.dimensions
    for (let row = 0, at = 0; row < this.rows; row++, at += d) {
      if (mask !== undefined && mask[row] !== 1) continue
      best.offer(row, int8RowDot(this.values, at, query, d) / this.norms[row]!)
    }
    return this.matchesOf(best)
  }

  /** The `limit` of `rows` (in any order) nearest to `query`, best first, ties by id: what a list index reads. */
  nearestAmong(query: Float32Array, limit: number, rows: Int32Array): VectorMatch[] {
    this.checkQuery(query)
    const best = new NearestRows(limit)
    if (best.limit === 0) return []
    return this.#rescored(
      query,
      best,
      this.#kernel === undefined || rows.length <= best.limit
        ? rows
        : this.#closeRows(query, best.limit, undefined, rows),
    )
  }

  /** The best of `rows` by the float product, into `best`. */
  #rescored(query: Float32Array, best: NearestRows, rows: Int32Array): VectorMatch[] {
    const d = this.dimensions
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!
      best.offer(row, int8RowDot(this.values, row * d, query, d) / this.norms[row]!)
    }
    return this.matchesOf(best)
  }

  /**
   * The rows (of `mask`, or of `listed`, when given) that may be among the `limit` nearest: each scored by the
   * kernel, and those kept whose score is within twice its error of the best `limit` so far. Every row of the
   * true `limit` nearest is kept, so scoring the kept rows with the float product finds what a float pass over
   * them all finds, at the cost of the few rows that close.
   */
  #closeRows(
    query: Float32Array,
    limit: number,
    mask: Uint8Array | undefined,
    listed?: Int32Array,
  ): Int32Array {
    const kernel = this.#kernel!
    const norms = this.norms
    const scale = kernel.setQuery(query)
    // The bound over a row's norm is the same for every row; a hair more covers the float32 norms and the
    // rounding of the divisions.
    const margin = scale === 0 ? Number.POSITIVE_INFINITY : 2 * kernel.errorBound(1) * 1.001 + 1e-9
    const rough = new NearestRows(limit)
    let kept = new Int32Array(Math.max(64, 4 * limit))
    let count = 0
    const total = listed?.length ?? this.rows
    for (let from = 0; from < total; from += KERNEL_BLOCK_ROWS) {
      const size = Math.min(KERNEL_BLOCK_ROWS, total - from)
      const scores = listed === undefined ? kernel.score(from, size) : kernel.scoreRows(listed, from, size)
      for (let index = 0; index < size; index++) {
        const row = listed === undefined ? from + index : listed[from + index]!
        if (mask !== undefined && mask[row] !== 1) continue
        const score = scale === 0 ? 0 : scores[index]! / scale / norms[row]!
        // The bar only rises: a row below it by more than the margin now is below the final one too.
        if (!(score >= rough.bar - margin)) continue
        rough.offer(row, score)
        if (count === kept.length) {
          const larger = new Int32Array(kept.length * 2)
          larger.set(kept)
          kept = larger
        }
        kept[count++] = row
      }
    }
    return kept.subarray(0, count)
  }

  /** Throws unless `query` has this matrix's width. */
  checkQuery(query: Float32Array): void {
    if (query.length !== this.dimensions)
      throw new VectorMatrixError(
        `The query vector has ${query.length} numbers; the matrix has ${this.dimensions} dimensions`,
      )
  }

  /** The ids and scores of the rows kept, best first. */
  matchesOf(best: NearestRows): VectorMatch[] {
    return best.sorted().map((found) => ({ id: this.ids[found.row]!, score: found.score }))
  }
}

/**
 * The rows a search may return: a byte per row (1: kept), how many are kept, and the kept rows in ascending
 * order when they are few enough to list.
 */
export interface VectorCandidates {
  readonly mask: Uint8Array
  readonly count: number
  readonly rows?: Int32Array
}

/** Candidates are listed when at most one row in this many is kept. */
const LISTED_CANDIDATES_SHARE = 64

/**
 * The kernel scores a filter's rows where they lie, rather than every row, when fewer than one in this many are
 * kept: a row read out of order waits on memory (about 250 ns at 200k rows, against 25 ns a row in order), so
 * past about a tenth of the rows a scan of every row is as quick (bench:semantic, "filter keeping 10%").
 */
const GATHERED_CANDIDATES_SHARE = 16

/** The rows whose byte is 1, ascending. */
const rowsOfMask = (mask: Uint8Array, count: number): Int32Array => {
  const rows = new Int32Array(count)
  for (let row = 0, at = 0; at < count && row < mask.length; row++) if (mask[row] === 1) rows[at++] = row
  return rows
}
