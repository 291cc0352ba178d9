// Order and paging: sorts by each kind of column in both directions, offset and cursor pages of the same
// sequence, the null cursor of a last page, and the records exactly as stored with only the fields selected.
import type { Oqo } from '@oqlkit/oqo-schema/registry'
import { describe, expect, it } from 'vitest'
import type { SortTerm } from '../plan/query-plan.ts'
import { encodeCursor } from '../planner/cursor-codec.ts'
import { planQuery } from '../planner/plan-query.ts'
import { executeQuery } from '../shaping/execute-query.ts'
import {
  type ConformanceSuite,
  frequencies,
  ids,
  labelOf,
  leaf,
  mostFrequent,
  or,
  planOf,
  shortOf,
  sortOf,
} from './conformance-suite.ts'
import { referenceGroups, referenceOrder, referenceRows, shortIdOf } from './reference-evaluator.ts'

export function describePagingCases(suite: ConformanceSuite): void {
  const { works, context, rowsOf } = suite
  describe('order and paging', () => {
    const sortedFilter: Oqo = {
      get_rows: 'works',
      filter_rows: [leaf('cited_by_count', 0, { operator: '>=' })],
    }

    it('sorts by a column in each direction, missing values last, ties by id', async () => {
      // fwci and apc_list.value_usd are missing on some works: those come last in both directions.
      for (const sort of [
        sortOf({ field: 'publication_year', direction: 'desc' }),
        sortOf({ field: 'publication_year', direction: 'asc' }),
        sortOf({ field: 'cited_by_count', direction: 'desc' }),
        sortOf({ field: 'fwci', direction: 'asc' }),
        sortOf({ field: 'fwci', direction: 'desc' }),
        sortOf({ field: 'apc_list.value_usd', direction: 'desc' }),
        sortOf({ field: 'type', direction: 'asc' }, { field: 'publication_date', direction: 'desc' }),
      ]) {
        const plan = planOf({ get_rows: 'works' }, { sort, perPage: 100 })
        const result = await suite.adapter.queryRows(plan)
        const expected = referenceOrder(plan, referenceRows(plan, works, context)).slice(0, 100)
        expect(ids(result.rows), labelOf(sort)).toEqual(ids(expected))
      }
    })

    /**
     * The reference order of a query, and its rows read page by page by offset and by cursor (every page
     * but the last full).
     */
    const pagedBothWays = async (
      oqo: Oqo,
      view: { readonly perPage: number; readonly sort?: readonly SortTerm[] },
    ) => {
      const plan = planOf(oqo, view)
      const expected = ids(referenceOrder(plan, referenceRows(plan, works, context)))
      const byOffset: string[] = []
      for (let page = 1; (page - 1) * view.perPage < expected.length; page++)
        byOffset.push(...ids((await rowsOf(oqo, { ...view, page })).rows))
      const byCursor: string[] = []
      let cursor = '*'
      for (let guard = 0; guard < 1000; guard++) {
        const planned = planQuery(oqo, { ...view, cursor })
        if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
        const result = await suite.adapter.queryRows(planned.plan)
        byCursor.push(...ids(result.rows))
        if (result.nextAfter === null) break
        expect(result.rows.length).toBe(view.perPage)
        cursor = encodeCursor(planned.sortSignature, result.nextAfter)
      }
      return { expected, byOffset, byCursor }
    }

    it('offset pages and cursor pages give the same sequence, the reference order', async () => {
      // Sort keys with ties and missing values, so the cursor has to continue inside a run of equal keys
      // and across the nulls.
      const { expected, byOffset, byCursor } = await pagedBothWays(sortedFilter, {
        sort: sortOf({ field: 'publication_year', direction: 'desc' }, { field: 'fwci', direction: 'asc' }),
        perPage: 40,
      })
      expect(byOffset).toEqual(expected)
      expect(byCursor).toEqual(expected)
    })

    it('pages of a filter on one multi-valued id, by offset and cursor, in the reference order', async () => {
      // Adapters may answer a lone link filter from the link itself (the DuckDB one does, for some sorts):
      // each page and each cursor must still continue the same sequence.
      const country = String(mostFrequent(works, 'authorships.countries'))
      const authors = frequencies(works, 'authorships.author.id')
        .slice(0, 3)
        .map(([value]) => shortOf(value))
      const filters: Oqo[] = [
        { get_rows: 'works', filter_rows: [leaf('authorships.countries', country)] },
        { get_rows: 'works', filter_rows: [or(...authors.map((id) => leaf('authorships.author.id', id)))] },
      ]
      for (const oqo of filters)
        for (const sort of [
          undefined,
          sortOf({ field: 'cited_by_count', direction: 'desc' }),
          sortOf({ field: 'publication_date', direction: 'desc' }),
          sortOf({ field: 'publication_year', direction: 'asc' }),
        ]) {
          // Some four pages of each (at least 7 rows a page): enough for cursors that continue inside runs of
          // equal keys, without a statement per handful of rows (a page costs a statement or two).
          const rows = referenceRows(planOf(oqo, sort === undefined ? {} : { sort }), works, context).length
          const perPage = Math.max(7, Math.floor(rows / 4))
          const { expected, byOffset, byCursor } = await pagedBothWays(oqo, {
            perPage,
            ...(sort === undefined ? {} : { sort }),
          })
          expect(expected.length, labelOf(sort)).toBeGreaterThan(perPage)
          expect(byOffset, `${JSON.stringify(oqo.filter_rows)} ${labelOf(sort)}`).toEqual(expected)
          expect(byCursor, `${JSON.stringify(oqo.filter_rows)} ${labelOf(sort)}`).toEqual(expected)
        }
    })

    it('the cursor of the last page is null', async () => {
      const result = await rowsOf({ get_rows: 'works' }, { cursor: '*', perPage: 100 })
      expect(result.nextAfter === null).toBe(works.length <= 100)
      const everything = await rowsOf(
        { get_rows: 'works', filter_rows: [leaf('ids.openalex', shortIdOf(works[0]!))] },
        { cursor: '*' },
      )
      expect(everything.nextAfter).toBeNull()
    })

    // A result whose size is an exact multiple of per_page: the statement that reads one row past the page
    // finds none after the last full page, so its cursor must be null, not a cursor to an empty page.
    it('a last cursor page that is exactly full has a null cursor: rows, samples and groups', async () => {
      const chosen = works.slice(0, 12).map(shortIdOf)
      expect(chosen.length, 'the fixture has 12 works').toBe(12)
      const twelve: Oqo = {
        get_rows: 'works',
        filter_rows: [or(...chosen.map((id) => leaf('ids.openalex', id)))],
      }
      for (const sort of [
        undefined,
        sortOf({ field: 'cited_by_count', direction: 'desc' }),
        sortOf({ field: 'publication_date', direction: 'asc' }),
      ])
        for (const perPage of [3, 4, 6, 12]) {
          const label = `sort ${labelOf(sort)} per_page ${perPage}`
          const view = { perPage, ...(sort === undefined ? {} : { sort }) }
          // The adapter: the sort keys after the last row only while rows remain.
          const { expected, byCursor } = await pagedBothWays(twelve, view)
          expect(expected.length, label).toBe(12)
          expect(byCursor, label).toEqual(expected)
          // The engine over it: as many pages as 12 / per_page, the last one full with a null next_cursor.
          const seen: string[] = []
          let cursor = '*'
          for (let page = 1; page <= 12 / perPage; page++) {
            const planned = planQuery(twelve, { ...view, cursor })
            if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
            const response = await executeQuery(suite.adapter, planned)
            if (response.kind !== 'rows') throw new Error(`${label}: a rows query answered ${response.kind}`)
            expect(response.results.length, `${label} page ${page}`).toBe(perPage)
            seen.push(...ids(response.results))
            if (page === 12 / perPage) expect(response.nextCursor, `${label} last page`).toBeNull()
            else {
              expect(typeof response.nextCursor, `${label} page ${page}`).toBe('string')
              cursor = response.nextCursor!
            }
          }
          expect(seen, label).toEqual(expected)
        }

      // A seeded sample of 20 walked by cursor 10 at a time: two pages, the second without a next cursor.
      expect(works.length, 'the fixture has 20 works to sample').toBeGreaterThanOrEqual(20)
      const sample: Oqo = { get_rows: 'works', sample: 20, seed: 'exact pages' }
      const sampled: string[] = []
      let sampleCursor = '*'
      for (let page = 1; page <= 2; page++) {
        const planned = planQuery(sample, { perPage: 10, cursor: sampleCursor })
        if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
        const response = await executeQuery(suite.adapter, planned)
        if (response.kind !== 'rows') throw new Error(`a sample answered ${response.kind}`)
        expect(response.count).toBe(20)
        expect(response.results.length, `sample page ${page}`).toBe(10)
        sampled.push(...ids(response.results))
        if (page === 2) expect(response.nextCursor, 'the last sample page').toBeNull()
        else sampleCursor = response.nextCursor!
      }
      expect(new Set(sampled).size).toBe(20)

      // Buckets of the four most frequent types, paged by cursor 2 and 4 at a time.
      const types = frequencies(works, 'type')
        .slice(0, 4)
        .map(([value]) => String(value))
      expect(types.length, 'the fixture has four types of work').toBe(4)
      const fourTypes: Oqo = {
        get_rows: 'works',
        filter_rows: [or(...types.map((type) => leaf('type', type)))],
        group_by: [{ column_id: 'type' }],
      }
      expect(referenceGroups(planOf(fourTypes, { perPage: 100 }), works, context).size).toBe(4)
      for (const perPage of [1, 2, 4]) {
        const keys: string[] = []
        let cursor = '*'
        for (let page = 1; page <= 4 / perPage; page++) {
          const planned = planQuery(fourTypes, { perPage, cursor })
          if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
          const response = await executeQuery(suite.adapter, planned)
          if (response.kind !== 'groups') throw new Error(`a group_by answered ${response.kind}`)
          expect(response.groupsCount).toBe(4)
          expect(response.groups.length, `per_page ${perPage} page ${page}`).toBe(perPage)
          keys.push(...response.groups.map((bucket) => bucket.key))
          if (page === 4 / perPage) expect(response.nextCursor, `per_page ${perPage} last page`).toBeNull()
          else {
            expect(typeof response.nextCursor, `per_page ${perPage} page ${page}`).toBe('string')
            cursor = response.nextCursor!
          }
        }
        expect(new Set(keys).size, `per_page ${perPage}: each bucket once`).toBe(4)
      }
    })

    it('returns records exactly as stored, and only the selected top-level fields', async () => {
      const result = await rowsOf({ get_rows: 'works' }, { perPage: 20 })
      for (const row of result.rows) expect(row).toEqual(context.byId.get(shortIdOf(row)))
      const selected = await rowsOf(
        { get_rows: 'works' },
        { perPage: 20, select: ['display_name', 'publication_year'] },
      )
      for (const row of selected.rows) {
        expect(Object.keys(row).every((key) => key === 'display_name' || key === 'publication_year')).toBe(
          true,
        )
        expect(row.display_name).toBeDefined()
      }
    })
  })
}
