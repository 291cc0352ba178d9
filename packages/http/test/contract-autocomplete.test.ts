// GET /autocomplete/{entity}?q= and /autocomplete?q=: at most 10 results, each a served record whose name
// (or an alternative name) holds a word starting with q; the records whose names start with q are found when
// there are at most 10 of them.
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { request, resultIds } from './support/contract-http.ts'
import {
  byId,
  idSet,
  records,
  type SampleRecord,
  searchableText,
  shortId,
  where,
} from './support/sample-oracle.ts'

const context = useContractApp()

interface AutocompleteBody {
  readonly meta: { readonly count: number }
  readonly results: readonly (SampleRecord & {
    readonly display_name?: unknown
    readonly entity_type?: unknown
  })[]
}

async function autocomplete(path: string): Promise<AutocompleteBody> {
  const response = await request(context.app, path)
  expect(response.status, `GET ${path} → ${response.text.slice(0, 300)}`).toBe(200)
  const body = response.json as AutocompleteBody
  expect(Array.isArray(body.results), `GET ${path}: results`).toBe(true)
  expect(typeof body.meta?.count, `GET ${path}: meta.count`).toBe('number')
  return body
}

/** Whether some word of the record's names starts with the typed prefix (phrase prefixes word by word). */
const matchesPrefix = (entity: string, record: SampleRecord, q: string) => {
  const text = searchableText(entity, record)
  const typed = q.toLowerCase().trim()
  return text.includes(typed) && new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(typed)}`, 'u').test(text)
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('/autocomplete/{entity}', () => {
  it.each([
    ['authors', 'micha'],
    ['institutions', 'hosp'],
    ['sources', 'journ'],
    ['works', 'biodiv'],
    ['topics', 'ecolo'],
    ['publishers', 'univ'],
    ['funders', 'found'],
    ['concepts', 'engin'],
    ['keywords', 'carb'],
  ])('/autocomplete/%s?q=%s', async (entity, q) => {
    const body = await autocomplete(`/autocomplete/${entity}?q=${encodeURIComponent(q)}`)
    expect(body.results.length).toBeGreaterThan(0)
    expect(body.results.length).toBeLessThanOrEqual(10)
    for (const result of body.results) {
      const record = byId(entity, String(result.id))
      expect(record, `${String(result.id)} is a served ${entity} record`).toBeDefined()
      expect(result.display_name).toEqual(record!.display_name)
      expect(
        matchesPrefix(entity, record!, q),
        `${String(result.id)} "${String(record!.display_name)}" matches ${q}`,
      ).toBe(true)
    }
  })

  it('finds every record whose name starts with q when there are few', async () => {
    const author = records('authors').find(
      (a) => typeof a.display_name === 'string' && a.display_name.length > 8,
    )!
    const name = String(author.display_name)
    const q = name.slice(0, name.length - 2)
    const expected = where('authors', (a) =>
      String(a.display_name ?? '')
        .toLowerCase()
        .startsWith(q.toLowerCase()),
    )
    expect(expected.length).toBeLessThanOrEqual(10)
    const body = await autocomplete(`/autocomplete/authors?q=${encodeURIComponent(q)}`)
    const found = resultIds(body.results)
    for (const id of idSet(expected)) expect(found).toContain(id)
  })

  it('an id as q finds that record', async () => {
    const source = records('sources')[5]!
    const body = await autocomplete(`/autocomplete/sources?q=${shortId(source.id)}`)
    expect(resultIds(body.results)).toContain(shortId(source.id).toUpperCase())
  })

  it('a q that matches nothing gives no results', async () => {
    const body = await autocomplete('/autocomplete/institutions?q=zzqxv')
    expect(body.results).toHaveLength(0)
  })

  it('filter applies as on lists', async () => {
    const body = await autocomplete(
      `/autocomplete/works?q=biodiv&filter=${encodeURIComponent('publication_year:>2015')}`,
    )
    for (const result of body.results)
      expect((byId('works', String(result.id))?.publication_year as number) > 2015).toBe(true)
  })
})

describe('/autocomplete across entities', () => {
  it('answers records of several types, each naming its type', async () => {
    const body = await autocomplete('/autocomplete?q=univers')
    expect(body.results.length).toBeGreaterThan(0)
    expect(body.results.length).toBeLessThanOrEqual(10)
    for (const result of body.results) {
      expect(result.entity_type, `${String(result.id)} has entity_type`).toBeTypeOf('string')
      expect(String(result.display_name ?? '').toLowerCase()).toMatch(/univers/)
    }
  })

  it('an ORCID finds its author', async () => {
    const author = records('authors').find((a) => typeof a.orcid === 'string')!
    const body = await autocomplete(`/autocomplete?q=${encodeURIComponent(String(author.orcid))}`)
    expect(resultIds(body.results)).toContain(shortId(author.id).toUpperCase())
  })
})
