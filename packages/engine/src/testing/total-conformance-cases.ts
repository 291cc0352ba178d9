// Totals: the sums of numeric columns over every row a filter keeps, whatever the page, sample or grouping.
import type { Oqo } from '@oqlkit/oqo-schema/registry'
import { describe, expect, it } from 'vitest'
import type { EntityRecord } from '../adapter/storage-adapter.ts'
import { type ConformanceSuite, leaf, planOf } from './conformance-suite.ts'
import { referenceRows, valuesAt } from './reference-evaluator.ts'

export function describeTotalCases(suite: ConformanceSuite): void {
  const { works, context } = suite
  describe('totals', () => {
    const totalOf = (records: readonly EntityRecord[], path: string): number =>
      records.reduce(
        (sum, record) =>
          sum + valuesAt(record, path).reduce<number>((a, v) => a + (typeof v === 'number' ? v : 0), 0),
        0,
      )

    it('sums numeric columns over every row the filter keeps, whatever the page, sample or grouping', async () => {
      expect(suite.adapter.sumColumns, 'an adapter answers apc_sum and cited_by_count_sum').toBeDefined()
      const filtered: Oqo = { get_rows: 'works', filter_rows: [leaf('open_access.is_oa', true)] }
      const kept = referenceRows(planOf(filtered), works, context)
      const expected = [
        totalOf(kept, 'apc_list.value_usd'),
        totalOf(kept, 'apc_paid.value_usd'),
        totalOf(kept, 'cited_by_count'),
      ]
      // Totals a fixture makes trivially zero would not tell a sum from nothing.
      for (const total of expected) expect(total).toBeGreaterThan(0)
      const sums = ['apc_sum', 'cited_by_count_sum'] as const
      const plans = [
        planOf(filtered, { sums, perPage: 1 }),
        planOf(filtered, { sums, perPage: 5, page: 3 }),
        planOf({ ...filtered, sample: 3, seed: 1 }, { sums }),
        planOf({ ...filtered, group_by: [{ column_id: 'type' }] }, { sums }),
      ]
      for (const plan of plans) {
        expect(plan.sums?.map((sum) => sum.name)).toEqual([
          'apc_list_sum_usd',
          'apc_paid_sum_usd',
          'cited_by_count_sum',
        ])
        const totals = await suite.adapter.sumColumns!(plan)
        for (const [index, total] of totals.entries()) expect(total).toBeCloseTo(expected[index]!, 6)
      }
    })

    it('totals no rows as 0', async () => {
      const none: Oqo = { get_rows: 'works', filter_rows: [leaf('publication_year', 1000)] }
      expect(referenceRows(planOf(none), works, context)).toEqual([])
      expect(
        await suite.adapter.sumColumns!(planOf(none, { sums: ['apc_sum', 'cited_by_count_sum'] })),
      ).toEqual([0, 0, 0])
    })
  })
}
