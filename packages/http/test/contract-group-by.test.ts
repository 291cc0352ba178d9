// group_by / group-by: bucket counts against counts over the sample records; boolean and list columns,
// `:include_unknown`, `q`, sort by key or count, up to 3 dimensions, cursor paging of groups, and every
// group-by-able registry field accepted.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import {
  bucketCounts,
  flattenGroups,
  type GroupBucket,
  getList,
  groupKey,
  type ListBody,
  request,
} from './support/contract-http.ts'
import {
  byId,
  ENTITY_PATHS,
  groupCounts,
  idKey,
  records,
  type SampleRecord,
  valuesAt,
  where,
} from './support/sample-oracle.ts'

const context = useContractApp()

const registry = JSON.parse(
  readFileSync(new URL('../../../spec/properties.json', import.meta.url), 'utf8'),
) as {
  properties: Record<string, Record<string, { actions: string[] }>>
}

const isUnknown = (bucket: GroupBucket) =>
  bucket.key === null ||
  String(bucket.key).toLowerCase() === 'unknown' ||
  bucket.key_display_name === 'unknown'

const known = (buckets: readonly GroupBucket[]) => buckets.filter((bucket) => !isUnknown(bucket))

/** Every bucket of a one-dimension group_by, following the cursor when there are more than one page. */
async function allBuckets(path: string): Promise<{ buckets: GroupBucket[]; first: ListBody }> {
  const join = path.includes('?') ? '&' : '?'
  const first = await getList(context.app, `${path}${join}per_page=100&cursor=*`)
  const buckets = [...(first.group_by ?? [])]
  let cursor = first.meta.next_cursor
  for (let guard = 0; typeof cursor === 'string'; guard++) {
    if (guard > 1000) throw new Error(`group cursor of ${path} did not end`)
    const body = await getList(context.app, `${path}${join}per_page=100&cursor=${encodeURIComponent(cursor)}`)
    buckets.push(...(body.group_by ?? []))
    cursor = body.meta.next_cursor
  }
  return { buckets, first }
}

const asMap = (counts: Map<string, number>) => Object.fromEntries([...counts.entries()].sort())

const countries = (w: SampleRecord) => [
  ...valuesAt(w, 'authorships.countries'),
  ...valuesAt(w, 'authorships.institutions.country_code'),
]

