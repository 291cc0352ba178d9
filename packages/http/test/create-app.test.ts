import type { LookupResult, StorageAdapter } from '@oqlkit/engine'
import { API_VERSION, createApp } from '@oqlkit/http'
import { describe, expect, it } from 'vitest'

// The root document and the JSON 404 do not touch storage, so an adapter that fails every call shows
// that they do not; the routes that query arrive with the entity API and are tested against DuckDB.
const untouchable: StorageAdapter = {
  capabilities: { fullTextSearch: true },
  queryRows: () => Promise.reject(new Error('not expected')),
  queryGroups: () => Promise.reject(new Error('not expected')),
  findById: (): Promise<LookupResult> => Promise.reject(new Error('not expected')),
  findByExternalId: (): Promise<LookupResult> => Promise.reject(new Error('not expected')),
  findRandom: (): Promise<LookupResult> => Promise.reject(new Error('not expected')),
  close: () => Promise.resolve(),
}

const app = createApp({
  adapter: untouchable,
  catalog: { createdAt: '2026-11-21T00:00:00.000Z', entities: { works: 565, authors: 2705 } },
  version: '1.2.3',
})

describe('the root document', () => {
  it('answers a health check with the catalog summary', async () => {
    const response = await app.fetch(new Request('http://localhost/'))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    expect(await response.json()).toEqual({
      name: 'oqlkit',
      version: '1.2.3',
      status: 'ok',
      catalog: {
        created_at: '2026-11-21T00:00:00.000Z',
        entities: { works: 565, authors: 2705 },
        total: 3270,
      },
      // No version given: none to list.
      data_versions: [],
      capabilities: { fullTextSearch: true },
    })
  })

  it('reports the API version when the server names none', async () => {
    const unnamed = createApp({
      adapter: untouchable,
      catalog: { createdAt: '2026-11-21T00:00:00.000Z', entities: {} },
    })
    const body = (await (await unnamed.fetch(new Request('http://localhost/'))).json()) as { version: string }
    expect(body.version).toBe(API_VERSION)
    expect(API_VERSION).toMatch(/^\d+\.\d+\.\d+$/)
  })

  it('sends a browser, which asks for HTML, to the playground; a JSON client gets the health check', async () => {
    const browser = await app.fetch(
      new Request('http://localhost/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }),
    )
    expect(browser.status).toBe(302)
    expect(browser.headers.get('location')).toBe('playground')
    for (const accept of ['application/json', '*/*', 'application/json, text/html'])
      expect(
        (await app.fetch(new Request('http://localhost/', { headers: { accept } }))).status,
        accept,
      ).toBe(200)
  })

  it('answers an unknown path with a JSON 404', async () => {
    const response = await app.fetch(new Request('http://localhost/no-such-route'))
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toContain('application/json')
  })
})

describe('GET /rate-limit on a server that does not meter', () => {
  it('answers 404 metering_off, saying there is no budget and what turns metering on', async () => {
    const response = await app.fetch(new Request('http://localhost/rate-limit'))
    expect(response.status).toBe(404)
    const body = (await response.json()) as { code: string; message: string }
    expect(body.code).toBe('metering_off')
    expect(body.message).toContain('does not meter its API')
    expect(body.message).toContain('--metering, --keys or --redis')
  })
})
