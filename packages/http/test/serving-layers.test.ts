// The serving layers of a self-hosted server, through `app.fetch` on the sample catalog: CORS (preflights
// and actual calls, allowed and refused origins, on the main app and the collections app), compression
// (brotli, gzip, none, q-values, small bodies, the decompressed body equal to the plain one) and the
// access log (real pino lines: method, path without the key, status, time, cost, key id, client).
import { createHash } from 'node:crypto'
import { Writable } from 'node:stream'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import {
  apiKeyIdOf,
  createMemoryKeyStore,
  createMemoryMeterStore,
  DEFAULT_METERING_LIMITS,
  generateApiKey,
  hashApiKey,
  keyRecordOf,
} from '@oqlkit/engine'
import {
  type AccessLogEntry,
  createAccessLog,
  createApp,
  createCollectionsApp,
  fixedKeyCallers,
  readCorsOrigins,
} from '@oqlkit/http'
import { beforeAll, describe, expect, it } from 'vitest'
import { STORE_KINDS } from './support/collection-stores.ts'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
const APP_ORIGIN = 'http://localhost:5173'

const catalog = { createdAt: '2026-01-01T00:00:00.000Z', entities: {} }
const appWith = (options: Partial<Parameters<typeof createApp>[0]>) =>
  createApp({
    adapter: sample.adapter,
    catalog,
    logError: (error) => {
      sample.faults.push(error)
    },
    ...options,
  })

