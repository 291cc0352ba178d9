// The fixed decisions of a generated snapshot: how big each entity pool is for N works, which ids the
// records get, which years the works span, which partitions they fall in. Everything here is a pure
// function of N and the sample profile, so two runs with the same N agree before the first random draw.
import { SAMPLE_PROFILE } from './sample-profile.ts'

/** Generated native ids start here; real OpenAlex ids are far below it (W ids reach about 7.1 billion). */
export const GENERATED_ID_BASE = 9_000_000_000

/** Real OpenAlex totals the pool ratios derive from (order of magnitude, early 2026). */
export const OPENALEX_TOTALS = {
  works: 250_000_000,
  authors: 100_000_000,
  sources: 250_000,
  institutions: 110_000,
  publishers: 10_000,
  funders: 32_000,
  topics: 4_516,
  keywords: 26_000,
} as const

/** Floors, so that a small snapshot still has a spread of entities to group and filter by. */
const POOL_FLOORS = { authors: 100, institutions: 100, sources: 50, publishers: 10, funders: 20 } as const

export interface PoolSizes {
  readonly authors: number
  readonly institutions: number
  readonly sources: number
  readonly publishers: number
  readonly funders: number
  readonly topics: number
  readonly keywords: number
  readonly concepts: number
}

/**
 * Pools scale with N at OpenAlex's own ratios (authors 0.4 per work, sources 0.001, institutions 0.00044,
 * publishers 0.00004, funders 0.000128), with floors for small N and OpenAlex's totals as caps. Topics are a
 * taxonomy: all 4,516 at any N. Keywords grow one per work from the sample's 970 real ones up to OpenAlex's
 * ~26k (a few thousand works do not use 26k keywords). Concepts are the sample's 1,548 (deprecated in
 * OpenAlex; no more are made up).
 */
export function poolSizes(works: number): PoolSizes {
  const scaled = (entity: keyof typeof POOL_FLOORS) =>
    Math.min(
      OPENALEX_TOTALS[entity],
      Math.max(POOL_FLOORS[entity], Math.round((works * OPENALEX_TOTALS[entity]) / OPENALEX_TOTALS.works)),
    )
  return {
    authors: scaled('authors'),
    institutions: scaled('institutions'),
    sources: scaled('sources'),
    publishers: scaled('publishers'),
    funders: scaled('funders'),
    topics: OPENALEX_TOTALS.topics,
    keywords: Math.min(OPENALEX_TOTALS.keywords, Math.max(SAMPLE_PROFILE.keywords.length, works)),
    concepts: SAMPLE_PROFILE.concepts.length,
  }
}

/** Zipf exponents of popularity (see distribution-samplers.ts), chosen so the top item's share is realistic. */
export const ZIPF_EXPONENTS = {
  // Top topic about 1% of works (real: about 0.8%), a long tail of topics with few works.
  topics: 0.55,
  // Author productivity (Zipf-Mandelbrot, with AUTHOR_OFFSETS): a steep tail, so that many authors have
  // one or two works, and a flattened head, so that the most prolific has thousands of works, not millions.
  authors: 2,
  institutions: 0.85,
  sources: 0.8,
  publishers: 0.9,
  funders: 0.9,
  keywords: 0.8,
  concepts: 0.8,
  // Natural-language word frequencies.
  words: 1.0,
} as const

/** The Zipf-Mandelbrot offsets of author picks, as a fraction of the pool (or topic block) drawn from. */
export const AUTHOR_OFFSETS = { global: 0.001, inTopic: 0.01 } as const

/** counts_by_year covers these years (as the API's records do: 2012 to the last full year). */
export const COUNTS_FIRST_YEAR = 2012
export const LAST_YEAR = 2025
export const COUNT_YEARS = LAST_YEAR - COUNTS_FIRST_YEAR + 1

/** Rows per part file (the real snapshot's parts hold up to about 100k records too). */
export const RECORDS_PER_PART = 100_000

/**
 * Publication years: the sample's histogram smoothed with a 1-2-3-2-1 kernel (565 works leave gaps a
 * generated snapshot should not copy), from two years before the sample's first year to LAST_YEAR.
 */
export function publicationYearWeights(): ReadonlyArray<readonly [number, number]> {
  const counts = new Map(SAMPLE_PROFILE.publicationYears)
  const first = Math.min(...counts.keys()) - 2
  const kernel = [1, 2, 3, 2, 1]
  const weights: Array<readonly [number, number]> = []
  for (let year = first; year <= LAST_YEAR; year++) {
    let weight = 0
    kernel.forEach((k, offset) => {
      weight += k * (counts.get(year + offset - 2) ?? 0)
    })
    if (weight > 0) weights.push([year, weight / 9])
  }
  return weights
}

/**
 * Works are generated in publication order: work i's year is the year whose cumulative share covers i/N.
 * That is what lets every reference point to an earlier work.
 */
export class YearLayout {
  readonly years: readonly number[]
  /** starts[k] is the first work index of years[k]; starts[years.length] is N. */
  readonly starts: Float64Array

  constructor(works: number, weights = publicationYearWeights()) {
    this.years = weights.map(([year]) => year)
    const total = weights.reduce((sum, [, weight]) => sum + weight, 0)
    this.starts = new Float64Array(weights.length + 1)
    let cumulative = 0
    weights.forEach(([, weight], index) => {
      this.starts[index] = Math.round((cumulative / total) * works)
      cumulative += weight
    })
    this.starts[weights.length] = works
  }

  /** The position in `years` of work i's year. */
  yearIndexOf(work: number): number {
    let low = 0
    let high = this.years.length - 1
    while (low < high) {
      const middle = (low + high + 1) >>> 1
      if (this.starts[middle]! <= work) low = middle
      else high = middle - 1
    }
    return low
  }

  yearOf(work: number): number {
    return this.years[this.yearIndexOf(work)]!
  }
}

/**
 * The partitions works are written to: the months in which at least 10 sample works were last updated,
 * as `YYYY-MM-01`, weighted by those counts. A work only goes to a partition on or after its publication
 * date (the newest one if none is).
 */
export function worksPartitions(): ReadonlyArray<readonly [string, number]> {
  return SAMPLE_PROFILE.updatedMonths
    .filter(([month, count]) => month !== null && /^\d{4}-\d{2}$/.test(month) && count >= 10)
    .map(([month, count]) => [`${month}-01`, count] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/** The snapshot's as-of date: entity records are all updated on the newest works partition date. */
export function asOfDate(): string {
  const partitions = worksPartitions()
  return partitions[partitions.length - 1]![0]
}
