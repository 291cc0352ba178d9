// Other entities: authors and sources filtered and grouped like works.
import type { Oqo } from '@oqlkit/oqo-schema/registry'
import { describe, expect, it } from 'vitest'
import { type ConformanceSuite, leaf, planOf } from './conformance-suite.ts'
import { referenceGroups } from './reference-evaluator.ts'

export function describeOtherEntityCases(suite: ConformanceSuite): void {
  const { fixture, rowsOf, expectedCount } = suite
  describe('other entities', () => {
    it('filters and groups authors and sources like works', async () => {
      for (const [entity, column] of [
        ['authors', 'works_count'],
        ['sources', 'works_count'],
        ['institutions', 'works_count'],
      ] as const) {
        const records = fixture.records[entity]
        if (records === undefined) continue
        const oqo: Oqo = { get_rows: entity, filter_rows: [leaf(column, 5, { operator: '>' })] }
        const result = await rowsOf(oqo)
        expect(result.count, entity).toBe(expectedCount(oqo, records))
        const all = await rowsOf({ get_rows: entity })
        expect(all.count, entity).toBe(records.length)
      }
      const sources = fixture.records.sources
      if (sources !== undefined) {
        const plan = planOf({ get_rows: 'sources', group_by: [{ column_id: 'type' }] }, { perPage: 100 })
        const result = await suite.adapter.queryGroups(plan)
        const expected = referenceGroups(plan, sources, { byId: new Map() })
        expect(new Map(result.groups.map((bucket) => [JSON.stringify(bucket.keys), bucket.count]))).toEqual(
          expected,
        )
      }
    })
  })
}
