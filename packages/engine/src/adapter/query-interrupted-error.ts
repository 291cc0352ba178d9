import { namedErrorGuard } from '../errors/named-error-guard.ts'
/** Why a running query was stopped: its request's time budget ran out, or the server is shutting down. */
export type InterruptReason = 'deadline' | 'shutdown'

/**
 * A query an adapter stopped because the caller's `AbortSignal` fired: the storage work was interrupted and
 * its resources given back. Not a fault of the server: the HTTP layer answers 503 with `Retry-After`. The
 * reason is the signal's: an abort with `'shutdown'` as its reason is a shutdown, anything else a deadline.
 */
export class QueryInterruptedError extends Error {
  override readonly name = 'QueryInterruptedError'
  constructor(readonly reason: InterruptReason) {
    super(
      reason === 'shutdown'
        ? 'The query was stopped because the server is shutting down'
        : 'The query was stopped because it ran past its time budget',
    )
  }

  /** The error for a signal that has fired. */
  static of(signal: AbortSignal): QueryInterruptedError {
    return new QueryInterruptedError(signal.reason === 'shutdown' ? 'shutdown' : 'deadline')
  }
}

/** True for a `QueryInterruptedError`, also from another copy of this package (checks the name). */
export const isQueryInterruptedError = namedErrorGuard<QueryInterruptedError>('QueryInterruptedError')

/** Throws the `QueryInterruptedError` of a signal that has fired; a check between steps of long work. */
export const throwIfInterrupted = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted === true) throw QueryInterruptedError.of(signal)
}
