import { canonicalizeOqo, type Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { oqoToUrl, URL_DIAGNOSTIC_CODES, urlToOqo } from '../src/url/index.ts'
import { okRows, readSpecJson } from './corpus-fixtures.ts'

const sorted = (oqo: Oqo): Oqo => canonicalizeOqo(oqo, { sortOperands: true })

const rows = okRows()
const withUrl = rows.filter((row): row is typeof row & { oxurl: string } => typeof row.oxurl === 'string')
const oqlOnly = rows.filter((row) => row.oxurl == null)

describe('corpus rows with a classic URL', () => {
  it('has the rows the corpus files hold (newer rows replacing baseline ones)', () => {
    expect(withUrl).toHaveLength(138)
    expect(oqlOnly).toHaveLength(24)
    expect(withUrl.map((row) => row.id)).toEqual(expect.arrayContaining([183, 184, 186, 199, 200, 201, 202]))
  })

  it.each(withUrl.map((row) => [row.id, row] as const))('row %i: the URL reads as the row OQO', (_, row) => {
    const result = urlToOqo(row.oxurl)
    expect(result.ok ? [] : result.errors).toEqual([])
    if (result.ok) expect(result.oqo).toEqual(sorted(row.oqo))
  })

  it.each(withUrl.map((row) => [row.id, row] as const))(
    'row %i: the sorted canonical OQO writes the stored URL byte for byte',
    (_, row) => {
      expect(oqoToUrl(sorted(row.oqo))).toEqual({ url: row.oxurl })
    },
  )
})

describe('corpus rows without a classic URL (oql-only)', () => {
  it.each(oqlOnly.map((row) => [row.id, row] as const))(
    'row %i: no URL, and a warning says why',
    (_, row) => {
      const result = oqoToUrl(sorted(row.oqo))
      expect(result.url).toBeNull()
      if (result.url === null) {
        expect(result.warning.code).toBe('url_not_representable')
        expect(['or_across_columns', 'nested_branch', 'k_ary_proximity']).toContain(result.warning.reason)
        expect(result.warning.message).toMatch(/^No classic URL: .*\.$/)
      }
    },
  )
})

// The real API URLs clients send: list queries translate; singletons, autocomplete, /text and keys
// the API has renamed or dropped are rejected, each with the diagnostic below.
const REJECTED: Readonly<Record<string, string>> = {
  'https://api.openalex.org/W2741809807': 'not_a_list_query',
  'https://api.openalex.org/authors/A2798520857': 'not_a_list_query',
  'https://api.openalex.org/authors/A5006060960': 'not_a_list_query',
  'https://api.openalex.org/authors/A5023888391': 'not_a_list_query',
  'https://api.openalex.org/authors/A5023888391?select=id,display_name,orcid': 'not_a_list_query',
  'https://api.openalex.org/authors/A5092938886': 'not_a_list_query',
  'https://api.openalex.org/authors/https://orcid.org/0000-0002-1298-3089': 'not_a_list_query',
  'https://api.openalex.org/authors/https://orcid.org/0000-0003-1613-5981': 'not_a_list_query',
  'https://api.openalex.org/authors/orcid:0000-0002-1298-3089': 'not_a_list_query',
  'https://api.openalex.org/authors/orcid:0000-0003-1613-5981': 'not_a_list_query',
  'https://api.openalex.org/authors?filter=last_known_institution.continent:africa': 'invalid_column',
  'https://api.openalex.org/authors?filter=last_known_institution.is_global_south:true': 'invalid_column',
  'https://api.openalex.org/authors?filter=last_known_institution.is_global_south:true&group-by=last_known_institution.country_code':
    'invalid_column',
  'https://api.openalex.org/authors?group-by=last_known_institution.continent&filter=cited_by_count:%3E100':
    'invalid_group_by',
  'https://api.openalex.org/authors?group_by=last_known_institution.continent': 'invalid_group_by',
  'https://api.openalex.org/autocomplete/authors?q=einst': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/authors?q=ronald%20sw': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/concepts?q=comp': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/funders?q=national+sci': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/institutions?q=Florida': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/institutions?q=flori': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/institutions?q=harv': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/institutions?q=stanford': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/publishers?q=els': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/sources?q=S49861241': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/sources?q=neuro': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/works?filter=publication_year:2010&search=frogs&q=greenhou':
    'not_a_list_query',
  'https://api.openalex.org/autocomplete/works?q=neural+networks': 'not_a_list_query',
  'https://api.openalex.org/autocomplete/works?q=tigers': 'not_a_list_query',
  'https://api.openalex.org/autocomplete?q=https://orcid.org/0000-0002-7436-3176': 'not_a_list_query',
  'https://api.openalex.org/concepts/C71924100': 'not_a_list_query',
  'https://api.openalex.org/concepts/C71924100?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/concepts/random': 'not_a_list_query',
  'https://api.openalex.org/concepts/wikidata:Q11190': 'not_a_list_query',
  'https://api.openalex.org/funders/F4320332161': 'not_a_list_query',
  'https://api.openalex.org/funders/F4320332161?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/funders/wikidata:Q390551': 'not_a_list_query',
  'https://api.openalex.org/institutions/I27837315': 'not_a_list_query',
  'https://api.openalex.org/institutions/I27837315?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/institutions/https://ror.org/02y3ad647': 'not_a_list_query',
  'https://api.openalex.org/institutions/random': 'not_a_list_query',
  'https://api.openalex.org/institutions/ror:02y3ad647': 'not_a_list_query',
  'https://api.openalex.org/institutions/ror:https://ror.org/00cvxb145': 'not_a_list_query',
  'https://api.openalex.org/keywords/cardiac-imaging': 'not_a_list_query',
  'https://api.openalex.org/keywords/cardiac-imaging?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/keywords?filter=subfield.id:2713': 'invalid_column',
  'https://api.openalex.org/publishers/P4310319965': 'not_a_list_query',
  'https://api.openalex.org/publishers/P4310319965?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/publishers/wikidata:Q1479654': 'not_a_list_query',
  'https://api.openalex.org/sources/S137773608': 'not_a_list_query',
  'https://api.openalex.org/sources/S137773608?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/sources/issn:2041-1723': 'not_a_list_query',
  'https://api.openalex.org/sources?group_by=publisher': 'invalid_group_by',
  'https://api.openalex.org/text/concepts?title=type%201%20diabetes%20research%20for%20children':
    'not_a_list_query',
  'https://api.openalex.org/text/keywords?title=type%201%20diabetes%20research%20for%20children':
    'not_a_list_query',
  'https://api.openalex.org/text/topics?title=type%201%20diabetes%20research%20for%20children':
    'not_a_list_query',
  'https://api.openalex.org/text?title=Machine+learning+for+drug+discovery': 'not_a_list_query',
  'https://api.openalex.org/text?title=type%201%20diabetes%20research%20for%20children': 'not_a_list_query',
  'https://api.openalex.org/topics/T11636': 'not_a_list_query',
  'https://api.openalex.org/topics/T11636?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/works/W2138270253?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/works/W2168909179': 'not_a_list_query',
  'https://api.openalex.org/works/W2741809807': 'not_a_list_query',
  'https://api.openalex.org/works/W2741809807?select=id,display_name': 'not_a_list_query',
  'https://api.openalex.org/works/https://doi.org/10.7717/peerj.4375': 'not_a_list_query',
  'https://api.openalex.org/works/pmid:14907713': 'not_a_list_query',
  'https://api.openalex.org/works?filter=authorships.author.id:https://orcid.org/0000-0003-1613-5981':
    'invalid_value',
  'https://api.openalex.org/works?filter=authorships.institutions.id:https://ror.org/042nb2s44':
    'invalid_value',
  'https://api.openalex.org/works?filter=has_ngrams:true': 'invalid_column',
  'https://api.openalex.org/works?filter=has_oa_published_version:true': 'invalid_column',
  'https://api.openalex.org/works?filter=institutions.country_code:fr|primary_location.source.issn:0957-1558':
    'or_across_filters',
}

describe('the 276 real API URLs of spec/conformance/api-example-urls.json', () => {
  const urls = readSpecJson<string[]>('conformance/api-example-urls.json')

  it('translates 205 and rejects the 71 that are not list queries or use keys the API no longer has', () => {
    expect(urls).toHaveLength(276)
    const rejected: Record<string, string> = {}
    let translated = 0
    for (const url of urls) {
      const result = urlToOqo(url)
      if (result.ok) translated++
      else rejected[url] = result.errors[0]!.code
    }
    expect(rejected).toEqual(REJECTED)
    expect(translated).toBe(205)
  })

  it.each(urls.map((url) => [url] as const))(
    '%s: a translation writes back to a URL of the same query',
    (url) => {
      const result = urlToOqo(url)
      if (!result.ok) {
        for (const error of result.errors) {
          expect(error.severity).toBe('error')
          expect(error.message).toMatch(/[.?]$/)
        }
        return
      }
      const written = oqoToUrl(result.oqo, { view: result.view })
      expect(written.url).not.toBeNull()
      const again = urlToOqo(written.url ?? '')
      expect(again.ok && again.oqo).toEqual(result.oqo)
      expect(again.ok && again.view).toEqual(result.view)
    },
  )

  it('rejects with codes from the URL or the OQO validation registries', () => {
    for (const code of new Set(Object.values(REJECTED)))
      expect(
        code in URL_DIAGNOSTIC_CODES ||
          ['invalid_column', 'invalid_value', 'invalid_group_by'].includes(code),
      ).toBe(true)
  })
})
