import { afterAll, describe, expect, it } from 'vitest'
import { get, useSampleApp } from './support/sample-app.ts'
import { coreWorks, type Row, sampleRecords, shortOf, valuesAt } from './support/sample-records.ts'

// GET /{entities}: the envelope, the filter grammar, search, sort, paging, sample and select, against the
// bundled sample; expected values come from the snapshot's records, read without the code under test.

interface ListBody {
  meta: Record<string, unknown> & {
    count: number
    page: number | null
    per_page: number
    next_cursor?: string | null
    cost_usd: number
    x_query: { oql: string | null; oqo: Record<string, unknown>; url: string | null }
  }
  results: Row[]
  group_by: unknown[]
}

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const list = async (path: string): Promise<ListBody> => {
  const response = await get<ListBody>(sample, path)
  if (response.status !== 200)
    throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

const count = async (path: string): Promise<number> => (await list(path)).meta.count

/** Every id a list query matches, read by cursor. */
const allIds = async (path: string): Promise<string[]> => {
  const ids: string[] = []
  let cursor: string | null | undefined = '*'
  while (typeof cursor === 'string') {
    const separator = path.includes('?') ? '&' : '?'
    const body: ListBody = await list(
      `${path}${separator}per_page=100&select=id&cursor=${encodeURIComponent(cursor)}`,
    )
    ids.push(...body.results.map((row) => shortOf(row.id)))
    cursor = body.meta.next_cursor
  }
  return ids
}

const worksWhere = (keep: (work: Row) => boolean): number => coreWorks().filter(keep).length
const year = (work: Row) => work.publication_year as number

const ENTITY_FOLDERS = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'keywords',
  'publishers',
  'funders',
  'awards',
  'domains',
  'fields',
  'subfields',
  'sdgs',
  'countries',
  'continents',
  'languages',
  'work-types',
  'source-types',
  'institution-types',
  'licenses',
  'concepts',
]

describe('GET /{entities}: every entity path and the envelope', () => {
  it.each(ENTITY_FOLDERS)('/%s lists its records with the full envelope', async (folder) => {
    const body = await list(`/${folder}`)
    expect(Object.keys(body.meta)).toEqual([
      'count',
      'db_response_time_ms',
      'page',
      'per_page',
      'groups_count',
      'cost_usd',
      'x_query',
    ])
    expect(body.meta.count).toBe(sampleRecords(folder).length)
    expect(body.meta).toMatchObject({ page: 1, per_page: 25, groups_count: null, cost_usd: 0.0001 })
    expect(Number.isInteger(body.meta.db_response_time_ms)).toBe(true)
    expect(body.results.length).toBe(Math.min(25, sampleRecords(folder).length))
    expect(body.group_by).toEqual([])
    const ids = new Set(sampleRecords(folder).map((record) => record.id))
    for (const row of body.results) expect(ids.has(row.id)).toBe(true)
  })

  it('writes the query in its three forms in meta.x_query, and the URL form reads back to the same rows', async () => {
    const body = await list('/works?filter=publication_year:2020,type:article&sort=cited_by_count:desc')
    expect(body.meta.x_query.oqo).toMatchObject({ get_rows: 'works' })
    expect(typeof body.meta.x_query.oql).toBe('string')
    expect(body.meta.x_query.oql).toContain('2020')
    const url = body.meta.x_query.url
    expect(url).toMatch(/^\/works\?/)
    const again = await list(url!)
    expect(again.meta.count).toBe(body.meta.count)
    expect(again.results.map((row) => row.id)).toEqual(body.results.map((row) => row.id))
  })

  it('serves work types at /types too, the path the URL form writes for them, and runs that URL back', async () => {
    const body = await list('/work-types?filter=works_count:>0')
    expect(body.meta.x_query.url).toMatch(/^\/types\?/)
    const again = await list(body.meta.x_query.url!)
    expect(again.results.map((row) => row.id)).toEqual(body.results.map((row) => row.id))
    const one = await get<Row>(sample, '/types/article')
    expect([one.status, one.body.id]).toEqual([200, 'https://openalex.org/types/article'])
  })

  it('prices a list, a search and a group query from the one price table', async () => {
    expect((await list('/works?filter=is_oa:true')).meta.cost_usd).toBe(0.0001)
    expect((await list('/works?search=cancer')).meta.cost_usd).toBe(0.001)
    expect((await list('/works?filter=display_name.search:cancer')).meta.cost_usd).toBe(0.001)
    expect((await get<ListBody>(sample, '/works?group_by=type')).body.meta.cost_usd).toBe(0.0001)
  })

  it('accepts api_key and mailto without changing the answer', async () => {
    expect(await count('/works?api_key=abc123&mailto=me@example.org&filter=publication_year:2020')).toBe(
      worksWhere((work) => year(work) === 2020),
    )
  })
})

