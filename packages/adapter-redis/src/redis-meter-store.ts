import type { ChargeOutcome, MeterCounters, MeterReading, MeterStore } from '@oqlkit/engine'
import { CHARGE_SCRIPT, READ_SCRIPT, REFUND_SCRIPT } from './meter-scripts.ts'
import { DEFAULT_KEY_PREFIX, type RedisStoreOptions } from './redis-connection.ts'
import { RedisScript } from './redis-script.ts'

const charge = new RedisScript(CHARGE_SCRIPT)
const refund = new RedisScript(REFUND_SCRIPT)
const read = new RedisScript(READ_SCRIPT)

export interface RedisMeterStoreOptions extends RedisStoreOptions {
  /**
   * Whose clock decides days and rate windows: `redis` (default) uses Redis's TIME, one clock for every
   * server process; `caller` uses the `nowMs` each call passes (tests that move time).
   */
  readonly clock?: 'redis' | 'caller'
}

const toNumber = (value: unknown): number => {
  const number = typeof value === 'number' ? value : Number(value)
  if (!Number.isFinite(number))
    throw new Error(`The metering script answered a non-number (${String(value)})`)
  return number
}

const readingOf = (reply: unknown): MeterReading => {
  const [now, day, daily, prepaid] = (reply as unknown[]).map(toNumber)
  return {
    counters: { day: day ?? 0, dailyUsedMicroUsd: daily ?? 0, prepaidUsedMicroUsd: prepaid ?? 0 },
    nowMs: now ?? 0,
  }
}

/**
 * The meter store on Redis, for several server processes sharing budgets and rate limits. Each
 * operation is one Lua script (`meter-scripts.ts`), so a check and its charge are atomic across all
 * processes: a budget can never be overspent, not even by one call. Keys: `<prefix>meter:{<subject>}`
 * (a hash of the counters) and `<prefix>rate:{<subject>}` (the rate window); the braces keep a
 * subject's two keys in one slot of a Redis Cluster.
 */
export const createRedisMeterStore = (options: RedisMeterStoreOptions): MeterStore => {
  const { client } = options
  const prefix = options.prefix ?? DEFAULT_KEY_PREFIX
  const useCallerClock = options.clock === 'caller'
  const meterKey = (subject: string) => `${prefix}meter:{${subject}}`
  const rateKey = (subject: string) => `${prefix}rate:{${subject}}`
  const clockArgument = (nowMs: number) => (useCallerClock ? Math.floor(nowMs) : -1)

  return {
    charge: async (request): Promise<ChargeOutcome> => {
      const reply = (await charge.run(
        client,
        [meterKey(request.subject), rateKey(request.subject)],
        [
          clockArgument(request.nowMs),
          request.costMicroUsd,
          request.allowance.dailyBudgetMicroUsd,
          request.allowance.prepaidMicroUsd,
          request.allowance.prepaidExpiresAtMs ?? -1,
          request.rate.requests,
          request.rate.windowMs,
          request.requestId,
        ],
      )) as unknown[]
      const [accepted, reason, retryAfterMs, day, daily, prepaid, now, dailyPart, prepaidPart] = reply
      const counters: MeterCounters = {
        day: toNumber(day),
        dailyUsedMicroUsd: toNumber(daily),
        prepaidUsedMicroUsd: toNumber(prepaid),
      }
      const nowMs = toNumber(now)
      if (toNumber(accepted) === 1)
        return {
          ok: true,
          receipt: {
            subject: request.subject,
            day: counters.day,
            dailyMicroUsd: toNumber(dailyPart),
            prepaidMicroUsd: toNumber(prepaidPart),
          },
          counters,
          nowMs,
        }
      return {
        ok: false,
        reason: reason === 'rate_limited' ? 'rate_limited' : 'budget_exhausted',
        retryAfterMs: toNumber(retryAfterMs),
        counters,
        nowMs,
      }
    },
    refund: async (receipt, nowMs) =>
      readingOf(
        await refund.run(
          client,
          [meterKey(receipt.subject)],
          [clockArgument(nowMs), receipt.day, receipt.dailyMicroUsd, receipt.prepaidMicroUsd],
        ),
      ),
    read: async (subject, nowMs) =>
      readingOf(await read.run(client, [meterKey(subject)], [clockArgument(nowMs)])),
    close: async () => {},
  }
}
