// The public API of @oqlkit/text-models: what turns text into tokens, terms and vectors, independent of any
// storage. The tokenizer and stemmer every search index agrees with, the text features of the models trained
// from a catalog's works (terms, a TF-IDF vectoriser, abstracts rebuilt from inverted indexes), the
// text-tagging model, latent semantic analysis (the built-in embedder of semantic search) and the client of an
// OpenAI-compatible embeddings server (the other embedder).
export {
  createOpenAiEmbedder,
  embeddingsEndpointOf,
  type OpenAiEmbeddingsClientOptions,
  servedModelId,
} from './embeddings-client/openai-embeddings-client.ts'
export { lsaEmbedder } from './latent-semantics/lsa-embedder.ts'
export { LsaModel } from './latent-semantics/lsa-model.ts'
export {
  type LsaModelBytes,
  lsaModelFromBytes,
  lsaModelId,
  readLsaModel,
  writeLsaModel,
} from './latent-semantics/lsa-model-files.ts'
export {
  DEFAULT_LSA_DIMENSIONS,
  type LsaTrainingOptions,
  trainLsaModel,
} from './latent-semantics/lsa-model-trainer.ts'
export {
  type RandomizedSvd,
  type RandomizedSvdOptions,
  randomizedSvd,
} from './latent-semantics/randomized-svd.ts'
export { SeededGaussian } from './latent-semantics/seeded-gaussian.ts'
export { SparseRowMatrix } from './latent-semantics/sparse-row-matrix.ts'
export {
  createUseLiteEmbedder,
  USE_LITE_DIMENSIONS,
  USE_LITE_MAX_WORDS,
  USE_LITE_MODEL_ID,
  type UseLiteEmbedderOptions,
} from './sentence-encoder/use-lite-embedder.ts'
export { lowestKeyRows } from './text-model/bounded-sample.ts'
export { textFromInvertedIndex } from './text-model/inverted-index-text.ts'
export { createModelTagger } from './text-model/model-tagger.ts'
export { seededIdFraction } from './text-model/seeded-id-fraction.ts'
export { type SparseTermVector, sparseDot } from './text-model/sparse-term-vector.ts'
export { TermVectorizer, TermVectorizerFormatError } from './text-model/term-vectorizer.ts'
export {
  DEFAULT_TERM_VOCABULARY_OPTIONS,
  TermVocabularyBuilder,
  type TermVocabularyOptions,
} from './text-model/term-vocabulary-builder.ts'
export {
  DEFAULT_TAG_MODEL_SETTINGS,
  type TagLabelSet,
  TagModelFormatError,
  type TagModelSettings,
  TextTagModel,
} from './text-model/text-tag-model.ts'
export { TextTagModelTrainer } from './text-model/text-tag-model-trainer.ts'
export { textTerms } from './text-model/text-terms.ts'
export { readTrainingLabels, type TrainingLabel, type TrainingWork } from './text-model/training-work.ts'
export { porterStem } from './tokenizer/porter-stemmer.ts'
export { exactTokens, foldSearchText, queryTokens, stemmedTokens } from './tokenizer/search-tokenizer.ts'
