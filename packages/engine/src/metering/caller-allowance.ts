import type { ApiKeyRecord } from './api-key.ts'
import type { Allowance } from './meter-store.ts'
import { type MeteringLimits, toMicroUsd } from './metering-limits.ts'

/** Who sends a request: a key's holder, or a client without a key, known by its address. */
export type Caller =
  | { readonly kind: 'key'; readonly key: ApiKeyRecord }
  | { readonly kind: 'anonymous'; readonly address: string }

/**
 * Whose budget and rate window a caller uses: a key's own (by its hash, never the key), or the
 * client address's for calls without a key.
 */
export const subjectOf = (caller: Caller): string =>
  caller.kind === 'key' ? `key:${caller.key.keyHash}` : `ip:${caller.address}`

const expiryMsOf = (expiresAt: string | null): number | null => {
  if (expiresAt === null) return null
  const ms = Date.parse(expiresAt)
  return Number.isNaN(ms) ? null : ms
}

/**
 * What a caller may spend: without a key, the anonymous daily budget and no prepaid pool; with one,
 * the key's daily budget (or the default) and its prepaid pool.
 */
export const allowanceOf = (caller: Caller, limits: MeteringLimits): Allowance =>
  caller.kind === 'anonymous'
    ? {
        dailyBudgetMicroUsd: toMicroUsd(limits.anonymousDailyBudgetUsd),
        prepaidMicroUsd: 0,
        prepaidExpiresAtMs: null,
      }
    : {
        dailyBudgetMicroUsd: toMicroUsd(caller.key.dailyBudgetUsd ?? limits.keyDailyBudgetUsd),
        prepaidMicroUsd: toMicroUsd(caller.key.prepaidUsd),
        prepaidExpiresAtMs: expiryMsOf(caller.key.prepaidExpiresAt),
      }
