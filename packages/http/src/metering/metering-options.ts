import type { KeyStore, MeteringLimits, MeterStore } from '@oqlkit/engine'
import type { ProxyTrust } from '../server/proxy-trust.ts'

/** What `createApp` needs to meter the API: where keys and budgets live, and the rules' numbers. */
export interface MeteringOptions {
  readonly keys: KeyStore
  readonly meter: MeterStore
  /** Budgets and the request rate (default `DEFAULT_METERING_LIMITS`: $0.10, $1, 100 per second). */
  readonly limits?: MeteringLimits
  /** The clock budgets and windows are kept by (default `Date.now`); a store may use its own instead. */
  readonly clock?: () => number
  /**
   * Which proxies to believe about a caller's address (`readProxyTrust('10.0.0.0/8')`, `readProxyTrust('1')`):
   * the right-most `X-Forwarded-For` entry not from a trusted proxy is the caller; without, the socket's peer.
   * `true` takes the left-most entry, only for a proxy that overwrites the header itself (and for tests):
   * otherwise any client could claim a fresh address, and a fresh anonymous budget, per call.
   * `createApp({trustProxy})` sets it for the whole app.
   */
  readonly trustProxy?: ProxyTrust | boolean
}
