import type { UsageSummary } from '@oqlkit/engine'

/**
 * The X-RateLimit headers every metered response carries, in US dollars: `Limit` the daily budget,
 * `Remaining` what the caller can still spend now (the daily remainder plus a usable prepaid balance),
 * `Credits-Used` this request's cost, `Reset` the seconds until midnight UTC.
 */
export const rateLimitHeaders = (summary: UsageSummary, creditsUsedUsd: number): Record<string, string> => ({
  'x-ratelimit-limit': String(summary.dailyBudgetUsd),
  'x-ratelimit-remaining': String(summary.spendableUsd),
  'x-ratelimit-credits-used': String(creditsUsedUsd),
  'x-ratelimit-reset': String(summary.resetsInSeconds),
})
