// The generator's building blocks: the seeded PRNG, the Zipf sampler, the id bijection and the forged
// external ids, checked against their definitions.
import { describe, expect, it } from 'vitest'
import { AffinePermutation, WeightedPicker, ZipfSampler } from '../src/generate/distribution-samplers.ts'
import { forgeIssn, forgeOrcid, forgeRor } from '../src/generate/external-id-forge.ts'
import { poolSizes, YearLayout } from '../src/generate/generation-plan.ts'
import { hashSeed, normalizeSeed, SeededRandom } from '../src/generate/seeded-random.ts'

describe('SeededRandom', () => {
  it('repeats a stream for the same seed and differs for another', () => {
    const draws = (seed: number) => {
      const random = new SeededRandom(seed)
      return Array.from({ length: 8 }, () => random.next())
    }
    expect(draws(42)).toEqual(draws(42))
    expect(draws(42)).not.toEqual(draws(43))
    expect(new SeededRandom().at(1, 2, 3).next()).toBe(new SeededRandom().at(1, 2, 3).next())
    expect(hashSeed(1, 2, 3)).not.toBe(hashSeed(1, 2, 4))
    expect(hashSeed(1, 2, 2 ** 40)).not.toBe(hashSeed(1, 2, 0))
    expect(normalizeSeed(2 ** 40 + 5)).not.toBe(normalizeSeed(5))
  })

  it('draws uniform floats in [0, 1)', () => {
    const random = new SeededRandom(7)
    const buckets = new Array<number>(10).fill(0)
    let outside = 0
    for (let k = 0; k < 100_000; k++) {
      const value = random.float()
      if (!(value >= 0 && value < 1)) outside++
      else buckets[Math.floor(value * 10)]!++
    }
    expect(outside).toBe(0)
    for (const count of buckets) expect(Math.abs(count - 10_000)).toBeLessThan(500)
  })
})

describe('ZipfSampler', () => {
  it('has probabilities that sum to one, fall with rank, and match what it draws', () => {
    for (const [size, exponent, offset] of [
      [1000, 1, 0],
      [1000, 0.6, 0],
      [5000, 2, 50],
    ] as const) {
      const zipf = new ZipfSampler(size, exponent, offset)
      let total = 0
      for (let rank = 0; rank < size; rank++) total += zipf.probability(rank)
      expect(total).toBeCloseTo(1, 9)
      expect(zipf.probability(0)).toBeGreaterThan(zipf.probability(10))
      const random = new SeededRandom(3)
      let top = 0
      let outside = 0
      for (let k = 0; k < 200_000; k++) {
        const rank = zipf.sample(random)
        if (!(rank >= 0 && rank < size && Number.isInteger(rank))) outside++
        if (rank === 0) top++
      }
      expect(outside).toBe(0)
      expect(top / 200_000).toBeCloseTo(zipf.probability(0), 2)
    }
  })

  it('flattens the head with a Zipf-Mandelbrot offset', () => {
    expect(new ZipfSampler(10_000, 2, 100).probability(0)).toBeLessThan(
      new ZipfSampler(10_000, 2).probability(0) / 10,
    )
  })
})

describe('WeightedPicker', () => {
  it('picks in proportion to the weights and filters values', () => {
    const picker = WeightedPicker.fromHistogram(
      [
        ['a', 3],
        ['b', 1],
        ['grant', 100],
      ] as const,
      (value) => value !== 'grant',
    )
    expect(picker.values).toEqual(['a', 'b'])
    const random = new SeededRandom(11)
    let a = 0
    for (let k = 0; k < 40_000; k++) if (picker.pick(random) === 'a') a++
    expect(a / 40_000).toBeCloseTo(0.75, 1)
    expect(picker.shareOf((value) => value === 'b')).toBeCloseTo(0.25, 9)
  })
})

describe('AffinePermutation', () => {
  it('is a bijection of [0, n), also for sizes whose products pass 2^53', () => {
    for (const size of [1, 2, 97, 1000, 65_536]) {
      const permutation = new AffinePermutation(size, 5)
      const seen = new Set<number>()
      for (let k = 0; k < size; k++) seen.add(permutation.apply(k))
      expect(seen.size).toBe(size)
      expect(Math.min(...seen)).toBe(0)
      expect(Math.max(...seen)).toBe(size - 1)
    }
    const big = new AffinePermutation(2 ** 31 - 1)
    const values = [0, 1, 2 ** 30, 2 ** 31 - 2].map((k) => big.apply(k))
    for (const value of values)
      expect(Number.isSafeInteger(value) && value >= 0 && value < 2 ** 31 - 1).toBe(true)
    expect(new Set(values).size).toBe(values.length)
  })
})

describe('forged external ids', () => {
  it('carry valid check characters', () => {
    for (const index of [0, 1, 12_345, 9_999_999_999]) {
      const orcid = forgeOrcid(index).slice('https://orcid.org/'.length).replaceAll('-', '')
      let total = 0
      for (const digit of orcid.slice(0, 15)) total = (total + Number(digit)) * 2
      const check = (12 - (total % 11)) % 11
      expect(orcid.at(-1)).toBe(check === 10 ? 'X' : String(check))
      const issn = forgeIssn(index).replace('-', '')
      let sum = 0
      for (let i = 0; i < 8; i++) sum += (issn[i] === 'X' ? 10 : Number(issn[i])) * (8 - i)
      expect(sum % 11).toBe(0)
      expect(forgeRor(index)).toMatch(/^https:\/\/ror\.org\/0z[0-9a-hjkmnp-tv-z]{5}\d{2}$/)
    }
    expect(new Set([0, 1, 2, 3].map(forgeRor)).size).toBe(4)
  })
})

describe('generation plan', () => {
  it('scales the pools with OpenAlex ratios, floors and caps', () => {
    expect(poolSizes(10_000_000)).toMatchObject({
      authors: 4_000_000,
      institutions: 4_400,
      sources: 10_000,
      publishers: 400,
      funders: 1_280,
      topics: 4_516,
      keywords: 26_000,
    })
    expect(poolSizes(1_000)).toMatchObject({ authors: 400, institutions: 100, sources: 50, keywords: 1_000 })
    expect(poolSizes(10)).toMatchObject({ authors: 100, publishers: 10, keywords: 970 })
    expect(poolSizes(1_000_000_000)).toMatchObject({
      institutions: 110_000,
      sources: 250_000,
      funders: 32_000,
    })
  })

  it('lays works out in publication order', () => {
    const layout = new YearLayout(10_000)
    let previous = 0
    for (let work = 0; work < 10_000; work++) {
      const year = layout.yearOf(work)
      expect(year).toBeGreaterThanOrEqual(previous)
      previous = year
    }
    expect(layout.yearOf(9_999)).toBe(2025)
  })
})
