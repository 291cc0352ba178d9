// Filters on each kind of column: numbers, dates, booleans, enums, nulls, OR lists, ids in every form,
// nested record fields, citations, and random combinations checked against the reference evaluator.
import type { Filter, Oqo } from '@oqlkit/oqo-schema/registry'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type ConformanceSuite,
  frequencies,
  leaf,
  mostFrequent,
  not,
  or,
  planOf,
  shortOf,
} from './conformance-suite.ts'
import { shortIdOf, valuesAt } from './reference-evaluator.ts'

export function describeFilterCases(suite: ConformanceSuite): void {
  const { works, context, rowsOf, expectedCount, expectCount } = suite
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
      expect(await expectCount([leaf('authorships.author.id', `https://openalex.org/${author}`)])).toBe(count)
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
      expect(await expectCount([leaf('doi', doi)])).toBe(await expectCount([leaf('doi', bare.toUpperCase())]))
      const citing = works.find((record) =>
        valuesAt(record, 'referenced_works').some((id) => context.byId.has(shortOf(id))),
      )!
      await expectCount([leaf('cited_by', shortIdOf(citing))])
      const cited = shortOf(valuesAt(citing, 'referenced_works').find((id) => context.byId.has(shortOf(id))))
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
      await expect(suite.adapter.queryRows(plan)).rejects.toThrow()
    })
  })
}
