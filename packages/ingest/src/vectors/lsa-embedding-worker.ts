// A worker thread of the works' embedding (lsa-embedding-pool.ts): it reads the LSA model from its files when it
// starts, then answers each batch of texts with their vectors, one row of `dimensions` numbers per text, in the
// order sent. The embedding is most of the vectors step and runs on one core without it.
import { readFileSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { lsaModelFromBytes } from '@oqlkit/text-models/lsa'

export interface LsaEmbeddingWorkerData {
  /** The model's files, as `writeLsaModel` wrote them. */
  readonly vocabularyPath: string
  readonly projectionPath: string
  readonly dimensions: number
}

export type LsaEmbeddingRequest =
  | { readonly kind: 'texts'; readonly texts: readonly string[] }
  | { readonly kind: 'stop' }

export type LsaEmbeddingReply =
  | { readonly kind: 'vectors'; readonly vectors: Float32Array }
  | { readonly kind: 'failed'; readonly message: string }

const { vocabularyPath, projectionPath, dimensions } = workerData as LsaEmbeddingWorkerData
const port = parentPort!
// Read at start, so a batch never waits on it: the model is the same bytes the main thread's would be.
const { model } = lsaModelFromBytes(
  { vocabulary: readFileSync(vocabularyPath), projection: readFileSync(projectionPath) },
  dimensions,
  projectionPath,
)
// Every batch is answered synchronously, so a stop request is only read between batches: closing the port then
// leaves the thread's event loop empty and it exits with code 0.
port.on('message', (request: LsaEmbeddingRequest) => {
  if (request.kind === 'stop') {
    port.close()
    return
  }
  try {
    const vectors = new Float32Array(request.texts.length * dimensions)
    request.texts.forEach((text, index) => {
      vectors.set(model.embed(text), index * dimensions)
    })
    port.postMessage({ kind: 'vectors', vectors } satisfies LsaEmbeddingReply, [vectors.buffer])
  } catch (error) {
    port.postMessage({ kind: 'failed', message: (error as Error).message } satisfies LsaEmbeddingReply)
  }
})
