// Runs pass 2's batches (work-batch-builder.ts) on worker threads and hands them back in index order, so the
// main thread writes the same part files, byte for byte, whatever the number of threads: record building
// (JSON assembly and UTF-8 encoding, most of pass 2's CPU time) spreads over the cores, while the main
// thread only copies the bytes into the part writers (whose gzip runs on libuv's pool) and spools the links.
// With `workers: 0` the batches are built on the calling thread, by the same code.
//
// Workers are started before pass 1, so loading their modules and building their pools overlaps with the
// citation pass (which has one thread). Each has at most IN_FLIGHT batches asked of it.
//
// A batch's text (about 8 MB) is written into one of a fixed set of text slots, SharedArrayBuffers made once
// and given to every worker at start: a slot is taken when a batch is asked for and freed when the writer is
// done with it, so at most SLOTS_PER_WORKER batches per thread are held however slow the writing gets.
// Sending a fresh buffer per batch instead made the main thread account for 8-16 MB of new outside memory
// per batch, and V8 answered with a full garbage collection every few batches.
import { Worker } from 'node:worker_threads'
import type { GenerationPools } from './generation-pools.ts'
import {
  BATCH_TEXT_BYTES,
  type SharedWorkGraph,
  type WorkBatch,
  WorkBatchBuilder,
  type WorkTotals,
} from './work-batch-builder.ts'

/** Batches asked of one worker at a time: one being built, one waiting, so it never idles between them. */
const IN_FLIGHT = 2
/** Text slots per worker: its batches in flight, plus finished ones waiting for their turn to be written. */
const SLOTS_PER_WORKER = IN_FLIGHT + 1

/** What a worker is started with (its workerData). */
export interface BatchWorkerSetup {
  readonly works: number
  /** The internal (normalised) seed. */
  readonly seed: number
  /** The text slots (SharedArrayBuffers), shared by every worker and the main thread. */
  readonly slots: readonly SharedArrayBuffer[]
}

export type BatchWorkerRequest =
  | { readonly kind: 'graph'; readonly graph: SharedWorkGraph }
  | { readonly kind: 'batch'; readonly index: number; readonly slot: number }
  | { readonly kind: 'totals' }

/** A built batch without its text, which is in the slot (or, when it did not fit, in `overflow`). */
export type SentWorkBatch = Omit<WorkBatch, 'bytes'>

export type BatchWorkerReply =
  | {
      readonly kind: 'batch'
      readonly batch: SentWorkBatch
      readonly textLength: number
      readonly overflow: Uint8Array | null
    }
  | { readonly kind: 'totals'; readonly totals: WorkTotals }

export interface WorkBatchPoolOptions {
  readonly works: number
  readonly seed: number
  /** Worker threads; 0 builds the batches on the calling thread. */
  readonly workers: number
}

interface Deferred<T> {
  readonly promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}

interface PoolWorker {
  readonly worker: Worker
  inFlight: number
  totals: Deferred<WorkTotals> | null
}

interface Assigned {
  readonly slot: number
  readonly batch: Deferred<WorkBatch>
}

function defer<T>(): Deferred<T> {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  // Awaited by whoever asked; a failure before then must not count as unhandled.
  promise.catch(() => undefined)
  return { promise, resolve, reject }
}

export class WorkBatchPool {
  readonly #works: number
  readonly #seed: number
  readonly #batchCount: number
  readonly #workers: PoolWorker[] = []
  /** One Buffer per text slot, made once (a view per message would count as new outside memory each time). */
  readonly #slots: Buffer[]
  readonly #freeSlots: number[]
  readonly #assigned = new Map<number, Assigned>()
  #next = 0
  #local: WorkBatchBuilder | null = null
  #failure: unknown = null
  #closing = false

