// Counts, one document at a time, in how many documents each term occurs, then cuts the vocabulary a
// `TermVectorizer` uses. Streaming, so a catalog's works never have to be held as text at once.
import { TermVectorizer } from './term-vectorizer.ts'

export interface TermVocabularyOptions {
  /** Terms in fewer documents than this are dropped (typos, ids, one-off names). */
  readonly minDocumentFrequency: number
  /** Terms in more than this share of the documents are dropped (function words). */
  readonly maxDocumentShare: number
  /** At most this many terms are kept, the most frequent first. */
  readonly maxVocabularySize: number
}

export const DEFAULT_TERM_VOCABULARY_OPTIONS: TermVocabularyOptions = Object.freeze({
  minDocumentFrequency: 2,
  maxDocumentShare: 0.5,
  maxVocabularySize: 100_000,
})

export class TermVocabularyBuilder {
  readonly #documentFrequency = new Map<string, number>()
  #documentCount = 0

  get documentCount(): number {
    return this.#documentCount
  }

  /** Counts one document, given as its terms (`textTerms(text)`); repeats within it count once. */
  addDocument(terms: readonly string[]): void {
    this.#documentCount++
    for (const term of new Set(terms))
      this.#documentFrequency.set(term, (this.#documentFrequency.get(term) ?? 0) + 1)
  }

  /**
   * The vectoriser over the kept terms. Term ids follow document frequency, highest first, ties by the terms'
   * code units, so the same documents give the same ids whatever order they were added in.
   */
  build(options: Partial<TermVocabularyOptions> = {}): TermVectorizer {
    const settings = { ...DEFAULT_TERM_VOCABULARY_OPTIONS, ...options }
    const maxFrequency = settings.maxDocumentShare * this.#documentCount
    const kept: Array<[string, number]> = []
    for (const entry of this.#documentFrequency) {
      if (entry[1] >= settings.minDocumentFrequency && entry[1] <= maxFrequency) kept.push(entry)
    }
    kept.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    kept.length = Math.min(kept.length, settings.maxVocabularySize)
    return new TermVectorizer(
      kept.map(([term]) => term),
      Uint32Array.from(kept, ([, frequency]) => frequency),
      this.#documentCount,
    )
  }
}
