import type { KeyStore, MeteringLimits, MeterStore } from '@oqlkit/engine'

/** What `createApp` needs to meter the API: where keys and budgets live, and the rules' numbers. */
export interface MeteringOptions {
  readonly keys: KeyStore
  readonly meter: MeterStore
  /** Budgets and the request rate (default `DEFAULT_METERING_LIMITS`: $0.10, $1, 100 per second). */
  readonly limits?: MeteringLimits
  /** The clock budgets and windows are kept by (default `Date.now`); a store may use its own instead. */
  readonly clock?: () => number
  /**
   * Take a caller's address from the first `X-Forwarded-For` entry. Only behind a proxy that sets that
   * header itself: otherwise any client could claim a fresh address, and a fresh anonymous budget, per call.
   */
  readonly trustProxy?: boolean
}
