// The same contract through a real listening server (node:http around the app, as `oqlkit serve` runs it):
// a list, a merged singleton's 301, a request line over 8,190 bytes, and requests Node's parser refuses or
// Node answers itself (no Host, CONNECT), sent over a socket.
import { createServer, type Server } from 'node:http'
import { type AddressInfo, createConnection } from 'node:net'
import { answerClientErrors } from '@oqlkit/http'
import { toNodeHandler } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { idSet, mergedIds, records, shortId } from './support/sample-oracle.ts'

const context = useContractApp()
let server: Server
let base: string

beforeAll(async () => {
  server = createServer(toNodeHandler(context.app))
  answerClientErrors(server)
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

  // Found by the HTTP fuzzer: Node answered these itself with a bare 400 and no body.
  it.each([
    [
      'a byte a request target may not hold',
      'GET /works?filter=title.search:\xff HTTP/1.1\r\nhost: x\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['a target without its slash', 'GET works HTTP/1.1\r\nhost: x\r\n\r\n', 400, 'malformed_request'],
    [
      'a header name with a space',
      'GET /works HTTP/1.1\r\nhost: x\r\nbad name: v\r\n\r\n',
      400,
      'malformed_request',
    ],
    [
      'broken chunked framing',
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      400,
      'malformed_request',
    ],
    [
      'a head over the size limit',
      `GET /works HTTP/1.1\r\nhost: x\r\nx-long: ${'v'.repeat(20_000)}\r\n\r\n`,
      431,
      'request_head_too_large',
    ],
    // Node answered these with an empty 400, and by closing the connection without a word.
    ['an HTTP/1.1 request without Host', 'GET /works HTTP/1.1\r\n\r\n', 400, 'missing_host'],
    ['a POST without Host', 'POST / HTTP/1.1\r\ncontent-length: 2\r\n\r\n{}', 400, 'missing_host'],
    ['CONNECT to a path', 'CONNECT /works HTTP/1.1\r\nhost: x\r\n\r\n', 405, 'method_not_allowed'],
    [
      'CONNECT to an authority',
      'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n',
      405,
      'method_not_allowed',
    ],
  ])('answers %s with a JSON error', async (_name, request, status, code) => {
    const { head, body } = await sendRaw(request)
    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${REASONS[status]}`)
    expect(head.toLowerCase()).toContain('content-type: application/json')
    if (status === 405) expect(head.toLowerCase()).toMatch(/\r\nallow: get, head, post/)
    const parsed = JSON.parse(body) as { error: string; code: string; message: string }
    expect(parsed).toMatchObject({ error: REASONS[status], code })
    expect(parsed.message).not.toMatch(/[{}]/)
    if (code === 'missing_host') expect(parsed.message).toMatch(/must have a Host header/)
  })

  it('still serves HTTP/1.0 without Host, and HTTP/1.1 with it', async () => {
    const old = await sendRaw('GET /works?per_page=1 HTTP/1.0\r\n\r\n')
    expect(old.head.split('\r\n')[0]).toMatch(/^HTTP\/1\.[01] 200\b/)
    expect((JSON.parse(old.body) as { results: unknown[] }).results).toHaveLength(1)
    const current = await sendRaw('GET /works?per_page=1 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
    expect(current.head.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 200\b/)
  })
})

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  431: 'Request Header Fields Too Large',
}

/** Sends raw bytes to the server and reads the answer until the server closes the connection. */
const sendRaw = async (request: string): Promise<{ head: string; body: string }> => {
  const port = (server.address() as AddressInfo).port
  const answer = await new Promise<string>((done, fail) => {
    const socket = createConnection({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', fail)
    socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')))
    socket.write(Buffer.from(request, 'latin1'))
  })
  const at = answer.indexOf('\r\n\r\n')
  return { head: answer.slice(0, at), body: answer.slice(at + 4) }
}
