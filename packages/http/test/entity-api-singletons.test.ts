import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { get, useSampleApp } from './support/sample-app.ts'
import { type Row, SAMPLE_SNAPSHOT_DIR, sampleRecords, shortOf } from './support/sample-records.ts'

// GET /{entities}/{id}: ids in every accepted form, external ids, random, select, merged ids (301) and 404s.

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const idOf = async (path: string): Promise<unknown> => {
  const response = await get(sample, path)
  if (response.status !== 200)
    throw new Error(`GET ${path}: ${response.status} ${JSON.stringify(response.body)}`)
  return response.body.id
}

/** A record whose value at `field` (read by `read`) no other record of the folder shares. */
const uniquely = (folder: string, read: (record: Row) => unknown): { record: Row; value: string } => {
  const seen = new Map<string, Row[]>()
  for (const record of sampleRecords(folder)) {
    const value = read(record)
    if (typeof value !== 'string' && typeof value !== 'number') continue
    const key = String(value).toLowerCase()
    seen.set(key, [...(seen.get(key) ?? []), record])
  }
  const [value, records] = [...seen.entries()].find(([, records]) => records.length === 1)!
  return { record: records[0]!, value }
}

const ids = (record: Row) => (record.ids ?? {}) as Record<string, unknown>

describe('GET /{entities}/{id}: OpenAlex ids', () => {
  it('finds a work by short id in any case, by full URL, by encoded URL, by openalex: and by number', async () => {
    const work = 'https://openalex.org/W2741809807'
    for (const form of [
      'W2741809807',
      'w2741809807',
      'https://openalex.org/W2741809807',
      encodeURIComponent('https://openalex.org/W2741809807'),
      'openalex:W2741809807',
      '2741809807',
    ])
      expect(await idOf(`/works/${form}`)).toBe(work)
  })

  it('answers every entity path with its own records, vocabularies by code in any case', async () => {
    for (const folder of [
      'authors',
      'sources',
      'institutions',
      'topics',
      'publishers',
      'funders',
      'concepts',
    ]) {
      const record = sampleRecords(folder)[0]!
      expect(await idOf(`/${folder}/${shortOf(record.id)}`)).toBe(record.id)
    }
    expect(await idOf('/countries/us')).toBe('https://openalex.org/countries/US')
    expect(await idOf('/countries/https://openalex.org/countries/US')).toBe(
      'https://openalex.org/countries/US',
    )
    expect(await idOf('/work-types/article')).toBe(
      sampleRecords('work-types').find((r) => shortOf(r.id) === 'article')!.id,
    )
    const keyword = sampleRecords('keywords')[0]!
    expect(await idOf(`/keywords/${shortOf(keyword.id)}`)).toBe(keyword.id)
    const sourceType = sampleRecords('source-types').find((record) => shortOf(record.id).includes(' '))
    if (sourceType !== undefined)
      expect(await idOf(`/source-types/${encodeURIComponent(shortOf(sourceType.id))}`)).toBe(sourceType.id)
  })

  it('keeps the fields select names, on singletons too', async () => {
    const response = await get(sample, '/works/W2741809807?select=id,doi,publication_year')
    expect(response.body).toEqual({
      id: 'https://openalex.org/W2741809807',
      doi: sampleRecords('works').find((work) => work.id === 'https://openalex.org/W2741809807')!.doi,
      publication_year: sampleRecords('works').find((work) => work.id === 'https://openalex.org/W2741809807')!
        .publication_year,
    })
  })

  it('draws a random record from /{entities}/random', async () => {
    const works = new Set(sampleRecords('works').map((work) => work.id))
    expect(works.has(await idOf('/works/random'))).toBe(true)
    const publishers = new Set(sampleRecords('publishers').map((publisher) => publisher.id))
    expect(publishers.has(await idOf('/publishers/random?select=id'))).toBe(true)
    const empty = await get(sample, '/awards/random')
    expect(empty.status).toBe(404)
    expect(empty.body.code).toBe('not_found')
  })
})

