// The built-in LSA model's embedding on worker threads (lsa-embedding-worker.ts), as an `Embedder`: a batch of
// texts is cut into chunks dealt to the workers in turn, and each worker answers its chunks in the order sent,
// so the vectors come back in the texts' order. On the main thread the embedding held one core while the other
// idled: at 100k generated works 28 s of a 206 s full ingest (280 µs a work), at 10M most of an hour.
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { startWorker } from '@oqlkit/catalog'
import type { Embedder } from '@oqlkit/engine'
import type {
  LsaEmbeddingReply,
  LsaEmbeddingRequest,
  LsaEmbeddingWorkerData,
} from './lsa-embedding-worker.ts'

/** Below this many works to embed, the main thread does it: starting the threads would cost more than they save. */
export const EMBEDDING_WORKERS_FROM = 20_000

/**
 * Texts sent to a worker at a time: about four chunks a worker for each batch, so that a slower worker holds the
 * batch up little, and at most 2,048 (their vectors 2 MB at 256 dimensions).
 */
const MAX_CHUNK_TEXTS = 2_048
const MIN_CHUNK_TEXTS = 64
const CHUNKS_PER_WORKER = 4

/** How long a worker asked to stop may take before it is terminated (it stops between chunks). */
const STOP_GRACE_MS = 30_000

/** The worker threads to embed `works` works with when the caller names none: one per core, from enough works. */
export const defaultEmbeddingWorkers = (works: number): number =>
  works < EMBEDDING_WORKERS_FROM ? 0 : availableParallelism()

interface WaitingChunk {
  readonly resolve: (vectors: Float32Array) => void
  readonly reject: (error: Error) => void
}

interface PoolWorker {
  readonly worker: Worker
  readonly waiting: WaitingChunk[]
  readonly exited: Promise<unknown>
  /** Why it stopped, once it has: a chunk sent to it after that fails at once instead of waiting forever. */
  failure: Error | undefined
}

export class LsaEmbeddingPool implements Embedder {
  readonly modelId: string
  readonly dimensions: number
  readonly #workers: PoolWorker[] = []
  #next = 0

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
    for (let index = 0; index < Math.max(1, count); index++) {
      const worker = startWorker(import.meta.url, 'lsa-embedding-worker', data)
      const entry: PoolWorker = {
        worker,
        waiting: [],
        exited: new Promise((resolve) => worker.once('exit', resolve)),
        failure: undefined,
      }
      const failAll = (error: Error) => {
        entry.failure ??= error
        for (const waiting of entry.waiting.splice(0)) waiting.reject(error)
      }
      worker.on('message', (reply: LsaEmbeddingReply) => {
        const waiting = entry.waiting.shift()
        if (reply.kind === 'vectors') waiting?.resolve(reply.vectors)
        else waiting?.reject(new Error(`embedding on a worker thread failed: ${reply.message}`))
      })
      worker.on('error', failAll)
      worker.on('exit', (code) => failAll(new Error(`an embedding thread stopped with exit code ${code}`)))
      this.#workers.push(entry)
    }
  }

  async embed(texts: readonly string[]): Promise<readonly Float32Array[]> {
    const size = Math.min(
      MAX_CHUNK_TEXTS,
      Math.max(MIN_CHUNK_TEXTS, Math.ceil(texts.length / (this.#workers.length * CHUNKS_PER_WORKER))),
    )
    const chunks: Promise<Float32Array>[] = []
    for (let start = 0; start < texts.length; start += size)
      chunks.push(this.#embedChunk(texts.slice(start, start + size)))
    const vectors: Float32Array[] = []
    for (const chunk of await Promise.all(chunks))
      for (let at = 0; at < chunk.length; at += this.dimensions)
        vectors.push(chunk.subarray(at, at + this.dimensions))
    return vectors
  }

  #embedChunk(texts: readonly string[]): Promise<Float32Array> {
    const entry = this.#workers[this.#next++ % this.#workers.length]!
    if (entry.failure !== undefined) return Promise.reject(entry.failure)
    const vectors = new Promise<Float32Array>((resolve, reject) => entry.waiting.push({ resolve, reject }))
    entry.worker.postMessage({ kind: 'texts', texts } satisfies LsaEmbeddingRequest)
    return vectors
  }

  /** Stops the workers once they have answered what they were sent. */
  async close(): Promise<void> {
    await Promise.all(
      this.#workers.map(async ({ worker, exited }) => {
        worker.postMessage({ kind: 'stop' } satisfies LsaEmbeddingRequest)
        const overdue = setTimeout(() => void worker.terminate(), STOP_GRACE_MS)
        await exited
        clearTimeout(overdue)
      }),
    )
  }
}