describe('works group_by', () => {
  it('type: one bucket per value, counts, key_display_name, meta', async () => {
    const body = await getList(context.app, '/works?group_by=type')
    expect(body).not.toHaveProperty('results')
    const buckets = body.group_by ?? []
    expect(asMap(bucketCounts(known(buckets)))).toEqual(asMap(groupCounts(records('works'), (w) => [w.type])))
    expect(body.meta.count).toBe(records('works').length)
    expect(body.meta.groups_count).toBe(buckets.length)
    expect(typeof body.meta.x_query.oql).toBe('string')
    expect(body.meta.x_query.oqo).toBeTypeOf('object')
    for (const bucket of buckets) {
      expect(Object.keys(bucket)).toEqual(expect.arrayContaining(['key', 'key_display_name', 'count']))
      const vocabulary = byId('work-types', groupKey(bucket.key))
      if (vocabulary) expect(bucket.key_display_name).toBe(vocabulary.display_name)
    }
  })

  it('group-by is the same parameter', async () => {
    const a = await getList(context.app, '/works?group_by=open_access.oa_status')
    const b = await getList(context.app, '/works?group-by=open_access.oa_status')
    expect(asMap(bucketCounts(b.group_by ?? []))).toEqual(asMap(bucketCounts(a.group_by ?? [])))
    expect(asMap(bucketCounts(known(a.group_by ?? [])))).toEqual(
      asMap(groupCounts(records('works'), (w) => valuesAt(w, 'open_access.oa_status'))),
    )
  })

  it('publication_year (numbers), with a filter', async () => {
    const filter = encodeURIComponent('publication_year:>2000')
    const body = await getList(context.app, `/works?filter=${filter}&group_by=publication_year`)
    const rows = where('works', (w) => (w.publication_year as number) > 2000)
    expect(asMap(bucketCounts(known(body.group_by ?? [])))).toEqual(
      asMap(groupCounts(rows, (w) => [w.publication_year])),
    )
    expect(body.meta.count).toBe(rows.length)
  })

  it('a boolean column has the buckets true and false', async () => {
    const body = await getList(context.app, '/works?group_by=open_access.is_oa')
    const counts = bucketCounts(known(body.group_by ?? []))
    const oa = where('works', (w) => valuesAt(w, 'open_access.is_oa')[0] === true).length
    const closed = where('works', (w) => valuesAt(w, 'open_access.is_oa')[0] === false).length
    expect(asMap(counts)).toEqual(
      asMap(
        new Map(
          [
            ['true', oa],
            ['false', closed],
          ].filter(([, n]) => n !== 0) as [string, number][],
        ),
      ),
    )
  })

  it('a list column counts each record once per distinct value', async () => {
    const { buckets } = await allBuckets('/works?group_by=authorships.countries')
    expect(asMap(bucketCounts(known(buckets)))).toEqual(asMap(groupCounts(records('works'), countries)))
    const { buckets: sdgs } = await allBuckets('/works?group_by=sustainable_development_goals.id')
    expect(asMap(bucketCounts(known(sdgs)))).toEqual(
      asMap(groupCounts(records('works'), (w) => valuesAt(w, 'sustainable_development_goals.id'))),
    )
  })

  it(':include_unknown adds the bucket of records without a value; without it there is none', async () => {
    const plain = await getList(context.app, '/works?group_by=language')
    expect((plain.group_by ?? []).filter(isUnknown)).toHaveLength(0)
    const withUnknown = await getList(context.app, '/works?group_by=language:include_unknown')
    const unknown = (withUnknown.group_by ?? []).filter(isUnknown)
    expect(unknown).toHaveLength(1)
    expect(unknown[0]!.count).toBe(where('works', (w) => valuesAt(w, 'language').length === 0).length)
    expect(asMap(bucketCounts(known(withUnknown.group_by ?? [])))).toEqual(
      asMap(groupCounts(records('works'), (w) => valuesAt(w, 'language'))),
    )
    const listUnknown = await allBuckets('/works?group_by=authorships.countries:include_unknown')
    const none = listUnknown.buckets.filter(isUnknown)
    expect(none).toHaveLength(1)
    expect(none[0]!.count).toBe(where('works', (w) => countries(w).length === 0).length)
  })

  it('entity ids, paged by cursor past one page of groups', async () => {
    const { buckets } = await allBuckets('/works?group_by=authorships.author.id')
    const expected = groupCounts(records('works'), (w) => valuesAt(w, 'authorships.author.id'))
    expect(expected.size).toBeGreaterThan(200)
    expect(asMap(bucketCounts(known(buckets)))).toEqual(asMap(expected))
    for (const bucket of buckets.slice(0, 50)) {
      const author = byId('authors', String(bucket.key))
      if (author) expect(bucket.key_display_name).toBe(author.display_name)
    }
  })

  it('sort by key and by count', async () => {
    const byKeyAsc =
      (await getList(context.app, '/works?group_by=publication_year&sort=key:asc&per_page=100')).group_by ??
      []
    const keys = known(byKeyAsc).map((bucket) => Number(bucket.key))
    expect(keys).toEqual([...keys].sort((a, b) => a - b))
    const byKeyDesc =
      (await getList(context.app, '/works?group_by=publication_year&sort=key:desc&per_page=100')).group_by ??
      []
    const keysDesc = known(byKeyDesc).map((bucket) => Number(bucket.key))
    expect(keysDesc).toEqual([...keys].sort((a, b) => b - a))
    for (const sort of ['count:desc', 'count:asc']) {
      const counts = ((await getList(context.app, `/works?group_by=type&sort=${sort}`)).group_by ?? []).map(
        (bucket) => bucket.count,
      )
      expect(counts).toEqual([...counts].sort((a, b) => (sort === 'count:desc' ? b - a : a - b)))
    }
    const defaults = ((await getList(context.app, '/works?group_by=type')).group_by ?? []).map((b) => b.count)
    expect(defaults, 'groups come by count, largest first, by default').toEqual(
      [...defaults].sort((a, b) => b - a),
    )
  })

  it('q keeps the groups whose display name contains it', async () => {
    const body = await getList(context.app, '/works?group_by=authorships.author.id&q=michael&per_page=100')
    const buckets = body.group_by ?? []
    expect(buckets.length).toBeGreaterThan(0)
    expect(buckets.length, 'all of them fit one page').toBeLessThan(100)
    for (const bucket of buckets) expect(bucket.key_display_name.toLowerCase()).toContain('michael')
    const expected = new Set<string>()
    for (const work of records('works'))
      for (const authorship of valuesAt(work, 'authorships') as Record<string, Record<string, unknown>>[]) {
        const id = authorship.author?.id
        const name = byId('authors', String(id))?.display_name ?? authorship.author?.display_name
        if (typeof name === 'string' && name.toLowerCase().includes('michael')) expected.add(idKey(id))
      }
    expect(new Set(buckets.map((bucket) => groupKey(bucket.key)))).toEqual(expected)
  })

  it('two and three dimensions nest the buckets', async () => {
    const two = await getList(context.app, '/works?group_by=type,open_access.is_oa')
    const pairs = new Map<string, number>()
    for (const row of flattenGroups(two.group_by ?? [])) pairs.set(row.keys.join(' & '), row.count)
    const expected = groupCounts(records('works'), (w) => [
      `${w.type} & ${valuesAt(w, 'open_access.is_oa')[0]}`,
    ])
    expect(asMap(pairs)).toEqual(asMap(expected))
    const three = await getList(context.app, '/works?group_by=type,open_access.is_oa,publication_year')
    const triples = new Map<string, number>()
    for (const row of flattenGroups(three.group_by ?? [])) triples.set(row.keys.join(' & '), row.count)
    expect(asMap(triples)).toEqual(
      asMap(
        groupCounts(records('works'), (w) => [
          `${w.type} & ${valuesAt(w, 'open_access.is_oa')[0]} & ${w.publication_year}`,
        ]),
      ),
    )
  })
})