describe('GET /{entities}/{id}: external ids', () => {
  it('finds works by DOI as a URL, with doi: and bare, any case', async () => {
    for (const form of [
      'https://doi.org/10.7717/peerj.4375',
      encodeURIComponent('https://doi.org/10.7717/PEERJ.4375'),
      'doi:10.7717/peerj.4375',
      '10.7717/peerj.4375',
    ])
      expect(await idOf(`/works/${form}`)).toBe('https://openalex.org/W2741809807')
  })

  it('finds records by pmid, pmcid, mag, orcid, ror, issn and wikidata', async () => {
    const pmid = uniquely('works', (work) => ids(work).pmid)
    expect(await idOf(`/works/pmid:${shortOf(pmid.value)}`)).toBe(pmid.record.id)
    expect(await idOf(`/works/${encodeURIComponent(pmid.value)}`)).toBe(pmid.record.id)
    const pmcid = uniquely('works', (work) => ids(work).pmcid)
    expect(await idOf(`/works/pmcid:PMC${shortOf(pmcid.value).replace(/^pmc/i, '')}`)).toBe(pmcid.record.id)
    const mag = uniquely('works', (work) => ids(work).mag)
    expect(await idOf(`/works/mag:${mag.value}`)).toBe(mag.record.id)
    const orcid = uniquely('authors', (author) => author.orcid)
    expect(await idOf(`/authors/orcid:${shortOf(orcid.value)}`)).toBe(orcid.record.id)
    expect(await idOf(`/authors/${orcid.value}`)).toBe(orcid.record.id)
    const ror = uniquely('institutions', (institution) => institution.ror)
    expect(await idOf(`/institutions/ror:${shortOf(ror.value)}`)).toBe(ror.record.id)
    expect(await idOf(`/institutions/${encodeURIComponent(ror.value)}`)).toBe(ror.record.id)
    const issn = uniquely('sources', (source) => source.issn_l)
    expect(await idOf(`/sources/issn:${issn.value}`)).toBe(issn.record.id)
    const wikidata = uniquely('concepts', (concept) => ids(concept).wikidata)
    expect(await idOf(`/concepts/wikidata:${shortOf(wikidata.value)}`)).toBe(wikidata.record.id)
  })
})

describe('GET /{entities}/{id}: merged and missing ids', () => {
  const merged = (() => {
    const dir = join(SAMPLE_SNAPSHOT_DIR, 'merged_ids', 'authors')
    const into = new Map<string, string>()
    for (const file of readdirSync(dir))
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n').slice(1)) {
        const [, from, to] = line.trim().split(',')
        if (from && to) into.set(from, to)
      }
    const [from] = [...into.keys()]
    let to = into.get(from!)!
    while (into.has(to)) to = into.get(to)!
    return { from: from!, to }
  })()

  it('answers a merged id with 301 and the surviving record in Location, the query kept', async () => {
    const response = await get(sample, `/authors/${merged.from}?select=id`)
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe(`/authors/${merged.to}?select=id`)
    // The sample keeps the merge table but not every survivor's record: following the Location finds the
    // survivor when the catalog has it, and says it has not otherwise.
    const survivor = sampleRecords('authors').some(
      (author) => author.id === `https://openalex.org/${merged.to}`,
    )
    const followed = await get(sample, response.headers.get('location')!)
    expect(followed.status).toBe(survivor ? 200 : 404)
  })

  it('answers JSON 404s for unknown ids, ids of another entity and unknown entity paths', async () => {
    for (const path of [
      '/works/W1',
      '/works/doi:10.9999/none',
      '/works/A2090344885',
      '/works/not-an-id',
      '/wrks/W1',
    ]) {
      const response = await get(sample, path)
      expect(response.status, path).toBe(404)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(response.body.code).toBe('not_found')
      expect(typeof response.body.message).toBe('string')
    }
    expect((await get(sample, '/works/A2090344885')).body.message).toContain('/authors/A2090344885')
  })
})
