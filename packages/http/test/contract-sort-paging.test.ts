// Sorting (`field:asc|desc`, several keys, every sortable registry field), basic paging (`per_page` /
// `per-page`, `page`, the 10,000-result depth) and cursor paging (`*`, then `meta.next_cursor`, null at the
// end), against orders computed from the sample records. Ties have no defined order, so orders are compared
// by their sort-key values, and id sets separately.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import {
  getAllByCursor,
  getList,
  groupKey,
  type ListBody,
  request,
  resultIds,
} from './support/contract-http.ts'
import {
  byId,
  ENTITY_PATHS,
  groupCounts,
  idSet,
  records,
  type SampleRecord,
  valuesAt,
} from './support/sample-oracle.ts'

const context = useContractApp()

const registry = JSON.parse(
  readFileSync(new URL('../../../spec/properties.json', import.meta.url), 'utf8'),
) as {
  properties: Record<string, Record<string, { actions: string[]; value_kind: string | null }>>
}

type Key = (record: SampleRecord) => number | string | null

/** Page sizes (1 to 100) that divide `total` exactly, walked in at most 200 pages. */
const exactPageSizes = (total: number): number[] =>
  Array.from({ length: 100 }, (_, index) => index + 1).filter(
    (perPage) => total % perPage === 0 && total / perPage <= 200,
  )

const numberAt =
  (path: string): Key =>
  (record) => {
    const value = valuesAt(record, path)[0]
    return typeof value === 'number' ? value : null
  }

/** The served record behind an API result (lists may shorten records; the stored one has every key). */
const stored = (entity: string) => (result: SampleRecord) => byId(entity, String(result.id)) ?? result

/** The sort-key tuples the records give, in the requested order (nulls excluded: their place is not defined). */
function expectedKeyOrder(entity: string, keys: readonly Key[], directions: readonly ('asc' | 'desc')[]) {
  return records(entity)
    .map((record) => keys.map((key) => key(record)))
    .filter((tuple) => tuple.every((value) => value !== null))
    .sort((a, b) => {
      for (let i = 0; i < a.length; i++) {
        const [x, y] = [a[i]!, b[i]!]
        if (x === y) continue
        const order = x < y ? -1 : 1
        return directions[i] === 'desc' ? -order : order
      }
      return 0
    })
}

async function expectSorted(entity: string, sort: string, keys: readonly Key[]) {
  const directions = sort.split(',').map((part) => (part.endsWith(':desc') ? 'desc' : 'asc'))
  const { results } = await getAllByCursor(context.app, `/${entity}?sort=${sort}`)
  expect(resultIds(results), `${entity} sort=${sort}: same records`).toEqual(idSet(records(entity)))
  const got = results.map(stored(entity)).map((record) => keys.map((key) => key(record)))
  const nonNull = got.filter((tuple) => tuple.every((value) => value !== null))
  expect(nonNull, `${entity} sort=${sort}: key order`).toEqual(expectedKeyOrder(entity, keys, directions))
  // rows without a sort value come together, at one end
  const nullAt = got.map((tuple) => tuple.some((value) => value === null))
  const firstNull = nullAt.indexOf(true)
  if (firstNull !== -1) {
    const block = nullAt.slice(firstNull)
    const atEnd = block.every(Boolean)
    const atStart = nullAt.lastIndexOf(true) === nullAt.filter(Boolean).length - 1
    expect(atEnd || atStart, `${entity} sort=${sort}: rows without a value are together at one end`).toBe(
      true,
    )
  }
}

