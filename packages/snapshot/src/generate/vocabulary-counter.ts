// works_count and cited_by_count of the vocabulary entities (countries, languages, work types, ...), counted
// while the works are written, with the same work-to-value links as the bundled sample's counts
// (sample/sample-count-calculator.ts, COUNT_FILTERS): each work counts once per value it links to.
import { type SampleCount, SampleCounts } from '../sample/sample-count-calculator.ts'

/** One value's counts: full id, works_count, cited_by_count. */
export type VocabularyTally = readonly [string, number, number]

export class VocabularyCounter {
  readonly #index = new Map<string, number>()
  #works = new Float64Array(256)
  #cited = new Float64Array(256)
  #lastWork = new Float64Array(256).fill(-1)

  /** Counts work `work` (cited `cited` times) for the value with full id `id`, once per work. */
  add(work: number, cited: number, id: string): void {
    const slot = this.#slot(id)
    if (this.#lastWork[slot] === work) return
    this.#lastWork[slot] = work
    this.#works[slot]!++
    this.#cited[slot]! += cited
  }

  /** The counts so far, to send to the thread that merges them. */
  tallies(): VocabularyTally[] {
    return [...this.#index].map(([id, slot]) => [id, this.#works[slot]!, this.#cited[slot]!] as const)
  }

  /**
   * Adds the tallies of a counter that counted other works (another worker thread's share). The counts are
   * whole numbers, so the sums do not depend on the order of merging.
   */
  merge(tallies: readonly VocabularyTally[]): void {
    for (const [id, works, cited] of tallies) {
      const slot = this.#slot(id)
      this.#works[slot]! += works
      this.#cited[slot]! += cited
    }
  }

  of(id: string): SampleCount {
    const slot = this.#index.get(id)
    return slot === undefined
      ? { works_count: 0, cited_by_count: 0 }
      : { works_count: this.#works[slot]!, cited_by_count: this.#cited[slot]! }
  }

  /** The counts in the shape the vocabulary record builder of the sample reads. */
  asSampleCounts(): SampleCounts {
    return new CountedVocabulary(this)
  }

  #slot(id: string): number {
    let slot = this.#index.get(id)
    if (slot === undefined) {
      slot = this.#index.size
      this.#index.set(id, slot)
      if (slot === this.#works.length) this.#grow()
    }
    return slot
  }

  #grow(): void {
    const size = this.#works.length * 2
    const grow = (from: Float64Array, fill: number) => {
      const to = new Float64Array(size).fill(fill)
      to.set(from)
      return to
    }
    this.#works = grow(this.#works, 0)
    this.#cited = grow(this.#cited, 0)
    this.#lastWork = grow(this.#lastWork, -1)
  }
}

/** SampleCounts whose figures come from a VocabularyCounter rather than from parsed sample works. */
class CountedVocabulary extends SampleCounts {
  readonly #counter: VocabularyCounter

  constructor(counter: VocabularyCounter) {
    super([])
    this.#counter = counter
  }

  override of(id: string): SampleCount {
    return this.#counter.of(id)
  }
}
