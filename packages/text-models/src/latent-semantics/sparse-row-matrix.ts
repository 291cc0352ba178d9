// A sparse matrix by rows (compressed sparse rows): the training documents' TF-IDF vectors, one row each.
// Products with a dense block are all the randomised SVD needs of it, in both orientations.
import type { SparseTermVector } from '../text-model/sparse-term-vector.ts'

export class SparseRowMatrix {
  readonly rows: number
  readonly columns: number
  /** Where each row's entries start in `columnIds`/`values`; `rowStart[rows]` is the entry count. */
  readonly rowStart: Uint32Array
  readonly columnIds: Uint32Array
  readonly values: Float64Array

  constructor(vectors: readonly SparseTermVector[], columns: number) {
    this.rows = vectors.length
    this.columns = columns
    this.rowStart = new Uint32Array(vectors.length + 1)
    let entries = 0
    vectors.forEach((vector, row) => {
      this.rowStart[row] = entries
      entries += vector.termIds.length
    })
    this.rowStart[vectors.length] = entries
    this.columnIds = new Uint32Array(entries)
    this.values = new Float64Array(entries)
    vectors.forEach((vector, row) => {
      this.columnIds.set(vector.termIds, this.rowStart[row]!)
      for (let k = 0; k < vector.weights.length; k++)
        this.values[this.rowStart[row]! + k] = vector.weights[k]!
    })
  }

  /** X·D: `dense` is columns × width, row-major; the result is rows × width, row-major. */
  times(dense: Float64Array, width: number): Float64Array {
    return this.#product(dense, width, false)
  }

  /** Xᵀ·D: `dense` is rows × width, row-major; the result is columns × width, row-major. */
  transposeTimes(dense: Float64Array, width: number): Float64Array {
    return this.#product(dense, width, true)
  }

  // One walk over the stored values serves both products: each value adds a row of `dense` times it to a row
  // of the result, the row and the column of the value taking the two parts in turn.
  #product(dense: Float64Array, width: number, transposed: boolean): Float64Array {
    const result = new Float64Array((transposed ? this.columns : this.rows) * width)
    for (let row = 0; row < this.rows; row++) {
      const rowAt = row * width
      for (let k = this.rowStart[row]!; k < this.rowStart[row + 1]!; k++) {
        const value = this.values[k]!
        const columnAt = this.columnIds[k]! * width
        const out = transposed ? columnAt : rowAt
        const from = transposed ? rowAt : columnAt
        for (let c = 0; c < width; c++) result[out + c]! += value * dense[from + c]!
      }
    }
    return result
  }
}
