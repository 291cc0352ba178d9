// Samples: the same rows for the same seed, of the asked size, from the filtered rows, paged without repeats.
import type { Oqo } from '@oqlkit/oqo-schema/registry'
import { describe, expect, it } from 'vitest'
import { type ConformanceSuite, ids, leaf, planOf } from './conformance-suite.ts'
import { referenceRows } from './reference-evaluator.ts'

export function describeSampleCases(suite: ConformanceSuite): void {
  const { works, context, rowsOf } = suite
  describe('samples', () => {
    const filtered: Oqo = { get_rows: 'works', filter_rows: [leaf('open_access.is_oa', true)] }

    it('gives the same rows for the same seed, of the asked size, from the filtered rows', async () => {
      const matching = new Set(ids(referenceRows(planOf(filtered), works, context)))
      const size = Math.min(30, matching.size)
      const first = await rowsOf({ ...filtered, sample: size, seed: 'conformance' }, { perPage: 100 })
      const again = await rowsOf({ ...filtered, sample: size, seed: 'conformance' }, { perPage: 100 })
      expect(ids(first.rows)).toEqual(ids(again.rows))
      expect(first.rows.length).toBe(size)
      expect(new Set(ids(first.rows)).size).toBe(size)
      for (const id of ids(first.rows)) expect(matching.has(id)).toBe(true)
      const other = await rowsOf({ ...filtered, sample: size, seed: 'another seed' }, { perPage: 100 })
      expect(ids(other.rows)).not.toEqual(ids(first.rows))
    })

    it('pages through a seeded sample without repeating rows', async () => {
      const whole = await rowsOf({ get_rows: 'works', sample: 20, seed: 7 }, { perPage: 20 })
      const page1 = await rowsOf({ get_rows: 'works', sample: 20, seed: 7 }, { perPage: 10, page: 1 })
      const page2 = await rowsOf({ get_rows: 'works', sample: 20, seed: 7 }, { perPage: 10, page: 2 })
      const page3 = await rowsOf({ get_rows: 'works', sample: 20, seed: 7 }, { perPage: 10, page: 3 })
      expect([...ids(page1.rows), ...ids(page2.rows)]).toEqual(ids(whole.rows))
      expect(page3.rows).toEqual([])
    })
  })
}
