// The built-in LSA model's embedding on worker threads (lsa-embedding-worker.ts), as an `Embedder`: a batch of
// texts is cut into chunks dealt to the workers in turn, and each worker answers its chunks in the order sent
// (`OrderedReplyPool`), so the vectors come back in the texts' order. On the main thread the embedding held one
// core while the other idled: 220-280 µs a work here, most of an hour of one core at 10M works.
import { availableParallelism } from 'node:os'
import { OrderedReplyPool, startWorker } from '@oqlkit/catalog'
import type { Embedder } from '@oqlkit/engine'
import type {
  LsaEmbeddingReply,
  LsaEmbeddingRequest,
  LsaEmbeddingWorkerData,
} from './lsa-embedding-worker.ts'

/** Below this many works to embed, the main thread does it: starting the threads would cost more than they save. */
const EMBEDDING_WORKERS_FROM = 20_000

/**
 * Texts sent to a worker at a time: about four chunks a worker for each batch, so that a slower worker holds the
 * batch up little, and at most 2,048 (their vectors 2 MB at 256 dimensions).
 */
const MAX_CHUNK_TEXTS = 2_048
const MIN_CHUNK_TEXTS = 64
const CHUNKS_PER_WORKER = 4

/** The worker threads to embed `works` works with when the caller names none: one per core, from enough works. */
export const defaultEmbeddingWorkers = (works: number): number =>
  works < EMBEDDING_WORKERS_FROM ? 0 : availableParallelism()

export class LsaEmbeddingPool implements Embedder {
  readonly modelId: string
  readonly dimensions: number
  readonly #pool: OrderedReplyPool<LsaEmbeddingRequest, LsaEmbeddingReply, Float32Array>

  /** `count` workers (at least one) on the model in `files`, whose id and dimensions the vectors are recorded with. */
  constructor(
    files: { readonly vocabulary: string; readonly projection: string },
    model: { readonly modelId: string; readonly dimensions: number },
    count: number,
  ) {
    this.modelId = model.modelId
    this.dimensions = model.dimensions
    const data: LsaEmbeddingWorkerData = {
      vocabularyPath: files.vocabulary,
      projectionPath: files.projection,
      dimensions: model.dimensions,
    }
    this.#pool = new OrderedReplyPool(count, {
      start: () => startWorker(import.meta.url, 'lsa-embedding-worker', data),
      stop: { kind: 'stop' },
      settle: (reply) =>
        reply.kind === 'vectors'
          ? reply.vectors
          : new Error(`embedding on a worker thread failed: ${reply.message}`),
      name: 'an embedding thread',
    })
  }

  async embed(texts: readonly string[]): Promise<readonly Float32Array[]> {
    const size = Math.min(
      MAX_CHUNK_TEXTS,
      Math.max(MIN_CHUNK_TEXTS, Math.ceil(texts.length / (this.#pool.size * CHUNKS_PER_WORKER))),
    )
    const chunks: Promise<Float32Array>[] = []
    for (let start = 0; start < texts.length; start += size)
      chunks.push(this.#pool.ask({ kind: 'texts', texts: texts.slice(start, start + size) }))
    const vectors: Float32Array[] = []
    for (const chunk of await Promise.all(chunks))
      for (let at = 0; at < chunk.length; at += this.dimensions)
        vectors.push(chunk.subarray(at, at + this.dimensions))
    return vectors
  }

  /** Stops the workers once they have answered what they were sent. */
  close(): Promise<void> {
    return this.#pool.close()
  }
}
