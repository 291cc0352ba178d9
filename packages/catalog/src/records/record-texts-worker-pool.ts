// The worker threads of one texts file (record-texts-worker.ts), each reading the same record store: batches
// of record locations go to them in turn, and each answers its own in the order sent, so the texts come
// back in the order asked whichever worker is faster.
import type { Worker } from 'node:worker_threads'
import { startWorker } from '../threads/worker-start.ts'
import type { RecordLocations } from './record-texts-reader.ts'
import type { RecordTextsReply, RecordTextsRequest, RecordTextsWorkerData } from './record-texts-worker.ts'

/**
 * A texts reader's heap: enough for a batch of records however long (the texts of 1,024 works are a few MB),
 * small enough that V8 collects the garbage of each batch (a decompressed buffer and a string per record)
 * instead of growing: without it the pass over 1M works peaked 0.4 GB above the main thread's 3.8 GB.
 */
const WORKER_HEAP_MB = 256

/** How long a worker asked to stop may take before it is terminated (it stops between batches). */
const STOP_GRACE_MS = 30_000

interface WaitingBatch {
  readonly resolve: (texts: string[]) => void
  readonly reject: (error: Error) => void
}

export class RecordTextsWorkerPool {
  readonly #workers: { worker: Worker; waiting: WaitingBatch[]; exited: Promise<unknown> }[] = []
  #next = 0

  constructor(count: number, data: RecordTextsWorkerData) {
    for (let index = 0; index < count; index++) {
      const worker = startWorker(import.meta.url, 'record-texts-worker', data, {
        maxOldGenerationSizeMb: WORKER_HEAP_MB,
      })
      const entry = {
        worker,
        waiting: [] as WaitingBatch[],
        exited: new Promise((resolve) => worker.once('exit', resolve)),
      }
      const failAll = (error: Error) => {
        for (const waiting of entry.waiting.splice(0)) waiting.reject(error)
      }
      worker.on('message', (reply: RecordTextsReply) => {
        const waiting = entry.waiting.shift()
        if (reply.kind === 'texts') waiting?.resolve(reply.texts)
        else waiting?.reject(new Error(reply.message))
      })
      worker.on('error', failAll)
      worker.on('exit', (code) => failAll(new Error(`a texts reader thread stopped with exit code ${code}`)))
      this.#workers.push(entry)
    }
  }

  get size(): number {
    return this.#workers.length
  }

  textsOf(locations: RecordLocations): Promise<string[]> {
    const entry = this.#workers[this.#next++ % this.#workers.length]!
    const texts = new Promise<string[]>((resolve, reject) => entry.waiting.push({ resolve, reject }))
    entry.worker.postMessage({ kind: 'batch', ...locations } satisfies RecordTextsRequest, [
      locations.offsets.buffer,
      locations.lengths.buffer,
    ])
    return texts
  }

  async close(): Promise<void> {
    await Promise.all(
      this.#workers.map(async ({ worker, exited }) => {
        worker.postMessage({ kind: 'stop' } satisfies RecordTextsRequest)
        const overdue = setTimeout(() => void worker.terminate(), STOP_GRACE_MS)
        await exited
        clearTimeout(overdue)
      }),
    )
  }
}
