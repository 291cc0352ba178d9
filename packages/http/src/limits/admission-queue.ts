import { QueryInterruptedError } from '@oqlkit/engine'
import { ApiError } from '../errors/api-error.ts'

interface Waiting {
  readonly admit: () => void
}

/**
 * A bounded admission queue for one class of storage work (heavy plans; exports): at most `slots` run at once,
 * at most `queueLength` wait for a slot, and a caller that finds the queue full is refused at once (503
 * `server_busy`) rather than left to wait behind work that may take the whole time budget. A waiting caller
 * leaves the queue when its signal fires: at its deadline with 503 `server_busy` too (it never ran, so the
 * query is not too expensive, the server is too busy), at a shutdown with the interrupt of the shutdown. Work
 * of another class never passes through here, so it cannot take these slots, nor these work its slots.
 */
export class AdmissionQueue {
  readonly slots: number
  readonly queueLength: number
  /** What runs through this queue, as a refusal names it ("searches, group-bys and samples"). */
  readonly work: string
  #running = 0
  readonly #waiting: Waiting[] = []

  constructor(slots: number, queueLength: number, work = 'searches, group-bys and samples') {
    if (!Number.isSafeInteger(slots) || slots < 1)
      throw new RangeError(`slots must be 1 or more (was ${slots})`)
    if (!Number.isSafeInteger(queueLength) || queueLength < 0)
      throw new RangeError(`queueLength must be 0 or more (was ${queueLength})`)
    this.slots = slots
    this.queueLength = queueLength
    this.work = work
  }

  /** Work running, and waiting for a slot. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length }
  }

  /**
   * Throws the 503 `server_busy` a caller would get now because every slot and place in line is taken: for
   * work that must spend something (a first storage call) before it asks for its slot.
   */
  refuseIfFull(): void {
    if (this.#running >= this.slots && this.#waiting.length >= this.queueLength) throw busyError(this, 'full')
  }

  /** Runs `work` in a slot, once one is free. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#enter(signal)
    try {
      return await work()
    } finally {
      this.#leave()
    }
  }

  /**
   * Takes a slot for work that outlives one call (an export's stream): resolves, once a slot is free, with the
   * function that gives it back (a second call does nothing).
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    await this.#enter(signal)
    let held = true
    return () => {
      if (!held) return
      held = false
      this.#leave()
    }
  }

  #enter(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(QueryInterruptedError.of(signal))
    if (this.#running < this.slots) {
      this.#running++
      return Promise.resolve()
    }
    if (this.#waiting.length >= this.queueLength) return Promise.reject(busyError(this, 'full'))
    return new Promise((resolve, reject) => {
      const leave = () => {
        const index = this.#waiting.indexOf(waiting)
        if (index !== -1) this.#waiting.splice(index, 1)
        const interrupted = QueryInterruptedError.of(signal!)
        reject(interrupted.reason === 'shutdown' ? interrupted : busyError(this, 'waited'))
      }
      const waiting: Waiting = {
        admit: () => {
          signal?.removeEventListener('abort', leave)
          resolve()
        },
      }
      signal?.addEventListener('abort', leave, { once: true })
      this.#waiting.push(waiting)
    })
  }

  // The slot passes straight to the next in line, so a newcomer cannot overtake it.
  #leave(): void {
    const next = this.#waiting.shift()
    if (next !== undefined) next.admit()
    else this.#running--
  }
}

/** Seconds a refused caller is told to wait: about the time one heavy query of this server takes. */
const BUSY_RETRY_SECONDS = 2

/** The 503 of a caller refused because the line was full, or because its deadline came while it waited. */
const busyError = (queue: AdmissionQueue, why: 'full' | 'waited'): ApiError =>
  new ApiError(
    503,
    [
      {
        error: 'server_busy',
        message: `The server is running as many ${queue.work} as it takes (${queue.slots} at once, ${queue.queueLength} waiting)${why === 'waited' ? ', and no slot came free before this request’s deadline' : ''}. Retry after ${BUSY_RETRY_SECONDS} s; lists without search and single entities are still answered.`,
      },
    ],
    { 'retry-after': String(BUSY_RETRY_SECONDS) },
  )
