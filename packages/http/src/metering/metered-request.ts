import type { Allowance, Caller, MeterCounters } from '@oqlkit/engine'
import type { H3Event } from 'h3'

/** What the metering middleware settled for a request, for the handlers after it. */
export interface MeteredRequest {
  readonly caller: Caller
  readonly allowance: Allowance
  /** The subject's counters after this request was charged, and the store's moment. */
  readonly counters: MeterCounters
  readonly nowMs: number
  readonly costUsd: number
  /**
   * Charges the caller more for this request, once its handler knows the price (an export, from its row
   * count), in the same atomic check as any charge: undefined when charged, or the 429 to answer when the
   * budget cannot pay (nothing is charged then). The response's X-RateLimit headers include it, and a failed
   * response (400 and up) refunds it with the rest.
   */
  readonly chargeMore: (costUsd: number) => Promise<Response | undefined>
  /** Gives back what `chargeMore` took: the request failed after its headers were sent. */
  readonly refundMore: () => Promise<void>
}

const metered = new WeakMap<H3Event, MeteredRequest>()

export const setMeteredRequest = (event: H3Event, request: MeteredRequest): void => {
  metered.set(event, request)
}

/** The metering facts of a request, or undefined when the app is not metered. */
export const meteredRequestOf = (event: H3Event): MeteredRequest | undefined => metered.get(event)

/**
 * Who sent a request: a key's holder (with `key.userId` and `key.admin`) or an anonymous address.
 * Undefined when the app runs without metering. A request with an invalid key never reaches a
 * handler (401), so a handler that needs a key only checks `kind === 'key'`.
 */
export const callerOf = (event: H3Event): Caller | undefined => metered.get(event)?.caller
