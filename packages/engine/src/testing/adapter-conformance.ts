// `describeAdapterConformance`: the behaviour every StorageAdapter must have, as one vitest suite. Each case
// plans an OQO with `planQuery`, runs it on the adapter, and compares with answers computed here from the
// fixture's records by the reference evaluator, never by the adapter under test. Values the cases use (a
// year, an author, a DOI) are picked from the records, so the suite runs on any fixture with works.
import type { Filter, Oqo } from '@oqlkit/oqo-schema/registry'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import type { EntityRecord, RowsResult, StorageAdapter } from '../adapter/storage-adapter.ts'
import type { ViewParameters } from '../planner/plan-query.ts'
import { type ConformanceFixture, type ConformanceSuite, planOf } from './conformance-suite.ts'
import { describeFilterCases } from './filter-conformance-cases.ts'
import { describeGroupCases } from './group-conformance-cases.ts'
import { expectSameJson } from './json-expectation.ts'
import { describeOtherEntityCases } from './other-entity-conformance-cases.ts'
import { describePagingCases } from './paging-conformance-cases.ts'
import { type ReferenceContext, referenceRows, shortIdOf } from './reference-evaluator.ts'
import { describeRowStreamCases } from './row-stream-conformance-cases.ts'
import { describeSampleCases } from './sample-conformance-cases.ts'
import { describeSingletonCases } from './singleton-conformance-cases.ts'
import { describeTotalCases } from './total-conformance-cases.ts'

/**
 * Registers the conformance cases for one adapter. `createAdapter` is called once, before the cases; the
 * adapter is closed after them.
 */
export function describeAdapterConformance(
  name: string,
  createAdapter: () => Promise<StorageAdapter>,
  fixture: ConformanceFixture,
): void {
  describe(`StorageAdapter conformance: ${name}`, () => {
    let adapter: StorageAdapter
    const works = fixture.records.works ?? []
    const context: ReferenceContext = { byId: new Map(works.map((record) => [shortIdOf(record), record])) }

    // Creating an adapter may build or open a catalog: allow it a minute.
    beforeAll(async () => {
      if (works.length === 0) throw new Error('The conformance fixture needs works')
      adapter = await createAdapter()
    }, 60_000)
    afterAll(async () => {
      await adapter?.close()
    })

    // Stored records (their text) already found equal to the fixture's: the same text, returned again by a
    // later case, parses to the same record. Parsing and comparing every page's 100 records anew, case
    // after case, was most of what the count cases cost.
    const storedRecordsSeen = new Set<string>()
    const decoder = new TextDecoder()
    const rowsOf = (oqo: Oqo, view: ViewParameters = {}): Promise<RowsResult> =>
      adapter.queryRows(planOf(oqo, view))
    const expectedCount = (oqo: Oqo, records: readonly EntityRecord[] = works): number =>
      referenceRows(planOf(oqo), records, context).length
    /** The count the adapter gives equals the reference count, and is not trivially all or nothing. */
    const expectCount = async (filters: Filter[], options: { allowEmpty?: boolean } = {}) => {
      const oqo: Oqo = { get_rows: 'works', filter_rows: filters }
      const expected = expectedCount(oqo)
      if (options.allowEmpty !== true) {
        expect(expected, `a useful case selects some works: ${JSON.stringify(filters)}`).toBeGreaterThan(0)
      }
      const result = await rowsOf(oqo, { perPage: 100 })
      expect(result.count, JSON.stringify(filters)).toBe(expected)
      expect(result.rows.length).toBe(Math.min(expected, 100))
      // Stored bytes of the rows, when the adapter gives them: each the fixture's record, as many as the page.
      if (result.rowsJsonBytes !== undefined) {
        expect(result.rowsJsonBytes.length).toBe(Math.min(expected, 100))
        for (const bytes of result.rowsJsonBytes) {
          const text = decoder.decode(bytes)
          if (storedRecordsSeen.has(text)) continue
          const record = JSON.parse(text) as EntityRecord
          expectSameJson(record, context.byId.get(shortIdOf(record)))
          storedRecordsSeen.add(text)
        }
      }
      return expected
    }

    const suite: ConformanceSuite = {
      get adapter() {
        return adapter
      },
      fixture,
      works,
      context,
      rowsOf,
      expectedCount,
      expectCount,
    }
    describeFilterCases(suite)
    describePagingCases(suite)
    describeRowStreamCases(suite)
    describeSampleCases(suite)
    describeTotalCases(suite)
    describeGroupCases(suite)
    describeSingletonCases(suite)
    describeOtherEntityCases(suite)
  })
}
