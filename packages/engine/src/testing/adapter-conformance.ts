// `describeAdapterConformance`: the behaviour every StorageAdapter must have, as one vitest suite. Each case
// plans an OQO with `planQuery`, runs it on the adapter, and compares with answers computed here from the
// fixture's records by the reference evaluator, never by the adapter under test. Values the cases use (a
// year, an author, a DOI) are picked from the records, so the suite runs on any fixture with works.
import type { Filter, Oqo } from '@oqlkit/oqo-schema'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type {
  EntityRecord,
  GroupsResult,
  LookupResult,
  RowsResult,
  StorageAdapter,
} from '../adapter/storage-adapter.ts'
import type { QueryPlan, SortTerm } from '../plan/query-plan.ts'
import { encodeCursor } from '../planner/cursor-codec.ts'
import { planQuery, type ViewParameters } from '../planner/plan-query.ts'
import { executeQuery } from '../shaping/execute-query.ts'
import { type RowBatch, streamRows } from '../shaping/row-stream.ts'
import {
  type ReferenceContext,
  referenceGroups,
  referenceOrder,
  referenceRows,
  shortIdOf,
  valuesAt,
} from './reference-evaluator.ts'

type EntityType = Parameters<StorageAdapter['findById']>[0]

export interface ConformanceFixture {
  /**
   * The records the adapter's catalog holds, by entity, exactly as it returns them. `works` is required;
   * cases on other entities run for those present.
   */
  readonly records: Readonly<Partial<Record<EntityType, readonly EntityRecord[]>>>
  /** Ids the catalog knows as merged into another, short form. */
  readonly mergedIds: readonly {
    readonly entity: EntityType
    readonly oldId: string
    readonly newId: string
  }[]
}

const leaf = (
  column_id: string,
  value: string | number | boolean | null,
  extra: Partial<Filter> = {},
): Filter => ({ column_id, value, ...extra }) as Filter
const not = (filter: Filter): Filter => ({ ...filter, is_negated: true }) as Filter
const or = (...filters: Filter[]): Filter => ({ join: 'or', filters })

/** A sort of the cases below, as a request's reader hands it to the planner. */
const sortOf = (...terms: readonly SortTerm[]): readonly SortTerm[] => terms

/** A sort as a URL writes it, to label a case. */
const labelOf = (sort: readonly SortTerm[] | undefined): string =>
  sort === undefined ? 'no sort' : sort.map((term) => `${term.field}:${term.direction}`).join(',')

/** The plan of an OQO, failing the test when it does not plan. */
export const planOf = (oqo: Oqo, view: ViewParameters = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(`The suite's OQO does not plan: ${JSON.stringify(planned.errors)}`)
  return planned.plan
}

/** The most frequent values at a path, most frequent first (ties by value), with their record counts. */
const frequencies = (records: readonly EntityRecord[], path: string): [unknown, number][] => {
  const counts = new Map<string, [unknown, number]>()
  for (const record of records)
    for (const value of new Set(valuesAt(record, path).map((v) => JSON.stringify(v)))) {
      const entry = counts.get(value) ?? [JSON.parse(value) as unknown, 0]
      entry[1]++
      counts.set(value, entry)
    }
  return [...counts.values()].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
}

const mostFrequent = (records: readonly EntityRecord[], path: string, rank = 0): unknown => {
  const value = frequencies(records, path)[rank]?.[0]
  if (value === undefined) throw new Error(`The fixture has no value at ${path}`)
  return value
}

const shortOf = (value: unknown): string => {
  const text = String(value)
  return text.slice(text.lastIndexOf('/') + 1)
}

const ids = (rows: readonly EntityRecord[]): string[] => rows.map(shortIdOf)

type GroupKey = string | number | boolean | null

