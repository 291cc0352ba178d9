import { afterAll, describe, expect, it } from 'vitest'
import { get, useSampleApp } from './support/sample-app.ts'
import { type Row, sampleRecords, shortOf } from './support/sample-records.ts'

// GET /autocomplete/{entity}?q= and GET /autocomplete?q=: phrase-prefix matches on display names, ranked,
// with hints and filter keys; pasted ids; filters; errors.

interface Suggestion {
  id: string
  short_id: string
  display_name: string
  hint: string | null
  cited_by_count: number | null
  works_count: number | null
  entity_type: string
  external_id: string | null
  filter_key: string | null
}

interface AutocompleteBody {
  meta: { count: number; db_response_time_ms: number; page: number; per_page: number }
  results: Suggestion[]
}

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const suggest = async (path: string): Promise<AutocompleteBody> => {
  const response = await get<AutocompleteBody>(sample, path)
  if (response.status !== 200)
    throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body
}

const words = (text: string): string =>
  ` ${text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()}`

/** Records of a folder whose name has a word starting with `typed` (the phrase-prefix rule). */
const matching = (folder: string, typed: string): Row[] =>
  sampleRecords(folder).filter((record) => words(String(record.display_name)).includes(words(typed)))

describe('GET /autocomplete/{entity}', () => {
  it('suggests names with a word starting with the text, exact and leading matches first, then by works', async () => {
    const body = await suggest('/autocomplete/institutions?q=univ')
    const expected = matching('institutions', 'univ')
    expect(body.meta).toMatchObject({ count: Math.min(10, expected.length), page: 1, per_page: 10 })
    for (const result of body.results) expect(words(result.display_name)).toContain(' univ')
    const leading = (result: Suggestion) => words(result.display_name).startsWith(' univ')
    const firstNonLeading = body.results.findIndex((result) => !leading(result))
    if (firstNonLeading !== -1)
      expect(body.results.slice(firstNonLeading).every((r) => !leading(r))).toBe(true)
    const leaders = body.results.filter(leading).map((result) => result.works_count ?? 0)
    expect([...leaders].sort((a, b) => b - a)).toEqual(leaders)
  })

  it('shapes each suggestion with its hint, external id and works filter key', async () => {
    const institution = sampleRecords('institutions').find(
      (record) => record.ror && (record.geo as Record<string, unknown> | undefined)?.city,
    )!
    const body = await suggest(
      `/autocomplete/institutions?q=${encodeURIComponent(String(institution.display_name))}`,
    )
    const top = body.results[0]!
    expect(top.id).toBe(institution.id)
    expect(top).toMatchObject({
      short_id: `institutions/${shortOf(institution.id)}`,
      entity_type: 'institution',
      external_id: institution.ror,
      filter_key: 'authorships.institutions.id',
      works_count: institution.works_count,
      cited_by_count: institution.cited_by_count,
    })
    expect(top.hint).toContain(String((institution.geo as Record<string, unknown>).city))
    const work = await suggest('/autocomplete/works?q=state%20of%20oa')
    expect(work.results[0]).toMatchObject({
      id: 'https://openalex.org/W2741809807',
      entity_type: 'work',
      external_id: 'https://doi.org/10.7717/peerj.4375',
      filter_key: 'ids.openalex',
    })
    expect(work.results[0]!.hint).toContain('Heather Piwowar')
  })

  it('applies a list filter to the suggestions', async () => {
    const body = await suggest('/autocomplete/institutions?q=univ&filter=country_code:GB')
    expect(body.results.length).toBeGreaterThan(0)
    const countries = new Map(sampleRecords('institutions').map((record) => [record.id, record.country_code]))
    for (const result of body.results) expect(countries.get(result.id)).toBe('GB')
  })

  it('recognises a pasted id and answers with that entity', async () => {
    const author = sampleRecords('authors').find((record) => typeof record.orcid === 'string')!
    for (const q of [shortOf(author.id), String(author.id), String(author.orcid)]) {
      const body = await suggest(`/autocomplete/authors?q=${encodeURIComponent(q)}`)
      expect(body.results.map((result) => result.id)).toEqual([author.id])
    }
    expect((await suggest('/autocomplete/works?q=10.9999/no-such-doi')).results).toEqual([])
  })
})

describe('GET /autocomplete', () => {
  it('suggests across entities, or in the one entity_type names', async () => {
    const body = await suggest('/autocomplete?q=cambridge')
    expect(body.results.length).toBeGreaterThan(0)
    for (const result of body.results) expect(words(result.display_name)).toContain(' cambridge')
    expect(new Set(body.results.map((result) => result.entity_type)).size).toBeGreaterThanOrEqual(1)
    const sources = await suggest('/autocomplete?q=journal&entity_type=source')
    expect(sources.results.length).toBeGreaterThan(0)
    for (const result of sources.results) expect(result.entity_type).toBe('source')
  })

  it('finds pasted DOIs, ORCIDs and OpenAlex ids in the entity they belong to', async () => {
    const doi = await suggest(`/autocomplete?q=${encodeURIComponent('https://doi.org/10.7717/peerj.4375')}`)
    expect(doi.results.map((result) => result.id)).toEqual(['https://openalex.org/W2741809807'])
    const institution = sampleRecords('institutions')[0]!
    const byId = await suggest(`/autocomplete?q=${shortOf(institution.id)}`)
    expect(byId.results.map((result) => result.id)).toEqual([institution.id])
  })

  it('refuses a missing q, unknown parameters and unknown entity types, with 400 or 404', async () => {
    for (const [path, status, error] of [
      ['/autocomplete', 400, 'invalid_parameter'],
      ['/autocomplete/works?q=', 400, 'invalid_parameter'],
      ['/autocomplete?q=x&colour=red', 400, 'unknown_parameter'],
      ['/autocomplete?q=x&entity_type=planet', 400, 'invalid_parameter'],
      ['/autocomplete/planets?q=x', 404, 'not_found'],
      ['/autocomplete/works?q=x&filter=display_name.search:x', 400, 'invalid_filter'],
    ] as const) {
      const response = await get(sample, path)
      expect(response.status, path).toBe(status)
      expect(response.body.code, path).toBe(error)
    }
  })
})
