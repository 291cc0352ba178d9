// `indexCatalogVectors`: (re)builds the vectors of a catalog in place — another model, another seed, a
// held-out share for measuring, or vectors from an embeddings server (`buildCatalogExtension`: a failure
// before the swap leaves the catalog as it was).
import { resolve } from 'node:path'
import {
  catalogIdOrder,
  readCatalogManifest,
  VECTORS_DIR,
  type VectorIndexManifest,
  withVectorIndex,
} from '@oqlkit/catalog'
import { connectionSession } from '../texts/build-session.ts'
import { buildCatalogExtension } from '../texts/catalog-extension-builder.ts'
import {
  buildWorkVectors,
  type ListIndexChoice,
  type VectorBuildStep,
  type VectorsChoice,
} from './work-vector-builder.ts'

export interface IndexCatalogVectorsOptions {
  readonly catalogDir: string
  readonly vectors: VectorsChoice
  /** DuckDB `memory_limit` of the build (default `2GB`). */
  readonly memoryLimit?: string
  readonly threads?: number
  /** Worker threads that embed the works with the built-in model (`buildWorkVectors`' `embeddingWorkers`). */
  readonly embeddingWorkers?: number
  /** Works read and embedded at a time (`buildWorkVectors`' `batchSize`). */
  readonly batchSize?: number
  /** The list index of semantic search (default: built for 50,000 vectors or more); `false`: none. */
  readonly listIndex?: ListIndexChoice | false
  readonly onProgress?: (done: number, total: number, step: VectorBuildStep) => void
}

export interface IndexCatalogVectorsResult {
  readonly catalogDir: string
  readonly vectors: VectorIndexManifest
  readonly durationMs: number
}

export async function indexCatalogVectors(
  options: IndexCatalogVectorsOptions,
): Promise<IndexCatalogVectorsResult> {
  const started = Date.now()
  const catalogDir = resolve(options.catalogDir)
  // The vectors follow the catalog's id order: a catalog of format 7 or earlier is in the ids' text order.
  const manifest = await readCatalogManifest(catalogDir)
  const idOrder = manifest.ok ? catalogIdOrder(manifest.manifest) : 'by-number'
  const vectors = await buildCatalogExtension(catalogDir, {
    folder: VECTORS_DIR,
    workPrefix: '.vector-build-',
    duckDb: { memoryLimit: options.memoryLimit ?? '2GB', threads: options.threads },
    build: ({ connection, outDir }) =>
      buildWorkVectors({
        session: connectionSession(connection),
        catalogDir,
        outDir,
        vectors: options.vectors,
        idOrder,
        ...(options.listIndex === undefined ? {} : { listIndex: options.listIndex }),
        ...(options.embeddingWorkers === undefined ? {} : { embeddingWorkers: options.embeddingWorkers }),
        ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      }),
    record: withVectorIndex,
  })
  return { catalogDir, vectors, durationMs: Date.now() - started }
}
