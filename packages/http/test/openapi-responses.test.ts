import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createMemoryCollectionStore,
  createMemoryKeyStore,
  DEFAULT_METERING_LIMITS,
  generateApiKey,
  type KeyStore,
  keyRecordOf,
  type MeteringLimits,
  type MeterStore,
} from '@oqlkit/engine'
import { openFileMeterStore } from '@oqlkit/file-stores'
import { createApp, MAX_QUERY_BODY_BYTES, meteredCaller } from '@oqlkit/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
  ['GET', '/works?apc_sum=true&cited_by_count_sum=true&per_page=2', 200],
  ['GET', '/authors?sample=5&per-page=200&cursor=*', 200],
  ['GET', '/works?group_by=authorships.countries,type&per_page=3', 200],
  ['POST', '/works/lookup', 200, { ids: ['W2741809807', 'doi:10.9999/none', 'A1', 'no id'] }],
  ['POST', '/authors/lookup?select=id,display_name', 200, { ids: ['A5023888391'] }],
  ['POST', '/works/lookup', 400, { ids: 'W1' }],
  ['POST', '/works/lookup', 400, { ids: ['W1'], select: 'colour' }],
  ['POST', '/planets/lookup', 404, { ids: ['W1'] }],
  ['POST', '/works/lookup', 413, { ids: ['W1'.repeat(MAX_QUERY_BODY_BYTES / 2)] }],
  ['GET', '/works/snowball?ids=W2741809807|W1|A1&direction=both&depth=2&select=id,display_name', 200],
  ['GET', '/works/snowball?ids=W2741809807', 200],
  ['GET', '/works/snowball?ids=W1&depth=3', 400],
  ['GET', '/works/export?format=json&filter=publication_year:2020&select=id,display_name', 200],
  ['GET', '/works/export?format=csv&page=2', 400],
  ['GET', '/planets/export?format=csv', 404],
  ['GET', `/works/export?format=csv&filter=display_name.search:${longTail}`, 414],
  ['GET', '/works/export?format=parquet', 501],
  ['GET', `/export?format=json&select=id&oql=${encodeURIComponent('works where year is 2020')}`, 200],
  ['GET', `/export?format=csv&oql=${encodeURIComponent('works where colour is blue')}`, 400],
  ['GET', '/works?oql=works', 400],
  ['GET', '/works?sort=colour&per_page=500', 400],
  ['GET', '/planets', 404],
  ['GET', `/works?filter=display_name.search:${longTail}`, 414],
  ['GET', `/works/${workId}`, 200],
  ['GET', `/works/${workId}?select=id,display_name`, 200],
  ['GET', '/countries/US', 200],
  ['GET', `/authors/${merged.oldId}`, 301],
  ['GET', `/works/${workId}?per_page=2`, 200],
  ['GET', `/works/${workId}?colour=red`, 400],
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
  // The unmetered app: no budget to report.
  ['GET', '/rate-limit', 404],
  ['GET', '/query/spec', 200],
  ['GET', '/query/spec/oqo', 200],
  ['GET', '/openapi.json', 200],
  ['GET', `/text?title=${encodeURIComponent('Deep learning for protein structure prediction')}`, 200],
  ['GET', '/text?title=short', 400],
  [
    'POST',
    '/text',
    200,
    { title: 'Climate change and crop yields in Africa', abstract: 'Rainfall and drought.' },
  ],
  ['POST', '/text', 400, { title: 'Climate change and crop yields', colour: 'blue' }],
  ['POST', '/text', 413, { title: 'x'.repeat(70_000) }],
  [
    'GET',
    `/text/keywords?title=${encodeURIComponent('Deep learning for protein structure prediction')}`,
    200,
  ],
  ['GET', '/text/keywords?name=x', 400],
  ['POST', '/text/keywords', 200, { title: 'Deep learning for protein structure prediction' }],
  ['POST', '/text/keywords', 400, { title: 'too short' }],
  ['POST', '/text/keywords', 413, { title: 'x'.repeat(70_000) }],
  [
    'GET',
    `/text/concepts?title=${encodeURIComponent('Deep learning for protein structure prediction')}`,
    200,
  ],
  ['GET', '/text/concepts', 400],
  ['POST', '/text/concepts', 200, { title: 'Deep learning for protein structure prediction' }],
  ['POST', '/text/concepts', 400, { title: 'x'.repeat(2001) }],
  ['POST', '/text/concepts', 413, { title: 'x'.repeat(70_000) }],
  ['GET', `/text/topics?title=${encodeURIComponent('Deep learning for protein structure prediction')}`, 200],
  ['GET', '/text/topics?title=x&abstract=y', 400],
  ['POST', '/text/topics', 200, { title: 'Deep learning for protein structure prediction' }],
  ['POST', '/text/topics', 400, { title: 42 }],
  ['POST', '/text/topics', 413, { title: 'x'.repeat(70_000) }],
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
      const refusal = response.body as { validation?: { errors: { type: string }[] }; code?: string }
      const malformed =
        status === 400 &&
        (refusal.validation === undefined
          ? ['invalid_body', 'invalid_lookup', 'unknown_parameter', 'invalid_parameter'].includes(
              refusal.code ?? '',
            )
          : refusal.validation.errors[0]?.type === 'invalid_body')
      expect(request.valid, JSON.stringify(request.errors)).toBe(!malformed)
    }
  })

  it('the validation is not vacuous: a body of another shape fails', () => {
    expect(validator.validateResponse('GET', '/query', 200, { msg: 'x' }).valid).toBe(false)
    expect(validator.validateResponse('GET', '/works', 200, { meta: {}, results: [] }).valid).toBe(false)
    expect(validator.validateResponse('POST', '/', 400, { code: 'x', message: 'y' }).valid).toBe(false)
    expect(validator.validateResponse('GET', '/works/W1', 404, { code: 'x' }).valid).toBe(false)
  })
})

