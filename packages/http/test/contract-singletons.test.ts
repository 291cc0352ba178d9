// GET /{entities}/{id}: short id in any case, full URL, external ids in prefix and URL form, vocabulary codes,
// merged ids (301 with Location), /works/random, and JSON 404s; each answer compared with the stored record.
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { request } from './support/contract-http.ts'
import {
  byExternalId,
  byId,
  ENTITY_PATHS,
  externalIds,
  idSet,
  mergedIds,
  pick,
  records,
  type SampleRecord,
  shortId,
} from './support/sample-oracle.ts'

const context = useContractApp()

async function expectRecord(path: string, record: SampleRecord) {
  const response = await request(context.app, path)
  expect(response.status, `GET ${path} → ${response.text.slice(0, 300)}`).toBe(200)
  expect(response.json, `GET ${path} is the stored record`).toEqual(record)
}

async function expect404(path: string) {
  const response = await request(context.app, path)
  expect(response.status, `GET ${path} → ${response.text.slice(0, 300)}`).toBe(404)
  expect(response.headers.get('content-type') ?? '', `GET ${path}`).toContain('application/json')
  expect(response.json, `GET ${path} has a JSON body`).toBeTypeOf('object')
}

describe('by OpenAlex id', () => {
  it.each(ENTITY_PATHS.filter((entity) => records(entity).length > 0))(
    '/%s/{id} for a served record',
    async (entity) => {
      const record = records(entity)[Math.floor(records(entity).length / 2)]!
      await expectRecord(`/${entity}/${encodeURIComponent(shortId(record.id))}`, record)
    },
  )

  it('short id in lower case, full URL (raw and encoded)', async () => {
    const work = pick('works', (w) => typeof w.doi === 'string', 'has a DOI')
    const id = shortId(work.id)
    await expectRecord(`/works/${id.toLowerCase()}`, work)
    await expectRecord(`/works/https://openalex.org/${id}`, work)
    await expectRecord(`/works/${encodeURIComponent(`https://openalex.org/${id}`)}`, work)
    const author = records('authors')[10]!
    await expectRecord(`/authors/${shortId(author.id).toLowerCase()}`, author)
    await expectRecord(`/authors/https://openalex.org/${shortId(author.id)}`, author)
  })

  it('vocabulary codes, in any case', async () => {
    await expectRecord('/countries/US', byId('countries', 'US')!)
    await expectRecord('/countries/us', byId('countries', 'US')!)
    await expectRecord('/work-types/article', byId('work-types', 'article')!)
    await expectRecord('/source-types/book%20series', byId('source-types', 'book series')!)
    await expectRecord('/sdgs/3', byId('sdgs', '3')!)
    await expectRecord('/domains/1', byId('domains', '1')!)
    await expectRecord('/continents/Q15', byId('continents', 'Q15')!)
    await expectRecord('/languages/en', byId('languages', 'en')!)
    await expectRecord('/licenses/cc-by', byId('licenses', 'cc-by')!)
    await expectRecord('/institution-types/education', byId('institution-types', 'education')!)
    const keyword = records('keywords')[0]!
    await expectRecord(`/keywords/${shortId(keyword.id)}`, keyword)
  })
})

describe('by external id', () => {
  const one = (entity: string, scheme: string) => {
    const record = pick(entity, (r) => externalIds(r, scheme).length > 0, `has a ${scheme}`)
    const value = externalIds(record, scheme)[0]!
    expect(byExternalId(entity, scheme, value), `${scheme} ${value} names one ${entity} record`).toHaveLength(
      1,
    )
    return { record, value }
  }

  it('works: doi (prefix, URL, upper case), pmid, pmcid, mag', async () => {
    const { record, value } = one('works', 'doi')
    await expectRecord(`/works/doi:${value}`, record)
    await expectRecord(`/works/https://doi.org/${value}`, record)
    await expectRecord(`/works/${encodeURIComponent(`https://doi.org/${value}`)}`, record)
    await expectRecord(`/works/doi:${value.toUpperCase()}`, record)
    const pmid = one('works', 'pmid')
    await expectRecord(`/works/pmid:${pmid.value}`, pmid.record)
    await expectRecord(`/works/pmid:https://pubmed.ncbi.nlm.nih.gov/${pmid.value}`, pmid.record)
    const pmcid = one('works', 'pmcid')
    await expectRecord(`/works/pmcid:PMC${pmcid.value}`, pmcid.record)
    await expectRecord(`/works/pmcid:${pmcid.value}`, pmcid.record)
    const mag = one('works', 'mag')
    await expectRecord(`/works/mag:${mag.value}`, mag.record)
  })

  it('authors: orcid (prefix and URL)', async () => {
    const { record, value } = one('authors', 'orcid')
    await expectRecord(`/authors/orcid:${value}`, record)
    await expectRecord(`/authors/https://orcid.org/${value}`, record)
    await expectRecord(`/authors/orcid:${value.toUpperCase()}`, record)
  })

  it('institutions: ror (prefix, URL, both), wikidata', async () => {
    const { record, value } = one('institutions', 'ror')
    await expectRecord(`/institutions/ror:${value}`, record)
    await expectRecord(`/institutions/https://ror.org/${value}`, record)
    await expectRecord(`/institutions/ror:https://ror.org/${value}`, record)
    const wikidata = one('institutions', 'wikidata')
    await expectRecord(`/institutions/wikidata:${wikidata.value.toUpperCase()}`, wikidata.record)
  })

  it('sources: issn (the ISSN-L and another ISSN of the list)', async () => {
    const source = pick(
      'sources',
      (s) =>
        Array.isArray(s.issn) &&
        s.issn.length > 1 &&
        byExternalId('sources', 'issn', String(s.issn_l)).length === 1,
      'has several ISSNs',
    )
    await expectRecord(`/sources/issn:${String(source.issn_l)}`, source)
    const other = (source.issn as string[]).find((issn) => issn !== source.issn_l)!
    if (byExternalId('sources', 'issn', other).length === 1)
      await expectRecord(`/sources/issn:${other}`, source)
  })

  it('concepts and publishers: wikidata (prefix and URL)', async () => {
    const concept = one('concepts', 'wikidata')
    await expectRecord(`/concepts/wikidata:${concept.value.toUpperCase()}`, concept.record)
    await expectRecord(
      `/concepts/https://www.wikidata.org/wiki/${concept.value.toUpperCase()}`,
      concept.record,
    )
    const publisher = one('publishers', 'wikidata')
    await expectRecord(`/publishers/wikidata:${publisher.value.toUpperCase()}`, publisher.record)
  })
})

describe('merged ids', () => {
  const merged = mergedIds('authors')

  it('the sample has merged author ids', () => {
    expect(merged.length).toBeGreaterThan(0)
  })

  it.each(merged)('$oldId answers 301 to $into', async ({ oldId, into }) => {
    expect(byId('authors', oldId), `${oldId} is not served`).toBeUndefined()
    for (const path of [`/authors/${oldId}`, `/authors/${oldId.toLowerCase()}`]) {
      const response = await request(context.app, path)
      expect(response.status, `GET ${path} → ${response.text.slice(0, 200)}`).toBe(301)
      const location = response.headers.get('location') ?? ''
      expect(location, `GET ${path}: Location`).toMatch(new RegExp(`/authors/${into}$`, 'i'))
    }
  })

  it('a merged id is not in the list either', async () => {
    const ids = merged.map((m) => m.oldId).join('|')
    const response = await request(context.app, `/authors?filter=${encodeURIComponent(`openalex_id:${ids}`)}`)
    expect(response.status).toBe(200)
    expect((response.json as { meta: { count: number } }).meta.count).toBe(0)
  })
})

describe('/works/random', () => {
  it('answers a served work', async () => {
    const all = new Set(idSet(records('works')))
    for (let i = 0; i < 3; i++) {
      const response = await request(context.app, '/works/random')
      expect(response.status).toBe(200)
      const body = response.json as SampleRecord
      expect(all.has(shortId(body.id).toUpperCase())).toBe(true)
      expect(body).toEqual(byId('works', String(body.id)))
    }
  })
})

describe('404 as JSON', () => {
  it.each([
    '/works/W1',
    '/works/w999999999999',
    '/authors/A1',
    '/institutions/I1',
    '/works/doi:10.9999/not-in-the-sample',
    '/works/pmid:1',
    '/authors/orcid:0000-0000-0000-0000',
    '/countries/XX',
    '/works/not-an-id',
    '/widgets',
    '/widgets/W1',
    '/text-mining',
  ])('%s', async (path) => {
    await expect404(path)
  })
})
