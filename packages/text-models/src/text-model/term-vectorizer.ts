// TF-IDF over a fixed vocabulary: a text's terms become a sparse, L2-normalised vector of
// (1 + ln tf) · idf weights, idf = ln((1 + N) / (1 + df)) + 1 (smoothed, so no kept term weighs zero).
// Sublinear tf keeps a word repeated ten times in an abstract from drowning the rest. Terms outside the
// vocabulary are ignored. The vectoriser is immutable and serialises to a compact binary form.
import type { SparseTermVector } from './sparse-term-vector.ts'
import { textTerms } from './text-terms.ts'

const MAGIC = 0x5654514f // 'OQTV' read as a little-endian u32
const FORMAT_VERSION = 1
const HEADER_BYTES = 16

export class TermVectorizerFormatError extends Error {
  override readonly name = 'TermVectorizerFormatError'
}

export class TermVectorizer {
  readonly #terms: readonly string[]
  readonly #documentFrequency: Uint32Array
  readonly #idf: Float32Array
  readonly #ids: Map<string, number>
  /** How many documents the vocabulary was counted over (N in the idf). */
  readonly documentCount: number

  /** Use `TermVocabularyBuilder.build` or `TermVectorizer.deserialize`; ids are the positions in `terms`. */
  constructor(terms: readonly string[], documentFrequency: Uint32Array, documentCount: number) {
    if (terms.length !== documentFrequency.length)
      throw new RangeError(`${terms.length} terms but ${documentFrequency.length} document frequencies`)
    this.#terms = Object.freeze([...terms])
    this.#documentFrequency = documentFrequency
    this.documentCount = documentCount
    this.#ids = new Map(terms.map((term, id) => [term, id]))
    this.#idf = Float32Array.from(documentFrequency, (df) => Math.log((1 + documentCount) / (1 + df)) + 1)
  }

  /** The number of terms in the vocabulary (ids are 0 … size-1). */
  get size(): number {
    return this.#terms.length
  }

  termId(term: string): number | undefined {
    return this.#ids.get(term)
  }

  term(id: number): string {
    const term = this.#terms[id]
    if (term === undefined) throw new RangeError(`term id ${id} is outside the vocabulary of ${this.size}`)
    return term
  }

  documentFrequency(id: number): number {
    return this.#documentFrequency[id] ?? 0
  }

  idf(id: number): number {
    return this.#idf[id] ?? 0
  }

  /** The TF-IDF vector of a text (empty when none of its terms is in the vocabulary). */
  vectorize(text: string): SparseTermVector {
    return this.vectorizeTerms(textTerms(text))
  }

  /** The TF-IDF vector of terms already made by `textTerms`, for callers that reuse them. */
  vectorizeTerms(terms: readonly string[]): SparseTermVector {
    const counts = new Map<number, number>()
    for (const term of terms) {
      const id = this.#ids.get(term)
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    const termIds = Uint32Array.from(counts.keys()).sort()
    const weights = new Float32Array(termIds.length)
    let squares = 0
    for (let k = 0; k < termIds.length; k++) {
      const id = termIds[k]!
      const weight = (1 + Math.log(counts.get(id)!)) * this.#idf[id]!
      weights[k] = weight
      squares += weight * weight
    }
    const norm = Math.sqrt(squares)
    for (let k = 0; k < weights.length; k++) weights[k] = weights[k]! / norm
    return { termIds, weights }
  }

  /**
   * The binary form: a 16-byte header (magic 'OQTV', format version, document count, term count, all u32
   * little-endian), the document frequencies (u32 each), then the terms as UTF-8 joined by '\n' (a term is
   * letters and digits only, so it never holds one).
   */
  serialize(): Uint8Array {
    const text = new TextEncoder().encode(this.#terms.join('\n'))
    const bytes = new Uint8Array(HEADER_BYTES + 4 * this.size + text.length)
    const view = new DataView(bytes.buffer)
    view.setUint32(0, MAGIC, true)
    view.setUint32(4, FORMAT_VERSION, true)
    view.setUint32(8, this.documentCount, true)
    view.setUint32(12, this.size, true)
    for (let id = 0; id < this.size; id++)
      view.setUint32(HEADER_BYTES + 4 * id, this.#documentFrequency[id]!, true)
    bytes.set(text, HEADER_BYTES + 4 * this.size)
    return bytes
  }

  static deserialize(bytes: Uint8Array): TermVectorizer {
    if (bytes.length < HEADER_BYTES) throw new TermVectorizerFormatError('not a term vectoriser: too short')
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (view.getUint32(0, true) !== MAGIC)
      throw new TermVectorizerFormatError('not a term vectoriser: bad magic')
    const version = view.getUint32(4, true)
    if (version !== FORMAT_VERSION)
      throw new TermVectorizerFormatError(
        `term vectoriser format ${version}; this build reads ${FORMAT_VERSION}`,
      )
    const documentCount = view.getUint32(8, true)
    const size = view.getUint32(12, true)
    const textStart = HEADER_BYTES + 4 * size
    if (bytes.length < textStart) throw new TermVectorizerFormatError('term vectoriser truncated')
    const documentFrequency = new Uint32Array(size)
    for (let id = 0; id < size; id++) documentFrequency[id] = view.getUint32(HEADER_BYTES + 4 * id, true)
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(textStart))
    const terms = size === 0 ? [] : text.split('\n')
    if (terms.length !== size)
      throw new TermVectorizerFormatError(`term vectoriser lists ${terms.length} of ${size} terms`)
    return new TermVectorizer(terms, documentFrequency, documentCount)
  }
}
