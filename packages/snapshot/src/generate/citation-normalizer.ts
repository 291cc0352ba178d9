// The citation metrics a work record carries besides its count, computed over the generated works once the
// citation graph is known:
//   fwci                            cited_by_count / the mean of works of the same year and field;
//   citation_normalized_percentile  the share of works of the same year and field cited less;
//   cited_by_percentile_year        the percentile range of the count among works of the same year.
// Each group's counts are kept sorted (one Uint32 per work per grouping) and looked up by binary search.
// The sorted counts live in SharedArrayBuffers: pass 2's worker threads get them with share() instead of
// sorting N counts again each.
import type { YearLayout } from './generation-plan.ts'

/** fieldOfWork value for a work without topics (and so without a field). */
export const NO_FIELD = 255

export interface NormalizedPercentile {
  readonly value: number
  readonly top1: boolean
  readonly top10: boolean
}

/** The sorted counts and group figures, for a CitationNormalizer in another thread (see share()). */
export interface SharedNormalizer {
  readonly byYear: Uint32Array
  readonly byGroup: Uint32Array
  readonly groupStarts: Float64Array
  readonly groupMeans: Float64Array
}

const sharedUint32 = (length: number): Uint32Array =>
  new Uint32Array(new SharedArrayBuffer(length * Uint32Array.BYTES_PER_ELEMENT))

export class CitationNormalizer {
  readonly #cited: Uint32Array
  readonly #layout: YearLayout
  readonly #fieldOfWork: Uint8Array
  readonly #fieldCount: number
  readonly #byYear: Uint32Array
  readonly #byGroup: Uint32Array
  readonly #groupStarts: Float64Array
  readonly #groupMeans: Float64Array

  /** Computes the groups, or takes them from `shared` (the share() of a normalizer over the same works). */
  constructor(
    cited: Uint32Array,
    layout: YearLayout,
    fieldOfWork: Uint8Array,
    fieldCount: number,
    shared?: SharedNormalizer,
  ) {
    this.#cited = cited
    this.#layout = layout
    this.#fieldOfWork = fieldOfWork
    this.#fieldCount = fieldCount
    if (shared !== undefined) {
      this.#byYear = shared.byYear
      this.#byGroup = shared.byGroup
      this.#groupStarts = shared.groupStarts
      this.#groupMeans = shared.groupMeans
      return
    }
    const n = cited.length
    this.#byYear = sharedUint32(n)
    this.#byYear.set(cited)
    for (let y = 0; y < layout.years.length; y++) {
      this.#byYear.subarray(layout.starts[y]!, layout.starts[y + 1]!).sort()
    }

    const groups = layout.years.length * fieldCount
    const counts = new Float64Array(groups + 1)
    const sums = new Float64Array(groups)
    let yearIndex = 0
    for (let work = 0; work < n; work++) {
      while (layout.starts[yearIndex + 1]! <= work) yearIndex++
      const field = fieldOfWork[work]!
      if (field === NO_FIELD) continue
      const group = yearIndex * fieldCount + field
      counts[group + 1]!++
      sums[group]! += cited[work]!
    }
    this.#groupStarts = new Float64Array(groups + 1)
    this.#groupMeans = new Float64Array(groups)
    for (let g = 0; g < groups; g++) {
      this.#groupStarts[g + 1] = this.#groupStarts[g]! + counts[g + 1]!
      this.#groupMeans[g] = counts[g + 1]! === 0 ? 0 : sums[g]! / counts[g + 1]!
    }
    this.#byGroup = sharedUint32(this.#groupStarts[groups]!)
    const fill = this.#groupStarts.slice(0, groups)
    yearIndex = 0
    for (let work = 0; work < n; work++) {
      while (layout.starts[yearIndex + 1]! <= work) yearIndex++
      const field = fieldOfWork[work]!
      if (field === NO_FIELD) continue
      const group = yearIndex * fieldCount + field
      this.#byGroup[fill[group]!++] = cited[work]!
    }
    for (let g = 0; g < groups; g++) {
      this.#byGroup.subarray(this.#groupStarts[g]!, this.#groupStarts[g + 1]!).sort()
    }
  }

  share(): SharedNormalizer {
    return {
      byYear: this.#byYear,
      byGroup: this.#byGroup,
      groupStarts: this.#groupStarts,
      groupMeans: this.#groupMeans,
    }
  }

  #group(work: number): number {
    const field = this.#fieldOfWork[work]!
    return field === NO_FIELD ? -1 : this.#layout.yearIndexOf(work) * this.#fieldCount + field
  }

  /** Field-weighted citation impact, 4 decimals; null for a work without a field. */
  fwci(work: number): number | null {
    const group = this.#group(work)
    if (group === -1) return null
    const mean = this.#groupMeans[group]!
    return mean === 0 ? 0 : Math.round((this.#cited[work]! / mean) * 10_000) / 10_000
  }

  normalizedPercentile(work: number): NormalizedPercentile | null {
    const group = this.#group(work)
    if (group === -1) return null
    const start = this.#groupStarts[group]!
    const end = this.#groupStarts[group + 1]!
    const below = lowerBound(this.#byGroup, start, end, this.#cited[work]!) - start
    const value = Math.round((below / (end - start)) * 1e8) / 1e8
    return { value, top1: value >= 0.99, top10: value >= 0.9 }
  }

  /** The range of percentiles (0-100) the work's count spans among works of its year. */
  yearPercentile(work: number): { readonly min: number; readonly max: number } {
    const y = this.#layout.yearIndexOf(work)
    const start = this.#layout.starts[y]!
    const end = this.#layout.starts[y + 1]!
    const value = this.#cited[work]!
    const below = lowerBound(this.#byYear, start, end, value) - start
    const upTo = lowerBound(this.#byYear, start, end, value + 1) - start
    const size = end - start
    return { min: Math.floor((100 * below) / size), max: Math.min(100, Math.ceil((100 * upTo) / size)) }
  }
}

function lowerBound(values: Uint32Array, start: number, end: number, value: number): number {
  let low = start
  let high = end
  while (low < high) {
    const middle = Math.floor((low + high) / 2)
    if (values[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}