// The same check with metering and collections on: the rate-limit report, the collection endpoints
// (success and every error status they document), and the two answers metering can give any operation,
// a 401 for an unknown key and a 429 once the caller's rate is spent.
describe('with metering and collections on, every response validates too', () => {
  const NOW = Date.UTC(2030, 0, 10, 12)
  const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-openapi-metered-'))
  const meters: MeterStore[] = []
  const keys: Record<'ann' | 'bob' | 'admin' | 'spent', string> = {
    ann: generateApiKey(),
    bob: generateApiKey(),
    admin: generateApiKey(),
    spent: generateApiKey(),
  }
  let keyStore: KeyStore
  const meteredApp = async (name: string, limits: MeteringLimits) => {
    const meter = await openFileMeterStore({ dir: join(scratch, name) })
    meters.push(meter)
    return createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      logError: (error) => {
        sample.faults.push(error)
      },
      metering: { keys: keyStore, meter, limits, clock: () => NOW },
      collections: { store: createMemoryCollectionStore(), callers: meteredCaller },
    })
  }
  let app: Awaited<ReturnType<typeof meteredApp>>
  // One request a second: after its first call, every call of the key is refused by the rate.
  let oneASecond: Awaited<ReturnType<typeof meteredApp>>
  beforeAll(async () => {
    const now = new Date(NOW)
    keyStore = createMemoryKeyStore([
      await keyRecordOf(keys.ann, { userId: 'ann' }, now),
      await keyRecordOf(keys.bob, { userId: 'bob' }, now),
      await keyRecordOf(keys.admin, { userId: 'root', admin: true }, now),
      await keyRecordOf(keys.spent, { userId: 'spent' }, now),
    ])
    app = await meteredApp('main', DEFAULT_METERING_LIMITS)
    oneASecond = await meteredApp('one-a-second', { ...DEFAULT_METERING_LIMITS, requestsPerWindow: 1 })
  })
  afterAll(async () => {
    for (const meter of meters) await meter.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  type Target = typeof app
  const exchange = async (
    target: Target,
    method: string,
    path: string,
    options: { key?: string; body?: unknown } = {},
  ) => {
    const headers = new Headers()
    if (options.key !== undefined) headers.set('authorization', `Bearer ${options.key}`)
    if (options.body !== undefined) headers.set('content-type', 'application/json')
    const response = await target.fetch(
      new Request(`http://localhost${path}`, {
        method,
        headers,
        redirect: 'manual',
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      }),
    )
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown }
  }
  const expectValid = async (
    target: Target,
    method: string,
    path: string,
    status: number,
    options: { key?: string; body?: unknown } = {},
  ) => {
    const response = await exchange(target, method, path, options)
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body).slice(0, 300)}`).toBe(status)
    const result = validator.validateResponse(method, path, response.status, response.body)
    expect(result.errors, `${method} ${path} → ${result.operation} ${result.status}`).toEqual([])
    return response.body as Record<string, unknown>
  }

  it('the rate-limit report, for a key and for an address', async () => {
    const keyed = await expectValid(app, 'GET', '/rate-limit', 200, { key: keys.ann })
    expect(keyed.api_key).toMatch(/^oqk_…/)
    const anonymous = await expectValid(app, 'GET', '/rate-limit', 200)
    expect(anonymous.api_key).toBeNull()
  })

  it('the collection endpoints, success and error', async () => {
    const { ann, bob, admin } = keys
    await expectValid(app, 'GET', '/me/collections', 401)
    await expectValid(app, 'POST', '/me/collections', 400, {
      key: ann,
      body: { display_name: '', entity_type: 'works' },
    })
    const created = await expectValid(app, 'POST', '/me/collections', 201, {
      key: ann,
      body: { display_name: 'To read', entity_type: 'works', entity_ids: ['W1', 'W2'] },
    })
    const id = String(created.id)
    await expectValid(app, 'GET', '/me/collections?entity_id=W1', 200, { key: ann })
    await expectValid(app, 'GET', `/collections/${id}`, 200, { key: ann })
    await expectValid(app, 'GET', `/collections/${id}`, 403, { key: bob })
    await expectValid(app, 'GET', '/collections/col_0000000000', 404, { key: ann })
    await expectValid(app, 'GET', `/collections/${id}/entities?per_page=1`, 200, { key: ann })
    await expectValid(app, 'PATCH', `/me/collections/${id}`, 200, { key: ann, body: { description: 'Soon' } })
    await expectValid(app, 'POST', `/me/collections/${id}/entities`, 200, {
      key: ann,
      body: { entity_ids: ['W3', 'W1'] },
    })
    await expectValid(app, 'DELETE', `/me/collections/${id}/entities`, 200, {
      key: ann,
      body: { entity_ids: ['W3'] },
    })
    await expectValid(app, 'DELETE', `/me/collections/${id}/entities/W2`, 200, { key: ann })
    await expectValid(app, 'GET', '/admin/collections?owner_id=ann', 200, { key: admin })
    await expectValid(app, 'GET', '/admin/collections', 403, { key: ann })
    await expectValid(app, 'GET', `/admin/collections/${id}`, 200, { key: admin })
    await expectValid(app, 'PATCH', `/admin/collections/${id}`, 200, {
      key: admin,
      body: { display_name: 'Checked' },
    })
    // Every error each operation documents: no key, another user's (or a non-admin), none such, bad input.
    const none = '/col_0000000000'
    const refusals: readonly (readonly [string, string, number, string | undefined, unknown?])[] = [
      ['GET', '/me/collections', 401, undefined],
      ['GET', '/me/collections?per_page=500', 400, ann],
      ['POST', '/me/collections', 401, undefined, { display_name: 'x', entity_type: 'works' }],
      ['PATCH', `/me/collections/${id}`, 400, ann, { display_name: '' }],
      ['PATCH', `/me/collections/${id}`, 401, undefined, { description: 'x' }],
      ['PATCH', `/me/collections/${id}`, 403, bob, { description: 'x' }],
      ['PATCH', `/me/collections${none}`, 404, ann, { description: 'x' }],
      ['DELETE', `/me/collections/${id}`, 401, undefined],
      ['DELETE', `/me/collections/${id}`, 403, bob],
      ['DELETE', `/me/collections${none}`, 404, ann],
      ['POST', `/me/collections/${id}/entities`, 400, ann, { entity_ids: ['A1'] }],
      ['POST', `/me/collections/${id}/entities`, 401, undefined, { entity_ids: ['W1'] }],
      ['POST', `/me/collections/${id}/entities`, 403, bob, { entity_ids: ['W1'] }],
      ['POST', `/me/collections${none}/entities`, 404, ann, { entity_ids: ['W1'] }],
      ['DELETE', `/me/collections/${id}/entities`, 400, ann, { entity_ids: 'W1' }],
      ['DELETE', `/me/collections/${id}/entities`, 401, undefined, { entity_ids: ['W1'] }],
      ['DELETE', `/me/collections/${id}/entities`, 403, bob, { entity_ids: ['W1'] }],
      ['DELETE', `/me/collections${none}/entities`, 404, ann, { entity_ids: ['W1'] }],
      ['DELETE', `/me/collections/${id}/entities/A1`, 400, ann],
      ['DELETE', `/me/collections/${id}/entities/W1`, 401, undefined],
      ['DELETE', `/me/collections/${id}/entities/W1`, 403, bob],
      ['DELETE', `/me/collections${none}/entities/W1`, 404, ann],
      ['GET', `/collections/${id}`, 401, undefined],
      ['GET', `/collections/${id}/entities?per_page=500`, 400, ann],
      ['GET', `/collections/${id}/entities`, 401, undefined],
      ['GET', `/collections/${id}/entities`, 403, bob],
      ['GET', `/collections${none}/entities`, 404, ann],
      ['GET', '/admin/collections?per_page=500', 400, admin],
      ['GET', '/admin/collections', 401, undefined],
      ['GET', `/admin/collections/${id}`, 401, undefined],
      ['GET', `/admin/collections/${id}`, 403, ann],
      ['GET', `/admin/collections${none}`, 404, admin],
      ['PATCH', `/admin/collections/${id}`, 400, admin, { display_name: '' }],
      ['PATCH', `/admin/collections/${id}`, 401, undefined, { description: 'x' }],
      ['PATCH', `/admin/collections/${id}`, 403, ann, { description: 'x' }],
      ['PATCH', `/admin/collections${none}`, 404, admin, { description: 'x' }],
      ['DELETE', `/admin/collections/${id}`, 401, undefined],
      ['DELETE', `/admin/collections/${id}`, 403, ann],
      ['DELETE', `/admin/collections${none}`, 404, admin],
    ]
    for (const [method, path, status, key, body] of refusals)
      await expectValid(app, method, path, status, {
        ...(key === undefined ? {} : { key }),
        ...(body === undefined ? {} : { body }),
      })
    await expectValid(app, 'DELETE', `/me/collections/${id}`, 200, { key: ann })
    const other = await expectValid(app, 'POST', '/me/collections', 201, {
      key: bob,
      body: { display_name: 'Mine', entity_type: 'authors' },
    })
    await expectValid(app, 'DELETE', `/admin/collections/${String(other.id)}`, 200, { key: admin })
  })

  // One request for each served operation: metering refuses it before the route runs, so the ids in it
  // need not exist.
  const COLLECTION_REQUESTS: readonly (readonly [string, string, unknown?])[] = [
    ['GET', '/rate-limit'],
    ['GET', '/me/collections'],
    ['POST', '/me/collections', { display_name: 'x', entity_type: 'works' }],
    ['PATCH', '/me/collections/col_0000000000', { description: 'x' }],
    ['DELETE', '/me/collections/col_0000000000'],
    ['POST', '/me/collections/col_0000000000/entities', { entity_ids: ['W1'] }],
    ['DELETE', '/me/collections/col_0000000000/entities', { entity_ids: ['W1'] }],
    ['DELETE', '/me/collections/col_0000000000/entities/W1'],
    ['GET', '/collections/col_0000000000'],
    ['GET', '/collections/col_0000000000/entities'],
    ['GET', '/admin/collections'],
    ['GET', '/admin/collections/col_0000000000'],
    ['PATCH', '/admin/collections/col_0000000000', { description: 'x' }],
    ['DELETE', '/admin/collections/col_0000000000'],
  ]
  const everyOperation = (): (readonly [string, string, unknown?])[] => {
    const seen = new Set<string>()
    const requests: (readonly [string, string, unknown?])[] = []
    for (const [method, path, body] of [
      ...CASES.map(([method, path, , body]) => [method, path, body] as const),
      ...COLLECTION_REQUESTS,
      // The pages are metered like any route: free, but inside the caller's request rate.
      ...['/playground', '/playground/assets/playground.js', '/docs', '/docs/assets/swagger-ui.css'].map(
        (path) => ['GET', path] as const,
      ),
    ]) {
      const operation = `${method} ${validator.pathOf(path.split('?')[0]!)}`
      // Requests over the size limits are refused before metering; any other of the operation will do.
      if (seen.has(operation) || path.length > 8000 || JSON.stringify(body ?? '').length > 8000) continue
      seen.add(operation)
      requests.push([method, path, body])
    }
    return requests
  }

  it('every operation: 401 for an unknown key, 429 once the rate is spent (and not charged)', async () => {
    const unknown = generateApiKey()
    const requests = everyOperation()
    expect(requests.length).toBeGreaterThan(30)
    // The first call of the key spends its one request of the second.
    await exchange(oneASecond, 'GET', '/rate-limit', { key: keys.spent })
    for (const [method, path, body] of requests) {
      const options = body === undefined ? {} : { body }
      await expectValid(app, method, path, 401, { ...options, key: unknown })
      const refused = await exchange(oneASecond, method, path, { ...options, key: keys.spent })
      expect(refused.status, `${method} ${path}`).toBe(429)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      const result = validator.validateResponse(method, path, 429, refused.body)
      expect(result.errors, `${method} ${path}`).toEqual([])
    }
  })
})

// The pages for people answer HTML, scripts and styles, not JSON: their statuses and media types are
// checked against the document (and produced, for the coverage check above).
describe('the pages answer as the document says', () => {
  const page = async (path: string, headers: Record<string, string> = {}) => {
    const response = await sample.app.fetch(new Request(`http://localhost${path}`, { headers }))
    const type = response.headers.get('content-type')
    const body = type?.startsWith('application/json') ? await response.json() : await response.arrayBuffer()
    return { status: response.status, type, body, etag: response.headers.get('etag') }
  }
  // JSON answers (the errors) are validated against their schema, the others by media type.
  const check = (path: string, response: Awaited<ReturnType<typeof page>>, status: number) => {
    expect(response.status, path).toBe(status)
    const result = response.type?.startsWith('application/json')
      ? validator.validateResponse('GET', path, status, response.body)
      : validator.validateMediaResponse('GET', path, status, response.type)
    expect(result.errors, `${result.operation} ${result.status}`).toEqual([])
  }

  it.each([
    ['/playground', 200],
    ['/playground/assets/playground.js', 200],
    ['/playground/assets/playground.css', 200],
    ['/playground/assets/nothing.js', 404],
    ['/playground/assets/playground.html', 404],
    ['/docs', 200],
    ['/docs/assets/swagger-ui.css', 200],
    ['/docs/assets/docs-init.js', 200],
    ['/docs/assets/..%2Fpackage.json', 404],
  ])('GET %s → %i', async (path, status) => check(path, await page(path), status))

  it('answers 304 to a revalidation with the ETag it gave', async () => {
    for (const path of ['/playground/assets/playground.js', '/docs/assets/swagger-ui.css']) {
      const { etag } = await page(path)
      expect(etag, path).toMatch(/^"[\w-]{22}"$/)
      check(path, await page(path, { 'if-none-match': etag ?? '' }), 304)
    }
  })

  it('answers 503 page_unavailable when the bundle is not built', async () => {
    const app = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      pages: { bundleDir: join(tmpdir(), 'oqlkit-no-such-bundle') },
    })
    for (const path of ['/playground', '/docs', '/docs/assets/swagger-ui.css']) {
      const response = await app.fetch(new Request(`http://localhost${path}`))
      expect(response.status, path).toBe(503)
      const body = (await response.json()) as { code: string; message: string }
      expect(body.code).toBe('page_unavailable')
      expect(body.message).toContain('npm run build')
      expect(validator.validateResponse('GET', path, 503, body).errors).toEqual([])
    }
  })
})

describe('coverage of the document', () => {
  it('every documented response of a served operation was produced (5xx and default aside)', () => {
    const documented = validator.documentedResponses(
      (status) => status !== 'default' && !status.startsWith('5'),
    )
    const missing = documented.filter((key) => !validator.exercised.has(key))
    expect(missing).toEqual([])
    expect(documented.length).toBeGreaterThan(40)
  })
})
