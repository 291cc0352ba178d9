import { createApp } from '@oqlkit/http'
import type { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS, STORE_KINDS, send, testCallers } from './support/collection-stores.ts'
import { useSampleApp } from './support/sample-app.ts'
import { coreWorks, type Row, sampleRecords, shortOf, valuesAt } from './support/sample-records.ts'

// Collection filters on the main API, against the bundled sample: collections are made through the
// collections API, then used in filters; expected rows come from the snapshot's records.

interface ListBody {
  meta: { count: number; page: number | null; per_page: number; next_cursor?: string | null }
  results: Row[]
  group_by?: { key: string; count: number }[]
}

const sample = useSampleApp()

const works = coreWorks()
const ids = (records: readonly Row[]) => records.map((record) => shortOf(record.id))
const sortedIds = (records: readonly Row[]) => ids(records).sort()
/** The distinct short ids found at a path of the core works, in order of first appearance. */
const idsAt = (path: string) => [...new Set(works.flatMap((work) => valuesAt(work, path).map(shortOf)))]
const worksWith = (path: string, members: readonly string[]) =>
  works.filter((work) => valuesAt(work, path).some((value) => members.includes(shortOf(value))))

const WORK_IDS = sortedIds(works).slice(3, 8)
const AUTHOR_IDS = idsAt('authorships.author.id').slice(0, 4)
const SOURCE_IDS = idsAt('primary_location.source.id').slice(0, 3)
const INSTITUTION_IDS = idsAt('authorships.institutions.id').slice(0, 3)
const TOPIC_IDS = idsAt('primary_topic.id').slice(0, 2)
const FUNDER_IDS = idsAt('funders.id').slice(0, 2)
const KEYWORD_SLUGS = idsAt('keywords.id').slice(0, 3)

