// Replays every real example URL of spec/conformance/api-example-urls.json (public host stripped) against the
// sample app: none may answer 5xx, and every non-2xx must be a deliberate rejection listed below with its
// reason. The table of non-2xx answers is printed for the closing note.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { request } from './support/contract-http.ts'
import { byExternalId, byId } from './support/sample-oracle.ts'

const context = useContractApp()

const urls = JSON.parse(
  readFileSync(new URL('../../../spec/conformance/api-example-urls.json', import.meta.url), 'utf8'),
) as string[]

const PUBLIC_HOST = 'https://api.openalex.org'
const paths = [...new Set(urls.map((url) => url.slice(PUBLIC_HOST.length) || '/'))]

/** Why a singleton's id is absent: checked against the sample records, not just asserted. */
type Absent = {
  readonly entity: string
  readonly id?: string
  readonly scheme?: string
  readonly value?: string
}

interface Allowed {
  readonly status: number
  readonly reason: string
  /** For 404s of ids the sample does not hold: the id, looked up in the records by the test. */
  readonly absent?: Absent
}

const notInSample = (entity: string, id: string): Allowed => ({
  status: 404,
  reason: `${entity} ${id} is not in the bundled sample`,
  absent: { entity, id },
})

const externalNotInSample = (entity: string, scheme: string, value: string): Allowed => ({
  status: 404,
  reason: `no ${entity} record of the sample has ${scheme} ${value}`,
  absent: { entity, scheme, value },
})

const PER_PAGE_200 = 'per_page max is 100 (API description), 200 is the legacy public limit'
const UNKNOWN_FIELD = 'not a filter field of the registry (spec/properties.json): 400 unknown filter field'

/** Every non-2xx the replay may give, with its reason. Keys are path + query exactly as in the file. */
const ALLOWED: Readonly<Record<string, Allowed>> = {
  '/authors/A2798520857': notInSample('authors', 'A2798520857'),
  '/authors/A5092938886': notInSample('authors', 'A5092938886'),
  '/authors/https://orcid.org/0000-0002-1298-3089': externalNotInSample(
    'authors',
    'orcid',
    '0000-0002-1298-3089',
  ),
  '/authors/orcid:0000-0002-1298-3089': externalNotInSample('authors', 'orcid', '0000-0002-1298-3089'),
  '/publishers/wikidata:Q1479654': externalNotInSample('publishers', 'wikidata', 'Q1479654'),
  '/sources/issn:2041-1723': externalNotInSample('sources', 'issn', '2041-1723'),
  '/works/W2168909179': notInSample('works', 'W2168909179'),
  '/works?filter=publication_year:2023&per-page=200': { status: 400, reason: PER_PAGE_200 },
  '/works?filter=publication_year:2023&per-page=200&page=2': { status: 400, reason: PER_PAGE_200 },
  '/works?filter=publication_year:2023&per-page=200&page=3': { status: 400, reason: PER_PAGE_200 },
  '/works?filter=publication_year:>2020&sort=cited_by_count:desc&per-page=200': {
    status: 400,
    reason: PER_PAGE_200,
  },
  '/works?page=2&per-page=200': { status: 400, reason: PER_PAGE_200 },
  '/works?select=id,title&per-page=200': { status: 400, reason: PER_PAGE_200 },
  '/works?filter=has_ngrams:true': { status: 400, reason: UNKNOWN_FIELD },
  '/works?filter=has_oa_published_version:true': { status: 400, reason: UNKNOWN_FIELD },
  '/keywords?filter=subfield.id:2713': { status: 400, reason: UNKNOWN_FIELD },
  '/sources?group_by=publisher': {
    status: 400,
    reason: 'publisher is not a group-by field of sources in the registry',
  },
  '/authors?filter=last_known_institution.continent:africa': {
    status: 400,
    reason: 'last_known_institution (singular) is not in the registry (last_known_institutions is)',
  },
  '/authors?filter=last_known_institution.is_global_south:true': {
    status: 400,
    reason: 'last_known_institution (singular) is not in the registry (last_known_institutions is)',
  },
  '/authors?filter=last_known_institution.is_global_south:true&group-by=last_known_institution.country_code':
    {
      status: 400,
      reason: 'last_known_institution (singular) is not in the registry (last_known_institutions is)',
    },
  '/authors?group-by=last_known_institution.continent&filter=cited_by_count:%3E100': {
    status: 400,
    reason: 'last_known_institution (singular) is not in the registry (last_known_institutions is)',
  },
  '/authors?group_by=last_known_institution.continent': {
    status: 400,
    reason: 'last_known_institution (singular) is not in the registry (last_known_institutions is)',
  },
  '/works?filter=institutions.country_code:fr|primary_location.source.issn:0957-1558': {
    status: 400,
    reason: 'OR across two fields is not part of the filter grammar',
  },
  '/works?filter=publication_year:2020&per-page=100&cursor=IlsxNjA5MzcyODAwMDAwLCAnaHR0cHM6Ly9vcGVuYWxleC5vcmcvVzI0ODg0OTk3NjQnXSI=':
    {
      status: 400,
      reason: "a cursor minted by the public API is not one of this server's cursors: 400 invalid cursor",
    },
  '/W2741809807': {
    status: 404,
    reason: 'the root-level id shortcut /{id} is not part of the entity API (paths are /{entities}/{id})',
  },
  '/autocomplete/works?filter=publication_year:2010&search=frogs&q=greenhou': {
    status: 400,
    reason:
      'search is not an autocomplete parameter here (q, filter, hide_zero, api_key, mailto): 400 unknown parameter',
  },
  '/works?filter=authorships.institutions.id:https://ror.org/042nb2s44': {
    status: 400,
    reason: 'a ROR URL is not an OpenAlex institution id: 400 bad value for an id column',
  },
  '/works?filter=authorships.author.id:https://orcid.org/0000-0003-1613-5981': {
    status: 400,
    reason: 'an ORCID URL is not an OpenAlex author id: 400 bad value for an id column',
  },
}

