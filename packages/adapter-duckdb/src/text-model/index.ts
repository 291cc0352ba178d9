// Text features shared by the models trained from a catalog's works (tagging, latent semantics): terms,
// a TF-IDF vectoriser with a serialisable vocabulary, sparse vectors, and abstracts rebuilt from their
// inverted index.
export * from './inverted-index-text.ts'
export * from './sparse-term-vector.ts'
export * from './term-vectorizer.ts'
export * from './term-vocabulary-builder.ts'
export * from './text-terms.ts'