describe('group_by on other entities', () => {
  it.each([
    ['institutions', 'country_code', (r: SampleRecord) => valuesAt(r, 'country_code')],
    ['institutions', 'type', (r: SampleRecord) => valuesAt(r, 'type')],
    ['sources', 'type', (r: SampleRecord) => valuesAt(r, 'type')],
    ['sources', 'is_oa', (r: SampleRecord) => valuesAt(r, 'is_oa')],
    ['topics', 'domain.id', (r: SampleRecord) => valuesAt(r, 'domain.id')],
    ['topics', 'field.id', (r: SampleRecord) => valuesAt(r, 'field.id')],
    ['concepts', 'level', (r: SampleRecord) => valuesAt(r, 'level')],
    ['subfields', 'field.id', (r: SampleRecord) => valuesAt(r, 'field.id')],
  ] as const)('/%s?group_by=%s', async (entity, field, read) => {
    const { buckets, first } = await allBuckets(`/${entity}?group_by=${field}`)
    expect(asMap(bucketCounts(known(buckets)))).toEqual(asMap(groupCounts(records(entity), read)))
    expect(first.meta.count).toBe(records(entity).length)
  })

  it('authors by last known institution country', async () => {
    const { buckets } = await allBuckets('/authors?group_by=last_known_institutions.country_code')
    expect(asMap(bucketCounts(known(buckets)))).toEqual(
      asMap(groupCounts(records('authors'), (a) => valuesAt(a, 'last_known_institutions.country_code'))),
    )
  })
})

describe.each(ENTITY_PATHS)('/%s: every group-by-able registry field is accepted', (entity) => {
  const groupable = Object.entries(registry.properties[entity] ?? {})
    .filter(([, property]) => property.actions.includes('group_by'))
    .map(([name]) => name)
    .sort()
  it.each(groupable)('group_by=%s', async (field) => {
    const response = await request(context.app, `/${entity}?group_by=${field}`)
    expect(response.status, `${entity} group_by=${field} → ${response.text.slice(0, 300)}`).toBe(200)
    const body = response.json as ListBody
    expect(Array.isArray(body.group_by)).toBe(true)
    for (const bucket of body.group_by ?? []) {
      expect(typeof bucket.count).toBe('number')
      expect(bucket).toHaveProperty('key')
      expect(bucket).toHaveProperty('key_display_name')
    }
  })
})
