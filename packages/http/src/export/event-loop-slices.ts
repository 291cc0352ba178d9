import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * The most rows an export parses or encodes between two turns of the event loop: a hundred records of a work
 * take a few ms to parse or write on an idle core.
 */
export const EXPORT_SLICE_ROWS = 100

/**
 * The time one slice of an export's work should hold the main thread (ms). On a busy machine a record costs
 * many times what it does on an idle one, and four exports each taking a turn of 100 rows kept a cheap request
 * waiting for hundreds of ms per turn it needed: slices are sized to take about this long instead.
 */
export const EXPORT_SLICE_MS = 3

/**
 * The size of an export's next slice: at most `EXPORT_SLICE_ROWS`, and, from how long the last took, about
 * as many rows as fit in `EXPORT_SLICE_MS` (at least one).
 */
export class SliceSizer {
  #rows = EXPORT_SLICE_ROWS

  /** Rows the next slice takes. */
  get rows(): number {
    return this.#rows
  }

  /** Says that a slice of `rows` rows took `ms`: the next one is sized from it. */
  took(rows: number, ms: number): void {
    if (rows === 0) return
    const fitting = Math.floor((rows * EXPORT_SLICE_MS) / Math.max(ms, 0.01))
    this.#rows = Math.max(1, Math.min(EXPORT_SLICE_ROWS, fitting))
  }
}

/**
 * `map` over `items` in slices (`SliceSizer`), letting the event loop run (timers, sockets, other requests)
 * before each slice after the first: long synchronous work made into many short turns.
 */
export const mapInSlices = async <T, R>(items: readonly T[], map: (item: T) => R): Promise<R[]> => {
  const sizer = new SliceSizer()
  const mapped: R[] = []
  for (let start = 0; start < items.length; ) {
    if (start > 0) await nextTurn()
    const began = performance.now()
    const end = Math.min(items.length, start + sizer.rows)
    for (let index = start; index < end; index++) mapped.push(map(items[index]!))
    sizer.took(end - start, performance.now() - began)
    start = end
  }
  return mapped
}

/** Lets the event loop run once: between two slices of an export's work. */
export const yieldToEventLoop = (): Promise<void> => nextTurn()