function checkAbsent(absent: Absent) {
  if (absent.id !== undefined)
    expect(byId(absent.entity, absent.id), `${absent.entity} ${absent.id}`).toBeUndefined()
  if (absent.scheme !== undefined && absent.value !== undefined)
    expect(
      byExternalId(absent.entity, absent.scheme, absent.value),
      `${absent.scheme} ${absent.value}`,
    ).toHaveLength(0)
}

describe('the real example URLs', () => {
  it(`replays all ${paths.length} distinct URLs: no 5xx, every non-2xx allowed with its reason`, async () => {
    const rows: { url: string; status: number; error: string; allowed: string }[] = []
    const unexplained: string[] = []
    const serverErrors: string[] = []
    const nowOk: string[] = []
    for (const path of paths) {
      const response = await request(context.app, path)
      const allowed = ALLOWED[path]
      if (response.status >= 500)
        serverErrors.push(`${response.status} ${path} ${response.text.slice(0, 200)}`)
      if (response.status >= 200 && response.status < 300) {
        if (allowed) nowOk.push(path)
        continue
      }
      const body = response.json as { code?: unknown; message?: unknown } | undefined
      const error = String(body?.code ?? body?.message ?? response.text.slice(0, 60))
      rows.push({ url: path, status: response.status, error, allowed: allowed?.reason ?? 'NOT ALLOWED' })
      if (!allowed || allowed.status !== response.status)
        unexplained.push(
          `${response.status} ${path}: ${String(body?.message ?? response.text).slice(0, 200)}`,
        )
      if (allowed?.absent) checkAbsent(allowed.absent)
    }
    console.log(
      [
        `compat replay: ${paths.length} distinct URLs, ${paths.length - rows.length} 2xx, ${rows.length} non-2xx`,
        '| url | status | error | reason |',
        '|---|---|---|---|',
        ...rows.map((row) => `| \`${row.url}\` | ${row.status} | ${row.error} | ${row.allowed} |`),
        ...(nowOk.length > 0 ? ['allow-listed but now 2xx:', ...nowOk.map((path) => `  ${path}`)] : []),
      ].join('\n'),
    )
    expect.soft(serverErrors, 'no URL may answer 5xx').toEqual([])
    expect(unexplained, 'every non-2xx is in the allow-list with its status').toEqual([])
  }, 180_000)
})
