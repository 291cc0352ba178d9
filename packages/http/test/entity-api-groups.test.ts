import { afterAll, describe, expect, it } from 'vitest'
import { get, useSampleApp } from './support/sample-app.ts'
import { coreWorks, type Row, sampleRecords, shortOf, valuesAt } from './support/sample-records.ts'

// GET /{entities}?group_by=…: URL-form keys with display names, counts, boolean and list columns, the
// unknown bucket, nested dimensions, bucket order, q and cursor paging; expected values from the records.

interface Bucket {
  key: string
  key_display_name: string
  count: number
  groups?: Bucket[]
}

interface GroupBody {
  meta: Record<string, unknown> & {
    count: number
    groups_count: number
    page: number | null
    next_cursor?: string | null
    q?: string
  }
  group_by: Bucket[]
  results?: unknown
}

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const groups = async (path: string): Promise<GroupBody> => {
  const response = await get<GroupBody>(sample, path)
  if (response.status !== 200)
    throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

/** Works per value of a path, each work counted once per distinct value. */
const tally = (path: string, key: (value: unknown) => string = String): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const work of coreWorks())
    for (const value of new Set(valuesAt(work, path).map(key)))
      counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

const asMap = (buckets: readonly Bucket[]): Map<string, number> =>
  new Map(buckets.map((bucket) => [bucket.key, bucket.count]))

const displayNames = (folder: string): Map<string, string> =>
  new Map(sampleRecords(folder).map((record: Row) => [String(record.id), String(record.display_name)]))

describe('group_by: keys, names and counts', () => {
  it('groups by a vocabulary column with URL-form keys and the vocabulary names', async () => {
    const body = await groups('/works?group_by=type&per_page=100')
    const expected = new Map([...tally('type')].map(([type, n]) => [`https://openalex.org/types/${type}`, n]))
    expect(asMap(body.group_by)).toEqual(expected)
    expect(body.meta.groups_count).toBe(expected.size)
    expect(body.meta.count).toBe(coreWorks().length)
    expect(body.results).toBeUndefined()
    // Work types are named by their code; the sample's work-types folder lacks the rarer ones (grant).
    const names = displayNames('work-types')
    for (const bucket of body.group_by)
      expect(bucket.key_display_name).toBe(names.get(bucket.key) ?? shortOf(bucket.key))
    const counts = body.group_by.map((bucket) => bucket.count)
    expect([...counts].sort((a, b) => b - a)).toEqual(counts)
  })

  it('groups by a list column, counting each work once per value', async () => {
    const body = await groups('/works?group_by=authorships.countries&per_page=100')
    const expected = new Map(
      [...tally('authorships.countries')].map(([code, n]) => [`https://openalex.org/countries/${code}`, n]),
    )
    expect(asMap(body.group_by)).toEqual(expected)
    const names = displayNames('countries')
    for (const bucket of body.group_by) expect(bucket.key_display_name).toBe(names.get(bucket.key))
  })

  it('groups by an entity id with the entity display names', async () => {
    const body = await groups('/works?group-by=authorships.institutions.id&per_page=50')
    const expected = tally('authorships.institutions.id', (id) => `https://openalex.org/${shortOf(id)}`)
    expect(body.meta.groups_count).toBe(expected.size)
    const names = displayNames('institutions')
    for (const bucket of body.group_by) {
      expect(bucket.count).toBe(expected.get(bucket.key))
      expect(bucket.key_display_name).toBe(names.get(bucket.key))
    }
  })

  it('groups by a boolean column into true and false', async () => {
    const body = await groups('/works?group_by=open_access.is_oa')
    expect(asMap(body.group_by)).toEqual(tally('open_access.is_oa'))
    expect(body.group_by.map((bucket) => bucket.key_display_name).sort()).toEqual(['false', 'true'])
  })

  it('adds the unknown bucket only with :include_unknown', async () => {
    const missing = coreWorks().filter((work) => work.language == null).length
    const plain = await groups('/works?group_by=language&per_page=100')
    expect(plain.group_by.some((bucket) => bucket.key === 'unknown')).toBe(false)
    const withUnknown = await groups('/works?group_by=language:include_unknown&per_page=100')
    expect(withUnknown.group_by.find((bucket) => bucket.key === 'unknown')).toEqual({
      key: 'unknown',
      key_display_name: 'unknown',
      count: missing,
    })
    expect(withUnknown.meta.groups_count).toBe(plain.meta.groups_count + 1)
  })

  it('nests a second dimension inside each bucket of the first', async () => {
    const body = await groups('/works?group_by=type,open_access.is_oa&per_page=100')
    for (const bucket of body.group_by) {
      const type = shortOf(bucket.key)
      const ofType = coreWorks().filter((work) => work.type === type)
      expect(bucket.count).toBe(ofType.length)
      const expected = new Map<string, number>()
      for (const work of ofType) {
        const oa = String(valuesAt(work, 'open_access.is_oa')[0])
        expected.set(oa, (expected.get(oa) ?? 0) + 1)
      }
      expect(asMap(bucket.groups ?? [])).toEqual(expected)
    }
  })
})

