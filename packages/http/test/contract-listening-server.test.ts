// The same contract through a real listening server (node:http around the app, as `oqlkit serve` runs it):
// a list, a merged singleton's 301, and a request line over 8,190 bytes, sent over a socket.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { idSet, mergedIds, records, shortId } from './support/sample-oracle.ts'

const context = useContractApp()
let server: Server
let base: string

beforeAll(async () => {
  server = createServer(toNodeHandler(context.app))
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((closed) => server?.close(() => closed()))
})

describe('a real listening server', () => {
  it('serves a filtered list', async () => {
    const year = 2020
    const response = await fetch(`${base}/works?filter=publication_year:${year}&per_page=100`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type') ?? '').toContain('application/json')
    const body = (await response.json()) as { meta: { count: number }; results: { id: string }[] }
    const expected = records('works').filter((w) => w.publication_year === year)
    expect(body.meta.count).toBe(expected.length)
    expect(body.results.map((r) => shortId(r.id).toUpperCase()).sort()).toEqual(idSet(expected))
  })

  it('answers a merged id with 301 and Location', async () => {
    const { oldId, into } = mergedIds('authors')[0]!
    const response = await fetch(`${base}/authors/${oldId}`, { redirect: 'manual' })
    expect(response.status).toBe(301)
    expect(response.headers.get('location') ?? '').toMatch(new RegExp(`/authors/${into}$`, 'i'))
  })

  it('refuses a request line over 8,190 bytes with 414 or 400, pointing to POST /', async () => {
    const ids = idSet(records('works')).map((id) => `https://openalex.org/${id}`)
    let path = `/works?filter=openalex_id:${ids.slice(0, 100).join('|')}`
    for (let i = 100; path.length < 8_300; i++) path += `,cited_by_count:!${i}`
    expect(`GET ${path} HTTP/1.1`.length).toBeGreaterThan(8_190)
    const response = await fetch(`${base}${path}`)
    expect([414, 400]).toContain(response.status)
    expect(await response.text()).toMatch(/POST/)
  })
})