describe('sort', () => {
  it('works by cited_by_count desc and asc', async () => {
    await expectSorted('works', 'cited_by_count:desc', [numberAt('cited_by_count')])
    await expectSorted('works', 'cited_by_count:asc', [numberAt('cited_by_count')])
  })

  it('a field without direction sorts ascending', async () => {
    await expectSorted('works', 'publication_year', [numberAt('publication_year')])
  })

  it('several keys', async () => {
    await expectSorted('works', 'publication_year:desc,cited_by_count:asc', [
      numberAt('publication_year'),
      numberAt('cited_by_count'),
    ])
  })

  it('a field some records lack (fwci)', async () => {
    await expectSorted('works', 'fwci:desc', [numberAt('fwci')])
  })

  it('a date field', async () => {
    const date: Key = (record) =>
      typeof record.publication_date === 'string' ? record.publication_date : null
    await expectSorted('works', 'publication_date:desc', [date])
  })

  it.each([
    ['authors', 'works_count:desc'],
    ['institutions', 'cited_by_count:desc'],
    ['sources', 'works_count:desc'],
    ['topics', 'works_count:asc'],
    ['countries', 'works_count:desc'],
    ['work-types', 'cited_by_count:desc'],
  ])('/%s sort=%s', async (entity, sort) => {
    await expectSorted(entity, sort, [numberAt(sort.split(':')[0]!)])
  })

  it('text order on an ASCII vocabulary (work-types by display_name)', async () => {
    const name: Key = (record) => String(record.display_name)
    await expectSorted('work-types', 'display_name:asc', [name])
    await expectSorted('work-types', 'display_name:desc', [name])
  })

  it('a sorted filtered list', async () => {
    const { results } = await getAllByCursor(
      context.app,
      `/works?filter=${encodeURIComponent('publication_year:>2015')}&sort=cited_by_count:desc`,
    )
    const expected = records('works')
      .filter((w) => (w.publication_year as number) > 2015)
      .map((w) => w.cited_by_count as number)
      .sort((a, b) => b - a)
    expect(results.map(stored('works')).map((w) => w.cited_by_count)).toEqual(expected)
  })
})

describe.each(ENTITY_PATHS)('/%s: every sortable registry field is accepted', (entity) => {
  const sortable = Object.entries(registry.properties[entity] ?? {})
    .filter(([, property]) => property.actions.includes('sort'))
    .map(([name]) => name)
    .sort()
  it.each(sortable)('sort=%s:desc', async (field) => {
    const response = await request(context.app, `/${entity}?sort=${field}:desc&per_page=5`)
    expect(response.status, `${entity} sort=${field}:desc → ${response.text.slice(0, 300)}`).toBe(200)
  })
})

describe('basic paging', () => {
  it('per_page and per-page set the page size; the pages partition the sorted result', async () => {
    const alias = await getList(context.app, '/works?per-page=7')
    expect(alias.meta.per_page).toBe(7)
    expect(alias.results).toHaveLength(7)
    const seen: string[] = []
    const total = records('works').length
    for (let page = 1; page <= Math.ceil(total / 100); page++) {
      const body = await getList(context.app, `/works?sort=cited_by_count:desc&per_page=100&page=${page}`)
      expect(body.meta.page).toBe(page)
      expect(body.meta.per_page).toBe(100)
      expect(body.meta.count).toBe(total)
      seen.push(...resultIds(body.results))
    }
    expect(seen.sort()).toEqual(idSet(records('works')))
  })

  it('per_page 1 and 100 are the bounds', async () => {
    expect((await getList(context.app, '/authors?per_page=1')).results).toHaveLength(1)
    expect((await getList(context.app, '/authors?per_page=100')).results).toHaveLength(100)
  })

  it('a page past the last result is empty, up to the 10,000-result depth', async () => {
    const past = await getList(context.app, '/works?page=30')
    expect(past.results).toHaveLength(0)
    expect(past.meta.count).toBe(records('works').length)
    const deepest = await getList(context.app, '/works?page=400&per_page=25')
    expect(deepest.results).toHaveLength(0)
    const deepest100 = await getList(context.app, '/works?page=100&per_page=100')
    expect(deepest100.results).toHaveLength(0)
  })
})

