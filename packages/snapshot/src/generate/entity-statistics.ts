// The figures an entity record states about its works, computed exactly from the generated works:
// works_count, cited_by_count, summary_stats (h-index, i10-index, 2-year mean citedness), counts_by_year and
// the entity's most frequent primary topics.
import type { CitationYearCounts } from './citation-graph-builder.ts'
import { COUNT_YEARS, COUNTS_FIRST_YEAR, LAST_YEAR, type YearLayout } from './generation-plan.ts'

/** primaryTopicOfWork value for a work without topics. */
export const NO_TOPIC = 0xffff
/** Topics listed in an entity record. */
const TOPICS_LISTED = 10

export interface YearCounts {
  readonly year: number
  readonly works: number
  readonly oaWorks: number
  readonly cited: number
}

export interface EntityStatistics {
  readonly worksCount: number
  readonly citedByCount: number
  readonly hIndex: number
  readonly i10Index: number
  readonly twoYearMeanCitedness: number
  /** Newest year first; years with neither works nor citations are left out. */
  readonly countsByYear: readonly YearCounts[]
  /** `[topic index, works]`, most works first. */
  readonly topics: ReadonlyArray<readonly [number, number]>
  /** Distinct publication years of the works, newest first. */
  readonly years: readonly number[]
}

export interface WorkFacts {
  readonly cited: Uint32Array
  readonly citationsByYear: CitationYearCounts
  readonly layout: YearLayout
  readonly isOa: Uint8Array
  readonly primaryTopic: Uint16Array
  readonly topicCount: number
}

export class EntityStatisticsCalculator {
  readonly #facts: WorkFacts
  #histogram = new Uint32Array(1024)
  readonly #topicCounts: Uint32Array
  readonly #touched: number[] = []
  readonly #yearWorks = new Float64Array(COUNT_YEARS)
  readonly #yearOa = new Float64Array(COUNT_YEARS)
  readonly #yearCited = new Float64Array(COUNT_YEARS)
  readonly #years = new Set<number>()

  constructor(facts: WorkFacts) {
    this.#facts = facts
    this.#topicCounts = new Uint32Array(facts.topicCount)
  }

  calculate(works: Uint32Array): EntityStatistics {
    const { cited, citationsByYear, layout, isOa, primaryTopic } = this.#facts
    const n = works.length
    if (this.#histogram.length < n + 1) this.#histogram = new Uint32Array(2 * n + 1)
    const histogram = this.#histogram
    histogram.fill(0, 0, n + 1)
    this.#yearWorks.fill(0)
    this.#yearOa.fill(0)
    this.#yearCited.fill(0)
    this.#years.clear()
    let citedBy = 0
    let i10 = 0
    let recentWorks = 0
    let recentCitations = 0
    for (let k = 0; k < n; k++) {
      const work = works[k]!
      const count = cited[work]!
      citedBy += count
      if (count >= 10) i10++
      histogram[count < n ? count : n]!++
      const year = layout.yearOf(work)
      this.#years.add(year)
      if (year >= COUNTS_FIRST_YEAR) {
        this.#yearWorks[year - COUNTS_FIRST_YEAR]!++
        if (isOa[work] === 1) this.#yearOa[year - COUNTS_FIRST_YEAR]!++
        for (let y = year; y <= LAST_YEAR; y++)
          this.#yearCited[y - COUNTS_FIRST_YEAR]! += citationsByYear.get(work, y)
      }
      if (year === LAST_YEAR - 1 || year === LAST_YEAR - 2) {
        recentWorks++
        recentCitations += citationsByYear.get(work, LAST_YEAR)
      }
      const topic = primaryTopic[work]!
      if (topic !== NO_TOPIC) {
        if (this.#topicCounts[topic] === 0) this.#touched.push(topic)
        this.#topicCounts[topic]!++
      }
    }
    // h-index: the largest h with at least h works cited h times or more.
    let atLeast = 0
    let hIndex = 0
    for (let h = n; h > 0; h--) {
      atLeast += histogram[h]!
      if (atLeast >= h) {
        hIndex = h
        break
      }
    }
    const countsByYear: YearCounts[] = []
    for (let y = LAST_YEAR; y >= COUNTS_FIRST_YEAR; y--) {
      const at = y - COUNTS_FIRST_YEAR
      if (this.#yearWorks[at] === 0 && this.#yearCited[at] === 0) continue
      countsByYear.push({
        year: y,
        works: this.#yearWorks[at]!,
        oaWorks: this.#yearOa[at]!,
        cited: this.#yearCited[at]!,
      })
    }
    const topics = this.#touched
      .map((topic) => [topic, this.#topicCounts[topic]!] as const)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, TOPICS_LISTED)
    for (const topic of this.#touched) this.#topicCounts[topic] = 0
    this.#touched.length = 0
    return {
      worksCount: n,
      citedByCount: citedBy,
      hIndex,
      i10Index: i10,
      twoYearMeanCitedness: recentWorks === 0 ? 0 : recentCitations / recentWorks,
      countsByYear,
      topics,
      years: [...this.#years].sort((a, b) => b - a),
    }
  }
}
