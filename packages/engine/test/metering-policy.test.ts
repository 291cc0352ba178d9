import {
  type ApiKeyRecord,
  allowanceOf,
  DEFAULT_METERING_LIMITS,
  decideCharge,
  ENDPOINT_COSTS_USD,
  fromMicroUsd,
  secondsUntilUtcMidnight,
  subjectOf,
  toMicroUsd,
  usageSummary,
  utcDayOf,
} from '@oqlkit/engine'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

const NOON = Date.UTC(2030, 5, 1, 12)

const keyRecord = (overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  keyHash: 'a'.repeat(64),
  userId: 'u1',
  admin: false,
  dailyBudgetUsd: null,
  prepaidUsd: 0,
  prepaidExpiresAt: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  maskedKey: 'oqk_…abcd',
  ...overrides,
})

describe('the allowance of a caller', () => {
  it('gives a caller without a key $0.10 a day per address, and no prepaid pool', () => {
    const caller = { kind: 'anonymous', address: '203.0.113.7' } as const
    expect(subjectOf(caller)).toBe('ip:203.0.113.7')
    expect(allowanceOf(caller, DEFAULT_METERING_LIMITS)).toEqual({
      dailyBudgetMicroUsd: 100_000,
      prepaidMicroUsd: 0,
      prepaidExpiresAtMs: null,
    })
  })

  it('gives a key $1 a day unless the key says otherwise, plus its prepaid pool', () => {
    expect(allowanceOf({ kind: 'key', key: keyRecord() }, DEFAULT_METERING_LIMITS)).toEqual({
      dailyBudgetMicroUsd: 1_000_000,
      prepaidMicroUsd: 0,
      prepaidExpiresAtMs: null,
    })
    const own = keyRecord({ dailyBudgetUsd: 5, prepaidUsd: 20, prepaidExpiresAt: '2030-12-31T00:00:00.000Z' })
    expect(allowanceOf({ kind: 'key', key: own }, DEFAULT_METERING_LIMITS)).toEqual({
      dailyBudgetMicroUsd: 5_000_000,
      prepaidMicroUsd: 20_000_000,
      prepaidExpiresAtMs: Date.UTC(2030, 11, 31),
    })
    expect(subjectOf({ kind: 'key', key: own })).toBe(`key:${'a'.repeat(64)}`)
  })
})

describe('money in micro-dollars', () => {
  it('holds every price and budget exactly', () => {
    for (const usd of [...Object.values(ENDPOINT_COSTS_USD), 0.1, 1])
      expect(fromMicroUsd(toMicroUsd(usd))).toBe(usd)
  })

  it('sums prices without drift (1,000 list calls are exactly $0.10)', () => {
    let micro = 0
    for (let i = 0; i < 1000; i++) micro += toMicroUsd(ENDPOINT_COSTS_USD.list)
    expect(fromMicroUsd(micro)).toBe(0.1)
  })
})

