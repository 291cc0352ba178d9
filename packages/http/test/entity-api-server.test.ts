import { serve } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'
import { sampleRecords } from './support/sample-records.ts'

// The app behind a real listening socket (h3's `serve`, as `oqlkit serve` runs it): what a client sees on
// the wire for a list, a merged id and a request line that is too long.

const sample = useSampleApp()
let server: ReturnType<typeof serve>
let base: string

beforeAll(async () => {
  server = serve(sample.app, {
    port: 0,
    hostname: '127.0.0.1',
    silent: true,
    node: { maxHeaderSize: 64 * 1024 },
  })
  await server.ready()
  base = (server.url ?? '').replace(/\/$/, '')
  expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
}, 180_000)

afterAll(async () => {
  await server?.close(true)
  expect(sample.faults).toEqual([])
})

describe('a listening server', () => {
  it('answers a list call with the envelope', async () => {
    const response = await fetch(
      `${base}/works?filter=publication_year:2020&per-page=3&select=id,publication_year`,
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const body = (await response.json()) as {
      meta: { count: number }
      results: { publication_year: number }[]
    }
    expect(body.meta.count).toBe(
      sampleRecords('works').filter((work) => work.publication_year === 2020).length,
    )
    expect(body.results).toHaveLength(3)
    for (const row of body.results) expect(row.publication_year).toBe(2020)
  })

  it('redirects a merged id with 301 and Location', async () => {
    const response = await fetch(`${base}/authors/A3007116629`, { redirect: 'manual' })
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe('/authors/A2090344885')
  })

  it('answers a GET line over 8,190 bytes with a JSON 414 that points to POST', async () => {
    const response = await fetch(`${base}/works?filter=display_name.search:${'y'.repeat(9000)}`)
    expect(response.status).toBe(414)
    const body = (await response.json()) as { error: string; code: string; message: string }
    expect(body).toMatchObject({ error: 'URI Too Long', code: 'request_line_too_long' })
    expect(body.message).toContain('POST')
  })

  it('answers the root health check', async () => {
    const response = await fetch(`${base}/`)
    expect(response.status).toBe(200)
    expect(((await response.json()) as { status: string }).status).toBe('ok')
  })
})