describe('cursor paging', () => {
  it('walks every record once, then next_cursor is null', async () => {
    const { results, pages } = await getAllByCursor(context.app, '/works', 100)
    expect(resultIds(results)).toEqual(idSet(records('works')))
    expect(new Set(resultIds(results)).size).toBe(results.length)
    // No page past the last result: as many pages as the results need, every one but the last full.
    expect(pages.length).toBe(Math.ceil(records('works').length / 100))
    expect(pages.at(-1)!.meta.next_cursor).toBeNull()
    for (const page of pages.slice(0, -1)) {
      expect(typeof page.meta.next_cursor).toBe('string')
      expect(page.results).toHaveLength(100)
    }
    for (const page of pages) expect(page.meta.count).toBe(records('works').length)
  })

  it('keeps the sort order across pages, with a filter', async () => {
    const filter = encodeURIComponent('authorships.countries:US')
    const { results } = await getAllByCursor(
      context.app,
      `/works?filter=${filter}&sort=publication_year:desc`,
      17,
    )
    const years = results.map(stored('works')).map((w) => w.publication_year as number)
    expect(years).toEqual([...years].sort((a, b) => b - a))
    const expected = records('works').filter((w) =>
      [
        ...valuesAt(w, 'authorships.countries'),
        ...valuesAt(w, 'authorships.institutions.country_code'),
      ].includes('US'),
    )
    expect(resultIds(results)).toEqual(idSet(expected))
  })

  it('on authors, with a small page', async () => {
    const filter = encodeURIComponent('works_count:>3')
    const { results } = await getAllByCursor(context.app, `/authors?filter=${filter}`, 13)
    expect(resultIds(results)).toEqual(idSet(records('authors').filter((a) => (a.works_count as number) > 3)))
  })

  // A result whose size is an exact multiple of per_page ends on its last full page: a next_cursor there
  // would lead to an empty page.
  it.each(['works', 'work-types', 'continents'])(
    '/%s: when per_page divides the count, the last full page has next_cursor null',
    async (entity) => {
      const total = records(entity).length
      const divisors = exactPageSizes(total)
      expect(
        divisors.length,
        `${entity}: ${total} records have a page size that divides them`,
      ).toBeGreaterThan(0)
      for (const perPage of divisors) {
        const { results, pages } = await getAllByCursor(context.app, `/${entity}`, perPage)
        expect(pages.length, `${entity} per_page=${perPage}`).toBe(total / perPage)
        for (const page of pages) expect(page.results, `${entity} per_page=${perPage}`).toHaveLength(perPage)
        expect(pages.at(-1)!.meta.next_cursor, `${entity} per_page=${perPage}`).toBeNull()
        expect(resultIds(results)).toEqual(idSet(records(entity)))
      }
    },
  )

  it.each(['type', 'publication_year'])(
    'group_by=%s: when per_page divides the bucket count, the last full page has next_cursor null',
    async (column) => {
      const expected = groupCounts(records('works'), (work) => valuesAt(work, column))
      const divisors = exactPageSizes(expected.size)
      expect(divisors.length).toBeGreaterThan(0)
      for (const perPage of divisors) {
        const keys: string[] = []
        let cursor: string | null | undefined = '*'
        for (let page = 1; page <= expected.size / perPage; page++) {
          expect(typeof cursor, `group_by=${column} per_page=${perPage} page ${page}`).toBe('string')
          const body: ListBody = await getList(
            context.app,
            `/works?group_by=${column}&per_page=${perPage}&cursor=${encodeURIComponent(cursor!)}`,
          )
          expect(body.meta.groups_count).toBe(expected.size)
          expect(body.group_by, `group_by=${column} per_page=${perPage} page ${page}`).toHaveLength(perPage)
          keys.push(...(body.group_by ?? []).map((bucket) => groupKey(bucket.key)))
          cursor = body.meta.next_cursor
        }
        expect(cursor, `group_by=${column} per_page=${perPage}: the last full page`).toBeNull()
        expect(keys.sort()).toEqual([...expected.keys()].sort())
      }
    },
  )

  it('the first cursor page has next_cursor even when everything fits', async () => {
    const body = await getList(context.app, '/continents?cursor=*')
    expect(body.results).toHaveLength(records('continents').length)
    expect(body.meta).toHaveProperty('next_cursor')
  })
})