const preflight = (app: ReturnType<typeof createApp>, origin: string, path = '/works') =>
  app.fetch(
    new Request(`http://localhost${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, api_key',
      },
    }),
  )

describe('CORS', () => {
  it('answers a preflight from an allowed origin 204 with methods, headers and max age, uncharged', async () => {
    const meter = createMemoryMeterStore()
    const app = appWith({
      cors: { origins: [APP_ORIGIN] },
      metering: { keys: createMemoryKeyStore(), meter },
    })
    const response = await preflight(app, APP_ORIGIN)
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PATCH, DELETE')
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, api_key, Content-Type')
    expect(response.headers.get('access-control-max-age')).toBe('86400')
    expect(response.headers.get('vary')).toContain('Origin')
    // A preflight is answered before metering: no budget headers, nothing charged.
    expect(response.headers.get('x-ratelimit-limit')).toBeNull()
    expect((await meter.read('ip:unknown', Date.now())).counters.dailyUsedMicroUsd).toBe(0)
  })

  it('refuses a preflight from an origin not listed with a JSON 403, and gives its calls no CORS headers', async () => {
    const app = appWith({ cors: { origins: [APP_ORIGIN] } })
    const refused = await preflight(app, 'https://evil.example')
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    const body = (await refused.json()) as { error: string; code: string; message: string }
    expect(body).toMatchObject({ error: 'Forbidden', code: 'cors_origin_refused' })
    expect(body.message).toContain('https://evil.example')
    expect(body.message).toContain('--cors-origin')
    const actual = await app.fetch(
      new Request('http://localhost/works?per_page=1', { headers: { origin: 'https://evil.example' } }),
    )
    expect(actual.status).toBe(200)
    expect(actual.headers.get('access-control-allow-origin')).toBeNull()
    expect(actual.headers.get('vary')).toContain('Origin')
  })

  it('lets an allowed page read the answer and its X-RateLimit headers, on errors and 429s too', async () => {
    const app = appWith({
      cors: { origins: [APP_ORIGIN] },
      metering: {
        keys: createMemoryKeyStore(),
        meter: createMemoryMeterStore(),
        limits: { ...DEFAULT_METERING_LIMITS, anonymousDailyBudgetUsd: 0.0001 },
      },
    })
    const call = () =>
      app.fetch(new Request('http://localhost/works?per_page=1', { headers: { origin: APP_ORIGIN } }))
    const first = await call()
    expect(first.status).toBe(200)
    expect(first.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    const exposed = (first.headers.get('access-control-expose-headers') ?? '').split(', ')
    for (const name of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Credits-Used',
      'X-RateLimit-Reset',
      'Retry-After',
    ])
      expect(exposed).toContain(name)
    const spent = await call()
    expect(spent.status).toBe(429)
    expect(spent.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    const missing = await app.fetch(
      new Request('http://localhost/no-such-route', { headers: { origin: APP_ORIGIN } }),
    )
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
  })

  it('answers any origin with * when told so, and keeps OPTIONS a 405 without CORS', async () => {
    const open = appWith({ cors: { origins: '*' } })
    const allowed = await preflight(open, 'https://anywhere.example')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*')
    const actual = await open.fetch(
      new Request('http://localhost/works?per_page=1', { headers: { origin: 'https://anywhere.example' } }),
    )
    expect(actual.headers.get('access-control-allow-origin')).toBe('*')
    expect((await preflight(appWith({}), APP_ORIGIN)).status).toBe(405)
  })

  it('applies to the collections app too', async () => {
    const app = createCollectionsApp({
      store: await STORE_KINDS[0]!.open(),
      callers: fixedKeyCallers({}),
      cors: { origins: [APP_ORIGIN] },
    })
    const allowed = await preflight(app, APP_ORIGIN, '/me/collections')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    const actual = await app.fetch(
      new Request('http://localhost/me/collections', { headers: { origin: APP_ORIGIN } }),
    )
    expect(actual.status).toBe(401)
    expect(actual.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    // A path no route matches keeps the API's JSON error under the layers.
    const missing = await app.fetch(
      new Request('http://localhost/works', { headers: { origin: APP_ORIGIN } }),
    )
    expect(missing.status).toBe(404)
    expect(missing.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect(await missing.json()).toMatchObject({ code: 'not_found' })
    // Metered too (the collections port of a metered server).
    const metered = createCollectionsApp({
      store: await STORE_KINDS[0]!.open(),
      callers: fixedKeyCallers({}),
      metering: { keys: createMemoryKeyStore(), meter: createMemoryMeterStore() },
    })
    const meteredMissing = await metered.fetch(new Request('http://localhost/works'))
    expect(meteredMissing.status).toBe(404)
    expect(await meteredMissing.json()).toMatchObject({ code: 'not_found' })
  })

  it('reads --cors-origin values and refuses what is not an origin', () => {
    expect(readCorsOrigins(['*'])).toBe('*')
    expect(readCorsOrigins(['off'])).toBeUndefined()
    expect(readCorsOrigins(['http://localhost:5173,https://app.example.org/', 'http://[::1]:3000'])).toEqual([
      'http://localhost:5173',
      'https://app.example.org',
      'http://[::1]:3000',
    ])
    expect(() => readCorsOrigins(['https://app.example.org/path'])).toThrow(/no path/)
    expect(() => readCorsOrigins(['localhost:5173'])).toThrow(/was 'localhost:5173'/)
    expect(() => readCorsOrigins(['*', APP_ORIGIN])).toThrow(/give it alone/)
  })
})

describe('compression', () => {
  let app: ReturnType<typeof createApp>
  beforeAll(() => {
    app = appWith({ compression: true })
  })
  const PAGE = '/works?per_page=100'
  const fetchWith = (path: string, acceptEncoding?: string, method = 'GET') =>
    app.fetch(
      new Request(`http://localhost${path}`, {
        method,
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      }),
    )
  const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())
  // The same body but for the time the query took; compared as digests so a failure prints no megabyte.
  const digestOf = (json: string) =>
    createHash('sha256')
      .update(json.replace(/"db_response_time_ms":\d+/, '"db_response_time_ms":0'))
      .digest('hex')

  it('sends brotli or gzip as asked, and the decompressed body is the plain one', async () => {
    const plain = await fetchWith(PAGE)
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('vary')).toContain('Accept-Encoding')
    const plainText = new TextDecoder().decode(await bytesOf(plain))
    expect(JSON.parse(plainText).results).toHaveLength(100)

    const br = await fetchWith(PAGE, 'gzip;q=0.8, deflate, br')
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toContain('Accept-Encoding')
    expect(br.headers.get('content-length')).toBeNull()
    const brBytes = await bytesOf(br)
    expect(digestOf(brotliDecompressSync(brBytes).toString('utf8'))).toBe(digestOf(plainText))

    const gzip = await fetchWith(PAGE, 'gzip')
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    const gzipBytes = await bytesOf(gzip)
    expect(digestOf(gunzipSync(gzipBytes).toString('utf8'))).toBe(digestOf(plainText))
    expect(brBytes.byteLength).toBeLessThan(plainText.length / 4)
    expect(gzipBytes.byteLength).toBeLessThan(plainText.length / 4)
  })

  it('respects q-values and identity', async () => {
    const encodingOf = async (acceptEncoding: string) => {
      const response = await fetchWith(PAGE, acceptEncoding)
      await response.arrayBuffer()
      return response.headers.get('content-encoding')
    }
    expect(await encodingOf('br;q=0.5, gzip;q=0.9')).toBe('gzip')
    expect(await encodingOf('gzip;q=0.2, br')).toBe('br')
    expect(await encodingOf('br;q=0, gzip;q=0')).toBeNull()
    expect(await encodingOf('identity')).toBeNull()
    expect(await encodingOf('identity;q=1, gzip;q=0.5')).toBeNull()
    expect(await encodingOf('*')).toBe('gzip')
    // Browsers rank nothing: gzip wins the tie.
    expect(await encodingOf('gzip, deflate, br, zstd')).toBe('gzip')
    expect(await encodingOf('*;q=0.5, gzip;q=0')).toBe('br')
    expect(await encodingOf('deflate')).toBeNull()
  })

  it('leaves small bodies and HEAD alone', async () => {
    const small = await fetchWith('/works/W2741809807?select=id', 'gzip, br')
    const text = await small.text()
    expect(text.length).toBeLessThan(1024)
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(JSON.parse(text).id).toBe('https://openalex.org/W2741809807')
    const head = await fetchWith(PAGE, 'gzip, br', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-encoding')).toBeNull()
    expect(head.body).toBeNull()
  })

  it('is off unless asked for', async () => {
    const response = await appWith({}).fetch(
      new Request(`http://localhost${PAGE}`, { headers: { 'accept-encoding': 'gzip, br' } }),
    )
    expect(response.headers.get('content-encoding')).toBeNull()
    expect(JSON.parse(await response.text()).results).toHaveLength(100)
  })
})

