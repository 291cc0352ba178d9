import { countersOn, prepaidAvailableMicroUsd } from './charge-decision.ts'
import type { Allowance, MeterCounters } from './meter-store.ts'
import { fromMicroUsd, nextUtcMidnightMs, secondsUntilUtcMidnight, utcDayOf } from './metering-limits.ts'

/** A caller's spending at a moment, in US dollars: what `/rate-limit` and the X-RateLimit headers report. */
export interface UsageSummary {
  readonly dailyBudgetUsd: number
  readonly dailyUsedUsd: number
  readonly dailyRemainingUsd: number
  /** The prepaid amount credited to the key. */
  readonly prepaidBalanceUsd: number
  /** What is left of it and still usable (0 once expired). */
  readonly prepaidRemainingUsd: number
  readonly prepaidExpiresAt: string | null
  /** The next midnight UTC, ISO 8601. */
  readonly resetsAt: string
  readonly resetsInSeconds: number
  /** What the caller can still spend now: the daily remainder and the usable prepaid remainder. */
  readonly spendableUsd: number
}

/** The summary of a caller's counters (as a store read them, at the store's `nowMs`). */
export const usageSummary = (allowance: Allowance, stored: MeterCounters, nowMs: number): UsageSummary => {
  const counters = countersOn(stored, utcDayOf(nowMs))
  const dailyRemainingMicroUsd = Math.max(0, allowance.dailyBudgetMicroUsd - counters.dailyUsedMicroUsd)
  const prepaidRemainingMicroUsd = prepaidAvailableMicroUsd(allowance, counters, nowMs)
  return {
    dailyBudgetUsd: fromMicroUsd(allowance.dailyBudgetMicroUsd),
    dailyUsedUsd: fromMicroUsd(counters.dailyUsedMicroUsd),
    dailyRemainingUsd: fromMicroUsd(dailyRemainingMicroUsd),
    prepaidBalanceUsd: fromMicroUsd(allowance.prepaidMicroUsd),
    prepaidRemainingUsd: fromMicroUsd(prepaidRemainingMicroUsd),
    prepaidExpiresAt:
      allowance.prepaidExpiresAtMs === null ? null : new Date(allowance.prepaidExpiresAtMs).toISOString(),
    resetsAt: new Date(nextUtcMidnightMs(nowMs)).toISOString(),
    resetsInSeconds: secondsUntilUtcMidnight(nowMs),
    spendableUsd: fromMicroUsd(dailyRemainingMicroUsd + prepaidRemainingMicroUsd),
  }
}
