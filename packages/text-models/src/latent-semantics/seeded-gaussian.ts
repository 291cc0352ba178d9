// Reproducible normal deviates for the random projection: the same seed gives the same numbers, bit for bit,
// on every run (splitmix32 for uniforms, Box–Muller for the normals), so a model trained twice is one file.

export class SeededGaussian {
  #state: number
  #spare: number | undefined

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** A uniform number in (0, 1). */
  uniform(): number {
    this.#state = (this.#state + 0x9e3779b9) >>> 0
    let z = this.#state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    z = (z ^ (z >>> 16)) >>> 0
    return (z + 0.5) / 0x1_0000_0000
  }

  /** A standard normal number. */
  next(): number {
    if (this.#spare !== undefined) {
      const spare = this.#spare
      this.#spare = undefined
      return spare
    }
    const radius = Math.sqrt(-2 * Math.log(this.uniform()))
    const angle = 2 * Math.PI * this.uniform()
    this.#spare = radius * Math.sin(angle)
    return radius * Math.cos(angle)
  }
}
