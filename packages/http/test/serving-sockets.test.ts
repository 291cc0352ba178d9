// The serving layers where the socket matters, with real listening servers (`startServer`, as
// `oqlkit serve` runs them): the address a server listens on, the client address behind trusted and
// untrusted proxies (anonymous budgets and the access log), and compression on the wire.
import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { createConnection } from 'node:net'
import { networkInterfaces } from 'node:os'
import { Writable } from 'node:stream'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { createMemoryKeyStore, createMemoryMeterStore, DEFAULT_METERING_LIMITS } from '@oqlkit/engine'
import {
  type AccessLogEntry,
  createAccessLog,
  createApp,
  type ProxyTrust,
  readProxyTrust,
  type StartedServer,
  startServer,
} from '@oqlkit/http'
import { H3 } from 'h3'
import { afterEach, describe, expect, it } from 'vitest'
import { useServingLayers } from '../src/server/serving-layers.ts'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
const started: StartedServer[] = []
afterEach(async () => {
  for (const server of started.splice(0)) await server.close(true)
})

const listen = async (app: ReturnType<typeof createApp>, host?: string): Promise<string> => {
  const server = await startServer(app, { port: 0, ...(host === undefined ? {} : { host }) })
  started.push(server)
  return (server.url ?? '').replace(/\/$/, '')
}

const hasIpv6Loopback = (networkInterfaces().lo ?? []).some((entry) => entry.address === '::1')

describe('--host', () => {
  const plainApp = () =>
    createApp({ adapter: sample.adapter, catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} } })

  it('listens on the address given, and only there', async () => {
    // Told apart by its catalog's date: another server of the machine may hold the same port on 127.0.0.1
    // (a chdb stand-in did once), and answering there is not this one listening there.
    const createdAt = `2026-01-01T00:00:00.${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}Z`
    const app = createApp({ adapter: sample.adapter, catalog: { createdAt, entities: {} } })
    const url = await listen(app, '127.0.0.2')
    expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/)
    const port = new URL(url).port
    const createdAtOf = async (response: Response) =>
      ((await response.json().catch(() => ({}))) as { catalog?: { created_at?: string } }).catalog?.created_at
    expect(await createdAtOf(await fetch(`${url}/`))).toBe(createdAt)
    const elsewhere = await fetch(`http://127.0.0.1:${port}/`).then(createdAtOf, () => undefined)
    expect(elsewhere).not.toBe(createdAt)
  })

  it.skipIf(!hasIpv6Loopback)(
    'listens on ::1 when asked (skipped on a machine without IPv6 loopback)',
    async () => {
      const url = await listen(plainApp(), '::1')
      expect(url).toMatch(/^http:\/\/\[::1\]:\d+$/)
      expect((await fetch(`${url}/`)).status).toBe(200)
    },
  )

  it('listens on 127.0.0.1 by default', async () => {
    expect(await listen(plainApp())).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('says why it cannot listen: an address the machine lacks, a port in use', async () => {
    await expect(startServer(plainApp(), { port: 0, host: '192.0.2.1' })).rejects.toThrow(
      /no address 192\.0\.2\.1 \(EADDRNOTAVAIL\)/,
    )
    const url = await listen(plainApp())
    await expect(startServer(plainApp(), { port: Number(new URL(url).port) })).rejects.toThrow(
      /is in use by another process \(EADDRINUSE\): stop it or choose another --port/,
    )
  })
})

