// A latent semantic analysis model: the TF-IDF vocabulary it was trained with and the projection of each term
// onto the latent dimensions (the leading right singular vectors of the training documents' TF-IDF matrix).
// A text's vector is its TF-IDF vector times the projection: texts that use related words (words that occur
// in the same documents) land near each other even when they share none.
import type { TermVectorizer } from '../text-model/term-vectorizer.ts'
import { textTerms } from '../text-model/text-terms.ts'

export class LsaModel {
  readonly vectorizer: TermVectorizer
  /** vocabulary size × dimensions, row-major (row = term id). */
  readonly projection: Float32Array
  readonly dimensions: number

  constructor(vectorizer: TermVectorizer, projection: Float32Array, dimensions: number) {
    if (projection.length !== vectorizer.size * dimensions)
      throw new RangeError(
        `a projection of ${projection.length} numbers does not fit ${vectorizer.size} terms × ${dimensions} dimensions`,
      )
    this.vectorizer = vectorizer
    this.projection = projection
    this.dimensions = dimensions
  }

  /** The latent vector of a text (all zeros when it has no word of the vocabulary). */
  embed(text: string): Float32Array {
    return this.embedTerms(textTerms(text))
  }

  embedTerms(terms: readonly string[]): Float32Array {
    const sparse = this.vectorizer.vectorizeTerms(terms)
    const vector = new Float64Array(this.dimensions)
    for (let k = 0; k < sparse.termIds.length; k++) {
      const weight = sparse.weights[k]!
      const row = sparse.termIds[k]! * this.dimensions
      for (let d = 0; d < this.dimensions; d++) vector[d]! += weight * this.projection[row + d]!
    }
    return Float32Array.from(vector)
  }
}
