import { AsyncLocalStorage } from 'node:async_hooks'
import { setMaxListeners } from 'node:events'
import {
  isQueryInterruptedError,
  type QueryOptions,
  type StorageAdapter,
  settlesWithin,
  workloadOfPlan,
} from '@oqlkit/engine'
import type { Middleware } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { AdmissionQueue } from './admission-queue.ts'

/** A bulk lookup of more ids than this is heavy work (`POST /{entities}/lookup`): as many records as a full page. */
const LIGHT_LOOKUP_KEYS = 200

/** What a server allows one request and its heavy work. */
export interface RequestLimitsOptions {
  /** The time budget of one request's storage work, in ms (default 10 s). */
  readonly queryTimeoutMs?: number
  /** Heavy plans (searches, group-bys, samples) that may run at once (default 2: a slot per core here). */
  readonly heavySlots?: number
  /** Heavy plans that may wait for a slot; more are refused with 503 at once (default 4 per slot). */
  readonly heavyQueue?: number
  /**
   * Exports that may stream at once (default 2). They have slots of their own, apart from the heavy plans':
   * an export holds its slot for as long as its client reads, and must never keep a search waiting.
   */
  readonly exportSlots?: number
  /** Exports that may wait for a slot; more are refused with 503 at once (default 4 per slot). */
  readonly exportQueue?: number
}

/** Exports that may stream at once unless a server says otherwise. */
export const DEFAULT_EXPORT_SLOTS = 2

export const DEFAULT_QUERY_TIMEOUT_MS = 10_000

/** Storage calls of one request that may listen to its signal at once before Node warns of a leak. */
const MAX_STORAGE_CALLS_LISTENING = 256

/** What the storage calls of one request share: its signal. */
interface RequestScope {
  readonly signal: AbortSignal
}

/**
 * The limits of a server's requests, shared by every route: each request gets a deadline (its signal fires
 * when `queryTimeoutMs` has passed, or at once when the server shuts down), heavy plans pass through a
 * bounded admission queue and exports through one of their own (a wait for a slot ends at the request's
 * deadline, with 503 `server_busy`), and a shutdown waits for requests in flight. `createApp` puts the middleware in
 * front of every route and gives the handlers `adapter(…)`, whose every storage call carries the signal of
 * the request it runs for; `oqlkit serve` calls `shutdown` on SIGTERM.
 */
export class RequestLimits {
  readonly queryTimeoutMs: number
  /** Searches, group-bys and samples. */
  readonly admission: AdmissionQueue
  /** Exports, from their first row sent to their last: apart from `admission`, so they never take its slots. */
  readonly exportAdmission: AdmissionQueue
  /**
   * Parquet conversions, one at a time: each holds a DuckDB of about 400 MB however small it is told to be
   * (measured; a smaller memory limit fails), so the exports that may run at once converting side by side put
   * a server past 1.5 GB. An export that converts holds an export slot, so every one of them finds a place in
   * line and none is refused; it waits, while its client waits for the file either way.
   */
  readonly parquetConversions: AdmissionQueue
  readonly #scope = new AsyncLocalStorage<RequestScope>()
  /** Each request in flight, with what stops its storage work. */
  readonly #inFlight = new Map<Promise<unknown>, AbortController>()
  /**
   * What answers each request whose handler is still running 503 at once, without waiting for it: a shutdown
   * calls them for the requests its interrupt did not end in time, so each gets a status line before the
   * server's sockets close (a native statement may ignore its interrupt for a long while).
   */
  readonly #giveUp = new Set<() => void>()
  #draining = false

  constructor(options: RequestLimitsOptions = {}) {
    this.queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS
    if (!Number.isFinite(this.queryTimeoutMs) || this.queryTimeoutMs <= 0)
      throw new RangeError(`queryTimeoutMs must be a positive number (was ${this.queryTimeoutMs})`)
    const slots = options.heavySlots ?? 2
    this.admission = new AdmissionQueue(slots, options.heavyQueue ?? slots * 4)
    const exportSlots = options.exportSlots ?? DEFAULT_EXPORT_SLOTS
    this.exportAdmission = new AdmissionQueue(exportSlots, options.exportQueue ?? exportSlots * 4, 'exports')
    this.parquetConversions = new AdmissionQueue(1, exportSlots, 'Parquet conversions')
  }