describe('what Node would answer itself', () => {
  /** Raw bytes to a server `startServer` runs, as `oqlkit serve` does; the answer until the server closes. */
  const sendRaw = async (url: string, bytes: string): Promise<string> => {
    const { hostname, port } = new URL(url)
    return new Promise<string>((done, fail) => {
      const socket = createConnection({ host: hostname, port: Number(port) })
      const chunks: Buffer[] = []
      socket.on('data', (chunk) => chunks.push(chunk))
      socket.on('error', fail)
      socket.on('close', () => done(Buffer.concat(chunks).toString('utf8')))
      socket.write(bytes)
    })
  }

  it('answers an HTTP/1.1 request without Host, and CONNECT, in JSON', async () => {
    const url = await listen(
      createApp({
        adapter: sample.adapter,
        catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      }),
    )
    const noHost = await sendRaw(url, 'GET /works HTTP/1.1\r\n\r\n')
    expect(noHost).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(JSON.parse(noHost.slice(noHost.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: 'Bad Request',
      code: 'missing_host',
    })
    const connect = await sendRaw(url, 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n')
    expect(connect).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/)
    expect(connect.toLowerCase()).toContain('\r\nallow: get, head, post, put, patch, delete\r\n')
    expect(JSON.parse(connect.slice(connect.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: 'Method Not Allowed',
      code: 'method_not_allowed',
    })
    // The server still serves requests with a Host.
    expect((await fetch(`${url}/works?per_page=1`)).status).toBe(200)
  })
})

describe('--trust-proxy', () => {
  /** A metered app whose anonymous budget pays for two list calls, with its access log kept. */
  const meteredServer = async (trustProxy: ProxyTrust | undefined) => {
    const entries: AccessLogEntry[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line !== '') entries.push(JSON.parse(line))
        done()
      },
    })
    const app = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      metering: {
        keys: createMemoryKeyStore(),
        meter: createMemoryMeterStore(),
        limits: { ...DEFAULT_METERING_LIMITS, anonymousDailyBudgetUsd: 0.0002 },
      },
      accessLog: createAccessLog(sink).log,
      ...(trustProxy === undefined ? {} : { trustProxy }),
    })
    const url = await listen(app)
    const list = async (forwardedFor?: string) => {
      const response = await fetch(`${url}/works?per_page=1`, {
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      })
      await response.arrayBuffer()
      return response.status
    }
    return { list, entries }
  }

  it('behind a trusted proxy, budgets the right-most untrusted X-Forwarded-For address', async () => {
    const { list, entries } = await meteredServer(readProxyTrust('loopback'))
    expect([await list('203.0.113.5'), await list('203.0.113.5'), await list('203.0.113.5')]).toEqual([
      200, 200, 429,
    ])
    // A client that prepends an address of its choice is still the address the proxy appended.
    expect(await list('198.51.100.1, 203.0.113.5')).toBe(429)
    // Another client behind the same proxy has a budget of its own.
    expect(await list('203.0.113.6')).toBe(200)
    expect(entries.map((entry) => entry.client)).toEqual([
      '203.0.113.5',
      '203.0.113.5',
      '203.0.113.5',
      '203.0.113.5',
      '203.0.113.6',
    ])
  })

  it('believes as many hops as a hop count says', async () => {
    const { list, entries } = await meteredServer(readProxyTrust('1'))
    expect(await list('198.51.100.1, 203.0.113.7')).toBe(200)
    expect(entries[0]?.client).toBe('203.0.113.7')
  })

  it('ignores the X-Forwarded-For of an untrusted peer: spoofing gets no fresh budget', async () => {
    for (const trust of [undefined, readProxyTrust('10.0.0.0/8, 192.168.1.1')]) {
      const { list, entries } = await meteredServer(trust)
      expect([await list(), await list(), await list()]).toEqual([200, 200, 429])
      expect(await list('203.0.113.99')).toBe(429)
      expect(await list('203.0.113.100, 203.0.113.101')).toBe(429)
      expect(new Set(entries.map((entry) => entry.client))).toEqual(new Set(['127.0.0.1']))
    }
  })

  it('refuses a setting that is neither a hop count nor addresses, saying what it takes', () => {
    expect(() => readProxyTrust('proxy.example')).toThrow(/invalid IP address: proxy\.example.*CIDR ranges/)
    expect(() => readProxyTrust('10.0.0.0/33')).toThrow(/invalid range on address/)
    expect(() => readProxyTrust('0')).toThrow(/hop count from 1 to 32/)
    expect(() => readProxyTrust(' , ')).toThrow(/needs a hop count or a list/)
  })
})

