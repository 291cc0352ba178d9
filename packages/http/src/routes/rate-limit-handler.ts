import { ENDPOINT_COSTS_USD, usageSummary } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { meteredRequestOf } from '../metering/metered-request.ts'

/** What `/rate-limit` answers where nothing is metered: not a missing route, and what turns metering on. */
export const meteringOffError = (): ApiError =>
  ApiError.of(
    404,
    'metering_off',
    'This server does not meter its API: no call is priced or limited, so there is no budget to report. The server meters when started with --metering, --keys or --redis (oqlkit serve --help).',
  )

/** `GET /rate-limit` on a server without metering. */
export const unmeteredRateLimitHandler = (): never => {
  throw meteringOffError()
}

/**
 * `GET /rate-limit`: the caller's budget report. `api_key` is the key masked (first and last four
 * characters), or null for a caller without a key (whose budget is its address's). The report is read
 * in the same store operation that admitted this (free) request, so it is current.
 */
export const rateLimitHandler = (event: H3Event): unknown => {
  const metered = meteredRequestOf(event)
  if (metered === undefined) throw meteringOffError()
  const summary = usageSummary(metered.allowance, metered.counters, metered.nowMs)
  return {
    api_key: metered.caller.kind === 'key' ? metered.caller.key.maskedKey : null,
    rate_limit: {
      daily_budget_usd: summary.dailyBudgetUsd,
      daily_used_usd: summary.dailyUsedUsd,
      daily_remaining_usd: summary.dailyRemainingUsd,
      prepaid_balance_usd: summary.prepaidBalanceUsd,
      prepaid_remaining_usd: summary.prepaidRemainingUsd,
      prepaid_expires_at: summary.prepaidExpiresAt,
      resets_at: summary.resetsAt,
      resets_in_seconds: summary.resetsInSeconds,
      endpoint_costs_usd: { ...ENDPOINT_COSTS_USD },
    },
  }
}