  /**
   * The signal of the request being answered: it fires at the request's deadline or at a shutdown. Undefined
   * outside a request (start-up, tests).
   */
  requestSignal(): AbortSignal | undefined {
    return this.#scope.getStore()?.signal
  }

  /**
   * Runs storage work for `plan` as the current request's: a heavy plan waits for a heavy slot first, for no
   * longer than `signal` allows (by default the request's own: its deadline), light work runs at once.
   */
  runPlan<T>(
    plan: Parameters<StorageAdapter['queryRows']>[0],
    work: () => Promise<T>,
    signal: AbortSignal | undefined = this.requestSignal(),
  ): Promise<T> {
    return workloadOfPlan(plan) === 'heavy' ? this.admission.run(work, signal) : work()
  }

  /** Requests being answered. */
  get inFlight(): number {
    return this.#inFlight.size
  }

  /** The middleware: refuses requests once shutting down, and runs every other one in its own scope. */
  readonly middleware: Middleware = async (_event, next) => {
    if (this.#draining)
      throw new ApiError(
        503,
        [{ error: 'shutting_down', message: 'The server is shutting down. Retry in a few seconds.' }],
        { 'retry-after': '5', connection: 'close' },
      )
    // One controller per request, fired by its deadline or by a shutdown (an abort reason of 'shutdown').
    const stop = new AbortController()
    // Every storage call of the request listens to it while it runs, and one request (autocomplete, group
    // labels) may make dozens at once: more than Node's default of 10 is expected here, not a leak.
    setMaxListeners(MAX_STORAGE_CALLS_LISTENING, stop.signal)
    const deadline = setTimeout(
      () => stop.abort(new DOMException('deadline', 'TimeoutError')),
      this.queryTimeoutMs,
    )
    const answer = this.#scope.run({ signal: stop.signal }, () => Promise.resolve(next()))
    this.#inFlight.set(answer, stop)
    // Given up on by a shutdown: the 503 is answered now; the handler's own end, later, is dropped (the race
    // below has handled it).
    let giveUp: () => void = () => {}
    const givenUp = new Promise<never>((_, reject) => {
      giveUp = () => reject(this.#interruptedError('shutdown'))
    })
    this.#giveUp.add(giveUp)
    try {
      return await Promise.race([answer, givenUp])
    } catch (error) {
      throw isQueryInterruptedError(error) ? this.#interruptedError(error.reason) : error
    } finally {
      clearTimeout(deadline)
      this.#inFlight.delete(answer)
      this.#giveUp.delete(giveUp)
    }
  }

  /**
   * The adapter as the handlers use it: each call carries the current request's signal, and heavy plans run
   * through the admission queue. Outside a request (start-up, tests) calls pass through unchanged.
   */
  adapter(adapter: StorageAdapter): StorageAdapter {
    const optionsNow = (): QueryOptions => {
      const scope = this.#scope.getStore()
      return scope === undefined ? {} : { signal: scope.signal }
    }
    const admitted = <T>(
      plan: Parameters<StorageAdapter['queryRows']>[0],
      work: (options: QueryOptions) => Promise<T>,
    ) => {
      const options = optionsNow()
      return this.runPlan(plan, () => work(options), options.signal)
    }
    /**
     * Lookups by id: a long list reads as much as a heavy page, and waits for a heavy slot as one does; a short
     * one runs at once, as a single lookup.
     */
    const byIds = <T>(count: number, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> =>
      count > LIGHT_LOOKUP_KEYS ? this.admission.run(work, signal) : work()
    const { autocomplete, findCitations, findHeldWorks, findMany, sumColumns } = adapter
    const members: { readonly [K in keyof StorageAdapter]-?: StorageAdapter[K] | undefined } = {
      capabilities: adapter.capabilities,
      queryRows: (plan) => admitted(plan, (options) => adapter.queryRows(plan, options)),
      queryGroups: (plan) => admitted(plan, (options) => adapter.queryGroups(plan, options)),
      sumColumns:
        sumColumns === undefined
          ? undefined
          : (plan) => admitted(plan, (options) => sumColumns.call(adapter, plan, options)),
      findById: (entity, id) => adapter.findById(entity, id, optionsNow()),
      findByExternalId: (entity, scheme, value) =>
        adapter.findByExternalId(entity, scheme, value, optionsNow()),
      findMany:
        findMany === undefined
          ? undefined
          : (entity, keys, asked) => {
              const options = {
                ...(asked?.fields === undefined ? {} : { fields: asked.fields }),
                ...optionsNow(),
              }
              return byIds(keys.length, options.signal, () => findMany.call(adapter, entity, keys, options))
            },
      findCitations:
        findCitations === undefined
          ? undefined
          : (ids, direction) => {
              const options = optionsNow()
              // A citation lookup reads a link table whose size grows with the catalog: heavy work, as a search.
              return this.admission.run(
                () => findCitations.call(adapter, ids, direction, options),
                options.signal,
              )
            },
      findHeldWorks:
        findHeldWorks === undefined
          ? undefined
          : (ids) => {
              const options = optionsNow()
              return byIds(ids.length, options.signal, () => findHeldWorks.call(adapter, ids, options))
            },
      findRandom: (entity) => adapter.findRandom(entity, optionsNow()),
      autocomplete:
        autocomplete === undefined
          ? undefined
          : (request) => autocomplete.call(adapter, request, optionsNow()),
      close: () => adapter.close(),
    }
    return Object.fromEntries(
      Object.entries(members).filter(([, member]) => member !== undefined),
    ) as unknown as StorageAdapter
  }

  /**
   * Keeps a server's shutdown waiting for work that goes on after its request's handler answered (an export's
   * rows, streamed after the headers), and interrupting it with `stop` when the grace period is over.
   * `finished` settles when that work is over.
   */
  holdOpen(stop: AbortController, finished: Promise<unknown>): void {
    const settled = finished.then(
      () => {},
      () => {},
    )
    this.#inFlight.set(settled, stop)
    void settled.finally(() => this.#inFlight.delete(settled))
  }

  /** Whether the server is shutting down (no new request is taken). */
  get draining(): boolean {
    return this.#draining
  }

  /**
   * Stops taking requests (each new one is a 503), lets those in flight finish for up to `graceMs`, then
   * interrupts the storage work of the rest, which answer 503, and waits up to `interruptMs` for them. A
   * request whose handler has not ended by then (its statement ignored the interrupt) is answered 503
   * `shutting_down` at once, without it. Resolves when every request has its answer: only the bodies of
   * exports already streaming may still be flowing, and the server's close cuts them off.
   */
  async shutdown(graceMs: number, interruptMs = graceMs): Promise<void> {
    this.#draining = true
    const settled = () => Promise.allSettled([...this.#inFlight.keys()])
    if (await settlesWithin(settled(), graceMs)) return
    for (const stop of this.#inFlight.values()) stop.abort('shutdown')
    if (await settlesWithin(settled(), interruptMs)) return
    for (const giveUp of [...this.#giveUp]) giveUp()
  }

  #interruptedError(reason: 'deadline' | 'shutdown'): ApiError {
    if (reason === 'shutdown')
      return new ApiError(
        503,
        [
          {
            error: 'shutting_down',
            message: 'The server shut down while this query ran, and stopped it. Retry in a few seconds.',
          },
        ],
        { 'retry-after': '5', connection: 'close' },
      )
    const seconds = this.queryTimeoutMs / 1000
    return new ApiError(
      503,
      [
        {
          error: 'query_timeout',
          message: `The query ran past the ${seconds} s this server gives one request, and was stopped: it is too expensive as asked. Narrow it: add filters (a year, a type, an id), search fewer or more specific words, group by a field with fewer values, or page with a cursor instead of a deep page.`,
        },
      ],
      { 'retry-after': String(Math.max(1, Math.ceil(seconds))) },
    )
  }
}
