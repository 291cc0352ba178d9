// `describeMeterStoreConformance`: the behaviour every MeterStore must have, as one vitest suite. The
// expected answers come from `MeterLedger`, the in-memory application of `decideCharge` (the one rule),
// never from the store under test; the model-based property runs random sequences of charges, refunds
// and reads, at random moments, against both and compares every answer.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classRateSubject } from '../metering/class-rate-limit.ts'
import { MeterLedger } from '../metering/meter-ledger.ts'
import type {
  Allowance,
  ChargeOutcome,
  ChargeReceipt,
  ChargeRequest,
  MeterStore,
  RateRule,
} from '../metering/meter-store.ts'
import { MS_PER_DAY, nextUtcMidnightMs, utcDayOf } from '../metering/metering-limits.ts'

export interface MeterStoreUnderTest {
  readonly store: MeterStore
  /** Ends the test's use of the store (and removes what it wrote, where the store is shared). */
  readonly dispose: () => Promise<void>
}

/** A moment well inside a UTC day (10:00 on 2030-01-15), so day arithmetic is easy to follow. */
const DAY_START = Date.UTC(2030, 0, 15)
const T0 = DAY_START + 10 * 3_600_000

const RATE: RateRule = { requests: 3, windowMs: 1000 }
const WIDE_RATE: RateRule = { requests: 1_000_000, windowMs: 1000 }
const ONE_A_SECOND: RateRule = { requests: 1, windowMs: 1000 }

let sequence = 0
const subjectFor = (name: string): string =>
  `key:${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`

const allowance = (daily: number, prepaid = 0, expiresAtMs: number | null = null): Allowance => ({
  dailyBudgetMicroUsd: daily,
  prepaidMicroUsd: prepaid,
  prepaidExpiresAtMs: expiresAtMs,
})

const requestOf = (
  subject: string,
  cost: number,
  grant: Allowance,
  nowMs: number,
  rate: RateRule = WIDE_RATE,
): ChargeRequest => ({
  subject,
  costMicroUsd: cost,
  allowance: grant,
  rate,
  nowMs,
  requestId: `r${++sequence}-${Math.random().toString(36).slice(2)}`,
})

const accepted = (outcome: ChargeOutcome): ChargeReceipt => {
  if (!outcome.ok) throw new Error(`expected the charge to be accepted, it was rejected: ${outcome.reason}`)
  return outcome.receipt
}

/**
 * Registers the suite. `open` gives a store whose clock is the requests' `nowMs` (stores with a clock of
 * their own must offer that mode for this suite); stores may be shared across tests, since every test
 * uses subjects of its own.
 */
