// The LSA model alone (`@oqlkit/text-models/lsa`): reading its files and embedding with it, for a worker thread
// that embeds works and must not load the rest of the package (the embeddings client reaches @oqlkit/engine,
// whose validators cost a worker most of a second to start).
export { LsaModel } from './lsa-model.ts'
export { type LsaModelBytes, lsaModelFromBytes, readLsaModel } from './lsa-model-files.ts'
