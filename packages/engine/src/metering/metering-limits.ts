import type { CostClass } from '../cost/request-cost.ts'
import type { RateRule } from './meter-store.ts'

/**
 * The limits of the API description (Limits table): what a caller may spend per UTC day and how many
 * requests it may send per second. The server can be given other values (tests shrink them), so every
 * rule reads them from a `MeteringLimits` rather than from these constants directly.
 */
export interface MeteringLimits {
  /** The daily budget of a caller without a key, per client address. */
  readonly anonymousDailyBudgetUsd: number
  /** The daily budget of a key that does not state its own. */
  readonly keyDailyBudgetUsd: number
  /** Accepted requests per caller within one sliding window. */
  readonly requestsPerWindow: number
  /** The length of that window, in milliseconds. */
  readonly rateWindowMs: number
  /**
   * Extra windows for expensive price classes, per caller and class, on top of the general one. The API
   * description sets one for text tagging only (1 request per second); semantic search is priced higher
   * than a list but limited by the general rate and the budget alone.
   */
  readonly classRates: Readonly<Partial<Record<CostClass, RateRule>>>
}

export const DEFAULT_METERING_LIMITS: MeteringLimits = Object.freeze({
  anonymousDailyBudgetUsd: 0.1,
  keyDailyBudgetUsd: 1,
  requestsPerWindow: 100,
  rateWindowMs: 1000,
  classRates: Object.freeze({
    text: Object.freeze({ requests: 1, windowMs: 1000 }),
  }),
})

/**
 * Money is counted in whole micro-dollars (1e-6 USD): the prices (0.0001, 0.001, 0.01) and budgets are
 * whole numbers of them, so sums are exact in JavaScript, in Lua (doubles) and in Redis (integers)
 * alike, and two stores can never disagree by a rounding.
 */
export const MICRO_USD_PER_USD = 1_000_000

/** US dollars as whole micro-dollars (rounded to the nearest). */
export const toMicroUsd = (usd: number): number => Math.round(usd * MICRO_USD_PER_USD)

/** Whole micro-dollars as US dollars (exact for the sums the meter makes). */
export const fromMicroUsd = (microUsd: number): number => microUsd / MICRO_USD_PER_USD

export const MS_PER_DAY = 86_400_000

/** The UTC day of a moment, as whole days since 1970-01-01: budgets belong to one such day. */
export const utcDayOf = (nowMs: number): number => Math.floor(nowMs / MS_PER_DAY)

/** The next midnight UTC after a moment, when daily budgets refill. */
export const nextUtcMidnightMs = (nowMs: number): number => (utcDayOf(nowMs) + 1) * MS_PER_DAY

/** Whole seconds until the next midnight UTC (at least 1: a client told 0 would retry at once). */
export const secondsUntilUtcMidnight = (nowMs: number): number =>
  Math.max(1, Math.ceil((nextUtcMidnightMs(nowMs) - nowMs) / 1000))
