// Vectors of a catalog's works for semantic search: the layout and manifest entry, the build (built-in LSA
// model or an embeddings server), the in-place rebuild, and the embedder a catalog carries.
export { loadCatalogEmbedder } from './catalog-embedder.ts'
export {
  type IndexCatalogVectorsOptions,
  type IndexCatalogVectorsResult,
  indexCatalogVectors,
} from './catalog-vector-indexer.ts'
export { isHeldOut } from './held-out-works.ts'
export * from './vector-index-layout.ts'
export { hasUnreadableVectors, vectorIndexOf, withVectorIndex } from './vector-index-manifest.ts'
export { quantizeVector } from './vector-quantizer.ts'
export { readWorkTexts, type WorkText } from './work-text-reader.ts'
export {
  type BuildWorkVectorsOptions,
  buildWorkVectors,
  type LsaVectorsChoice,
  type ServedVectorsChoice,
  type VectorBuildSession,
  type VectorsChoice,
} from './work-vector-builder.ts'
