import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Rows an export parses or encodes between two turns of the event loop. A record of a work is a few KB of
 * JSON; a hundred of them take a few ms to parse or write, so a cheap request waits at most that long behind
 * an export, where a whole batch of 1,000 held the main thread for tens to hundreds of ms.
 */
export const EXPORT_SLICE_ROWS = 100

/**
 * `map` over `items` in slices of `size`, letting the event loop run (timers, sockets, other requests)
 * before each slice after the first: long synchronous work made into many short turns.
 */
export const mapInSlices = async <T, R>(
  items: readonly T[],
  map: (item: T) => R,
  size = EXPORT_SLICE_ROWS,
): Promise<R[]> => {
  const mapped: R[] = []
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await nextTurn()
    for (const item of items.slice(start, start + size)) mapped.push(map(item))
  }
  return mapped
}

/** Lets the event loop run once: between two slices of an export's work. */
export const yieldToEventLoop = (): Promise<void> => nextTurn()