describe('decideCharge', () => {
  const rate = { requests: 100, windowMs: 1000 }
  const emptyWindow = { count: 0, oldestMs: null }

  it('never takes more than the allowance, and takes the daily budget before the prepaid pool', () => {
    fc.assert(
      fc.property(
        fc.nat(5000),
        fc.nat(5000),
        fc.nat(5000),
        fc.nat(5000),
        fc.nat(3000),
        (daily, prepaid, dailyUsed, prepaidUsed, cost) => {
          const stored = {
            day: utcDayOf(NOON),
            dailyUsedMicroUsd: dailyUsed,
            prepaidUsedMicroUsd: prepaidUsed,
          }
          const allowance = { dailyBudgetMicroUsd: daily, prepaidMicroUsd: prepaid, prepaidExpiresAtMs: null }
          const decision = decideCharge(stored, emptyWindow, { costMicroUsd: cost, allowance, rate }, NOON)
          const dailyLeft = Math.max(0, daily - dailyUsed)
          const prepaidLeft = Math.max(0, prepaid - prepaidUsed)
          if (decision.kind === 'reject') {
            expect(decision.reason).toBe('budget_exhausted')
            expect(cost).toBeGreaterThan(dailyLeft + prepaidLeft)
            expect(decision.counters).toEqual(stored)
            return
          }
          expect(cost).toBeLessThanOrEqual(dailyLeft + prepaidLeft)
          expect(decision.dailyMicroUsd + decision.prepaidMicroUsd).toBe(cost)
          expect(decision.dailyMicroUsd).toBe(Math.min(cost, dailyLeft))
        },
      ),
    )
  })

  it('starts a new day from zero daily spending and keeps the prepaid spending', () => {
    const yesterday = { day: utcDayOf(NOON) - 1, dailyUsedMicroUsd: 900, prepaidUsedMicroUsd: 40 }
    const allowance = { dailyBudgetMicroUsd: 1000, prepaidMicroUsd: 100, prepaidExpiresAtMs: null }
    expect(decideCharge(yesterday, emptyWindow, { costMicroUsd: 1000, allowance, rate }, NOON)).toEqual({
      kind: 'accept',
      dailyMicroUsd: 1000,
      prepaidMicroUsd: 0,
      counters: { day: utcDayOf(NOON), dailyUsedMicroUsd: 1000, prepaidUsedMicroUsd: 40 },
    })
  })

  it('says to retry at midnight UTC when the budget is spent, and when the window frees a slot when rate-limited', () => {
    const allowance = { dailyBudgetMicroUsd: 0, prepaidMicroUsd: 0, prepaidExpiresAtMs: null }
    const broke = decideCharge(undefined, emptyWindow, { costMicroUsd: 100, allowance, rate }, NOON)
    expect(broke).toMatchObject({ kind: 'reject', reason: 'budget_exhausted', retryAfterMs: 12 * 3_600_000 })
    const full = decideCharge(
      undefined,
      { count: 100, oldestMs: NOON - 250 },
      { costMicroUsd: 0, allowance, rate },
      NOON,
    )
    expect(full).toMatchObject({ kind: 'reject', reason: 'rate_limited', retryAfterMs: 750 })
  })
})

describe('usageSummary', () => {
  it('reports spending, what is left, and when the budget refills', () => {
    const allowance = { dailyBudgetMicroUsd: 1_000_000, prepaidMicroUsd: 2_000_000, prepaidExpiresAtMs: null }
    const counters = { day: utcDayOf(NOON), dailyUsedMicroUsd: 1_000_000, prepaidUsedMicroUsd: 1_500 }
    expect(usageSummary(allowance, counters, NOON)).toEqual({
      dailyBudgetUsd: 1,
      dailyUsedUsd: 1,
      dailyRemainingUsd: 0,
      prepaidBalanceUsd: 2,
      prepaidRemainingUsd: 1.9985,
      prepaidExpiresAt: null,
      resetsAt: '2030-06-02T00:00:00.000Z',
      resetsInSeconds: 43_200,
      spendableUsd: 1.9985,
    })
  })

  it('reports an expired prepaid pool as empty, and yesterday as nothing spent', () => {
    const allowance = {
      dailyBudgetMicroUsd: 100_000,
      prepaidMicroUsd: 5_000_000,
      prepaidExpiresAtMs: NOON - 1,
    }
    const counters = { day: utcDayOf(NOON) - 1, dailyUsedMicroUsd: 100_000, prepaidUsedMicroUsd: 0 }
    expect(usageSummary(allowance, counters, NOON)).toMatchObject({
      dailyUsedUsd: 0,
      dailyRemainingUsd: 0.1,
      prepaidBalanceUsd: 5,
      prepaidRemainingUsd: 0,
      prepaidExpiresAt: new Date(NOON - 1).toISOString(),
    })
  })

  it('never says 0 seconds to the reset', () => {
    expect(secondsUntilUtcMidnight(Date.UTC(2030, 0, 2) - 1)).toBe(1)
    expect(secondsUntilUtcMidnight(Date.UTC(2030, 0, 2))).toBe(86_400)
  })
})
