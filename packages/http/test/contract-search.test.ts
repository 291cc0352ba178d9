// Full-text search: `search`, `search.exact`, the `search.*` scopes and the `*.search` / `*.search.exact`
// filters. Relevance is not re-implemented: every result must contain the searched word (or its stem, for the
// stemmed forms), every record that contains the word must be found, and relevance_score must be present and
// never increase down the list.
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { getAllByCursor, getList, resultIds } from './support/contract-http.ts'
import {
  abstractText,
  byId,
  idSet,
  type SampleRecord,
  searchableText,
  where,
  words,
} from './support/sample-oracle.ts'

const context = useContractApp()

/**
 * What every stemmed match must contain: the word's first five letters. Stemmers cut deep (`engineering` and
 * `engine` share the stem `engin`), so a longer prefix would reject legitimate matches.
 */
const stemOf = (word: string) => word.slice(0, 5)

/** Search ignores diacritics (`collège` matches `college`), so the oracle's text is folded too. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '')

const folded = (entity: string, record: SampleRecord) => fold(searchableText(entity, record))

const titleWords = (w: SampleRecord) => words(w.display_name)
const abstractWords = (w: SampleRecord) => words(abstractText(w))

function expectRelevanceOrder(results: readonly SampleRecord[], label: string) {
  let previous = Number.POSITIVE_INFINITY
  for (const result of results) {
    expect(typeof result.relevance_score, `${label}: relevance_score on ${String(result.id)}`).toBe('number')
    const score = result.relevance_score as number
    expect(score, `${label}: relevance_score does not increase`).toBeLessThanOrEqual(previous)
    previous = score
  }
}

/** Every page of a search; checks each result against the stored record's text. */
async function searchAll(entity: string, query: string) {
  const { results, pages } = await getAllByCursor(context.app, `/${entity}?${query}`)
  return { results, count: pages[0]!.meta.count }
}

const stored = (entity: string, result: SampleRecord): SampleRecord => {
  const record = byId(entity, String(result.id))
  expect(record, `${String(result.id)} is a served ${entity} record`).toBeDefined()
  return record!
}