/** Bucket keys in order: each position ascending, unknown (null) last. */
const compareKeys = (left: readonly GroupKey[], right: readonly GroupKey[]): -1 | 0 | 1 => {
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const [a, b] = [left[i] ?? null, right[i] ?? null]
    if (a === b) continue
    if (a === null) return 1
    if (b === null) return -1
    return a < b ? -1 : 1
  }
  return 0
}

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
          const record = JSON.parse(new TextDecoder().decode(bytes)) as EntityRecord
          expect(record).toEqual(context.byId.get(shortIdOf(record)))
        }
      }
      return expected
    }

    describe('filters on each kind of column', () => {
      it('counts every work of the core corpus without a filter, and the corpora add up', async () => {
        const all = await rowsOf({ get_rows: 'works', corpus: 'all' })
        const core = await rowsOf({ get_rows: 'works' })
        const expansion = await rowsOf({ get_rows: 'works', corpus: 'expansion' })
        expect(all.count).toBe(works.length)
        expect(core.count).toBe(works.filter((record) => record.is_xpac !== true).length)
        expect(core.count + expansion.count).toBe(all.count)
      })

      it('numbers: equality and each range operator', async () => {
        const year = Number(mostFrequent(works, 'publication_year'))
        await expectCount([leaf('publication_year', year)])
        for (const operator of ['>', '>=', '<', '<='] as const)
          await expectCount([leaf('publication_year', year, { operator })])
        await expectCount([
          leaf('cited_by_count', 100, { operator: '>' }),
          leaf('cited_by_count', 1000, { operator: '<=' }),
        ])
      })

      it('dates: comparisons and the inclusive from_/to_ bounds', async () => {
        const date = String(mostFrequent(works, 'publication_date', 3))
        await expectCount([leaf('publication_date', date, { operator: '>=' })])
        await expectCount([leaf('publication_date', date, { operator: '<' })])
        const from = await expectCount([leaf('from_publication_date', date)])
        const to = await expectCount([leaf('to_publication_date', date)])
        const on = await expectCount([leaf('publication_date', date)])
        expect(from + to - on).toBe(works.filter((work) => work.publication_date != null).length)
      })

      it('booleans: true, false, and negation keeping works without the value', async () => {
        await expectCount([leaf('open_access.is_oa', true)])
        await expectCount([leaf('open_access.is_oa', false)])
        await expectCount([leaf('is_oa', true)])
        await expectCount([not(leaf('is_retracted', true))])
      })

      it('enums compare without case; negation keeps rows that have no value', async () => {
        const type = String(mostFrequent(works, 'type'))
        const count = await expectCount([leaf('type', type)])
        expect(await expectCount([leaf('type', type.toUpperCase())])).toBe(count)
        const language = String(mostFrequent(works, 'language'))
        const without = await expectCount([not(leaf('language', language))])
        const missing = await expectCount([leaf('language', null)], { allowEmpty: true })
        const other = works.filter((work) => work.language != null && work.language !== language).length
        expect(without).toBe(other + missing)
      })

      it('null and not-null (missing values, empty lists)', async () => {
        await expectCount([leaf('language', null)], { allowEmpty: true })
        await expectCount([not(leaf('language', null))])
        await expectCount([leaf('authorships.countries', null)], { allowEmpty: true })
        await expectCount([not(leaf('authorships.countries', null))])
        await expectCount([leaf('primary_location.source.id', null)], { allowEmpty: true })
      })

      it('OR lists of up to 100 values on one column, and OR across columns', async () => {
        const types = frequencies(works, 'type')
          .slice(0, 3)
          .map(([value]) => String(value))
        await expectCount([or(...types.map((type) => leaf('type', type)))])
        const years = Array.from({ length: 100 }, (_, index) => 1926 + index)
        await expectCount([or(...years.map((year) => leaf('publication_year', year)))])
        await expectCount([or(leaf('type', types[1]!), leaf('open_access.is_oa', true))])
        await expectCount([not(or(leaf('type', types[0]!), leaf('type', types[1]!)))])
      })

      it('multi-valued ids in bare, short and URL form, any case', async () => {
        const author = shortOf(mostFrequent(works, 'authorships.author.id'))
        const count = await expectCount([leaf('authorships.author.id', author)])
        expect(await expectCount([leaf('authorships.author.id', author.toLowerCase())])).toBe(count)
        expect(await expectCount([leaf('authorships.author.id', `https://openalex.org/${author}`)])).toBe(
          count,
        )
        await expectCount([
          leaf('authorships.institutions.id', shortOf(mostFrequent(works, 'authorships.institutions.id'))),
        ])
        await expectCount([leaf('topics.id', shortOf(mostFrequent(works, 'topics.id')))])
        await expectCount([leaf('concepts.id', shortOf(mostFrequent(works, 'concepts.id')))])
        await expectCount([
          leaf('authorships.countries', String(mostFrequent(works, 'authorships.countries')).toLowerCase()),
        ])
        await expectCount([not(leaf('authorships.author.id', author))])
        const authors = frequencies(works, 'authorships.author.id')
          .slice(0, 5)
          .map(([value]) => shortOf(value))
        await expectCount([or(...authors.map((id) => leaf('authorships.author.id', id)))])
      })

      it('columns read from nested record fields (lists of objects, scalars deep in the record)', async () => {
        await expectCount([
          leaf('authorships.institutions.type', String(mostFrequent(works, 'authorships.institutions.type'))),
        ])
        await expectCount([
          leaf('primary_location.source.type', String(mostFrequent(works, 'primary_location.source.type'))),
        ])
        await expectCount([leaf('indexed_in', String(mostFrequent(works, 'indexed_in')))])
        await expectCount([leaf('apc_list.value_usd', 1000, { operator: '>' })], { allowEmpty: true })
        await expectCount([
          leaf('primary_topic.field.id', shortOf(mostFrequent(works, 'primary_topic.field.id'))),
        ])
        await expectCount([leaf('authorships.is_corresponding', true)])
      })

      it('the own id, DOIs in URL and bare form, and citations both ways', async () => {
        const work = works.find((record) => typeof record.doi === 'string')!
        await expectCount([leaf('ids.openalex', shortIdOf(work))])
        await expectCount([leaf('openalex', shortIdOf(work).toLowerCase())])
        const doi = String(work.doi)
        const bare = doi.replace(/^https:\/\/doi\.org\//, '')
        expect(await expectCount([leaf('doi', doi)])).toBe(
          await expectCount([leaf('doi', bare.toUpperCase())]),
        )
        const citing = works.find((record) =>
          valuesAt(record, 'referenced_works').some((id) => context.byId.has(shortOf(id))),
        )!
        await expectCount([leaf('cited_by', shortIdOf(citing))])
        const cited = shortOf(
          valuesAt(citing, 'referenced_works').find((id) => context.byId.has(shortOf(id))),
        )
        await expectCount([leaf('cites', cited)])
        await expectCount([leaf('referenced_works', cited)])
      })

      it('random boolean combinations agree with the reference evaluator', async () => {
        const year = Number(mostFrequent(works, 'publication_year'))
        const pool: Filter[] = [
          leaf('publication_year', year, { operator: '>=' }),
          leaf('publication_year', year - 10, { operator: '<' }),
          leaf('type', String(mostFrequent(works, 'type'))),
          leaf('type', String(mostFrequent(works, 'type', 1))),
          leaf('language', String(mostFrequent(works, 'language'))),
          leaf('language', null),
          leaf('open_access.is_oa', true),
          leaf('authorships.countries', String(mostFrequent(works, 'authorships.countries'))),
          leaf('authorships.countries', null),
          leaf('authorships.author.id', shortOf(mostFrequent(works, 'authorships.author.id'))),
          leaf('cited_by_count', 50, { operator: '>' }),
        ]
        const leafArbitrary = fc
          .tuple(fc.constantFrom(...pool), fc.boolean())
          .map(([filter, negated]) => (negated ? not(filter) : filter))
        const filterArbitrary: fc.Arbitrary<Filter> = fc.letrec<{ filter: Filter }>((tie) => ({
          filter: fc.oneof(
            { depthSize: 'small', withCrossShrink: true },
            leafArbitrary,
            fc
              .tuple(
                fc.constantFrom('and', 'or'),
                fc.array(tie('filter'), { minLength: 1, maxLength: 3 }),
                fc.boolean(),
              )
              .map(
                ([join, filters, negated]): Filter => ({
                  join,
                  filters,
                  ...(negated ? { is_negated: true } : {}),
                }),
              ),
          ),
        })).filter
        await fc.assert(
          fc.asyncProperty(filterArbitrary, async (filter) => {
            const oqo: Oqo = { get_rows: 'works', filter_rows: [filter] }
            const result = await rowsOf(oqo, { perPage: 1 })
            expect(result.count).toBe(expectedCount(oqo))
          }),
          { numRuns: 40, seed: 20_260_302 },
        )
      })

      it('rejects a collection that reached it unresolved, rather than ignoring it', async () => {
        const plan = planOf({
          get_rows: 'works',
          filter_rows: [leaf('collection', 'col_abc123', { operator: 'in collection' })],
        })
        await expect(adapter.queryRows(plan)).rejects.toThrow()
      })
    })

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
          const result = await adapter.queryRows(plan)
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
          const result = await adapter.queryRows(planned.plan)
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
            const { expected, byOffset, byCursor } = await pagedBothWays(oqo, {
              perPage: 7,
              ...(sort === undefined ? {} : { sort }),
            })
            expect(expected.length, labelOf(sort)).toBeGreaterThan(7)
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
              const response = await executeQuery(adapter, planned)
              if (response.kind !== 'rows')
                throw new Error(`${label}: a rows query answered ${response.kind}`)
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
          const response = await executeQuery(adapter, planned)
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
            const response = await executeQuery(adapter, planned)
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

    describe('streaming every row', () => {
      const collect = async (plan: QueryPlan, batchSize: number, signal?: AbortSignal) => {
        const batches: RowBatch[] = []
        for await (const batch of streamRows(adapter, plan, { batchSize, ...(signal ? { signal } : {}) }))
          batches.push(batch)
        return batches
      }

      it('streams the rows the pages give, in the same order, batch by batch, with the count', async () => {
        const oqo: Oqo = { get_rows: 'works', filter_rows: [leaf('cited_by_count', 0, { operator: '>=' })] }
        for (const sort of [
          sortOf({ field: 'publication_year', direction: 'desc' }, { field: 'fwci', direction: 'asc' }),
          sortOf({ field: 'cited_by_count', direction: 'desc' }),
          undefined,
        ]) {
          const plan = planOf(oqo, sort === undefined ? {} : { sort })
          const expected = ids(referenceOrder(plan, referenceRows(plan, works, context)))
          expect(expected.length, 'the case streams more than one batch').toBeGreaterThan(30)
          const byPage: string[] = []
          for (let page = 1; (page - 1) * 30 < expected.length; page++)
            byPage.push(...ids((await rowsOf(oqo, { perPage: 30, page, ...(sort ? { sort } : {}) })).rows))
          const batches = await collect(plan, 30)
          expect(batches.length, labelOf(sort)).toBe(Math.ceil(expected.length / 30))
          for (const batch of batches) {
            expect(batch.count).toBe(expected.length)
            expect(batch.rows.length).toBeLessThanOrEqual(30)
          }
          const streamed = batches.flatMap((batch) => ids(batch.rows))
          expect(streamed, labelOf(sort)).toEqual(byPage)
          // Where a batch carries the stored bytes (an export sends them as they are), they are its rows.
          const decoder = new TextDecoder()
          for (const batch of batches)
            if (batch.jsonBytes !== undefined)
              expect(batch.jsonBytes.map((bytes) => JSON.parse(decoder.decode(bytes)))).toEqual(batch.rows)
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
          for await (const batch of streamRows(adapter, planOf({ get_rows: 'works' }), {
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

    describe('totals', () => {
      const totalOf = (records: readonly EntityRecord[], path: string): number =>
        records.reduce(
          (sum, record) =>
            sum + valuesAt(record, path).reduce<number>((a, v) => a + (typeof v === 'number' ? v : 0), 0),
          0,
        )

      it('sums numeric columns over every row the filter keeps, whatever the page, sample or grouping', async () => {
        expect(adapter.sumColumns, 'an adapter answers apc_sum and cited_by_count_sum').toBeDefined()
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
          const totals = await adapter.sumColumns!(plan)
          for (const [index, total] of totals.entries()) expect(total).toBeCloseTo(expected[index]!, 6)
        }
      })

      it('totals no rows as 0', async () => {
        const none: Oqo = { get_rows: 'works', filter_rows: [leaf('publication_year', 1000)] }
        expect(referenceRows(planOf(none), works, context)).toEqual([])
        expect(await adapter.sumColumns!(planOf(none, { sums: ['apc_sum', 'cited_by_count_sum'] }))).toEqual([
          0, 0, 0,
        ])
      })
    })

    describe('group by', () => {
      const groupsOf = async (
        oqo: Oqo,
        view: ViewParameters = {},
      ): Promise<[GroupsResult, Map<string, number>]> => {
        const plan = planOf(oqo, { perPage: 100, ...view })
        return [await adapter.queryGroups(plan), referenceGroups(plan, works, context)]
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

    describe('singletons', () => {
      // A found record, and its stored JSON text when the adapter gives it: the same record.
      const expectFound = (result: LookupResult, record: EntityRecord) => {
        expect(result.status).toBe('found')
        if (result.status !== 'found') return
        expect(result.record).toEqual(record)
        if (result.jsonBytes !== undefined)
          expect(JSON.parse(new TextDecoder().decode(result.jsonBytes))).toEqual(record)
      }

      it('finds a work by its id in any form and case, as stored', async () => {
        const work = works[0]!
        const short = shortIdOf(work)
        for (const form of [short, short.toLowerCase(), `https://openalex.org/${short}`]) {
          expectFound(await adapter.findById('works', form), work)
        }
      })

      it('answers missing ids, ids of another entity, merged ids', async () => {
        expect(await adapter.findById('works', 'W1')).toEqual(
          context.byId.has('W1') ? expect.objectContaining({ status: 'found' }) : { status: 'missing' },
        )
        expect(await adapter.findById('works', 'A5063410350')).toEqual({ status: 'missing' })
        for (const merged of fixture.mergedIds)
          expect(await adapter.findById(merged.entity, merged.oldId)).toEqual({
            status: 'merged',
            id: merged.newId,
          })
      })

      it('finds works by DOI (URL or bare, any case) and authors by ORCID', async () => {
        const dois = frequencies(works, 'doi').filter(([, count]) => count === 1)
        const doi = String(dois[0]![0])
        const work = works.find((record) => record.doi === doi)!
        for (const form of [doi, doi.replace(/^https:\/\/doi\.org\//, ''), doi.toUpperCase()])
          expectFound(await adapter.findByExternalId('works', 'doi', form), work)
        expect(await adapter.findByExternalId('works', 'doi', '10.0000/not-in-this-catalog')).toEqual({
          status: 'missing',
        })
        const authors = fixture.records.authors ?? []
        const orcids = frequencies(authors, 'orcid').filter(([, count]) => count === 1)
        if (orcids.length > 0) {
          const orcid = String(orcids[0]![0])
          const author = authors.find((record) => record.orcid === orcid)!
          const bare = orcid.replace(/^https:\/\/orcid\.org\//, '')
          expectFound(await adapter.findByExternalId('authors', 'orcid', bare), author)
        }
      })

      it('draws a random work of the catalog', async () => {
        const found = await adapter.findRandom('works')
        expect(found.status).toBe('found')
        if (found.status === 'found') expect(context.byId.has(shortIdOf(found.record))).toBe(true)
      })
    })

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
          const result = await adapter.queryGroups(plan)
          const expected = referenceGroups(plan, sources, { byId: new Map() })
          expect(new Map(result.groups.map((bucket) => [JSON.stringify(bucket.keys), bucket.count]))).toEqual(
            expected,
          )
        }
      })
    })
  })
}

export { leaf as leafFilter, not as notFilter, or as orFilter }
