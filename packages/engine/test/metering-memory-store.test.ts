import { createMemoryMeterStore, MeterLedger, readMeterLogEntry } from '@oqlkit/engine'
import { describeMeterStoreConformance } from '@oqlkit/engine/testing'
import { describe, expect, it } from 'vitest'

describeMeterStoreConformance('in memory', async () => ({
  store: createMemoryMeterStore(),
  dispose: async () => {},
}))

describe('MeterLedger replay', () => {
  const rate = { requests: 100, windowMs: 1000 }
  const allowance = { dailyBudgetMicroUsd: 300, prepaidMicroUsd: 1000, prepaidExpiresAtMs: null }
  const T = Date.UTC(2030, 0, 1, 9)

  it('rebuilds the same counters from its log entries, and from its snapshot', () => {
    const live = new MeterLedger()
    const log = []
    for (let i = 0; i < 8; i++) {
      const { outcome, entry } = live.charge(
        {
          subject: 's',
          costMicroUsd: 100,
          allowance,
          rate,
          nowMs: T + i * 3_600_000 * 2,
          requestId: `r${i}`,
        },
        T + i * 3_600_000 * 2,
      )
      if (entry !== undefined) log.push(entry)
      if (outcome.ok && i === 5) {
        const refund = live.refund(outcome.receipt, T + i * 3_600_000 * 2).entry
        if (refund !== undefined) log.push(refund)
      }
    }
    const end = T + 20 * 3_600_000
    const replayed = new MeterLedger()
    for (const entry of log) replayed.apply(readMeterLogEntry(JSON.parse(JSON.stringify(entry)))!)
    expect(replayed.read('s', end)).toEqual(live.read('s', end))
    const compacted = new MeterLedger()
    for (const entry of live.snapshot(end)) compacted.apply(entry)
    expect(compacted.read('s', end)).toEqual(live.read('s', end))
  })

  it('ignores log lines that are not entries', () => {
    for (const junk of [
      null,
      7,
      {},
      { op: 'charge', subject: 's', day: 1, daily: -5, prepaid: 0 },
      { op: 'x' },
    ])
      expect(readMeterLogEntry(junk)).toBeUndefined()
  })
})
