/**
 * What a caller may spend, as the store checks it: the daily budget and the prepaid pool (credited
 * amount and expiry). Amounts in whole micro-dollars (see `toMicroUsd`).
 */
export interface Allowance {
  readonly dailyBudgetMicroUsd: number
  readonly prepaidMicroUsd: number
  /** When the prepaid pool stops being usable (epoch ms), or null for never. */
  readonly prepaidExpiresAtMs: number | null
}

/** The request-rate rule: at most `requests` accepted requests within any `windowMs` milliseconds. */
export interface RateRule {
  readonly requests: number
  readonly windowMs: number
}

/** One call to pay for. */
export interface ChargeRequest {
  /** Who pays: `key:<sha256>` for a key, `ip:<address>` for a caller without one (see `subjectOf`). */
  readonly subject: string
  readonly costMicroUsd: number
  readonly allowance: Allowance
  readonly rate: RateRule
  /** The caller's clock (epoch ms). A store may use a clock of its own that all servers share. */
  readonly nowMs: number
  /** Unique per request: a rate window counts requests by it. */
  readonly requestId: string
}

/** A subject's spending: the daily amount belongs to `day` (a UTC day number, `utcDayOf`). */
export interface MeterCounters {
  readonly day: number
  readonly dailyUsedMicroUsd: number
  readonly prepaidUsedMicroUsd: number
}

/** What an accepted call took from each pool; a refund gives exactly this back. */
export interface ChargeReceipt {
  readonly subject: string
  readonly day: number
  readonly dailyMicroUsd: number
  readonly prepaidMicroUsd: number
}

export type RejectionReason = 'rate_limited' | 'budget_exhausted'

/** The answer of a check-and-charge; `counters` and `nowMs` are as the store saw them (after the charge). */
export type ChargeOutcome =
  | {
      readonly ok: true
      readonly receipt: ChargeReceipt
      readonly counters: MeterCounters
      readonly nowMs: number
    }
  | {
      readonly ok: false
      readonly reason: RejectionReason
      /** When the call could succeed: the window frees a slot, or the budget refills at midnight UTC. */
      readonly retryAfterMs: number
      readonly counters: MeterCounters
      readonly nowMs: number
    }

/** A subject's counters read at a moment (the store's clock). */
export interface MeterReading {
  readonly counters: MeterCounters
  readonly nowMs: number
}

/**
 * Budgets and request rates. `charge` is the one operation that matters: it checks the rate window
 * and the budget and records the call, atomically, so concurrent calls (and several server processes
 * sharing a store) can never spend more than the allowance, and a rejected call changes nothing.
 * Every store applies the same rule, `decideCharge`; `describeMeterStoreConformance` (in
 * `@oqlkit/engine/testing`) checks that they do.
 */
export interface MeterStore {
  /** Resolves once the charge is durable: an acknowledged charge survives a crash. */
  charge(request: ChargeRequest): Promise<ChargeOutcome>
  /** Gives a receipt back (a call that failed after it was charged); the daily part only on its own day. */
  refund(receipt: ChargeReceipt, nowMs: number): Promise<MeterReading>
  read(subject: string, nowMs: number): Promise<MeterReading>
  close(): Promise<void>
}