describe('works search', () => {
  it.each(['pneumonia', 'coronavirus', 'wildlife', 'cancer'])('search=%s', async (word) => {
    const holding = where('works', (w) => [...titleWords(w), ...abstractWords(w)].includes(word))
    expect(holding.length).toBeGreaterThanOrEqual(3)
    const first = await getList(context.app, `/works?search=${word}`)
    expectRelevanceOrder(first.results, `search=${word}`)
    const { results, count } = await searchAll('works', `search=${word}`)
    expect(results.length).toBe(count)
    for (const result of results)
      expect(folded('works', stored('works', result)), `${String(result.id)} contains ${word}`).toContain(
        stemOf(word),
      )
    const found = new Set(resultIds(results))
    for (const id of idSet(holding)) expect(found.has(id), `${id} holds "${word}"`).toBe(true)
  })

  it('search.exact finds exactly the records holding the word; search also finds its stem variants', async () => {
    const exactHolders = idSet(
      where('works', (w) => [...titleWords(w), ...abstractWords(w)].includes('forests')),
    )
    const exact = await searchAll('works', 'search.exact=forests')
    expect(resultIds(exact.results)).toEqual(exactHolders)
    const stemmed = await searchAll('works', 'search=forests')
    const found = new Set(resultIds(stemmed.results))
    for (const id of idSet(where('works', (w) => [...titleWords(w), ...abstractWords(w)].includes('forest'))))
      expect(found.has(id), `${id} holds "forest", a stem variant of "forests"`).toBe(true)
    expect(stemmed.count).toBeGreaterThanOrEqual(exact.count)
  })

  it('search.title, title.search and display_name.search read the title only', async () => {
    const inTitle = idSet(where('works', (w) => titleWords(w).includes('biodiversity')))
    for (const query of [
      'search.title=biodiversity',
      `filter=${encodeURIComponent('title.search:biodiversity')}`,
      `filter=${encodeURIComponent('display_name.search:biodiversity')}`,
    ]) {
      const { results } = await searchAll('works', query)
      const found = resultIds(results)
      for (const id of inTitle) expect(found, `${query} finds ${id}`).toContain(id)
      for (const result of results)
        expect(String(stored('works', result).display_name).toLowerCase(), query).toContain(
          stemOf('biodiversity'),
        )
    }
  })

  it('search.title.exact and title.search.exact match the exact word in the title', async () => {
    const expected = idSet(where('works', (w) => titleWords(w).includes('forests')))
    for (const query of [
      'search.title.exact=forests',
      `filter=${encodeURIComponent('title.search.exact:forests')}`,
    ]) {
      const { results } = await searchAll('works', query)
      expect(resultIds(results), query).toEqual(expected)
    }
  })

  it('abstract.search and title_and_abstract.search read what they name', async () => {
    const inAbstract = idSet(where('works', (w) => abstractWords(w).includes('pneumonia')))
    const abstract = await searchAll('works', `filter=${encodeURIComponent('abstract.search:pneumonia')}`)
    for (const id of inAbstract) expect(resultIds(abstract.results)).toContain(id)
    for (const result of abstract.results)
      expect(fold(abstractText(stored('works', result)).toLowerCase())).toContain('pneum')
    const both = idSet(where('works', (w) => [...titleWords(w), ...abstractWords(w)].includes('pneumonia')))
    for (const query of [
      'search.title_and_abstract=pneumonia',
      `filter=${encodeURIComponent('title_and_abstract.search:pneumonia')}`,
    ]) {
      const { results } = await searchAll('works', query)
      for (const id of both) expect(resultIds(results), query).toContain(id)
    }
  })

  it('a search filter gives relevance_score too, and combines with other filters', async () => {
    const body = await getList(
      context.app,
      `/works?filter=${encodeURIComponent('title.search:biodiversity,publication_year:>2010')}`,
    )
    expectRelevanceOrder(body.results, 'title.search filter')
    for (const result of body.results)
      expect((stored('works', result).publication_year as number) > 2010).toBe(true)
    const withSearch = await searchAll(
      'works',
      `search=conservation&filter=${encodeURIComponent('publication_year:<2005')}`,
    )
    for (const result of withSearch.results)
      expect((stored('works', result).publication_year as number) < 2005).toBe(true)
  })

  it('an explicit sort wins over relevance with a search', async () => {
    const { results } = await searchAll('works', 'search=conservation&sort=publication_year:desc')
    const years = results.map((r) => stored('works', r).publication_year as number)
    expect(years).toEqual([...years].sort((a, b) => b - a))
  })

  it('no relevance_score on a list without search', async () => {
    const body = await getList(context.app, '/works?per_page=10')
    for (const result of body.results) expect(result).not.toHaveProperty('relevance_score')
  })

  it('sort=relevance_score:desc with a search is the relevance order', async () => {
    const body = await getList(context.app, '/works?search=conservation&sort=relevance_score:desc')
    expectRelevanceOrder(body.results, 'sort=relevance_score:desc')
    const plain = await getList(context.app, '/works?search=conservation')
    expect(resultIds(body.results)).toEqual(resultIds(plain.results))
  })
})

describe('search on other entities', () => {
  it.each([
    ['authors', 'michael'],
    ['institutions', 'hospital'],
    ['sources', 'journal'],
    ['topics', 'ecology'],
    ['countries', 'islands'],
    ['concepts', 'engineering'],
    ['keywords', 'carbon'],
    ['publishers', 'press'],
    ['funders', 'foundation'],
  ])('/%s?search=%s', async (entity, word) => {
    const holding = where(entity, (r) => words(folded(entity, r)).includes(word))
    expect(holding.length).toBeGreaterThan(0)
    const first = await getList(context.app, `/${entity}?search=${word}`)
    expectRelevanceOrder(first.results, `${entity} search=${word}`)
    const { results } = await searchAll(entity, `search=${word}`)
    for (const result of results)
      expect(folded(entity, stored(entity, result)), `${String(result.id)} holds ${word}`).toContain(
        stemOf(word),
      )
    const found = new Set(resultIds(results))
    for (const id of idSet(holding)) expect(found.has(id), `${entity} ${id} holds "${word}"`).toBe(true)
  })

  it('display_name.search on authors and institutions reads the name', async () => {
    for (const [entity, word] of [
      ['authors', 'david'],
      ['institutions', 'college'],
    ] as const) {
      const inName = idSet(where(entity, (r) => words(fold(String(r.display_name ?? ''))).includes(word)))
      const { results } = await searchAll(
        entity,
        `filter=${encodeURIComponent(`display_name.search:${word}`)}`,
      )
      const found = resultIds(results)
      for (const id of inName) expect(found, `${entity} ${id}`).toContain(id)
      for (const result of results)
        expect(folded(entity, stored(entity, result)), `${entity} ${String(result.id)}`).toContain(word)
    }
  })
})
