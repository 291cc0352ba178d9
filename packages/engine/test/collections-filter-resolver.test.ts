import {
  CollectionError,
  type CollectionErrorCode,
  type FilterNode,
  isCollectionError,
  planQuery,
  type QueryPlan,
  type ResolvedCollection,
  refuseCollectionSearches,
  resolveCollectionFilters,
} from '@oqlkit/engine'
import { parseOql, urlToOqo } from '@oqlkit/oql'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

const planOf = (oqo: Oqo): QueryPlan => {
  const planned = planQuery(oqo, {})
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

const planOfUrl = (url: string): QueryPlan => {
  const read = urlToOqo(url)
  if (!read.ok) throw new Error(JSON.stringify(read.errors))
  return planOf(read.oqo)
}

const COLLECTIONS: Record<string, ResolvedCollection> = {
  col_works00001: { entityType: 'works', entityIds: ['W1', 'W2'] },
  col_works00002: { entityType: 'works', entityIds: ['W3'] },
  col_auth000001: { entityType: 'authors', entityIds: ['A1', 'A2', 'A3'] },
  col_auth000002: { entityType: 'authors', entityIds: ['A9'] },
  col_srcs000001: { entityType: 'sources', entityIds: ['S1'] },
  col_inst000001: { entityType: 'institutions', entityIds: ['I1'] },
  col_topc000001: { entityType: 'topics', entityIds: ['T1'] },
  col_fund000001: { entityType: 'funders', entityIds: ['F1'] },
  col_sdgs000001: { entityType: 'sdgs', entityIds: ['sdgs/3'] },
  col_kwds000001: { entityType: 'keywords', entityIds: ['keywords/x'] },
  col_empty00001: { entityType: 'works', entityIds: [] },
  col_bigauthors: { entityType: 'authors', entityIds: Array.from({ length: 1000 }, (_, i) => `A${i + 1}`) },
}

const looked: string[] = []
const lookup = async (id: string): Promise<ResolvedCollection> => {
  looked.push(id)
  const found = COLLECTIONS[id]
  if (found === undefined) throw new CollectionError('collection_not_found', `No collection ${id}`)
  return found
}

const resolve = (url: string) => resolveCollectionFilters(planOfUrl(url), lookup)

const refusal = async (url: string): Promise<{ code: CollectionErrorCode; message: string }> => {
  try {
    await resolve(url)
  } catch (error) {
    if (isCollectionError(error)) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error(`${url} was accepted`)
}

const inList = (column: string, values: string[]) => ({
  kind: 'in-list',
  column: { id: column, kind: 'entity_id' },
  values,
})

describe('resolving collection filters', () => {
  it('leaves a plan without collections as it was, looking nothing up', async () => {
    looked.length = 0
    const plan = planOfUrl('/works?filter=publication_year:2020')
    expect(await resolveCollectionFilters(plan, lookup)).toBe(plan)
    expect(looked).toEqual([])
  })

  it("replaces collection: by an id list on the endpoint's own id column", async () => {
    expect((await resolve('/works?filter=collection:col_works00001')).filter).toEqual(
      inList('ids.openalex', ['W1', 'W2']),
    )
    expect((await resolve('/authors?filter=collection:col_auth000001')).filter).toEqual(
      inList('ids.openalex', ['A1', 'A2', 'A3']),
    )
    expect((await resolve('/sdgs?filter=collection:col_sdgs000001')).filter).toEqual(inList('id', ['sdgs/3']))
    expect((await resolve('/keywords?filter=collection:col_kwds000001')).filter).toEqual(
      inList('id', ['keywords/x']),
    )
  })

  it('keeps negation, the other filters and the rest of the plan', async () => {
    const plan = planOfUrl('/works?filter=collection:!col_works00001,publication_year:2020')
    const resolved = await resolveCollectionFilters(plan, lookup)
    expect(resolved.filter).toEqual({
      kind: 'and',
      children: [
        { kind: 'not', child: inList('ids.openalex', ['W1', 'W2']) },
        {
          kind: 'comparison',
          column: { id: 'publication_year', kind: 'number' },
          operator: '=',
          value: 2020,
        },
      ],
    })
    expect({ ...resolved, filter: null }).toEqual({ ...plan, filter: null })
    expect(Object.isFrozen(resolved)).toBe(true)
  })

  it('resolves cross-type collections on ID fields, one per field', async () => {
    const resolved = await resolve(
      '/works?filter=primary_location.source.id:col_srcs000001,authorships.author.id:!col_auth000001,authorships.institutions.id:col_inst000001,primary_topic.id:col_topc000001,funders.id:col_fund000001',
    )
    const children = (resolved.filter as Extract<FilterNode, { kind: 'and' }>).children
    expect(children).toContainEqual(inList('primary_location.source.id', ['S1']))
    expect(children).toContainEqual({
      kind: 'not',
      child: inList('authorships.author.id', ['A1', 'A2', 'A3']),
    })
    expect(children).toContainEqual(inList('authorships.institutions.id', ['I1']))
    expect(children).toContainEqual(inList('primary_topic.id', ['T1']))
    expect(children).toContainEqual(inList('funders.id', ['F1']))
    expect((await resolve('/authors?filter=last_known_institutions.id:col_inst000001')).filter).toEqual(
      inList('last_known_institutions.id', ['I1']),
    )
  })

  it('resolves the OQL and OQO forms (is in collection) the same way', async () => {
    const parsed = parseOql('works where author is in collection (col_auth000001)')
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    expect((await resolveCollectionFilters(planOf(parsed.oqo), lookup)).filter).toEqual(
      inList('authorships.author.id', ['A1', 'A2', 'A3']),
    )
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'collection', value: 'col_works00002', operator: 'in collection', is_negated: true },
      ],
    }
    expect((await resolveCollectionFilters(planOf(oqo), lookup)).filter).toEqual({
      kind: 'not',
      child: inList('ids.openalex', ['W3']),
    })
  })

  it('resolves an empty collection to an empty list (no rows), never to no filter', async () => {
    expect((await resolve('/works?filter=collection:col_empty00001')).filter).toEqual(
      inList('ids.openalex', []),
    )
  })

  it('refuses a collection of another type than the endpoint, naming both', async () => {
    expect(await refusal('/works?filter=collection:col_auth000001')).toMatchObject({
      code: 'collection_filter_type_mismatch',
      message: expect.stringContaining("collection col_auth000001 is type 'authors', not valid for /works"),
    })
  })

  it("refuses a collection of another type than the field's, naming both sides", async () => {
    const { code, message } = await refusal('/works?filter=authorships.author.id:col_srcs000001')
    expect(code).toBe('collection_filter_type_mismatch')
    expect(message).toContain('authorships.author.id holds authors ids')
    expect(message).toContain("col_srcs000001 is type 'sources'")
  })

  it.each([
    ['/works?filter=collection:col_works00001,collection:col_works00002', 'collection_filter_repeated'],
    ['/works?filter=collection:col_works00001|col_works00002', 'collection_filter_or'],
    ['/works?filter=authorships.author.id:col_auth000001|col_auth000002', 'collection_filter_or'],
    ['/works?filter=authorships.author.id:col_auth000001|A5', 'collection_filter_mixed'],
    ['/works?filter=authorships.author.id:col_auth000001+A5', 'collection_filter_mixed'],
    ['/works?filter=authorships.author.id:!col_auth000001|col_auth000002', 'collection_filter_same_field'],
    [
      '/works?filter=authorships.author.id:col_auth000001,authorships.author.id:col_auth000002',
      'collection_filter_same_field',
    ],
  ])('refuses %s (%s) before looking anything up', async (url, code) => {
    looked.length = 0
    expect((await refusal(url)).code).toBe(code)
    expect(looked).toEqual([])
  })

  it('refuses ORed collections on different fields in OQL too', async () => {
    const parsed = parseOql(
      'works where (author is in collection (col_auth000001) or institution is in collection (col_inst000001))',
    )
    if (!parsed.ok) throw new Error(JSON.stringify(parsed))
    await expect(resolveCollectionFilters(planOf(parsed.oqo), lookup)).rejects.toMatchObject({
      code: 'collection_filter_or',
    })
  })

  it('lets different fields carry one collection each, and a collection sit beside literals of other fields', async () => {
    const resolved = await resolve(
      '/works?filter=collection:col_works00001,authorships.author.id:col_auth000001,authorships.institutions.id:I5',
    )
    expect(resolved.filter?.kind).toBe('and')
  })

  it('passes on what the lookup refuses (401, 403, 404)', async () => {
    expect((await refusal('/works?filter=collection:col_unknown0001')).code).toBe('collection_not_found')
  })

  it('refuses more than 10,000 resolved ids in one request, and takes exactly 10,000', async () => {
    // Eleven ID fields of /works, each given a collection of 1,000 ids of its type.
    const fields: [string, 'works' | 'institutions'][] = [
      ['collection', 'works'],
      ['cited_by', 'works'],
      ['referenced_works', 'works'],
      ['related_to', 'works'],
      ['datasets', 'works'],
      ['ids.openalex', 'works'],
      ['authorships.institutions.id', 'institutions'],
      ['authorships.institutions.lineage', 'institutions'],
      ['corresponding_institution_ids', 'institutions'],
      ['institution_assertions.id', 'institutions'],
      ['institution_assertions.lineage', 'institutions'],
    ]
    const big = new Map<string, ResolvedCollection>()
    const clauses = fields.map(([field, entityType], index) => {
      const id = `col_big${String(index).padStart(7, '0')}`
      const letter = entityType === 'works' ? 'W' : 'I'
      big.set(id, {
        entityType,
        entityIds: Array.from({ length: 1000 }, (_, i) => `${letter}${index * 1000 + i + 1}`),
      })
      return `${field}:${id}`
    })
    const bigLookup = async (id: string) => big.get(id) ?? lookup(id)
    const ten = await resolveCollectionFilters(
      planOfUrl(`/works?filter=${clauses.slice(0, 10).join(',')}`),
      bigLookup,
    )
    expect((ten.filter as Extract<FilterNode, { kind: 'and' }>).children).toHaveLength(10)
    await expect(
      resolveCollectionFilters(planOfUrl(`/works?filter=${clauses.join(',')}`), bigLookup),
    ).rejects.toMatchObject({
      code: 'too_many_collection_ids',
      message: expect.stringContaining('11000 ids'),
    })
  })

  it('refuses a collection id given to any text search before looking anything up; quoted, it is text', async () => {
    for (const url of [
      '/works?filter=title.search:col_works00001',
      '/works?filter=title.search:!col_works00001',
      '/works?filter=abstract.search:dogs|col_works00001',
      '/works?filter=title.search.no_stem:col_works00001',
      '/works?search=col_works00001',
      '/works?search.semantic=col_works00001',
      '/works?filter=collection:col_works00001,title.search:col_works00002',
    ]) {
      looked.length = 0
      const refused = await refusal(url)
      expect(refused.code, url).toBe('collection_filter_search')
      expect(refused.message, url).toMatch(
        /is a text search, so it cannot take the collection col_works0000[12]/,
      )
      expect(looked, url).toEqual([])
    }
    for (const url of [
      '/works?filter=title.search:%22col_works00001%22',
      '/works?filter=title.search:col_works00001%20frogs',
      '/works?filter=title.search:collection',
    ])
      expect(() => refuseCollectionSearches(planOfUrl(url)), url).not.toThrow()
  })
})
