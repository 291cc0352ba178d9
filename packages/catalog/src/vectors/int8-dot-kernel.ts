// Int8 rows scored against a query in WebAssembly SIMD (int8-dot-kernel.wat), for the scans that score every
// row: about 20 times the rows a second of the JavaScript loop in nearest-rows.ts (an exact scan of 100,000
// rows of 256 components in 2.5 ms against 52 ms, BENCHMARKS.md "Semantic search"). The rows live in the
// kernel's own memory, so a scan copies nothing; the query is rounded to 16-bit integers, so a score is the
// float product give or take `errorBound()`, and callers that must match the float product exactly score the
// few rows that close again with it.
import { INT8_DOT_KERNEL_BASE64 } from './int8-dot-kernel.generated.ts'
import { type IntegerQuery, int8RowIntDot, integerQuery } from './nearest-rows.ts'

/** Rows scored per call: their scores (64 KiB) stay in the cache while the caller reads them. */
export const KERNEL_BLOCK_ROWS = 16_384
/** The kernel reads 16 components a step; other widths are scored in JavaScript. */
const LANES = 16
const PAGE_BYTES = 65_536

type DotRows = (rows: number, count: number, width: number, query: number, scores: number) => void
type DotRowsAt = (
  rows: number,
  numbers: number,
  count: number,
  width: number,
  query: number,
  scores: number,
) => void

/** The part of the WebAssembly JavaScript API used here, which @types/node 20 does not declare. */
interface WebAssemblyApi {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> }
  readonly Memory: new (descriptor: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer }
}
const wasm = (globalThis as unknown as { readonly WebAssembly: WebAssemblyApi }).WebAssembly

let compiled: object | undefined
const kernelModule = (): object => {
  compiled ??= new wasm.Module(Uint8Array.from(atob(INT8_DOT_KERNEL_BASE64), (char) => char.charCodeAt(0)))
  return compiled
}

/** Kernels by the rows array they own, so a matrix handed such an array scores it in place. */
const kernelsByValues = new WeakMap<Int8Array, Int8RowKernel>()

/** The kernel that owns `values` (made by `Int8RowKernel.create`), if one does. */
export const kernelOf = (values: Int8Array): Int8RowKernel | undefined => kernelsByValues.get(values)

export class Int8RowKernel implements Int8BlockScorer {
  /** The rows, `rows × width` components, in the kernel's memory: write them here before scoring. */
  readonly values: Int8Array
  readonly rows: number
  readonly width: number
  readonly #dotRows: DotRows
  readonly #dotRowsAt: DotRowsAt
  readonly #query: Int16Array
  readonly #scores: Int32Array
  readonly #queryAt: number
  readonly #scoresAt: number
  readonly #valuesAt: number
  /** The row numbers `scoreRows` scores, after the rows (room for a block). */
  readonly #numbers: Int32Array
  #scale = 0

  /**
   * A kernel with room for `rows` rows of `width` components; undefined when the width is not a multiple of
   * 16 or the memory cannot be had (WebAssembly memory ends at 4 GiB): the caller scores in JavaScript then.
   */
  static create(rows: number, width: number): Int8RowKernel | undefined {
    if (width <= 0 || width % LANES !== 0 || !Number.isSafeInteger(rows) || rows < 0) return undefined
    const queryBytes = width * 2
    const scoresAt = queryBytes
    const valuesAt = scoresAt + KERNEL_BLOCK_ROWS * 4
    // Row numbers are 4-byte aligned after the rows: widths are multiples of 16.
    const numbers = KERNEL_BLOCK_ROWS * 4
    const pages = Math.max(1, Math.ceil((valuesAt + rows * width + numbers) / PAGE_BYTES))
    try {
      const memory = new wasm.Memory({ initial: pages, maximum: pages })
      const instance = new wasm.Instance(kernelModule(), { kernel: { memory } })
      const { dotRows, dotRowsAt } = instance.exports as { dotRows: DotRows; dotRowsAt: DotRowsAt }
      return new Int8RowKernel(memory, dotRows, dotRowsAt, rows, width, valuesAt)
    } catch (error) {
      if (error instanceof RangeError) return undefined
      throw error
    }
  }

  private constructor(
    memory: { readonly buffer: ArrayBuffer },
    dotRows: DotRows,
    dotRowsAt: DotRowsAt,
    rows: number,
    width: number,
    valuesAt: number,
  ) {
    this.rows = rows
    this.width = width
    this.#dotRows = dotRows
    this.#dotRowsAt = dotRowsAt
    this.#queryAt = 0
    this.#scoresAt = width * 2
    this.#valuesAt = valuesAt
    this.#numbers = new Int32Array(memory.buffer, valuesAt + rows * width, KERNEL_BLOCK_ROWS)
    this.#query = new Int16Array(memory.buffer, this.#queryAt, width)
    this.#scores = new Int32Array(memory.buffer, this.#scoresAt, KERNEL_BLOCK_ROWS)
    this.values = new Int8Array(memory.buffer, valuesAt, rows * width)
    kernelsByValues.set(this.values, this)
  }

