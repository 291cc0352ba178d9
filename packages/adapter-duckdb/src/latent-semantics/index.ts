// Latent semantic analysis, the built-in embedder of semantic search: randomised SVD of the TF-IDF matrix of
// a catalog's titles and abstracts, the model's files, and the embedder over it.
export { lsaEmbedder } from './lsa-embedder.ts'
export { LsaModel } from './lsa-model.ts'
export { lsaModelId, readLsaModel, writeLsaModel } from './lsa-model-files.ts'
export { DEFAULT_LSA_DIMENSIONS, type LsaTrainingOptions, trainLsaModel } from './lsa-model-trainer.ts'
export { type RandomizedSvd, type RandomizedSvdOptions, randomizedSvd } from './randomized-svd.ts'
export { SparseRowMatrix } from './sparse-row-matrix.ts'
