// Titles and abstracts from the sample's own words: words are drawn with Zipf frequencies over the sample's
// frequency ranking (function words most often, the long tail of topical words rarely), abstracts fall into
// sentences (capitalised first word, full stop on the last), and the abstract is written the way OpenAlex
// ships it, as an inverted index: each distinct token once, in order of first use, with its positions.
import { ZipfSampler } from './distribution-samplers.ts'
import { ZIPF_EXPONENTS } from './generation-plan.ts'
import type { JsonByteWriter } from './json-byte-writer.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import type { SeededRandom } from './seeded-random.ts'
import { capitalize } from './topic-pool.ts'

const PLAIN = 0
const CAPITALISED = 1
const STOPPED = 2
const VARIANTS = 4
const SENTENCE_MIN = 8
const SENTENCE_SPREAD = 22
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a
/** Titles do not start with the most frequent (function) words. */
const TITLE_SKIPPED_RANKS = 40

export class TextGenerator {
  readonly #words: readonly string[]
  readonly #zipf: ZipfSampler
  /** JSON keys of every (word, variant) token as UTF-8, made on first use. */
  readonly #keys: Array<Uint8Array | undefined>
  /**
   * The token that stands for each (word, variant): `The` is both the word "The" and "the" capitalised, and
   * an inverted index must list each text once.
   */
  readonly #canonical: Int32Array
  // Scratch space of invertedIndex, reused: the tokens' first-use order and position chains.
  readonly #stamp: Uint32Array
  readonly #slotOfToken: Int32Array
  #call = 0
  #slotToken = new Int32Array(4096)
  #slotHead = new Int32Array(4096)
  #slotTail = new Int32Array(4096)
  #next = new Int32Array(4096)

  constructor(words: readonly string[] = SAMPLE_PROFILE.words) {
    this.#words = words
    this.#zipf = new ZipfSampler(words.length, ZIPF_EXPONENTS.words)
    this.#keys = new Array(words.length * VARIANTS)
    this.#canonical = new Int32Array(words.length * VARIANTS)
    const byText = new Map<string, number>()
    for (let token = 0; token < this.#canonical.length; token++) {
      const text = this.#text(token)
      const first = byText.get(text)
      if (first === undefined) byText.set(text, token)
      this.#canonical[token] = first ?? token
    }
    this.#stamp = new Uint32Array(words.length * VARIANTS)
    this.#slotOfToken = new Int32Array(words.length * VARIANTS)
  }

  /** A title of `length` words, first letter capitalised. */
  title(random: SeededRandom, length: number): string {
    let first = this.#zipf.sample(random)
    for (let attempt = 0; first < TITLE_SKIPPED_RANKS && attempt < 8; attempt++)
      first = this.#zipf.sample(random)
    let title = capitalize(this.#words[first]!)
    for (let k = 1; k < length; k++) title += ` ${this.#words[this.#zipf.sample(random)]!}`
    return title
  }

  /** Writes the JSON text of an abstract_inverted_index for an abstract of `length` tokens into `out`. */
  invertedIndex(random: SeededRandom, length: number, out: JsonByteWriter): void {
    this.#reserve(length)
    const call = ++this.#call
    const stamp = this.#stamp
    const slotOf = this.#slotOfToken
    const slotToken = this.#slotToken
    const head = this.#slotHead
    const tail = this.#slotTail
    const next = this.#next
    let slots = 0
    let sentenceLeft = 0
    for (let position = 0; position < length; position++) {
      let variant = PLAIN
      if (sentenceLeft === 0) {
        sentenceLeft = SENTENCE_MIN + random.int(SENTENCE_SPREAD)
        variant |= CAPITALISED
      }
      sentenceLeft--
      if (sentenceLeft === 0 || position === length - 1) variant |= STOPPED
      const token = this.#canonical[this.#zipf.sample(random) * VARIANTS + variant]!
      next[position] = -1
      if (stamp[token] !== call) {
        stamp[token] = call
        slotOf[token] = slots
        slotToken[slots] = token
        head[slots] = position
        tail[slots] = position
        slots++
      } else {
        const slot = slotOf[token]!
        next[tail[slot]!] = position
        tail[slot] = position
      }
    }
    out.byte(OPEN_BRACE)
    for (let slot = 0; slot < slots; slot++) {
      if (slot !== 0) out.byte(COMMA)
      out.bytesOf(this.#key(slotToken[slot]!))
      out.byte(COLON)
      out.byte(OPEN_BRACKET)
      out.natural(head[slot]!)
      for (let p = next[head[slot]!]!; p !== -1; p = next[p]!) {
        out.byte(COMMA)
        out.natural(p)
      }
      out.byte(CLOSE_BRACKET)
    }
    out.byte(CLOSE_BRACE)
  }

  #reserve(length: number): void {
    if (this.#next.length >= length) return
    const size = Math.max(length, this.#next.length * 2)
    this.#slotToken = new Int32Array(size)
    this.#slotHead = new Int32Array(size)
    this.#slotTail = new Int32Array(size)
    this.#next = new Int32Array(size)
  }

  #key(token: number): Uint8Array {
    let key = this.#keys[token]
    if (key === undefined) {
      key = Buffer.from(JSON.stringify(this.#text(token)), 'utf8')
      this.#keys[token] = key
    }
    return key
  }

  #text(token: number): string {
    const word = this.#words[Math.floor(token / VARIANTS)]!
    const variant = token % VARIANTS
    return `${variant & CAPITALISED ? capitalize(word) : word}${variant & STOPPED ? '.' : ''}`
  }
}
