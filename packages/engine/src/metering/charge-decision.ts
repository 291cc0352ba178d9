import type { Allowance, ChargeRequest, MeterCounters, RejectionReason } from './meter-store.ts'
import { nextUtcMidnightMs, utcDayOf } from './metering-limits.ts'

/** A subject's counters as of a day: yesterday's daily spending no longer counts. */
export const countersOn = (counters: MeterCounters | undefined, day: number): MeterCounters =>
  counters === undefined
    ? { day, dailyUsedMicroUsd: 0, prepaidUsedMicroUsd: 0 }
    : counters.day === day
      ? counters
      : { day, dailyUsedMicroUsd: 0, prepaidUsedMicroUsd: counters.prepaidUsedMicroUsd }

/** The prepaid amount still usable at a moment: nothing once expired. */
export const prepaidAvailableMicroUsd = (
  allowance: Allowance,
  counters: MeterCounters,
  nowMs: number,
): number =>
  allowance.prepaidExpiresAtMs !== null && nowMs >= allowance.prepaidExpiresAtMs
    ? 0
    : Math.max(0, allowance.prepaidMicroUsd - counters.prepaidUsedMicroUsd)

/** The accepted requests of a subject's sliding window, as a store keeps them. */
export interface RateWindowState {
  /** Requests accepted in (now - windowMs, now]. */
  readonly count: number
  /** When the oldest of them was accepted (epoch ms), or null when there is none. */
  readonly oldestMs: number | null
}

export type ChargeDecision =
  | {
      readonly kind: 'accept'
      readonly dailyMicroUsd: number
      readonly prepaidMicroUsd: number
      /** The counters after the charge. */
      readonly counters: MeterCounters
    }
  | {
      readonly kind: 'reject'
      readonly reason: RejectionReason
      readonly retryAfterMs: number
      readonly counters: MeterCounters
    }

/**
 * The metering rule, in one place: every store applies it (the Redis store as a Lua transcription,
 * checked against this by the shared conformance suite).
 *
 * 1. Rate: with `rate.requests` calls already accepted in the last `rate.windowMs`, the call is
 *    rejected until the oldest of them leaves the window.
 * 2. Budget: the cost is taken from what is left of the daily budget, and the rest from the prepaid
 *    pool (unless expired); if the prepaid pool cannot cover the rest, the call is rejected until
 *    midnight UTC, when the daily budget refills. A cost of 0 always passes.
 * 3. A rejected call changes nothing, neither the counters nor the window.
 *
 * `counters` are the stored ones (any day; rolled to today here) and `window` the state of the
 * window after dropping requests at or before `nowMs - rate.windowMs`.
 */
export const decideCharge = (
  stored: MeterCounters | undefined,
  window: RateWindowState,
  request: Pick<ChargeRequest, 'costMicroUsd' | 'allowance' | 'rate'>,
  nowMs: number,
): ChargeDecision => {
  const counters = countersOn(stored, utcDayOf(nowMs))
  if (window.count >= request.rate.requests)
    return {
      kind: 'reject',
      reason: 'rate_limited',
      retryAfterMs: Math.max(1, (window.oldestMs ?? nowMs) + request.rate.windowMs - nowMs),
      counters,
    }
  const cost = request.costMicroUsd
  const dailyRemaining = Math.max(0, request.allowance.dailyBudgetMicroUsd - counters.dailyUsedMicroUsd)
  const dailyPart = Math.min(cost, dailyRemaining)
  const prepaidPart = cost - dailyPart
  if (prepaidPart > prepaidAvailableMicroUsd(request.allowance, counters, nowMs))
    return {
      kind: 'reject',
      reason: 'budget_exhausted',
      retryAfterMs: Math.max(1, nextUtcMidnightMs(nowMs) - nowMs),
      counters,
    }
  return {
    kind: 'accept',
    dailyMicroUsd: dailyPart,
    prepaidMicroUsd: prepaidPart,
    counters: {
      day: counters.day,
      dailyUsedMicroUsd: counters.dailyUsedMicroUsd + dailyPart,
      prepaidUsedMicroUsd: counters.prepaidUsedMicroUsd + prepaidPart,
    },
  }
}

/** Counters after a refund of a receipt: the daily part only on the receipt's own day. */
export const refundCounters = (
  counters: MeterCounters,
  receipt: { readonly day: number; readonly dailyMicroUsd: number; readonly prepaidMicroUsd: number },
): MeterCounters => ({
  day: counters.day,
  dailyUsedMicroUsd:
    counters.day === receipt.day
      ? Math.max(0, counters.dailyUsedMicroUsd - receipt.dailyMicroUsd)
      : counters.dailyUsedMicroUsd,
  prepaidUsedMicroUsd: Math.max(0, counters.prepaidUsedMicroUsd - receipt.prepaidMicroUsd),
})
