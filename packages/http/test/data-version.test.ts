// Every answer names the data it comes from: `meta.data_version` where an answer has meta, the Data-Version
// header on every response, and `/` lists the versions; an app given no version adds neither.
import { createApp, DATA_VERSION_HEADER, type DataVersion } from '@oqlkit/http'
import { afterAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const version: DataVersion = { name: 'default', snapshotDate: '2025-01-20', fingerprint: '3f9a1c2e4b5d' }
const versioned = () =>
  createApp({
    adapter: sample.adapter,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: { works: 1 }, version },
    logError: (error) => sample.faults.push(error),
  })

const named = { name: 'default', snapshot_date: '2025-01-20', fingerprint: '3f9a1c2e4b5d' }
const header = 'default; snapshot_date=2025-01-20; fingerprint=3f9a1c2e4b5d'

describe('data versions', () => {
  it('names the version in the meta of lists, groups, queries, lookups, snowballs and autocomplete', async () => {
    const app = versioned()
    const requests: Request[] = [
      new Request('http://localhost/works?per_page=1'),
      new Request('http://localhost/works?per_page=1&select=id'),
      new Request('http://localhost/works?group_by=type'),
      new Request('http://localhost/?oql=works%20where%20year%20%3E%202000&per_page=1'),
      new Request('http://localhost/works/lookup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"ids": ["W1"]}',
      }),
      new Request('http://localhost/works/snowball?ids=W1'),
      new Request('http://localhost/autocomplete/works?q=the'),
    ]
    for (const request of requests) {
      const response = await app.fetch(request)
      expect(response.status, request.url).toBe(200)
      expect(response.headers.get(DATA_VERSION_HEADER), request.url).toBe(header)
      const body = (await response.json()) as { meta: Record<string, unknown> }
      expect(body.meta.data_version, request.url).toEqual(named)
    }
  })

  it('sends the header on a single entity, and lists the versions at /', async () => {
    const app = versioned()
    const singleton = await app.fetch(new Request('http://localhost/works/random'))
    expect(singleton.status).toBe(200)
    expect(singleton.headers.get(DATA_VERSION_HEADER)).toBe(header)
    const root = (await (await app.fetch(new Request('http://localhost/'))).json()) as {
      catalog: Record<string, unknown>
      data_versions: unknown[]
    }
    expect(root.catalog.data_version).toEqual(named)
    expect(root.data_versions).toEqual([{ ...named, default: true }])
  })

  it('sends the header on errors too: a bad list, an unknown work, a refused snowball', async () => {
    const app = versioned()
    for (const [path, status] of [
      ['/works?per_page=abc', 400],
      ['/works/W1', 404],
      ['/works/snowball?ids=W1&depth=9', 400],
      ['/nowhere', 404],
    ] as const) {
      const response = await app.fetch(new Request(`http://localhost${path}`))
      expect(response.status, path).toBe(status)
      expect(response.headers.get(DATA_VERSION_HEADER), path).toBe(header)
    }
  })

  it('adds neither without a version', async () => {
    const response = await sample.app.fetch(new Request('http://localhost/works?per_page=1'))
    expect(response.headers.get(DATA_VERSION_HEADER)).toBeNull()
    expect(((await response.json()) as { meta: Record<string, unknown> }).meta).not.toHaveProperty(
      'data_version',
    )
  })
})
