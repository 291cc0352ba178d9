// A small seeded PRNG (xoshiro128**, 32-bit state words, so it runs on JavaScript's 32-bit integer ops) and
// the hash that derives independent streams from (seed, stream, index). Every random choice of the generator
// comes from here, never from Math.random, so the same seed gives the same snapshot.

/** The stream a draw belongs to: each entity attribute gets its own, so adding draws to one leaves the others. */
export const RandomStream = {
  citations: 1,
  work: 2,
  workTopic: 3,
  author: 4,
  institution: 5,
  source: 6,
  publisher: 7,
  funder: 8,
  topic: 9,
  keyword: 10,
  entityDates: 11,
} as const

export type RandomStreamId = (typeof RandomStream)[keyof typeof RandomStream]

const TWO_POW_32 = 4_294_967_296

/** splitmix32 finaliser: a good 32-bit mix used to seed and to hash. */
function mix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  return (z ^ (z >>> 16)) >>> 0
}

/** A 32-bit hash of a seed, a stream and an index (indexes up to 2^53 are mixed in two halves). */
export function hashSeed(seed: number, stream: number, index: number): number {
  const high = Math.floor(index / TWO_POW_32)
  let h = mix32(seed ^ Math.imul(stream, 0x27d4eb2d))
  h = mix32(h ^ (index >>> 0))
  return high === 0 ? h : mix32(h ^ high)
}

/** Turns any seed the user gives (an integer of any size) into 32 bits. */
export function normalizeSeed(seed: number): number {
  if (!Number.isFinite(seed)) return 0
  const whole = Math.trunc(Math.abs(seed))
  return mix32((whole >>> 0) ^ mix32(Math.floor(whole / TWO_POW_32) >>> 0)) ^ (seed < 0 ? 0x5bd1e995 : 0)
}

export class SeededRandom {
  #a = 0
  #b = 0
  #c = 0
  #d = 0

  constructor(seed = 0) {
    this.reseed(seed)
  }

  /** Restarts the generator from a 32-bit seed (cheap: the generator reuses one object per stream). */
  reseed(seed: number): this {
    let s = seed >>> 0
    this.#a = s = mix32(s)
    this.#b = s = mix32(s)
    this.#c = s = mix32(s)
    this.#d = mix32(s) | 1
    return this
  }

  /** Restarts the generator on stream `stream`, item `index` of the run seeded with `seed`. */
  at(seed: number, stream: number, index: number): this {
    return this.reseed(hashSeed(seed, stream, index))
  }

  /** The next 32 random bits, as an unsigned integer. */
  next(): number {
    const result = Math.imul(rotl(Math.imul(this.#b, 5), 7), 9) >>> 0
    const t = this.#b << 9
    this.#c ^= this.#a
    this.#d ^= this.#b
    this.#b ^= this.#c
    this.#a ^= this.#d
    this.#c ^= t
    this.#d = rotl(this.#d, 11)
    return result
  }

  /** Uniform in [0, 1), 32 bits of resolution. */
  float(): number {
    return this.next() / TWO_POW_32
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n)
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p
  }

  /** Uniform in [low, high). */
  between(low: number, high: number): number {
    return low + this.float() * (high - low)
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k))
}
