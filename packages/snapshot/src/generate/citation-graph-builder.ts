// Pass 1 of the generator: who cites whom. Works are visited in publication order; each draws how many works
// it references (the sample's referenced_works histogram) and picks them among earlier works:
//   * the cited work's year is drawn first, with weight (works published that year) x (a gamma law of the
//     age, mean 8 years: most citations go to recent work); without the first factor, the few works of
//     sparse early years would soak up the citations of every later year,
//   * within that year, work j is picked with weight ATTRACTIVENESS * fitness_j + citations_j so far:
//     preferential attachment (rich get richer) plus a Pareto-distributed fitness per work, and a share of
//     obscure works with almost no fitness (the mass of uncited works real data has). The two terms add:
//     multiplying them (Bianconi-Barabasi) makes the fittest work of a year take nearly every citation to
//     that year; added, the counts get a power-law tail (Pareto index FITNESS_ALPHA) without condensing.
// A Fenwick tree over the running weights makes each pick O(log N). The references go to a spool file (pass 2
// writes them into the records); what stays in memory is per work: the citation count and the citations
// per year for counts_by_year. Those two live in SharedArrayBuffers, and the spool's offset is noted every
// `checkpointEvery` works, so pass 2's worker threads read the graph without a copy and start mid-spool.

import type { WeightedPicker } from './distribution-samplers.ts'
import { COUNT_YEARS, COUNTS_FIRST_YEAR, type YearLayout } from './generation-plan.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import { Uint32SpoolWriter } from './uint32-spool.ts'

/** Weight of fitness against citations: a work of fitness 1 weighs what 3 citations weigh. */
export const ATTRACTIVENESS = 3
/** Pareto index of the works' fitness (fitness = u^(-1/alpha) >= 1; smaller alpha, heavier tail). */
export const FITNESS_ALPHA = 2
/**
 * Share of works almost nobody cites (fitness OBSCURE_FITNESS): real citation counts have a mass of zeros
 * that a fitness law starting at 1 cannot give.
 */
export const OBSCURE_SHARE = 0.4
const OBSCURE_FITNESS = 0.02
/** Gamma(2, CITATION_AGE_SCALE) years between a work and what it cites: mean 8, mode 4. */
const CITATION_AGE_SCALE = 4

/**
 * For each year (by position in layout.years), the cumulative weights of the years its works cite:
 * works in the cited year x the gamma density of the age.
 */
function citedYearTables(layout: YearLayout): Float64Array[] {
  return layout.years.map((year, position) => {
    const table = new Float64Array(position + 1)
    let total = 0
    for (let k = 0; k <= position; k++) {
      const age = year - layout.years[k]! + 0.5
      const works = layout.starts[k + 1]! - layout.starts[k]!
      total += works * age * Math.exp(-age / CITATION_AGE_SCALE)
      table[k] = total
    }
    return table
  })
}
/** Tries to find a new (not yet referenced) target before a reference is given up. */
const PICK_TRIES = 16
const PROGRESS_EVERY = 1 << 16

/** What a worker thread needs to rebuild a CitationYearCounts: the shared cells and the (few) overflows. */
export interface SharedYearCounts {
  readonly cells: Uint8Array
  readonly overflow: ReadonlyArray<readonly [number, number]>
}

/**
 * Citations each work receives per year of counts_by_year. One byte per (work, year); a cell that reaches
 * 255 continues in a map (only the most cited works get there).
 */
export class CitationYearCounts {
  readonly #cells: Uint8Array
  readonly #overflow: Map<number, number>

  constructor(works: number, shared?: SharedYearCounts) {
    this.#cells = shared?.cells ?? new Uint8Array(new SharedArrayBuffer(works * COUNT_YEARS))
    this.#overflow = new Map(shared?.overflow)
  }