describe('GET /works: the filter value grammar', () => {
  it('reads single values, ranges, comparisons, OR lists and AND across filters', async () => {
    expect(await count('/works?filter=publication_year:2020')).toBe(worksWhere((work) => year(work) === 2020))
    expect(await count('/works?filter=publication_year:2015-2018')).toBe(
      worksWhere((work) => year(work) >= 2015 && year(work) <= 2018),
    )
    expect(await count('/works?filter=publication_year:>2020')).toBe(worksWhere((work) => year(work) > 2020))
    expect(await count('/works?filter=publication_year:<1990')).toBe(worksWhere((work) => year(work) < 1990))
    expect(await count('/works?filter=publication_year:2019|2021')).toBe(
      worksWhere((work) => year(work) === 2019 || year(work) === 2021),
    )
    expect(await count('/works?filter=publication_year:2020,type:article')).toBe(
      worksWhere((work) => year(work) === 2020 && work.type === 'article'),
    )
    expect(await count('/works?filter=cited_by_count:>1000')).toBe(
      worksWhere((work) => (work.cited_by_count as number) > 1000),
    )
  })

  it('negates with a leading !, keeping rows without a value', async () => {
    expect(await count('/works?filter=type:!article')).toBe(worksWhere((work) => work.type !== 'article'))
    expect(await count('/works?filter=type:!article|book')).toBe(
      worksWhere((work) => work.type !== 'article' && work.type !== 'book'),
    )
  })

  it('reads null and !null', async () => {
    const noLanguage = worksWhere((work) => work.language == null)
    expect(noLanguage).toBeGreaterThan(0)
    expect(await count('/works?filter=language:null')).toBe(noLanguage)
    expect(await count('/works?filter=language:!null')).toBe(coreWorks().length - noLanguage)
  })

  it('reads from_/to_ dates as inclusive bounds', async () => {
    const date = (work: Row) => String(work.publication_date)
    expect(await count('/works?filter=from_publication_date:2020-01-01,to_publication_date:2020-06-30')).toBe(
      worksWhere((work) => date(work) >= '2020-01-01' && date(work) <= '2020-06-30'),
    )
  })

  it('reads booleans under their alias (is_oa is open_access.is_oa)', async () => {
    const open = worksWhere((work) => valuesAt(work, 'open_access.is_oa')[0] === true)
    expect(await count('/works?filter=is_oa:true')).toBe(open)
    expect(await count('/works?filter=open_access.is_oa:false')).toBe(coreWorks().length - open)
  })

  it('normalises ids written as URLs or short ids, in any case', async () => {
    const counts = new Map<string, number>()
    for (const work of coreWorks())
      for (const id of new Set(valuesAt(work, 'authorships.institutions.id').map(shortOf)))
        counts.set(id, (counts.get(id) ?? 0) + 1)
    const [institution, expected] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!
    expect(await count(`/works?filter=authorships.institutions.id:${institution}`)).toBe(expected)
    expect(await count(`/works?filter=authorships.institutions.id:${institution.toLowerCase()}`)).toBe(
      expected,
    )
    expect(
      await count(
        `/works?filter=authorships.institutions.id:${encodeURIComponent(`https://openalex.org/${institution}`)}`,
      ),
    ).toBe(expected)
    const doi = await list('/works?filter=doi:https://doi.org/10.7717/PEERJ.4375&select=id')
    expect(doi.results.map((row) => row.id)).toEqual(['https://openalex.org/W2741809807'])
    expect((await list('/works?filter=doi:10.7717/peerj.4375&select=id')).results).toEqual(doi.results)
  })

  it('takes the id-list filter as openalex_id, openalex and service', async () => {
    const wanted = coreWorks()
      .slice(0, 3)
      .map((work) => shortOf(work.id))
      .sort()
    for (const key of ['openalex_id', 'openalex', 'service', 'ids.openalex']) {
      const ids = await allIds(`/works?filter=${key}:${wanted.join('|')}`)
      expect(ids.sort()).toEqual(wanted)
    }
  })

  it('keeps a quoted value with commas as one value', async () => {
    const titled = coreWorks().find((work) => String(work.display_name).includes(', '))!
    const title = String(titled.display_name)
    const body = await list(
      `/works?filter=display_name:${encodeURIComponent(`"${title}"`)}&select=id,display_name`,
    )
    expect(body.meta.count).toBeGreaterThanOrEqual(1)
    for (const row of body.results) expect(String(row.display_name).toLowerCase()).toBe(title.toLowerCase())
  })
})

