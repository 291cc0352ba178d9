// The works a snowball has reached, each with the step it was first reached at, and the citations between them:
// bounded by a limit checked as each work is added, so a snowball too large stops at once.
import type { Citation } from '../adapter/storage-adapter.ts'
import { namedErrorGuard } from '../errors/named-error-guard.ts'

/** A snowball that reaches more works than its limit: the request is refused whole. */
export class SnowballTooLargeError extends Error {
  override readonly name = 'SnowballTooLargeError'
  constructor(
    /** The step at which the limit was passed (1 or 2). */
    readonly depth: number,
    /** How many works the snowball had reached when it stopped: more than the limit. */
    readonly reached: number,
    readonly limit: number,
  ) {
    super(
      `The snowball reaches more than ${limit.toLocaleString('en')} works by step ${depth} (${reached.toLocaleString('en')} so far)`,
    )
  }
}

export const isSnowballTooLargeError = namedErrorGuard<SnowballTooLargeError>('SnowballTooLargeError')

const numberOf = (id: string): number => Number(id.slice(1))

export class SnowballGraph {
  /** Each work's step, in the order added (seeds first). */
  readonly #depthOf = new Map<string, number>()
  readonly #citations = new Map<string, Citation>()

  constructor(readonly limit: number) {}

  has(id: string): boolean {
    return this.#depthOf.has(id)
  }

  get size(): number {
    return this.#depthOf.size
  }

  /** Adds a work reached at `depth`; false when it was reached before (it keeps its first step). */
  add(id: string, depth: number): boolean {
    if (this.#depthOf.has(id)) return false
    if (this.#depthOf.size >= this.limit)
      throw new SnowballTooLargeError(depth, this.#depthOf.size + 1, this.limit)
    this.#depthOf.set(id, depth)
    return true
  }

  /** Notes a citation; one whose ends are not both works of the snowball at the end is left out then. */
  cite(citation: Citation): void {
    if (citation.citing !== citation.cited)
      this.#citations.set(`${citation.citing}>${citation.cited}`, citation)
  }

  /** The works: seeds in the order added, then each step's works by id (numerically: `W9` before `W10`). */
  works(): { readonly id: string; readonly depth: number }[] {
    return [...this.#depthOf]
      .map(([id, depth], added) => ({ id, depth, added }))
      .sort(
        (a, b) =>
          a.depth - b.depth ||
          (a.depth === 0 ? a.added - b.added : numberOf(a.id) - numberOf(b.id)) ||
          a.id.localeCompare(b.id),
      )
      .map(({ id, depth }) => ({ id, depth }))
  }

  /** The citations between two works of the snowball, by citing work then cited work, in the works' order. */
  citations(): Citation[] {
    const position = new Map(this.works().map(({ id }, at) => [id, at]))
    return [...this.#citations.values()]
      .filter(({ citing, cited }) => position.has(citing) && position.has(cited))
      .sort(
        (a, b) =>
          position.get(a.citing)! - position.get(b.citing)! ||
          position.get(a.cited)! - position.get(b.cited)!,
      )
  }
}
