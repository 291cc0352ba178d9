// The worker threads of one texts file (record-texts-worker.ts), each reading the same record store: batches
// of record locations go to them in turn, and each answers its own in the order sent, so the texts come
// back in the order asked whichever worker is faster.
import { OrderedReplyPool } from '../threads/ordered-reply-pool.ts'
import { startWorker } from '../threads/worker-start.ts'
import type { RecordLocations } from './record-texts-reader.ts'
import type { RecordTextsReply, RecordTextsRequest, RecordTextsWorkerData } from './record-texts-worker.ts'

/**
 * A texts reader's heap: enough for a batch of records however long (the texts of 1,024 works are a few MB),
 * small enough that V8 collects the garbage of each batch (a decompressed buffer and a string per record)
 * instead of growing: without it the pass over 1M works peaked 0.4 GB above the main thread's 3.8 GB.
 */
const WORKER_HEAP_MB = 256

export class RecordTextsWorkerPool {
  readonly #pool: OrderedReplyPool<RecordTextsRequest, RecordTextsReply, string[]>

  constructor(count: number, data: RecordTextsWorkerData) {
    this.#pool = new OrderedReplyPool(count, {
      start: () =>
        startWorker(import.meta.url, 'record-texts-worker', data, { maxOldGenerationSizeMb: WORKER_HEAP_MB }),
      stop: { kind: 'stop' },
      settle: (reply) => (reply.kind === 'texts' ? reply.texts : new Error(reply.message)),
      name: 'a texts reader thread',
    })
  }

  get size(): number {
    return this.#pool.size
  }

  textsOf(locations: RecordLocations): Promise<string[]> {
    return this.#pool.ask({ kind: 'batch', ...locations }, [
      locations.offsets.buffer,
      locations.lengths.buffer,
    ])
  }

  close(): Promise<void> {
    return this.#pool.close()
  }
}