describe('group_by: order, q and paging', () => {
  it('sorts buckets by key or count, in either direction', async () => {
    const byKey = await groups('/works?group_by=publication_year&sort=key:asc&per_page=100')
    const years = byKey.group_by.map((bucket) => Number(bucket.key))
    expect(years).toEqual(
      [...new Set(coreWorks().map((work) => work.publication_year as number))].sort((a, b) => a - b),
    )
    const byKeyDesc = await groups('/works?group_by=publication_year&sort=key:desc&per_page=100')
    expect(byKeyDesc.group_by.map((bucket) => Number(bucket.key))).toEqual([...years].reverse())
    const ascending = await groups('/works?group_by=type&sort=count:asc&per_page=100')
    const counts = ascending.group_by.map((bucket) => bucket.count)
    expect([...counts].sort((a, b) => a - b)).toEqual(counts)
  })

  it('q keeps the buckets whose name contains it, and says so in meta', async () => {
    const body = await groups('/works?group_by=authorships.countries&q=united&per_page=100')
    expect(body.meta.q).toBe('united')
    const expected = [...tally('authorships.countries').keys()].filter((code) =>
      (displayNames('countries').get(`https://openalex.org/countries/${code}`) ?? '')
        .toLowerCase()
        .includes('united'),
    )
    expect(body.group_by.map((bucket) => shortOf(bucket.key)).sort()).toEqual(expected.sort())
    for (const bucket of body.group_by) expect(bucket.key_display_name.toLowerCase()).toContain('united')
    expect(body.meta.count).toBe(expected.length)
  })

  it('pages buckets by cursor until next_cursor is null, each bucket once', async () => {
    const keys: string[] = []
    let cursor: string | null | undefined = '*'
    let total = 0
    while (typeof cursor === 'string') {
      const body: GroupBody = await groups(
        `/works?group_by=keywords.id&per_page=100&cursor=${encodeURIComponent(cursor)}`,
      )
      // An integer, as the API description types it, on every cursor page.
      expect(body.meta.page).toBe(1)
      keys.push(...body.group_by.map((bucket) => bucket.key))
      total = body.meta.groups_count
      cursor = body.meta.next_cursor
    }
    expect(keys.length).toBe(total)
    expect(new Set(keys).size).toBe(total)
    expect(total).toBe(tally('keywords.id').size)
  })

  it('pages buckets by number too, under any order', async () => {
    const all = await groups('/works?group_by=publication_year&sort=key:asc&per_page=40')
    const second = await groups('/works?group_by=publication_year&sort=key:asc&per_page=20&page=2')
    expect(second.group_by).toEqual(all.group_by.slice(20, 40))
  })
})

describe('a mistyped group_by', () => {
  it('answers 400 naming the column meant, as a mistyped filter does', async () => {
    for (const path of ['/works?group_by=yeer', '/works?filter=yeer:2020']) {
      const response = await get<{ code: string; message: string }>(sample, path)
      expect(response.status, path).toBe(400)
      expect(response.body.message, path).toContain("Did you mean 'publication_year'?")
    }
  })
})