describe('compression on the wire', () => {
  /** A raw HTTP/1.1 GET (Node's http client decompresses nothing): status, headers and the bytes sent. */
  const rawGet = (url: string, acceptEncoding?: string) =>
    new Promise<{ headers: Record<string, unknown>; bytes: Buffer }>((done, failed) => {
      const req = request(
        url,
        { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => done({ headers: res.headers, bytes: Buffer.concat(chunks) }))
          res.on('error', failed)
        },
      )
      req.on('error', failed)
      req.end()
    })
  const withoutTiming = (json: string) => json.replace(/"db_response_time_ms":\d+/, '"db_response_time_ms":0')

  it('sends 100 works as brotli or gzip, a fraction of the plain bytes, that decompress to the plain body', async () => {
    const url = await listen(
      createApp({
        adapter: sample.adapter,
        catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
        compression: true,
      }),
    )
    const page = `${url}/works?per_page=100`
    const plain = await rawGet(page)
    expect(plain.headers['content-encoding']).toBeUndefined()
    const plainText = withoutTiming(plain.bytes.toString('utf8'))
    expect(plain.bytes.byteLength).toBeGreaterThan(1_000_000)
    const br = await rawGet(page, 'br, gzip;q=0.8')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('Accept-Encoding')
    expect(withoutTiming(brotliDecompressSync(br.bytes).toString('utf8')) === plainText).toBe(true)
    const gzip = await rawGet(page, 'gzip')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(withoutTiming(gunzipSync(gzip.bytes).toString('utf8')) === plainText).toBe(true)
    expect(br.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 4)
    expect(gzip.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 4)
    // A small answer goes as it is, with its length.
    const small = await rawGet(`${url}/works/W2741809807?select=id`, 'br, gzip')
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(Number(small.headers['content-length'])).toBe(small.bytes.byteLength)
  })

  it('sends answers of stored records with their length, plain or compressed, with the headers of every layer', async () => {
    const url = await listen(
      createApp({
        adapter: sample.adapter,
        catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
        compression: true,
        cors: { origins: '*' },
      }),
    )
    for (const path of ['/works/W2741809807', '/works?per_page=25']) {
      const plain = await rawGet(`${url}${path}`)
      const gzip = await rawGet(`${url}${path}`, 'gzip')
      for (const answer of [plain, gzip]) {
        // Written whole, not chunked: the length is known before the first byte.
        expect(answer.headers['transfer-encoding']).toBeUndefined()
        expect(Number(answer.headers['content-length'])).toBe(answer.bytes.byteLength)
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
        expect(answer.headers.vary).toBe('Accept-Encoding, Origin')
      }
      expect(gzip.headers['content-encoding']).toBe('gzip')
      expect(withoutTiming(gunzipSync(gzip.bytes).toString('utf8'))).toBe(
        withoutTiming(plain.bytes.toString('utf8')),
      )
    }
  })

  it('cancels a streamed body through the serving layers when the client goes away mid-answer, compressed or not', async () => {
    for (const acceptEncoding of ['identity', 'gzip', 'br']) {
      let cancelled: () => void = () => {}
      const cancel = new Promise<void>((done) => {
        cancelled = done
      })
      // An endless JSON Lines stream, as a long export is: only a client that leaves ends it. Its text is random
      // so that 64 KB of compressed body is a few hundred rows (repeated text took ~6 s a coding to compress).
      const app = new H3()
      // Every serving layer in front, as on the server: each passes the body through, cancel included.
      useServingLayers(app, { cors: { origins: '*' }, compression: true, accessLog: () => {} })
      app.get('/stream', () => {
        let row = 0
        return new Response(
          new ReadableStream<Uint8Array>({
            pull: (controller) => {
              controller.enqueue(
                new TextEncoder().encode(
                  `${JSON.stringify({ row: row++, text: randomBytes(150).toString('base64') })}\n`,
                ),
              )
            },
            cancel: () => cancelled(),
          }),
          { headers: { 'content-type': 'application/x-ndjson' } },
        )
      })
      const url = await listen(app)
      const received = await new Promise<{ encoding: unknown; bytes: number }>((done, failed) => {
        const req = request(`${url}/stream`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
          let bytes = 0
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.byteLength
            if (bytes > 64 * 1024) {
              req.destroy()
              done({ encoding: res.headers['content-encoding'], bytes })
            }
          })
        })
        req.on('error', (error) => {
          if (!req.destroyed) failed(error)
        })
        req.end()
      })
      expect(received.encoding).toBe(acceptEncoding === 'identity' ? undefined : acceptEncoding)
      await expect(
        Promise.race([
          cancel.then(() => 'cancelled'),
          new Promise((done) => setTimeout(() => done('still running'), 5_000)),
        ]),
      ).resolves.toBe('cancelled')
    }
  })
})
