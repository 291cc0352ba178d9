import { readFileSync } from 'node:fs'
import { MAX_QUERY_BODY_BYTES } from '@oqlkit/http'
import { afterAll, describe, expect, it } from 'vitest'
import { type OpenApiDocument, OpenApiValidator } from './support/openapi-validator.ts'
import { post } from './support/query-requests.ts'
import { useSampleApp } from './support/sample-app.ts'
import { ENTITY_PATHS, mergedIds, records, shortId } from './support/sample-oracle.ts'

// Rule 5: real responses of the server, for every endpoint it serves, success and error alike, validate
// against the schemas spec/openapi.json gives them; and every documented response of a served operation
// is produced at least once. Request bodies the server accepts validate against the request schemas, the
// ones it refuses do not. So the document cannot drift from the server.

const document = JSON.parse(
  readFileSync(new URL('../../../spec/openapi.json', import.meta.url), 'utf8'),
) as OpenApiDocument
const validator = new OpenApiValidator(document)

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const longTail = 'x'.repeat(8200)
const workId = shortId(records('works')[0]!.id)
const merged = mergedIds('authors')[0]!

type Case = readonly [method: 'GET' | 'POST', path: string, status: number, body?: unknown, raw?: string]

const CASES: readonly Case[] = [
  ['GET', '/', 200],
  ['GET', `/?oql=${encodeURIComponent('works where year is 2020')}&per_page=2`, 200],
  ['GET', `/?oql=${encodeURIComponent('works where year is 2020 group by type, open access')}`, 200],
  ['GET', `/?oqo=${encodeURIComponent('{"get_rows":"authors"}')}&per-page=1&cursor=*`, 200],
  ['GET', `/?oql=${encodeURIComponent('works where colour is blue')}`, 400],
  ['GET', '/?oqo=%7Bnot', 400],
  ['GET', `/?oql=${longTail}`, 414],
  ['POST', '/', 200, { oql: 'works where title has climate', per_page: 2, select: ['id', 'display_name'] }],
  ['POST', '/', 200, { oqo: { get_rows: 'institutions', sample: 3, seed: '1' } }],
  [
    'POST',
    '/',
    200,
    {
      oqo: { get_rows: 'works', per_page: 2, sort_by: [{ column_id: 'cited_by_count', direction: 'desc' }] },
    },
  ],
  ['POST', '/', 400, { oql: 'works', sample: 3 }],
  ['POST', '/', 400, { oql: 'works', oqo: { get_rows: 'works' } }],
  ['POST', '/', 400, { oql: 'works where country is uk' }],
  ['POST', '/', 400, { oql: 'works', sort: 'colour' }],
  ['POST', '/', 413, { oql: 'x'.repeat(MAX_QUERY_BODY_BYTES) }],
  ...ENTITY_PATHS.map((path): Case => ['GET', `/${path}?per_page=2`, 200]),
  ['GET', '/works?group_by=type&q=art', 200],
  ['GET', '/works?cursor=*&per_page=2&select=id', 200],
  ['GET', '/works?search=climate&per_page=2', 200],
  ['GET', '/works?group_by=authorships.countries,type&per_page=3', 200],
  ['GET', '/works?oql=works', 400],
  ['GET', '/works?sort=colour&per_page=500', 400],
  ['GET', '/planets', 404],
  ['GET', `/works?filter=display_name.search:${longTail}`, 414],
  ['GET', `/works/${workId}`, 200],
  ['GET', `/works/${workId}?select=id,display_name`, 200],
  ['GET', '/countries/US', 200],
  ['GET', `/authors/${merged.oldId}`, 301],
  ['GET', `/works/${workId}?per_page=2`, 400],
  ['GET', '/works/W1', 404],
  ['GET', '/autocomplete?q=harv', 200],
  ['GET', '/autocomplete?colour=blue', 400],
  ['GET', '/autocomplete/institutions?q=harv', 200],
  ['GET', '/autocomplete/institutions?colour=blue', 400],
  ['GET', '/autocomplete/planets?q=x', 404],
  ['GET', '/query', 200],
  ['POST', '/query', 200, { oql: 'works where institution is I136199984 and year >= 2020' }],
  ['POST', '/query', 200, { oqo: '{"get_rows":"works"}' }],
  ['POST', '/query', 200, { oxurl: '/works?filter=is_oa:true' }],
  ['POST', '/query', 400, { oql: 'works where colour is blue' }],
  [
    'POST',
    '/query',
    400,
    { oqo: { get_rows: 'works', filter_rows: [{ column_id: 'colour', value: 'blue' }] } },
  ],
  ['POST', '/query', 400, { oql: 'works', oxurl: '/works' }],
  ['POST', '/query', 413, { oql: 'x'.repeat(MAX_QUERY_BODY_BYTES) }],
  ['GET', `/query/oql/${encodeURIComponent('works where type is article or type is book')}`, 200],
  ['GET', `/query/oql/${encodeURIComponent('works where (title has (a near/3 b)) or year is 2020')}`, 200],
  ['GET', '/query/oql/works%20where', 400],
  ['GET', `/query/oql/${longTail}`, 414],
  [
    'GET',
    `/query/oqo/${encodeURIComponent('{"get_rows":"authors","group_by":[{"column_id":"has_orcid"}]}')}`,
    200,
  ],
  ['GET', '/query/oqo/%7Bnot', 400],
  ['GET', `/query/oqo/${longTail}`, 414],
  ['GET', '/query/oxurl/works?filter=publication_year:2020&sort=cited_by_count:desc', 200],
  ['GET', '/query/oxurl/works?filter=colour:blue', 400],
  ['GET', `/query/oxurl/works?filter=display_name.search:${longTail}`, 414],
  ['GET', `/validate?q=${encodeURIComponent('works where year is 2020')}`, 200],
  ['GET', `/validate?q=${encodeURIComponent('works where colour is blue and country is uk')}`, 200],
  ['GET', `/validate?q=${encodeURIComponent('works where country is uk')}`, 200],
  ['GET', '/validate?x=1', 400],
  ['GET', '/parse-context?q=', 200],
  ['GET', `/parse-context?q=${encodeURIComponent('works where institution is harv')}`, 200],
  ['GET', `/parse-context?q=${encodeURIComponent('works where type is article or ')}`, 200],
  ['GET', `/parse-context?q=${encodeURIComponent('works where colour is blue and year ')}&pos=30`, 200],
  ['GET', '/parse-context?q=works&pos=x', 400],
  ['GET', '/properties', 200],
  ['GET', '/properties?entity=authors', 200],
  ['GET', '/properties?x=1', 400],
  ['GET', '/properties?entity=planets', 404],
  ['GET', '/properties/work-types', 200],
  ['GET', '/properties/works?x=1', 400],
  ['GET', '/properties/planets', 404],
  ['GET', '/query/spec', 200],
  ['GET', '/query/spec/oqo', 200],
  ['GET', '/openapi.json', 200],
]