describe('GET /works: search, sort and select', () => {
  it('search= ranks by relevance_score, which only searched rows carry', async () => {
    const body = await list('/works?search=cancer&per_page=50')
    expect(body.meta.count).toBeGreaterThan(0)
    const scores = body.results.map((row) => row.relevance_score as number)
    for (const score of scores) expect(score).toBeGreaterThan(0)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect((await list('/works?per_page=5')).results.some((row) => 'relevance_score' in row)).toBe(false)
  })

  it('search.title is the display_name.search filter, and .exact the unstemmed one', async () => {
    const byParameter = await list('/works?search.title=statistics&per_page=100&select=id,display_name')
    const byFilter = await list('/works?filter=title.search:statistics&per_page=100&select=id,display_name')
    expect(byParameter.results.map((row) => row.id)).toEqual(byFilter.results.map((row) => row.id))
    for (const row of byParameter.results) expect(String(row.display_name)).toMatch(/statistic/i)
    const exact = await list('/works?search.title.exact=statistics&per_page=100&select=id,display_name')
    for (const row of exact.results) expect(String(row.display_name)).toMatch(/statistics/i)
    expect(exact.meta.count).toBeLessThanOrEqual(byParameter.meta.count)
  })

  it('sorts by several keys, each in its direction', async () => {
    const body = await list('/works?sort=publication_year:desc,cited_by_count:asc&per_page=100')
    const pairs = body.results.map((row) => [row.publication_year as number, row.cited_by_count as number])
    for (let i = 1; i < pairs.length; i++) {
      const [previous, current] = [pairs[i - 1]!, pairs[i]!]
      expect(previous[0]! > current[0]! || (previous[0] === current[0] && previous[1]! <= current[1]!)).toBe(
        true,
      )
    }
    const top = coreWorks()
      .map((work) => work.cited_by_count as number)
      .sort((a, b) => b - a)
    const cited = await list('/works?sort=cited_by_count:desc&per_page=10&select=cited_by_count')
    expect(cited.results.map((row) => row.cited_by_count)).toEqual(top.slice(0, 10))
  })

  it('select keeps the named top-level fields, on lists of every kind', async () => {
    const body = await list('/works?select=id,doi,publication_year&per_page=5')
    for (const row of body.results) expect(Object.keys(row).sort()).toEqual(['doi', 'id', 'publication_year'])
    const searched = await list('/works?search=cancer&select=id,relevance_score&per_page=3')
    for (const row of searched.results) expect(Object.keys(row).sort()).toEqual(['id', 'relevance_score'])
    const authors = await list('/authors?select=display_name&per_page=3')
    for (const row of authors.results) expect(Object.keys(row)).toEqual(['display_name'])
  })
})

describe('GET /works: pages, cursors and samples', () => {
  it('takes per_page and per-page (default 25), and pages that follow on', async () => {
    expect((await list('/works')).results).toHaveLength(25)
    const five = await list('/works?per-page=5&sort=cited_by_count:desc&select=id')
    expect(five.meta.per_page).toBe(5)
    expect(five.results).toHaveLength(5)
    const ten = await list('/works?per_page=10&sort=cited_by_count:desc&select=id')
    const second = await list('/works?per_page=5&page=2&sort=cited_by_count:desc&select=id')
    expect(second.meta.page).toBe(2)
    expect([...five.results, ...second.results]).toEqual(ten.results)
  })

  it('walks every row once by cursor, and ends with a null next_cursor', async () => {
    const first = await list('/works?cursor=*&per_page=100&select=id')
    expect(typeof first.meta.next_cursor).toBe('string')
    // meta.page is an integer under cursor paging too (the API description types it so): 1 on every page.
    const second = await list(`/works?cursor=${first.meta.next_cursor}&per_page=100&select=id`)
    expect([first.meta.page, second.meta.page]).toEqual([1, 1])
    const ids = await allIds('/works?sort=publication_year:desc')
    expect(ids).toHaveLength(coreWorks().length)
    expect(new Set(ids).size).toBe(coreWorks().length)
    const last = await list(`/works?filter=publication_year:2020&cursor=*&per_page=100`)
    expect(last.meta.next_cursor).toBeNull()
  })

  it('samples the same rows for the same seed, pages through them, and counts at most the sample', async () => {
    const first = await list('/works?sample=20&seed=oqlkit&per_page=20&select=id')
    const again = await list('/works?sample=20&seed=oqlkit&per_page=20&select=id')
    expect(first.meta.count).toBe(20)
    expect(again.results).toEqual(first.results)
    const pageTwo = await list('/works?sample=20&seed=oqlkit&per_page=10&page=2&select=id')
    expect(pageTwo.results).toEqual(first.results.slice(10))
    const few = worksWhere((work) => year(work) === 2020)
    expect(await count('/works?sample=10000&filter=publication_year:2020')).toBe(few)
  })
})
