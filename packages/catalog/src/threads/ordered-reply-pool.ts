// Worker threads that each answer their requests in the order sent: requests go to the workers in turn, and
// each reply settles the oldest request its worker holds, so callers get their answers whichever worker is
// faster. A worker that fails or exits fails what it holds and whatever is sent to it afterwards, at once
// rather than never. Closing sends each worker its stop request and waits for it to exit, terminating one that
// overstays. The record texts readers and the works' embedding run on it.
import type { TransferListItem, Worker } from 'node:worker_threads'
import { stopWorker } from './worker-stop.ts'

interface Waiting<Value> {
  readonly resolve: (value: Value) => void
  readonly reject: (error: Error) => void
}

interface PoolWorker<Value> {
  readonly worker: Worker
  readonly waiting: Waiting<Value>[]
  readonly exited: Promise<unknown>
  failure: Error | undefined
}

export interface OrderedReplyPoolOptions<Request, Reply, Value> {
  /** Starts worker `index` of the pool. */
  readonly start: (index: number) => Worker
  /** The request that asks a worker to stop once it has answered what it holds. */
  readonly stop: Request
  /** A reply's value, or the error it reports. */
  readonly settle: (reply: Reply) => Value | Error
  /** What a worker is, for the error of one that stopped: `a texts reader thread`. */
  readonly name: string
}

export class OrderedReplyPool<Request, Reply, Value> {
  readonly #workers: PoolWorker<Value>[] = []
  readonly #stop: Request
  #next = 0

  /** `count` workers, at least one. */
  constructor(count: number, options: OrderedReplyPoolOptions<Request, Reply, Value>) {
    this.#stop = options.stop
    for (let index = 0; index < Math.max(1, count); index++) {
      const worker = options.start(index)
      const entry: PoolWorker<Value> = {
        worker,
        waiting: [],
        exited: new Promise((resolve) => worker.once('exit', resolve)),
        failure: undefined,
      }
      const failAll = (error: Error) => {
        entry.failure ??= error
        for (const waiting of entry.waiting.splice(0)) waiting.reject(error)
      }
      worker.on('message', (reply: Reply) => {
        const waiting = entry.waiting.shift()
        const value = options.settle(reply)
        if (value instanceof Error) waiting?.reject(value)
        else waiting?.resolve(value)
      })
      worker.on('error', failAll)
      worker.on('exit', (code) => failAll(new Error(`${options.name} stopped with exit code ${code}`)))
      this.#workers.push(entry)
    }
  }

  get size(): number {
    return this.#workers.length
  }

  /** Sends `request` to the next worker in turn; its reply's value, in the order that worker was asked. */
  ask(request: Request, transfer: readonly TransferListItem[] = []): Promise<Value> {
    const entry = this.#workers[this.#next++ % this.#workers.length]!
    if (entry.failure !== undefined) return Promise.reject(entry.failure)
    const value = new Promise<Value>((resolve, reject) => entry.waiting.push({ resolve, reject }))
    entry.worker.postMessage(request, [...transfer])
    return value
  }

  /** Stops the workers once they have answered what they were sent. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map(({ worker, exited }) => stopWorker(worker, exited, this.#stop)))
  }
}