const send = async ([method, path, , body]: Case) => {
  if (method === 'POST') return post(sample.app, path, body)
  const response = await sample.app.fetch(new Request(`http://localhost${path}`, { redirect: 'manual' }))
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown }
}

const label = ([method, path, status]: Case) => `${method} ${path.slice(0, 90)} → ${status}`

describe('every response validates against spec/openapi.json', () => {
  it.each(CASES.map((entry) => [label(entry), entry] as const))('%s', async (_, entry) => {
    const [method, path, status, body] = entry
    const response = await send(entry)
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(status)
    expect(response.headers.get('content-type')).toContain('application/json')
    const result = validator.validateResponse(method, path, response.status, response.body)
    expect(result.errors, `${result.operation} ${result.status}`).toEqual([])
    if (method === 'POST' && status !== 413) {
      // Bodies the server accepts fit the request schema; bodies it refuses as malformed do not.
      const request = validator.validateRequestBody(method, path, body)
      const malformed =
        status === 400 &&
        (response.body as { validation: { errors: { type: string }[] } }).validation.errors[0]?.type ===
          'invalid_body'
      expect(request.valid, JSON.stringify(request.errors)).toBe(!malformed)
    }
  })

  it('every documented response of a served operation was produced (5xx and default aside)', () => {
    const documented = validator.documentedResponses(
      (status) => status !== 'default' && !status.startsWith('5'),
    )
    const missing = documented.filter((key) => !validator.exercised.has(key))
    expect(missing).toEqual([])
    expect(documented.length).toBeGreaterThan(40)
  })

  it('the validation is not vacuous: a body of another shape fails', () => {
    expect(validator.validateResponse('GET', '/query', 200, { msg: 'x' }).valid).toBe(false)
    expect(validator.validateResponse('GET', '/works', 200, { meta: {}, results: [] }).valid).toBe(false)
    expect(validator.validateResponse('POST', '/', 400, { error: 'x', message: 'y' }).valid).toBe(false)
    expect(validator.validateResponse('GET', '/works/W1', 404, { error: 'x' }).valid).toBe(false)
  })
})