describe.each(STORE_KINDS)('collection filters with the $name', (kind) => {
  const faults: unknown[] = []
  let app: H3
  const made: Record<string, string> = {}
  const create = async (key: string, entityType: string, entityIds: readonly string[]) => {
    const answer = await send<{ id: string }>(app, 'POST', '/me/collections', {
      key,
      body: {
        display_name: `${entityType} ${Object.keys(made).length}`,
        entity_type: entityType,
        entity_ids: entityIds,
      },
    })
    if (answer.status !== 201) throw new Error(JSON.stringify(answer.body))
    return answer.body.id
  }
  beforeAll(async () => {
    if (kind.skip) return
    app = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      collections: { store: await kind.open(), callers: testCallers },
      logError: (error) => {
        faults.push(error)
      },
    })
    made.works = await create(KEYS.ann, 'works', WORK_IDS)
    made.authors = await create(
      KEYS.ann,
      'authors',
      AUTHOR_IDS.map((id) => `https://openalex.org/${id}`),
    )
    made.sources = await create(KEYS.ann, 'sources', SOURCE_IDS)
    made.institutions = await create(KEYS.ann, 'institutions', INSTITUTION_IDS)
    made.topics = await create(KEYS.ann, 'topics', TOPIC_IDS)
    made.funders = await create(KEYS.ann, 'funders', FUNDER_IDS)
    made.emptyWorks = await create(KEYS.ann, 'works', [])
    made.otherAuthors = await create(KEYS.ann, 'authors', AUTHOR_IDS.slice(2))
    made.bobs = await create(KEYS.bob, 'works', WORK_IDS.slice(0, 2))
    // Keywords in both forms a collection takes: the catalog's slugs, and the K… ids of the API description.
    made.keywords = await create(KEYS.ann, 'keywords', [
      ...KEYWORD_SLUGS.map((slug) => `https://openalex.org/keywords/${slug}`),
      'K123456',
    ])
  })
  afterAll(() => expect(faults).toEqual([]))

  const list = async (path: string, key: string = KEYS.ann): Promise<ListBody> => {
    const answer = await send<ListBody>(app, 'GET', path, { key })
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }
  const refusal = async (path: string, key: string | null = KEYS.ann) => {
    const answer = await send<{ code: string; message: string; parameter?: string }>(
      app,
      'GET',
      path,
      key === null ? {} : { key },
    )
    return { status: answer.status, ...answer.body }
  }
  const resultIds = (body: ListBody) => body.results.map((row) => shortOf(row.id)).sort()

  describe.skipIf(kind.skip)('resolving', () => {
    it('filters an endpoint by a collection of its type, and excludes it with !', async () => {
      const body = await list(`/works?filter=collection:${made.works}&per_page=100`)
      expect(body.meta.count).toBe(WORK_IDS.length)
      expect(resultIds(body)).toEqual(WORK_IDS)
      expect((await list(`/works?filter=collection:!${made.works}`)).meta.count).toBe(
        works.length - WORK_IDS.length,
      )
      const authors = await list(`/authors?filter=collection:${made.authors}&per_page=100`)
      expect(resultIds(authors)).toEqual([...AUTHOR_IDS].sort())
      expect(resultIds(await list(`/sources?filter=collection:${made.sources}`))).toEqual(
        [...SOURCE_IDS].sort(),
      )
      expect(resultIds(await list(`/institutions?filter=collection:${made.institutions}`))).toEqual(
        [...INSTITUTION_IDS].sort(),
      )
      expect(resultIds(await list(`/topics?filter=collection:${made.topics}`))).toEqual([...TOPIC_IDS].sort())
    })

    it('takes the key as api_key= as well as Bearer', async () => {
      const answer = await send<ListBody>(
        app,
        'GET',
        `/works?filter=collection:${made.works}&api_key=${KEYS.ann}`,
      )
      expect(answer.status).toBe(200)
      expect(answer.body.meta.count).toBe(WORK_IDS.length)
    })

    it('combines with other filters, sort, select and paging', async () => {
      const years = new Map(works.map((work) => [shortOf(work.id), work.publication_year]))
      const year = years.get(WORK_IDS[0]!)
      const expected = WORK_IDS.filter((id) => years.get(id) === year)
      expect(
        resultIds(await list(`/works?filter=collection:${made.works},publication_year:${year}`)),
      ).toEqual(expected)
      const sorted = await list(
        `/works?filter=collection:${made.works}&sort=cited_by_count:desc&select=id,cited_by_count&per_page=2&page=2`,
      )
      const byCitations = works
        .filter((work) => WORK_IDS.includes(shortOf(work.id)))
        .sort(
          (a, b) =>
            Number(b.cited_by_count) - Number(a.cited_by_count) || String(a.id).localeCompare(String(b.id)),
        )
      expect(sorted.meta).toMatchObject({ count: WORK_IDS.length, page: 2, per_page: 2 })
      expect(sorted.results.map((row) => row.cited_by_count)).toEqual(
        byCitations.slice(2, 4).map((work) => work.cited_by_count),
      )
      expect(Object.keys(sorted.results[0]!).sort()).toEqual(['cited_by_count', 'id'])
    })

    it('groups the rows a collection filter keeps', async () => {
      const body = await list(`/works?filter=collection:${made.works}&group_by=publication_year`)
      const expected = new Map<string, number>()
      for (const work of works.filter((work) => WORK_IDS.includes(shortOf(work.id))))
        expected.set(String(work.publication_year), (expected.get(String(work.publication_year)) ?? 0) + 1)
      expect(new Map(body.group_by?.map((bucket) => [bucket.key, bucket.count]))).toEqual(expected)
    })

    it('pages by cursor through a collection', async () => {
      const seen: string[] = []
      let cursor: string | null | undefined = '*'
      while (typeof cursor === 'string') {
        const page: ListBody = await list(
          `/works?filter=collection:${made.works}&per_page=2&cursor=${encodeURIComponent(cursor)}`,
        )
        seen.push(...page.results.map((row) => shortOf(row.id)))
        cursor = page.meta.next_cursor
      }
      expect(seen.sort()).toEqual(WORK_IDS)
    })

    it.each([
      ['authorships.author.id', 'authors', () => AUTHOR_IDS],
      ['primary_location.source.id', 'sources', () => SOURCE_IDS],
      ['authorships.institutions.id', 'institutions', () => INSTITUTION_IDS],
      ['primary_topic.id', 'topics', () => TOPIC_IDS],
      ['funders.id', 'funders', () => FUNDER_IDS],
    ])('filters /works by a collection on %s, and excludes it with !', async (field, collection, members) => {
      const expected = worksWith(field, members())
      expect(expected.length).toBeGreaterThan(0)
      const body = await list(`/works?filter=${field}:${made[collection]}&per_page=100`)
      expect(body.meta.count).toBe(expected.length)
      expect(resultIds(body)).toEqual(sortedIds(expected).slice(0, 100))
      expect((await list(`/works?filter=${field}:!${made[collection]}`)).meta.count).toBe(
        works.length - expected.length,
      )
    })

    it('filters /authors by an institutions collection, and different fields each by one collection', async () => {
      const authors = sampleRecords('authors').filter((author) =>
        valuesAt(author, 'last_known_institutions.id').some((id) => INSTITUTION_IDS.includes(shortOf(id))),
      )
      expect((await list(`/authors?filter=last_known_institutions.id:${made.institutions}`)).meta.count).toBe(
        authors.length,
      )
      const both = worksWith('authorships.author.id', AUTHOR_IDS).filter((work) =>
        worksWith('primary_location.source.id', SOURCE_IDS).includes(work),
      )
      expect(
        (
          await list(
            `/works?filter=authorships.author.id:${made.authors},primary_location.source.id:${made.sources}`,
          )
        ).meta.count,
      ).toBe(both.length)
    })

    it('filters works by a keywords collection holding slugs and K… ids', async () => {
      expect(KEYWORD_SLUGS).toHaveLength(3)
      const body = await list(`/works?filter=keywords.id:${made.keywords}&per_page=100&select=id`)
      const expected = sortedIds(worksWith('keywords.id', KEYWORD_SLUGS))
      expect(expected.length).toBeGreaterThan(0)
      expect(resultIds(body)).toEqual(expected)
    })

    it('matches nothing through an empty collection, and everything through its negation', async () => {
      expect((await list(`/works?filter=collection:${made.emptyWorks}`)).meta.count).toBe(0)
      expect((await list(`/works?filter=collection:!${made.emptyWorks}`)).meta.count).toBe(works.length)
    })

    it('follows the collection as it changes', async () => {
      const id = await create(KEYS.ann, 'works', WORK_IDS.slice(0, 1))
      expect((await list(`/works?filter=collection:${id}`)).meta.count).toBe(1)
      await send(app, 'POST', `/me/collections/${id}/entities`, {
        key: KEYS.ann,
        body: { entity_ids: WORK_IDS.slice(1, 3) },
      })
      expect((await list(`/works?filter=collection:${id}`)).meta.count).toBe(3)
      await send(app, 'DELETE', `/me/collections/${id}`, { key: KEYS.ann })
      expect((await refusal(`/works?filter=collection:${id}`)).status).toBe(404)
    })

    it('resolves the OQL and OQO forms (is in collection) at the execute endpoint', async () => {
      const oql = encodeURIComponent(`works where work is in collection (${made.works})`)
      expect(resultIds(await list(`/?oql=${oql}&per_page=100`))).toEqual(WORK_IDS)
      const negated = encodeURIComponent(`works where author is not in collection (${made.authors})`)
      expect((await list(`/?oql=${negated}`)).meta.count).toBe(
        works.length - worksWith('authorships.author.id', AUTHOR_IDS).length,
      )
      const oqo = {
        get_rows: 'works',
        filter_rows: [
          { column_id: 'primary_location.source.id', value: made.sources, operator: 'in collection' },
        ],
      }
      const posted = await send<ListBody>(app, 'POST', '/', { key: KEYS.ann, body: { oqo, per_page: 100 } })
      expect(posted.status).toBe(200)
      expect(resultIds(posted.body)).toEqual(sortedIds(worksWith('primary_location.source.id', SOURCE_IDS)))
      expect((await list(`/?oqo=${encodeURIComponent(JSON.stringify(oqo))}`)).meta.count).toBe(
        posted.body.meta.count,
      )
      expect((await refusal(`/?oql=${oql}`, null)).status).toBe(401)
      expect((await refusal(`/?oql=${oql}`, KEYS.bob)).status).toBe(403)
      const mismatch = encodeURIComponent(`works where work is in collection (${made.authors})`)
      expect((await refusal(`/?oql=${mismatch}`)).status).toBe(400)
    })

    it("lets an admin filter by another user's collection", async () => {
      expect((await list(`/works?filter=collection:${made.bobs}`, KEYS.admin)).meta.count).toBe(2)
    })
  })

  describe.skipIf(kind.skip)('refusing', () => {
    it('answers 401 without a key and 403 for another user’s collection, never an empty result', async () => {
      const anonymous = await refusal(`/works?filter=collection:${made.works}`, null)
      expect(anonymous).toMatchObject({ status: 401, code: 'authentication_required' })
      expect(await refusal(`/works?filter=collection:${made.works}`, 'nobody-has-this-key')).toMatchObject({
        status: 401,
      })
      expect(await refusal(`/works?filter=collection:${made.bobs}`)).toMatchObject({
        status: 403,
        code: 'forbidden',
      })
      expect(await refusal(`/works?filter=authorships.author.id:!${made.authors}`, KEYS.bob)).toMatchObject({
        status: 403,
      })
      expect(await refusal('/works?filter=collection:col_Nowhere123')).toMatchObject({
        status: 404,
        code: 'collection_not_found',
      })
    })

    it('refuses a collection of another type than the endpoint, naming both', async () => {
      const answer = await refusal(`/works?filter=collection:${made.authors}`)
      expect(answer).toMatchObject({
        status: 400,
        code: 'collection_filter_type_mismatch',
        parameter: 'filter',
      })
      expect(answer.message).toContain(`collection ${made.authors} is type 'authors', not valid for /works`)
    })

    it('refuses a collection of another type than the field, naming both sides', async () => {
      const answer = await refusal(`/works?filter=authorships.author.id:${made.sources}`)
      expect(answer).toMatchObject({ status: 400, code: 'collection_filter_type_mismatch' })
      expect(answer.message).toContain('authorships.author.id holds authors ids')
      expect(answer.message).toContain("is type 'sources'")
    })

    it.each([
      [
        'two collection: filters',
        (m: Record<string, string>) => `collection:${m.works},collection:${m.emptyWorks}`,
        'collection_filter_repeated',
      ],
      [
        'ORed collections',
        (m: Record<string, string>) => `collection:${m.works}|${m.emptyWorks}`,
        'collection_filter_or',
      ],
      [
        'ORed collections on a field',
        (m: Record<string, string>) => `authorships.author.id:${m.authors}|${m.otherAuthors}`,
        'collection_filter_or',
      ],
      [
        'a collection ORed with ids',
        (m: Record<string, string>) => `authorships.author.id:${m.authors}|A1`,
        'collection_filter_mixed',
      ],
      [
        'a collection with ids (+)',
        (m: Record<string, string>) => `authorships.author.id:${m.authors}+A1`,
        'collection_filter_mixed',
      ],
      [
        'two collections on one field',
        (m: Record<string, string>) =>
          `authorships.author.id:${m.authors},authorships.author.id:${m.otherAuthors}`,
        'collection_filter_same_field',
      ],
    ])('refuses %s with 400', async (_label, filter, code) => {
      expect(await refusal(`/works?filter=${filter(made)}`)).toMatchObject({
        status: 400,
        code: code,
        parameter: 'filter',
      })
    })

    it('refuses a collection id given to a text search, whatever the search field or form', async () => {
      const id = made.works!
      const oql = (text: string) => `/?oql=${encodeURIComponent(text)}`
      for (const path of [
        `/works?filter=title.search:${id}`,
        `/works?filter=display_name.search:${id}`,
        `/works?filter=title_and_abstract.search:${id}`,
        `/works?filter=abstract.search:${id}`,
        `/works?filter=default.search:${id}`,
        `/works?filter=fulltext.search:${id}`,
        `/works?filter=raw_affiliation_strings.search:${id}`,
        `/works?filter=title.search.no_stem:${id}`,
        `/works?filter=title.search:!${id}`,
        `/works?filter=title.search:cats|${id}`,
        `/works?filter=publication_year:2020,title.search:${id}`,
        `/works?search=${id}`,
        `/works?search.title=${id}`,
        `/works?search.semantic=${id}`,
        `/authors?filter=display_name.search:${id}`,
        `/sources?search=${id}`,
        oql(`works where title has (${id})`),
        // Beside a collection filter that is fine on its own.
        `/works?filter=collection:${id},title.search:${id}`,
      ]) {
        const answer = await refusal(path)
        expect(answer, path).toMatchObject({
          status: 400,
          code: 'collection_filter_search',
          parameter: 'filter',
        })
        expect(answer.message, path).toContain(`cannot take the collection ${id}`)
        expect(answer.message, path).toContain(`collection:${id}`)
      }
      // Quoted, or among other words, the id is text to search for: no refusal, and no match.
      for (const path of [
        `/works?filter=title.search:%22${id}%22`,
        `/works?filter=title.search:${id}%20frogs`,
      ])
        expect((await list(path)).meta.count, path).toBe(0)
    })

    it('refuses a collection on a field that holds no ids, suggesting what to write instead', async () => {
      for (const filter of [
        `publication_year:${made.works}`,
        `is_oa:${made.works}`,
        `from_publication_date:${made.works}`,
      ]) {
        const answer = await refusal(`/works?filter=${filter}`)
        expect(answer).toMatchObject({ status: 400, parameter: 'filter' })
        expect(answer.message).toContain('is not an ID field')
        expect(answer.message).toContain(`collection:${made.works}`)
      }
    })
  })
})
