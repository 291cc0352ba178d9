// The embedder a catalog carries: its LSA model, or the built-in sentence encoder, when its vectors were made by
// one. A catalog whose vectors came from an embeddings server carries none (the server is the model); the caller
// must bring its client.
import { join } from 'node:path'
import type { Embedder } from '@oqlkit/engine'
import { createUseLiteEmbedder, lsaEmbedder, readLsaModel, USE_LITE_MODEL_ID } from '@oqlkit/text-models'
import { isCatalogRelativePath } from '../layout/catalog-manifest-reader.ts'
import type { VectorIndexManifest } from './vector-index-layout.ts'

/**
 * The built-in sentence encoder, when it made the vectors: the same weights (by the model id, which names their
 * package and version) or none, since another version's vectors would not compare with this one's.
 */
export async function useLiteEmbedderFor(vectors: VectorIndexManifest): Promise<Embedder | undefined> {
  if (vectors.embedder.kind !== 'use-lite') return undefined
  if (vectors.embedder.modelId !== USE_LITE_MODEL_ID)
    throw new Error(
      `the catalog's vectors were made by ${vectors.embedder.modelId}, but this oqlkit's sentence encoder is ${USE_LITE_MODEL_ID}; rebuild the vectors (oqlkit ingest --embedder use-lite)`,
    )
  return createUseLiteEmbedder()
}

export async function loadCatalogEmbedder(
  catalogDir: string,
  vectors: VectorIndexManifest,
): Promise<Embedder | undefined> {
  if (vectors.embedder.kind === 'use-lite') return useLiteEmbedderFor(vectors)
  if (vectors.embedder.kind !== 'lsa' || vectors.lsa === undefined) return undefined
  const { vocabularyFile, projectionFile } = vectors.lsa
  if (!isCatalogRelativePath(vocabularyFile) || !isCatalogRelativePath(projectionFile))
    throw new Error('catalog.json names LSA model files outside the catalog')
  const { model, modelId } = await readLsaModel(
    {
      vocabulary: join(catalogDir, ...vocabularyFile.split('/')),
      projection: join(catalogDir, ...projectionFile.split('/')),
    },
    vectors.dimensions,
  )
  // The files must be the ones the vectors were made with: a model edited or swapped since would embed
  // queries into another space.
  if (modelId !== vectors.embedder.modelId)
    throw new Error(
      `the LSA model files hash to ${modelId}, but the catalog's vectors were made by ${vectors.embedder.modelId}; rebuild the vectors`,
    )
  return lsaEmbedder(model, modelId)
}
