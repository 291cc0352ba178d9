// The samplers the generator draws with: categorical (from measured histograms), Zipf-like ranks (for which
// author, institution, source, topic, word a work picks) and a cheap bijection that scatters ranks over ids,
// so that the most popular entity is not simply the first id.
import type { CountHistogram } from './sample-profile.ts'
import type { SeededRandom } from './seeded-random.ts'

/** Picks values with probability proportional to their weights (binary search over cumulative weights). */
export class WeightedPicker<T> {
  readonly values: readonly T[]
  readonly #cumulative: Float64Array
  readonly #total: number

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    const kept = entries.filter(([, weight]) => weight > 0)
    if (kept.length === 0) throw new Error('WeightedPicker needs at least one positive weight')
    this.values = kept.map(([value]) => value)
    this.#cumulative = new Float64Array(kept.length)
    let total = 0
    kept.forEach(([, weight], index) => {
      total += weight
      this.#cumulative[index] = total
    })
    this.#total = total
  }

  /** A histogram with the values `keep` rejects left out (the others keep their relative weights). */
  static fromHistogram<T, U extends T>(
    histogram: CountHistogram<T>,
    keep: (value: T) => value is U,
  ): WeightedPicker<U>
  static fromHistogram<T>(histogram: CountHistogram<T>, keep?: (value: T) => boolean): WeightedPicker<T>
  static fromHistogram<T>(histogram: CountHistogram<T>, keep: (value: T) => boolean = () => true) {
    return new WeightedPicker(histogram.filter(([value]) => keep(value)))
  }

  pick(random: SeededRandom): T {
    return this.values[this.pickIndex(random)]!
  }

  pickIndex(random: SeededRandom): number {
    const target = random.float() * this.#total
    let low = 0
    let high = this.#cumulative.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#cumulative[middle]! > target) high = middle
      else low = middle + 1
    }
    return low
  }

  /** The weighted share of values `match` accepts. */
  shareOf(match: (value: T) => boolean): number {
    let matched = 0
    this.values.forEach((value, index) => {
      if (match(value)) matched += this.#cumulative[index]! - (index === 0 ? 0 : this.#cumulative[index - 1]!)
    })
    return matched / this.#total
  }

  /** The weighted mean of numeric values. */
  mean(): number {
    let sum = 0
    this.values.forEach((value, index) => {
      const weight = this.#cumulative[index]! - (index === 0 ? 0 : this.#cumulative[index - 1]!)
      sum += Number(value) * weight
    })
    return sum / this.#total
  }
}

/**
 * Zipf-like ranks in [0, n): rank r (0-based) is drawn with probability close to (r + 1 + q)^-s, a
 * Zipf-Mandelbrot law (q = 0 is plain Zipf; an offset q flattens the head, so the most popular item's share
 * stays realistic while the tail keeps its power-law slope). Draws invert the continuous law (x + q)^-s on
 * [1, n + 1) in O(1), so no table is needed even for millions of items.
 */
export class ZipfSampler {
  readonly size: number
  readonly exponent: number
  readonly offset: number
  readonly #low: number
  readonly #span: number

  constructor(size: number, exponent: number, offset = 0) {
    this.size = Math.max(1, Math.floor(size))
    this.exponent = exponent
    this.offset = offset
    this.#low = this.#g(1)
    this.#span = this.#g(this.size + 1) - this.#low
  }

  sample(random: SeededRandom): number {
    const x = this.#inverse(this.#low + random.float() * this.#span)
    const rank = Math.floor(x) - 1
    return rank < 0 ? 0 : rank >= this.size ? this.size - 1 : rank
  }

  /** The probability `sample` returns `rank`. */
  probability(rank: number): number {
    return (this.#g(rank + 2) - this.#g(rank + 1)) / this.#span
  }

  #g(x: number): number {
    const s = this.exponent
    return s === 1 ? Math.log(x + this.offset) : (x + this.offset) ** (1 - s) / (1 - s)
  }

  #inverse(y: number): number {
    const s = this.exponent
    return (s === 1 ? Math.exp(y) : (y * (1 - s)) ** (1 / (1 - s))) - this.offset
  }
}

/**
 * A bijection of [0, n): i -> (a * i + b) mod n with a coprime to n, near n times the golden ratio's
 * fraction so neighbours land far apart. Products are split in 16-bit halves to stay exact below 2^53.
 */
export class AffinePermutation {
  readonly size: number
  readonly #a: number
  readonly #b: number

  constructor(size: number, offset = 0) {
    this.size = Math.max(1, Math.floor(size))
    let a = Math.max(1, Math.floor(this.size * 0.6180339887))
    while (gcd(a, this.size) !== 1) a++
    this.#a = a % this.size || 1
    this.#b = Math.floor(offset) % this.size
  }

  apply(index: number): number {
    const n = this.size
    const high = Math.floor(this.#a / 65_536)
    const low = this.#a % 65_536
    const product = (((high * index) % n) * 65_536 + low * index) % n
    return (product + this.#b) % n
  }
}

function gcd(a: number, b: number): number {
  let x = a
  let y = b
  while (y !== 0) [x, y] = [y, x % y]
  return x
}