  /** Starts the workers (they build their pools at once); begin() then gives them the citation graph. */
  constructor(options: WorkBatchPoolOptions) {
    this.#works = options.works
    this.#seed = options.seed
    this.#batchCount = WorkBatchBuilder.batchCount(options.works)
    const threads = Math.min(options.workers, this.#batchCount)
    // Without workers one plain buffer is enough: each batch is written before the next is built.
    const shared = Array.from(
      { length: threads * SLOTS_PER_WORKER },
      () => new SharedArrayBuffer(BATCH_TEXT_BYTES),
    )
    this.#slots =
      threads === 0 ? [Buffer.allocUnsafe(BATCH_TEXT_BYTES)] : shared.map((sab) => Buffer.from(sab))
    this.#freeSlots = this.#slots.map((_, slot) => slot).reverse()
    const setup: BatchWorkerSetup = { works: options.works, seed: options.seed, slots: shared }
    for (let k = 0; k < threads; k++) this.#workers.push(this.#spawn(setup))
  }

  /** Worker threads in use (0: batches are built on this thread). */
  get threads(): number {
    return this.#workers.length
  }

  /** Hands over pass 1's results; `pools` are this thread's, used when there are no workers. */
  begin(graph: SharedWorkGraph, pools: GenerationPools): void {
    if (this.#workers.length === 0) {
      this.#local = new WorkBatchBuilder(this.#works, this.#seed, pools, graph)
      return
    }
    const request: BatchWorkerRequest = { kind: 'graph', graph }
    for (const { worker } of this.#workers) worker.postMessage(request)
  }

  /** Every batch, in index order. A batch's `bytes` are only valid until the next one is asked for. */
  async *batches(): AsyncGenerator<WorkBatch> {
    for (let index = 0; index < this.#batchCount; index++) {
      const local = this.#local
      if (local !== null) {
        const batch = local.build(index, this.#slots[0]!)
        // A batch too large for the buffer came in a larger one: keep that for the next batches.
        if (batch.bytes.buffer !== this.#slots[0]!.buffer) this.#slots[0] = Buffer.from(batch.bytes.buffer)
        yield batch
        continue
      }
      this.#assign()
      const assigned = this.#assigned.get(index)
      if (assigned === undefined) throw new Error(`batch ${index} was never asked for`)
      const batch = await assigned.batch.promise
      this.#assigned.delete(index)
      yield batch
      this.#freeSlots.push(assigned.slot)
    }
  }

  /** Each builder's totals (one per worker), once every batch has been consumed. */
  async totals(): Promise<WorkTotals[]> {
    if (this.#local !== null) return [this.#local.totals()]
    this.#throwIfFailed()
    const request: BatchWorkerRequest = { kind: 'totals' }
    return Promise.all(
      this.#workers.map((entry) => {
        entry.totals = defer<WorkTotals>()
        entry.worker.postMessage(request)
        return entry.totals.promise
      }),
    )
  }

  /** Stops the workers (also after a failure; safe to call twice). */
  async close(): Promise<void> {
    this.#closing = true
    this.#local?.close()
    this.#local = null
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()))
  }

  #spawn(setup: BatchWorkerSetup): PoolWorker {
    const entry: PoolWorker = { worker: startBatchWorker(setup), inFlight: 0, totals: null }
    entry.worker.on('message', (reply: BatchWorkerReply) => {
      if (reply.kind === 'totals') {
        entry.totals?.resolve(reply.totals)
        return
      }
      entry.inFlight--
      const assigned = this.#assigned.get(reply.batch.index)
      if (assigned !== undefined) {
        const bytes = reply.overflow ?? this.#slots[assigned.slot]!.subarray(0, reply.textLength)
        assigned.batch.resolve({ ...reply.batch, bytes })
      }
      if (this.#failure === null) this.#assign()
    })
    entry.worker.on('error', (error) => this.#fail(error))
    entry.worker.on('exit', (code) => {
      if (!this.#closing) this.#fail(new Error(`a generator worker thread stopped (exit code ${code})`))
    })
    return entry
  }

  /** Asks idle workers for the next batches, in order, while text slots are free. */
  #assign(): void {
    this.#throwIfFailed()
    while (this.#next < this.#batchCount && this.#freeSlots.length > 0) {
      let idlest: PoolWorker | undefined
      for (const entry of this.#workers)
        if (entry.inFlight < IN_FLIGHT && (idlest === undefined || entry.inFlight < idlest.inFlight))
          idlest = entry
      if (idlest === undefined) return
      const slot = this.#freeSlots.pop()!
      const request: BatchWorkerRequest = { kind: 'batch', index: this.#next, slot }
      this.#assigned.set(this.#next, { slot, batch: defer<WorkBatch>() })
      idlest.inFlight++
      idlest.worker.postMessage(request)
      this.#next++
    }
  }

  #fail(error: unknown): void {
    if (this.#failure !== null) return
    this.#failure = error
    for (const { batch } of this.#assigned.values()) batch.reject(error)
    for (const { totals } of this.#workers) totals?.reject(error)
  }

  #throwIfFailed(): void {
    if (this.#failure !== null) throw this.#failure
  }
}

/**
 * Starts work-batch-worker. Built JavaScript (dist/, what `oqlkit` runs) starts the module itself. From the
 * TypeScript source (tests and scripts, which run in this repository under tsx) a worker does not inherit the
 * main thread's loader: the repository's boot module (scripts/source-worker-boot.mjs) runs the worker's module
 * bundled into JavaScript, the sibling packages resolved to their source as on the main thread.
 */
function startBatchWorker(setup: BatchWorkerSetup): Worker {
  const here = import.meta.url
  if (!here.endsWith('.ts')) return new Worker(new URL('./work-batch-worker.js', here), { workerData: setup })
  const entry = new URL('./work-batch-worker.ts', here).href
  return new Worker(new URL('../../../../scripts/source-worker-boot.mjs', here), {
    workerData: { ...setup, entry },
    execArgv: ['--conditions=@oqlkit/source'],
  })
}
