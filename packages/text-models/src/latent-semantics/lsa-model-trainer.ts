// Trains an LSA model from documents given as their terms: the vocabulary and idf from those documents, their
// TF-IDF matrix, and its leading right singular vectors by randomised SVD. Deterministic: the same documents
// in the same order and the same seed give the same model, bit for bit.
import { TermVocabularyBuilder, type TermVocabularyOptions } from '../text-model/term-vocabulary-builder.ts'
import { LsaModel } from './lsa-model.ts'
import { randomizedSvd } from './randomized-svd.ts'
import { SparseRowMatrix } from './sparse-row-matrix.ts'

export interface LsaTrainingOptions {
  readonly dimensions: number
  readonly seed: number
  /** Power iterations of the SVD (default 2). */
  readonly powerIterations?: number
  readonly vocabulary?: Partial<TermVocabularyOptions>
}

export const DEFAULT_LSA_DIMENSIONS = 256

export function trainLsaModel(
  documents: readonly (readonly string[])[],
  options: LsaTrainingOptions,
): LsaModel {
  const builder = new TermVocabularyBuilder()
  for (const terms of documents) builder.addDocument(terms)
  const vectorizer = builder.build(options.vocabulary ?? {})
  const rows = documents
    .map((terms) => vectorizer.vectorizeTerms(terms))
    .filter((vector) => vector.termIds.length > 0)
  const projection = new Float32Array(vectorizer.size * options.dimensions)
  if (rows.length > 0 && vectorizer.size > 0) {
    const svd = randomizedSvd(new SparseRowMatrix(rows, vectorizer.size), {
      rank: options.dimensions,
      seed: options.seed,
      ...(options.powerIterations === undefined ? {} : { powerIterations: options.powerIterations }),
    })
    // A corpus smaller than the dimensions asked for fills fewer of them; the rest stay zero, so every
    // vector keeps the catalog's width.
    for (let term = 0; term < vectorizer.size; term++)
      for (let d = 0; d < svd.rank; d++)
        projection[term * options.dimensions + d] = svd.rightVectors[term * svd.rank + d]!
  }
  return new LsaModel(vectorizer, projection, options.dimensions)
}
