// The works of every author, institution, source, ... : pass 2 spools (entity, work) pairs as it writes the
// works, and this reads them back grouped by entity, in entity order, a range of entities at a time so that
// at most `capacity` work numbers are held at once. Each entity's works come in ascending order (pairs were
// written in work order). The per-entity totals needed to size the ranges are counted during pass 2.
import { Uint32SpoolReader, Uint32SpoolWriter } from './uint32-spool.ts'

/** Work numbers held at once while grouping (128 MB). */
const DEFAULT_CAPACITY = 32 * 1024 * 1024

export class EntityWorkLinks {
  readonly entity: string
  readonly size: number
  /** Works per entity, counted as pairs are added. */
  readonly counts: Uint32Array
  readonly #spool: Uint32SpoolWriter

  constructor(entity: string, size: number, spoolPath: string) {
    this.entity = entity
    this.size = size
    this.counts = new Uint32Array(size)
    this.#spool = new Uint32SpoolWriter(spoolPath)
  }

  get spoolPath(): string {
    return this.#spool.path
  }

  add(entity: number, work: number): void {
    this.#spool.push2(entity, work)
    this.counts[entity]!++
  }

  close(): void {
    this.#spool.close()
  }

  /** Calls `visit` for every entity in index order (also those without works) with its works, ascending. */
  *grouped(capacity = DEFAULT_CAPACITY): Generator<readonly [number, Uint32Array]> {
    this.close()
    let low = 0
    while (low < this.size) {
      let high = low
      let total = 0
      while (high < this.size && (high === low || total + this.counts[high]! <= capacity))
        total += this.counts[high++]!
      const starts = new Float64Array(high - low + 1)
      for (let e = low; e < high; e++) starts[e - low + 1] = starts[e - low]! + this.counts[e]!
      const works = new Uint32Array(total)
      const fill = starts.slice(0, high - low)
      const reader = new Uint32SpoolReader(this.#spool.path)
      try {
        while (!reader.done()) {
          const entity = reader.next()
          const work = reader.next()
          if (entity >= low && entity < high) works[fill[entity - low]!++] = work
        }
      } finally {
        reader.close()
      }
      for (let e = low; e < high; e++) yield [e, works.subarray(starts[e - low]!, starts[e - low + 1]!)]
      low = high
    }
  }
}
