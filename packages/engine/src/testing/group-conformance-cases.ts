// Group by: counts of scalar, list, boolean and entity-id columns, one and two dimensions, over the filtered
// rows, buckets in the reference order.
import type { Oqo } from '@oqlkit/oqo-schema/registry'
import { describe, expect, it } from 'vitest'
import type { GroupsResult } from '../adapter/storage-adapter.ts'
import type { ViewParameters } from '../planner/plan-query.ts'
import { type ConformanceSuite, compareKeys, leaf, mostFrequent, planOf } from './conformance-suite.ts'
import { referenceGroups } from './reference-evaluator.ts'

export function describeGroupCases(suite: ConformanceSuite): void {
  const { works, context } = suite
  describe('group by', () => {
    const groupsOf = async (
      oqo: Oqo,
      view: ViewParameters = {},
    ): Promise<[GroupsResult, Map<string, number>]> => {
      const plan = planOf(oqo, { perPage: 100, ...view })
      return [await suite.adapter.queryGroups(plan), referenceGroups(plan, works, context)]
    }
    const asMap = (result: GroupsResult): Map<string, number> =>
      new Map(result.groups.map((bucket) => [JSON.stringify(bucket.keys), bucket.count]))
    /** Buckets by count (most first), then key; the page holds the first 100 of the expected buckets. */
    const expectBuckets = (result: GroupsResult, expected: ReadonlyMap<string, number>) => {
      expect(result.groupsCount).toBe(expected.size)
      expect(result.groups.length).toBe(Math.min(100, expected.size))
      for (const [key, count] of asMap(result)) expect(expected.get(key), key).toBe(count)
      for (let i = 1; i < result.groups.length; i++) {
        const [previous, current] = [result.groups[i - 1]!, result.groups[i]!]
        expect(previous.count).toBeGreaterThanOrEqual(current.count)
        if (previous.count === current.count)
          expect(
            compareKeys(previous.keys, current.keys),
            JSON.stringify([previous.keys, current.keys]),
          ).toBe(-1)
      }
      // A page cut after the 100 biggest buckets leaves none out that is bigger than its smallest.
      const returned = asMap(result)
      const cutoff = result.groups[result.groups.length - 1]?.count ?? 0
      for (const [key, count] of expected) if (count > cutoff) expect(returned.has(key), key).toBe(true)
    }

    it('counts a scalar column, buckets sorted by count', async () => {
      const [result, expected] = await groupsOf({ get_rows: 'works', group_by: [{ column_id: 'type' }] })
      expectBuckets(result, expected)
      expect(result.count).toBe(works.filter((work) => work.is_xpac !== true).length)
    })

    it('counts a list column once per work and value, with and without the unknown bucket', async () => {
      const oqo: Oqo = { get_rows: 'works', group_by: [{ column_id: 'authorships.countries' }] }
      const [known, expectedKnown] = await groupsOf(oqo)
      expectBuckets(known, expectedKnown)
      expect(known.groups.some((bucket) => bucket.keys[0] === null)).toBe(false)
      const [withUnknown, expectedUnknown] = await groupsOf(oqo, {
        includeUnknown: ['authorships.countries'],
      })
      expectBuckets(withUnknown, expectedUnknown)
      const unknown = withUnknown.groups.find((bucket) => bucket.keys[0] === null)
      expect(unknown?.count).toBe(expectedUnknown.get('[null]'))
      const nested: Oqo = { get_rows: 'works', group_by: [{ column_id: 'authorships.institutions.type' }] }
      const [types, expectedTypes] = await groupsOf(nested, {
        includeUnknown: ['authorships.institutions.type'],
      })
      expectBuckets(types, expectedTypes)
      expect(expectedTypes.get('[null]')).toBeGreaterThan(0)
    })

    it('counts booleans, entity ids and two dimensions', async () => {
      for (const group_by of [
        [{ column_id: 'open_access.is_oa' }],
        [{ column_id: 'primary_topic.field.id' }],
        [{ column_id: 'type' }, { column_id: 'open_access.is_oa' }],
        [{ column_id: 'authorships.countries' }, { column_id: 'type' }],
      ]) {
        const [result, expected] = await groupsOf({ get_rows: 'works', group_by })
        expectBuckets(result, expected)
      }
    })

    it('counts one value per row with its unknown bucket, alone and with a second dimension', async () => {
      // Some adapters count these buckets and the rows in one pass (every row in exactly one bucket).
      for (const group_by of [
        [{ column_id: 'primary_topic.field.id' }],
        [{ column_id: 'primary_topic.field.id' }, { column_id: 'open_access.is_oa' }],
      ]) {
        const oqo: Oqo = { get_rows: 'works', group_by }
        const [result, expected] = await groupsOf(oqo, { includeUnknown: ['primary_topic.field.id'] })
        expectBuckets(result, expected)
        expect([...expected.keys()].some((key) => key.startsWith('[null'))).toBe(true)
        const [known, expectedKnown] = await groupsOf(oqo)
        expectBuckets(known, expectedKnown)
        expect(result.count).toBe(known.count)
        expect(known.count).toBe(works.filter((work) => work.is_xpac !== true).length)
      }
    })

    it('counts the buckets and the rows on a page past the last bucket, which holds none', async () => {
      // A scalar column, a list column and a link's keys (which some adapters count from the link table):
      // each answered on its first page, then on the page after its last bucket.
      for (const column_id of ['type', 'authorships.countries', 'authorships.author.id']) {
        const oqo: Oqo = { get_rows: 'works', group_by: [{ column_id }] }
        const [first, expected] = await groupsOf(oqo)
        const past = await suite.adapter.queryGroups(
          planOf(oqo, { perPage: 100, page: Math.floor(expected.size / 100) + 2 }),
        )
        expect(past.groups, column_id).toStrictEqual([])
        expect(past.groupsCount, column_id).toBe(expected.size)
        expect(past.count, column_id).toBe(first.count)
      }
    })

    it('groups only the filtered rows', async () => {
      const year = Number(mostFrequent(works, 'publication_year'))
      const [result, expected] = await groupsOf({
        get_rows: 'works',
        filter_rows: [leaf('publication_year', year, { operator: '>=' })],
        group_by: [{ column_id: 'authorships.author.id' }],
      })
      expectBuckets(result, expected)
    })
  })
}