describe('the access log', () => {
  const logged = () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(
          ...chunk
            .toString()
            .split('\n')
            .filter((line: string) => line !== ''),
        )
        done()
      },
    })
    return {
      lines,
      entries: () => lines.map((line) => JSON.parse(line) as AccessLogEntry & Record<string, unknown>),
      log: createAccessLog(sink).log,
    }
  }

  it('writes one JSON line per request with cost and key id, never the key', async () => {
    const { lines, entries, log } = logged()
    const key = generateApiKey()
    const keys = createMemoryKeyStore([await keyRecordOf(key, { userId: 'reader' }, new Date())])
    const app = appWith({ accessLog: log, metering: { keys, meter: createMemoryMeterStore() } })
    expect(
      (await app.fetch(new Request(`http://localhost/works?per_page=2&api_key=${key}&select=id`))).status,
    ).toBe(200)
    expect(
      (
        await app.fetch(
          new Request('http://localhost/works?search=coral&per_page=1', {
            headers: { authorization: `Bearer ${key}` },
          }),
        )
      ).status,
    ).toBe(200)
    expect((await app.fetch(new Request('http://localhost/works/random'))).status).toBe(200)
    expect((await app.fetch(new Request('http://localhost/works?api%5Fkey=short'))).status).toBe(401)
    expect(lines).toHaveLength(4)
    for (const line of lines) expect(line).not.toContain(key)
    const [list, search, singleton, refused] = entries()
    const keyId = apiKeyIdOf(await hashApiKey(key))
    expect(list).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      path: '/works?per_page=2&api_key=[redacted]&select=id',
      status: 200,
      cost_usd: 0.0001,
      key_id: keyId,
      client: 'unknown',
    })
    expect(typeof list?.time).toBe('string')
    expect(list?.duration_ms).toBeGreaterThan(0)
    expect(search).toMatchObject({ path: '/works?search=coral&per_page=1', cost_usd: 0.001, key_id: keyId })
    expect(singleton).toMatchObject({ path: '/works/random', cost_usd: 0, key_id: null })
    expect(refused).toMatchObject({
      path: '/works?api%5Fkey=[redacted]',
      status: 401,
      cost_usd: 0,
      key_id: null,
    })
  })

  it('logs a null cost on a server without metering', async () => {
    const { entries, log } = logged()
    const app = appWith({ accessLog: log })
    await (await app.fetch(new Request('http://localhost/works?per_page=1'))).arrayBuffer()
    expect(entries()).toMatchObject([
      { method: 'GET', path: '/works?per_page=1', status: 200, cost_usd: null },
    ])
  })
})