  /**
   * Sets the query the next scores are against: `query` rounded by `integerQuery` (16 bits a component, no
   * row's sum past 31). Returns the scale (0 for a zero query): a score divided by it is the float product
   * within `errorBound`.
   */
  setQuery(query: Float32Array): number {
    if (query.length !== this.width)
      throw new RangeError(`A query of ${query.length} numbers for rows of ${this.width}`)
    this.setIntegerQuery(integerQuery(query))
    return this.#scale
  }

  /** Sets an integer query made by `integerQuery`; scores are then exactly `int8RowIntDot`'s. */
  setIntegerQuery(query: IntegerQuery): void {
    if (query.values.length !== this.width)
      throw new RangeError(`A query of ${query.values.length} numbers for rows of ${this.width}`)
    this.#query.set(query.values)
    this.#scale = query.scale
  }

  /**
   * How far a score over the scale may be from the float product, for a row of norm `norm`: each query
   * component is off by at most half a unit, and Σ|v| ≤ √width · ‖v‖.
   */
  errorBound(norm: number): number {
    return this.#scale === 0 ? 0 : (0.5 * Math.sqrt(this.width) * norm) / this.#scale
  }

  /**
   * The integer products of rows `[from, from + count)` with the query (`count` at most `KERNEL_BLOCK_ROWS`):
   * a view of the kernel's memory, valid until the next call.
   */
  score(from: number, count: number): Int32Array {
    if (from < 0 || count < 0 || count > KERNEL_BLOCK_ROWS || from + count > this.rows)
      throw new RangeError(
        `Rows ${from} to ${from + count} of ${this.rows}, ${KERNEL_BLOCK_ROWS} at most at once`,
      )
    this.#dotRows(this.#valuesAt + from * this.width, count, this.width, this.#queryAt, this.#scoresAt)
    return this.#scores.subarray(0, count)
  }

  /**
   * The integer products of the rows `rows[from..from + count)` (any rows, in any order; `count` at most
   * `KERNEL_BLOCK_ROWS`) with the query, each read where it lies. A view, valid until the next call.
   */
  scoreRows(rows: Int32Array, from: number, count: number): Int32Array {
    if (count < 0 || count > KERNEL_BLOCK_ROWS || from < 0 || from + count > rows.length)
      throw new RangeError(
        `Rows ${from} to ${from + count} of a list of ${rows.length}, ${KERNEL_BLOCK_ROWS} at most at once`,
      )
    for (let index = from; index < from + count; index++) {
      const row = rows[index]!
      // The kernel reads where it is told: a row number past the rows would read other memory.
      if (!(row >= 0 && row < this.rows)) throw new RangeError(`Row ${row} of ${this.rows}`)
    }
    this.#numbers.set(rows.subarray(from, from + count))
    this.#dotRowsAt(
      this.#valuesAt,
      this.#numbers.byteOffset,
      count,
      this.width,
      this.#queryAt,
      this.#scoresAt,
    )
    return this.#scores.subarray(0, count)
  }
}

/** Int8 rows scored against integer queries, a block at a time: what the index builder's passes need. */
export interface Int8BlockScorer {
  /** Room for the rows scored: write them here, then score any range of them. */
  readonly values: Int8Array
  setIntegerQuery(query: IntegerQuery): void
  /** `int8RowIntDot` of rows `[from, from + count)` with the query, `count` at most `KERNEL_BLOCK_ROWS`. */
  score(from: number, count: number): Int32Array
}

/** The same scores in JavaScript, for widths the kernel cannot read. */
class JavaScriptBlockScorer implements Int8BlockScorer {
  readonly values: Int8Array
  readonly #width: number
  readonly #scores = new Int32Array(KERNEL_BLOCK_ROWS)
  #query: Int32Array = new Int32Array(0)

  constructor(rows: number, width: number) {
    this.values = new Int8Array(rows * width)
    this.#width = width
  }

  setIntegerQuery(query: IntegerQuery): void {
    this.#query = query.values
  }

  score(from: number, count: number): Int32Array {
    const d = this.#width
    for (let index = 0; index < count; index++)
      this.#scores[index] = int8RowIntDot(this.values, (from + index) * d, this.#query, d)
    return this.#scores.subarray(0, count)
  }
}

/** Room for `rows` rows of `width`, scored in WebAssembly when it can be, else in JavaScript. */
export const int8BlockScorer = (rows: number, width: number): Int8BlockScorer =>
  Int8RowKernel.create(rows, width) ?? new JavaScriptBlockScorer(rows, width)