  /** The counts for another thread: the cells are shared, not copied; read only once pass 1 is over. */
  share(): SharedYearCounts {
    return { cells: this.#cells, overflow: [...this.#overflow] }
  }

  add(work: number, year: number): void {
    const offset = year - COUNTS_FIRST_YEAR
    if (offset < 0 || offset >= COUNT_YEARS) return
    const cell = work * COUNT_YEARS + offset
    const value = this.#cells[cell]!
    if (value < 255) this.#cells[cell] = value + 1
    else this.#overflow.set(cell, (this.#overflow.get(cell) ?? 255) + 1)
  }

  get(work: number, year: number): number {
    const offset = year - COUNTS_FIRST_YEAR
    if (offset < 0 || offset >= COUNT_YEARS) return 0
    const cell = work * COUNT_YEARS + offset
    const value = this.#cells[cell]!
    return value < 255 ? value : (this.#overflow.get(cell) ?? 255)
  }
}

export interface CitationGraph {
  /** cited[i]: how many generated works reference work i (its cited_by_count). */
  readonly cited: Uint32Array
  readonly byYear: CitationYearCounts
  /** References written, all works together. */
  readonly references: number
  /** The spool: for each work in order, its reference count then the referenced work indexes. */
  readonly spoolPath: string
  /** checkpoints[k]: the spool word where work k * checkpointEvery begins (one more entry: the end). */
  readonly checkpoints: Float64Array
}

export interface CitationGraphOptions {
  readonly works: number
  readonly seed: number
  readonly layout: YearLayout
  readonly referenceCounts: WeightedPicker<number>
  readonly spoolPath: string
  /** Note the spool offset every this many works (default: only the start and the end). */
  readonly checkpointEvery?: number
  readonly onProgress?: (done: number) => void
}

export function buildCitationGraph(options: CitationGraphOptions): CitationGraph {
  const { works: n, layout, referenceCounts } = options
  const random = new SeededRandom().at(options.seed, RandomStream.citations, 0)
  const cited = new Uint32Array(new SharedArrayBuffer(n * Uint32Array.BYTES_PER_ELEMENT))
  const byYear = new CitationYearCounts(n)
  // Prefix sums of the (static) fitness, and a Fenwick tree of the citations (grows as works are cited).
  const fitnessPrefix = new Float64Array(n + 1)
  const fitnessRandom = new SeededRandom()
  for (let j = 0; j < n; j++) {
    fitnessRandom.at(options.seed, RandomStream.citations, j + 1)
    const fitness = fitnessRandom.chance(OBSCURE_SHARE)
      ? OBSCURE_FITNESS
      : (1 - fitnessRandom.float()) ** (-1 / FITNESS_ALPHA)
    fitnessPrefix[j + 1] = fitnessPrefix[j]! + fitness
  }
  const tree = new Uint32Array(n + 1)
  const stamp = new Uint32Array(n)
  const spool = new Uint32SpoolWriter(options.spoolPath)
  const every = options.checkpointEvery ?? n
  const checkpoints = new Float64Array(Math.ceil(n / every) + 1)
  const yearTables = citedYearTables(layout)
  /** A cited year's position for a work of year position `position`. */
  const pickYear = (position: number): number => {
    const table = yearTables[position]!
    const target = random.float() * table[table.length - 1]!
    let low = 0
    let high = table.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (table[middle]! > target) high = middle
      else low = middle + 1
    }
    return low
  }
  let topBit = 1
  while (topBit * 2 <= n) topBit *= 2

  const prefix = (end: number): number => {
    let sum = 0
    for (let k = end; k > 0; k -= k & -k) sum += tree[k]!
    return sum
  }
  /** The first index whose prefix sum exceeds `target`, kept inside [low, high). */
  const findPrefix = (target: number, low: number, high: number): number => {
    let position = 0
    let rest = target
    for (let step = topBit; step > 0; step >>= 1) {
      const next = position + step
      if (next <= n && tree[next]! <= rest) {
        position = next
        rest -= tree[next]!
      }
    }
    // The target comes from a floating-point draw; keep the answer inside the range it was drawn for.
    return position < low ? low : position >= high ? high - 1 : position
  }
  /** The first index in [low, high) whose static fitness prefix exceeds `target`. */
  const findFitness = (target: number, low: number, high: number): number => {
    let lo = low
    let hi = high - 1
    while (lo < hi) {
      const middle = (lo + hi) >>> 1
      if (fitnessPrefix[middle + 1]! > target) hi = middle
      else lo = middle + 1
    }
    return lo
  }
  /**
   * A work in [low, high) with weight ATTRACTIVENESS * fitness + citations, given the citations before `low`
   * (`base`) and inside the range (`citations`).
   */
  const pickIn = (low: number, high: number, base: number, citations: number): number => {
    const flatBase = fitnessPrefix[low]!
    const flat = ATTRACTIVENESS * (fitnessPrefix[high]! - flatBase)
    const u = random.float() * (citations + flat)
    return u < flat
      ? findFitness(flatBase + u / ATTRACTIVENESS, low, high)
      : findPrefix(base + u - flat, low, high)
  }
  // Citations per year so far: a whole earlier year's range needs no prefix query of the tree (the tree's
  // random accesses are what pass 1 spends its time on at millions of works).
  const yearCitations = new Float64Array(layout.years.length)

  const targets: number[] = []
  let references = 0
  let yearIndex = 0
  for (let work = 0; work < n; work++) {
    while (yearIndex + 1 < layout.years.length && layout.starts[yearIndex + 1]! <= work) yearIndex++
    const year = layout.years[yearIndex]!
    if (work % every === 0) checkpoints[work / every] = spool.length
    const wanted = Math.min(referenceCounts.pick(random), work)
    targets.length = 0
    for (let r = 0; r < wanted; r++) {
      for (let attempt = 0; attempt < PICK_TRIES; attempt++) {
        let target: number
        const at = attempt < PICK_TRIES / 2 ? pickYear(yearIndex) : -1
        if (at !== -1 && at < yearIndex) {
          if (layout.starts[at + 1]! <= layout.starts[at]!) continue
          let base = 0
          for (let k = 0; k < at; k++) base += yearCitations[k]!
          target = pickIn(layout.starts[at]!, layout.starts[at + 1]!, base, yearCitations[at]!)
        } else {
          // The work's own year (only the works before it) or, after failed tries, any earlier work.
          const low = at === -1 ? 0 : layout.starts[at]!
          if (work <= low) continue
          const base = prefix(low)
          target = pickIn(low, work, base, prefix(work) - base)
        }
        if (stamp[target] === work + 1) continue
        stamp[target] = work + 1
        targets.push(target)
        break
      }
    }
    spool.push(targets.length)
    for (const target of targets) {
      spool.push(target)
      cited[target]!++
      for (let k = target + 1; k <= n; k += k & -k) tree[k]!++
      yearCitations[layout.yearIndexOf(target)]!++
      byYear.add(target, year)
    }
    references += targets.length
    if ((work + 1) % PROGRESS_EVERY === 0) options.onProgress?.(work + 1)
  }
  checkpoints[checkpoints.length - 1] = spool.length
  spool.close()
  options.onProgress?.(n)
  return { cited, byYear, references, spoolPath: options.spoolPath, checkpoints }
}
