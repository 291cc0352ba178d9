// Streaming every row: the same rows as the pages, batch by batch, selected fields only, an empty result as
// one empty batch, a seeded sample whole, and a stop at the stream's signal.
import type { Oqo } from '@oqlkit/oqo-schema/registry'
import { describe, expect, it } from 'vitest'
import type { QueryPlan } from '../plan/query-plan.ts'
import { type RowBatch, streamRows } from '../shaping/row-stream.ts'
import { type ConformanceSuite, ids, labelOf, leaf, planOf, sortOf } from './conformance-suite.ts'
import { expectSameJson } from './json-expectation.ts'
import { referenceOrder, referenceRows, shortIdOf } from './reference-evaluator.ts'

export function describeRowStreamCases(suite: ConformanceSuite): void {
  const { works, context, rowsOf } = suite
  describe('streaming every row', () => {
    const collect = async (plan: QueryPlan, batchSize: number, signal?: AbortSignal) => {
      const batches: RowBatch[] = []
      for await (const batch of streamRows(suite.adapter, plan, { batchSize, ...(signal ? { signal } : {}) }))
        batches.push(batch)
      return batches
    }

    // Batches (and pages) of 100: several over the sample's works, each a statement or two fewer than at 30.
    const BATCH = 100
    it('streams the rows the pages give, in the same order, batch by batch, with the count', async () => {
      const oqo: Oqo = { get_rows: 'works', filter_rows: [leaf('cited_by_count', 0, { operator: '>=' })] }
      for (const sort of [
        sortOf({ field: 'publication_year', direction: 'desc' }, { field: 'fwci', direction: 'asc' }),
        sortOf({ field: 'cited_by_count', direction: 'desc' }),
        undefined,
      ]) {
        const plan = planOf(oqo, sort === undefined ? {} : { sort })
        const expected = ids(referenceOrder(plan, referenceRows(plan, works, context)))
        expect(expected.length, 'the case streams several batches').toBeGreaterThan(3 * BATCH)
        const byPage: string[] = []
        for (let page = 1; (page - 1) * BATCH < expected.length; page++)
          byPage.push(...ids((await rowsOf(oqo, { perPage: BATCH, page, ...(sort ? { sort } : {}) })).rows))
        const batches = await collect(plan, BATCH)
        expect(batches.length, labelOf(sort)).toBe(Math.ceil(expected.length / BATCH))
        for (const batch of batches) {
          expect(batch.count).toBe(expected.length)
          expect(batch.rows.length).toBeLessThanOrEqual(BATCH)
        }
        const streamed = batches.flatMap((batch) => ids(batch.rows))
        expect(streamed, labelOf(sort)).toEqual(byPage)
        // Where a batch carries the stored bytes (an export sends them as they are), they are its rows.
        const decoder = new TextDecoder()
        for (const batch of batches)
          if (batch.jsonBytes !== undefined)
            expectSameJson(
              batch.jsonBytes.map((bytes) => JSON.parse(decoder.decode(bytes))),
              batch.rows,
            )
        expect(streamed, labelOf(sort)).toEqual(expected)
      }
    })

    it('streams selected fields only, an empty result as one empty batch, and a seeded sample whole', async () => {
      const plan = planOf({ get_rows: 'works' }, { select: ['id', 'display_name'] })
      const batches = await collect(plan, 50)
      expect(batches.flatMap((batch) => batch.rows).length).toBe(works.length)
      for (const row of batches.flatMap((batch) => batch.rows))
        expect(Object.keys(row).sort()).toEqual(
          ['display_name', 'id'].filter((key) => key in context.byId.get(shortIdOf(row))!),
        )

      const none = await collect(
        planOf({ get_rows: 'works', filter_rows: [leaf('publication_year', 1000)] }),
        10,
      )
      expect(none.map(({ count, rows }) => ({ count, rows }))).toEqual([{ count: 0, rows: [] }])

      const sample: Oqo = { get_rows: 'works', sample: 25, seed: 'stream' }
      const whole = await rowsOf(sample, { perPage: 25 })
      const sampled = await collect(planOf(sample), 10)
      expect(sampled.map((batch) => batch.rows.length)).toEqual([10, 10, 5])
      expect(sampled.flatMap((batch) => ids(batch.rows))).toEqual(ids(whole.rows))
      expect(sampled.every((batch) => batch.count === 25)).toBe(true)
    })

    it('stops at its signal, and refuses a group_by', async () => {
      const stop = new AbortController()
      const seen: number[] = []
      const stream = async () => {
        for await (const batch of streamRows(suite.adapter, planOf({ get_rows: 'works' }), {
          batchSize: 5,
          signal: stop.signal,
        })) {
          seen.push(batch.rows.length)
          stop.abort()
        }
      }
      await expect(stream()).rejects.toMatchObject({ name: 'QueryInterruptedError' })
      expect(seen).toEqual([5])
      const grouped = collect(planOf({ get_rows: 'works', group_by: [{ column_id: 'type' }] }), 5)
      await expect(grouped).rejects.toMatchObject({ name: 'UnsupportedPlanError' })
    })
  })
}