export function describeMeterStoreConformance(
  name: string,
  open: () => Promise<MeterStoreUnderTest>,
  options: { readonly skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`MeterStore conformance: ${name}`, () => {
    let underTest: MeterStoreUnderTest
    beforeAll(async () => {
      underTest = await open()
    })
    afterAll(async () => {
      await underTest?.dispose()
    })
    const store = (): MeterStore => underTest.store

    it('charges the daily budget first, then the prepaid pool, and refuses what neither can pay', async () => {
      const subject = subjectFor('pools')
      const grant = allowance(250, 150)
      const first = accepted(await store().charge(requestOf(subject, 100, grant, T0)))
      expect(first).toEqual({ subject, day: utcDayOf(T0), dailyMicroUsd: 100, prepaidMicroUsd: 0 })
      accepted(await store().charge(requestOf(subject, 100, grant, T0)))
      // 50 left of the daily budget: the rest of this call comes from the prepaid pool.
      const split = accepted(await store().charge(requestOf(subject, 100, grant, T0)))
      expect(split).toMatchObject({ dailyMicroUsd: 50, prepaidMicroUsd: 50 })
      accepted(await store().charge(requestOf(subject, 100, grant, T0)))
      const refused = await store().charge(requestOf(subject, 100, grant, T0 + 5))
      expect(refused).toMatchObject({
        ok: false,
        reason: 'budget_exhausted',
        retryAfterMs: nextUtcMidnightMs(T0 + 5) - (T0 + 5),
        counters: { day: utcDayOf(T0), dailyUsedMicroUsd: 250, prepaidUsedMicroUsd: 150 },
      })
      // The rejected call changed nothing, and both pools are empty: even the smallest call is refused.
      const reading = await store().read(subject, T0 + 6)
      expect(reading.counters).toEqual({
        day: utcDayOf(T0),
        dailyUsedMicroUsd: 250,
        prepaidUsedMicroUsd: 150,
      })
      expect((await store().charge(requestOf(subject, 1, grant, T0 + 7))).ok).toBe(false)
    })

    it('lets free calls through on an exhausted budget', async () => {
      const subject = subjectFor('free')
      const grant = allowance(100)
      accepted(await store().charge(requestOf(subject, 100, grant, T0)))
      expect((await store().charge(requestOf(subject, 100, grant, T0))).ok).toBe(false)
      const free = accepted(await store().charge(requestOf(subject, 0, grant, T0)))
      expect(free).toMatchObject({ dailyMicroUsd: 0, prepaidMicroUsd: 0 })
    })

    it('refills the daily budget at midnight UTC, but not the prepaid pool', async () => {
      const subject = subjectFor('midnight')
      const grant = allowance(100, 100)
      accepted(await store().charge(requestOf(subject, 100, grant, T0)))
      accepted(await store().charge(requestOf(subject, 60, grant, T0)))
      const lastMoment = DAY_START + MS_PER_DAY - 1
      expect(await store().charge(requestOf(subject, 50, grant, lastMoment))).toMatchObject({
        ok: false,
        reason: 'budget_exhausted',
        retryAfterMs: 1,
      })
      const nextDay = DAY_START + MS_PER_DAY
      expect((await store().read(subject, nextDay)).counters).toEqual({
        day: utcDayOf(nextDay),
        dailyUsedMicroUsd: 0,
        prepaidUsedMicroUsd: 60,
      })
      const receipt = accepted(await store().charge(requestOf(subject, 100, grant, nextDay)))
      expect(receipt).toMatchObject({ day: utcDayOf(nextDay), dailyMicroUsd: 100, prepaidMicroUsd: 0 })
      const fromPrepaid = accepted(await store().charge(requestOf(subject, 40, grant, nextDay + 1)))
      expect(fromPrepaid).toMatchObject({ dailyMicroUsd: 0, prepaidMicroUsd: 40 })
      expect((await store().charge(requestOf(subject, 1, grant, nextDay + 2))).ok).toBe(false)
    })

    it('stops using the prepaid pool when it expires', async () => {
      const subject = subjectFor('expiry')
      const grant = allowance(0, 1000, T0 + 1000)
      accepted(await store().charge(requestOf(subject, 100, grant, T0 + 999)))
      expect(await store().charge(requestOf(subject, 100, grant, T0 + 1000))).toMatchObject({
        ok: false,
        reason: 'budget_exhausted',
      })
    })

    it('accepts at most the rate rule within a sliding window, and counts only accepted calls', async () => {
      const subject = subjectFor('rate')
      const grant = allowance(1_000_000)
      accepted(await store().charge(requestOf(subject, 0, grant, T0, RATE)))
      accepted(await store().charge(requestOf(subject, 0, grant, T0 + 300, RATE)))
      accepted(await store().charge(requestOf(subject, 100, grant, T0 + 600, RATE)))
      const limited = await store().charge(requestOf(subject, 100, grant, T0 + 700, RATE))
      expect(limited).toMatchObject({ ok: false, reason: 'rate_limited', retryAfterMs: 300 })
      // The rejected call is neither charged nor counted: one slot frees when the first call leaves.
      expect((await store().read(subject, T0 + 700)).counters.dailyUsedMicroUsd).toBe(100)
      expect((await store().charge(requestOf(subject, 0, grant, T0 + 999, RATE))).ok).toBe(false)
      accepted(await store().charge(requestOf(subject, 0, grant, T0 + 1000, RATE)))
      expect(await store().charge(requestOf(subject, 0, grant, T0 + 1001, RATE))).toMatchObject({
        ok: false,
        retryAfterMs: 299,
      })
    })

    it('does not count a call refused for its budget in the rate window', async () => {
      const subject = subjectFor('rate-budget')
      const grant = allowance(0)
      for (let i = 0; i < 5; i++)
        expect(await store().charge(requestOf(subject, 100, grant, T0, RATE))).toMatchObject({
          reason: 'budget_exhausted',
        })
      for (let i = 0; i < 3; i++) accepted(await store().charge(requestOf(subject, 0, grant, T0, RATE)))
      expect(await store().charge(requestOf(subject, 0, grant, T0, RATE))).toMatchObject({
        reason: 'rate_limited',
      })
    })

    it('counts a request charged twice (an export, after the gate) once in the rate window', async () => {
      const subject = subjectFor('rate-same-request')
      const grant = allowance(1000)
      const gate = requestOf(subject, 10, grant, T0, RATE)
      accepted(await store().charge(gate))
      // The same request charged again, with no rate of its own, as the export's rows are.
      accepted(
        await store().charge({ ...gate, costMicroUsd: 20, rate: { ...WIDE_RATE, windowMs: RATE.windowMs } }),
      )
      // Two more requests fit in the window of three; the fourth does not.
      accepted(await store().charge(requestOf(subject, 0, grant, T0 + 1, RATE)))
      accepted(await store().charge(requestOf(subject, 0, grant, T0 + 2, RATE)))
      expect(await store().charge(requestOf(subject, 0, grant, T0 + 3, RATE))).toMatchObject({
        ok: false,
        reason: 'rate_limited',
      })
      expect((await store().read(subject, T0 + 4)).counters.dailyUsedMicroUsd).toBe(30)
    })

    it('gives refunds back, the daily part only on its own day', async () => {
      const subject = subjectFor('refund')
      const grant = allowance(100, 1000)
      const first = accepted(await store().charge(requestOf(subject, 150, grant, T0)))
      expect((await store().refund(first, T0 + 1)).counters).toEqual({
        day: utcDayOf(T0),
        dailyUsedMicroUsd: 0,
        prepaidUsedMicroUsd: 0,
      })
      const second = accepted(await store().charge(requestOf(subject, 150, grant, T0 + 2)))
      const nextDay = DAY_START + MS_PER_DAY
      const reading = await store().refund(second, nextDay)
      expect(reading.counters).toEqual({
        day: utcDayOf(nextDay),
        dailyUsedMicroUsd: 0,
        prepaidUsedMicroUsd: 0,
      })
    })

    it('keeps subjects apart', async () => {
      const one = subjectFor('one')
      const two = subjectFor('two')
      accepted(await store().charge(requestOf(one, 100, allowance(100), T0)))
      accepted(await store().charge(requestOf(two, 100, allowance(100), T0)))
      expect((await store().read(one, T0)).counters.dailyUsedMicroUsd).toBe(100)
    })

    it('holds a per-class window of 1 per second (zero-cost charges on a subject of its own) under concurrency', async () => {
      const subject = subjectFor('class')
      const classSubject = classRateSubject(subject, 'text')
      const grant = allowance(1_000_000)
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => store().charge(requestOf(classSubject, 0, grant, T0, ONE_A_SECOND))),
      )
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
      expect(outcomes.find((outcome) => !outcome.ok)).toMatchObject({
        reason: 'rate_limited',
        retryAfterMs: 1000,
      })
      // The class window spends nothing and leaves the caller's own subject alone.
      expect((await store().read(classSubject, T0)).counters.dailyUsedMicroUsd).toBe(0)
      accepted(await store().charge(requestOf(subject, 100, grant, T0, ONE_A_SECOND)))
      expect((await store().charge(requestOf(classSubject, 0, grant, T0 + 999, ONE_A_SECOND))).ok).toBe(false)
      accepted(await store().charge(requestOf(classSubject, 0, grant, T0 + 1000, ONE_A_SECOND)))
      // Another class of the same caller has a window of its own.
      accepted(
        await store().charge(
          requestOf(classRateSubject(subject, 'semantic'), 0, grant, T0 + 1000, ONE_A_SECOND),
        ),
      )
    })

    it('never spends more than the allowance under concurrent charges', async () => {
      const subject = subjectFor('concurrent')
      const grant = allowance(1000, 500)
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, () => store().charge(requestOf(subject, 100, grant, T0))),
      )
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(15)
      expect((await store().read(subject, T0)).counters).toMatchObject({
        dailyUsedMicroUsd: 1000,
        prepaidUsedMicroUsd: 500,
      })
    })

    it('answers every sequence of operations as the reference ledger does', async () => {
      type Step =
        | { readonly kind: 'charge'; readonly advanceMs: number; readonly cost: number }
        | { readonly kind: 'refund'; readonly advanceMs: number }
        | { readonly kind: 'read'; readonly advanceMs: number }
      const advance = fc.oneof(
        fc.constantFrom(0, 1, 999, 1000),
        fc.integer({ min: 0, max: 400 }),
        fc.constant(MS_PER_DAY / 2),
      )
      const step: fc.Arbitrary<Step> = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record({
            kind: fc.constant('charge' as const),
            advanceMs: advance,
            cost: fc.constantFrom(0, 100, 1000, 10_000, 333),
          }),
        },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), advanceMs: advance }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const), advanceMs: advance }) },
      )
      const grantArbitrary = fc.record({
        daily: fc.constantFrom(0, 300, 2000, 25_000),
        prepaid: fc.constantFrom(0, 500, 12_000),
        expiresAfterMs: fc.option(fc.integer({ min: 0, max: 3 * MS_PER_DAY }), { nil: null }),
      })
      await fc.assert(
        fc.asyncProperty(
          grantArbitrary,
          fc.array(step, { minLength: 1, maxLength: 25 }),
          async (g, steps) => {
            const subject = subjectFor('model')
            const grant = allowance(
              g.daily,
              g.prepaid,
              g.expiresAfterMs === null ? null : T0 + g.expiresAfterMs,
            )
            const model = new MeterLedger()
            const receipts: ChargeReceipt[] = []
            let now = T0
            for (const s of steps) {
              now += s.advanceMs
              if (s.kind === 'charge') {
                const request = requestOf(subject, s.cost, grant, now, RATE)
                const expected = model.charge(request, now).outcome
                const actual = await store().charge(request)
                expect(actual).toEqual(expected)
                if (actual.ok) receipts.push(actual.receipt)
              } else if (s.kind === 'refund') {
                const receipt = receipts.shift()
                if (receipt === undefined) continue
                expect(await store().refund(receipt, now)).toEqual(model.refund(receipt, now).reading)
              } else {
                expect(await store().read(subject, now)).toEqual(model.read(subject, now))
              }
            }
          },
        ),
        { numRuns: 25 },
      )
    }, 120_000)
  })
}
