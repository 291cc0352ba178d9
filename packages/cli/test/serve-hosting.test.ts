// `oqlkit serve` as a self-hosted server, real processes on a copy of the sample catalog: no metering for a
// plain start (and metering when asked), collections on by default in the state folder with a second
// server refused, the JSON access log (stdout by default, or a file; never a key), CORS for every origin
// and compression by default, --host, and the self-hosting flags' errors.
import { type ChildProcess, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '@oqlkit/cli'
import { apiKeyIdOf, hashApiKey } from '@oqlkit/engine'
import type { AccessLogEntry } from '@oqlkit/http'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtCli } from './support/built-cli.ts'
import { randomPort, startServerProcess } from './support/server-process.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-serve-hosting-'))
const catalogDir = join(scratch, 'catalog')
/** The state folder `oqlkit serve` uses by default: beside the catalog. */
const defaultState = join(scratch, '.oqlkit-state')

beforeAll(async () => {
  cpSync(await sharedSampleCatalog(), catalogDir, { recursive: true })
}, 180_000)
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

const accessLinesOf = (output: string): AccessLogEntry[] =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as AccessLogEntry)

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

describe('a plain oqlkit serve', () => {
  it('does not meter, keeps collections in the state folder, logs requests to stdout, and refuses a second server on the same state', async () => {
    const created = await runCli(['keys', 'create', '--user', 'me', '--state', defaultState])
    expect(created.exitCode, created.stderr).toBe(0)
    const key = (created.stdout ?? '').trim()
    const server = await startServerProcess(catalogDir)
    try {
      expect(server.output()).toContain('Metering is off: no budgets or rate limits (a local server;')
      expect(server.output()).toContain(`Collections in ${join(defaultState, 'collections')}`)
      // More searches than the anonymous budget ($0.10 at $0.001 each) would pay for: a local explorer is
      // never locked out of their own server.
      for (let i = 0; i < 110; i++) {
        const response = await fetch(`${server.url}/works?search=coral&per_page=1&page=${1 + (i % 3)}`)
        expect(response.status).toBe(200)
        expect(response.headers.get('x-ratelimit-limit')).toBeNull()
        await response.arrayBuffer()
      }
      // Collections with a key from `oqlkit keys create`, stored beside the catalog.
      const collection = await fetch(`${server.url}/me/collections?api_key=${key}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: 'Reading', entity_type: 'works', entity_ids: ['W2741809807'] }),
      })
      expect(collection.status).toBe(201)
      expect(existsSync(join(defaultState, 'collections'))).toBe(true)

      // A second server on the same state is refused, naming the process and the ways out.
      const second = await runCli(['serve', '--catalog', catalogDir, '--port', String(randomPort())])
      expect(second.exitCode).toBe(1)
      expect(second.stderr).toContain(`another server (process ${server.child.pid}) is using this state`)
      expect(second.stderr).toContain('--no-collections')

      await pause(300)
      const lines = accessLinesOf(server.output())
      const searches = lines.filter((line) => line.path.startsWith('/works?search=coral'))
      expect(searches).toHaveLength(110)
      expect(searches[0]).toMatchObject({
        method: 'GET',
        status: 200,
        cost_usd: null,
        key_id: null,
        client: '127.0.0.1',
      })
      expect(searches[0]?.duration_ms).toBeGreaterThan(0)
      const post = lines.find((line) => line.method === 'POST')
      expect(post).toMatchObject({
        path: '/me/collections?api_key=[redacted]',
        status: 201,
        key_id: apiKeyIdOf(await hashApiKey(key)),
      })
      expect(server.output()).not.toContain(key)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    // The collection outlives the server: the server of the --host test, started again on the same state (a
    // start costs 2-4 s of CPU), answers with it.
    const again = await onLoopbackHost()
    const list = await fetch(`${again.url}/me/collections`, { headers: { authorization: `Bearer ${key}` } })
    expect(list.status).toBe(200)
    expect(((await list.json()) as { results: unknown[] }).results).toHaveLength(1)
    expect(accessLinesOf(`${again.stdout()}\n${again.output()}`)).toEqual([])
  }, 180_000)

  it('answers browsers from any origin and compresses by default; --metering meters', async () => {
    const logFile = join(scratch, 'logs', 'access.jsonl')
    const server = await startServerProcess(catalogDir, [
      '--metering',
      '--no-collections',
      '--access-log',
      logFile,
      '--state',
      join(scratch, 'state-metered'),
    ])
    try {
      const preflight = await fetch(`${server.url}/works`, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
      expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization')
      const works = await fetch(`${server.url}/works?per_page=100`, {
        headers: { origin: 'http://localhost:5173', 'accept-encoding': 'br' },
      })
      expect(works.status).toBe(200)
      // fetch decodes brotli itself; the header says it was sent so.
      expect(works.headers.get('content-encoding')).toBe('br')
      expect(((await works.json()) as { results: unknown[] }).results).toHaveLength(100)
      expect(works.headers.get('access-control-allow-origin')).toBe('*')
      expect(works.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining')
      expect(works.headers.get('x-ratelimit-credits-used')).toBe('0.0001')
      expect(server.output()).toContain('Keys, budgets and rate limits in')
      expect(server.output()).not.toContain('Collections in')
    } finally {
      expect(await server.stop()).toBe(0)
    }
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AccessLogEntry)
    expect(lines.map((line) => [line.method, line.status, line.cost_usd])).toEqual([
      // The health check is free; a preflight is answered before metering, so it carries no cost.
      ['GET', 200, 0],
      ['OPTIONS', 204, null],
      ['GET', 200, 0.0001],
    ])
  }, 120_000)
})

/**
 * `oqlkit serve` of the sample (the built command), a process of its own on a free port, its standard output
 * and error piped; without collections unless asked (then in the default state folder).
 */
const spawnServe = async (
  accessLog: string,
  args: readonly string[] = [],
  collections: 'off' | 'on' = 'off',
): Promise<ChildProcess> => {
  const child = spawn(
    process.execPath,
    [
      await builtCli(),
      'serve',
      '--catalog',
      catalogDir,
      '--port',
      '0',
      ...(collections === 'off' ? ['--no-collections'] : []),
      '--access-log',
      accessLog,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  // Read or not, standard output flows: a full pipe must not stall the server.
  child.stdout?.resume()
  return child
}

/** Starts `oqlkit serve` with its own --host and waits for the line that says where it serves. */
const startOnHost = async (
  args: readonly string[],
  collections: 'off' | 'on' = 'off',
): Promise<{ child: ChildProcess; url: string; output: () => string; stdout: () => string }> => {
  const child = await spawnServe('off', args, collections)
  let output = ''
  let stdout = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  const started = Date.now()
  for (;;) {
    const url = /oqlkit serving .* at (http:\/\/\S+?)\/? \(/.exec(output)?.[1]
    if (url !== undefined) return { child, url, output: () => output, stdout: () => stdout }
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      child.kill('SIGKILL')
      throw new Error(`oqlkit serve did not start: ${output}`)
    }
    await pause(100)
  }
}

/**
 * `oqlkit serve --host 127.0.0.2 --access-log off` with its collections in the default state folder, started
 * once: the plain server's test starts it after its own server stopped, to see that a collection outlives the
 * server, and the --host test reads where it listens and stops it. (Started again here when the plain
 * server's test did not run: the --host test asks nothing of its collections.)
 */
let loopbackHost: ReturnType<typeof startOnHost> | undefined
const onLoopbackHost = () => {
  loopbackHost ??= startOnHost(['--host', '127.0.0.2'], 'on')
  return loopbackHost
}
afterAll(async () => {
  // Stopped by the --host test; here only when that one did not run.
  ;(await loopbackHost?.catch(() => undefined))?.child.kill('SIGKILL')
})

describe('oqlkit serve --host', () => {
  it('listens on the address given', async () => {
    // The server the plain server's test started again on its state, shared with it.
    const { child, url, output } = await onLoopbackHost()
    try {
      // A loopback address is still this machine: no warning about serving others unmetered.
      expect(output()).not.toContain('without metering')
      expect(url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/)
      expect((await fetch(`${url}/`)).status).toBe(200)
      await expect(fetch(`http://127.0.0.1:${new URL(url).port}/`)).rejects.toThrow()
    } finally {
      // Gone before the next server starts: this one keeps its collections in the default state folder.
      const exited = new Promise((done) => child.once('exit', done))
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT')
        await exited
      }
    }
  }, 90_000)

  it('listens on every interface with 0.0.0.0, and warns that it serves others unmetered', async () => {
    const { child, url, output } = await startOnHost(['--host', '0.0.0.0'])
    try {
      expect(url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/)
      const port = new URL(url).port
      for (const address of ['127.0.0.1', '127.0.0.2'])
        expect((await fetch(`http://${address}:${port}/`)).status).toBe(200)
      expect(output()).toContain('Listening on 0.0.0.0 without metering')
    } finally {
      child.kill('SIGINT')
    }
  }, 90_000)
})

describe('the self-hosting flags refuse bad values', () => {
  it.each([
    [
      ['--host', 'not an address'],
      "--host needs an address to listen on, such as 127.0.0.1, 0.0.0.0, ::1 or :: (was 'not an address')",
    ],
    [['--trust-proxy', 'proxy.example'], '--trust-proxy: invalid IP address: proxy.example'],
    [['--trust-proxy', '0'], '--trust-proxy takes a hop count from 1 to 32'],
    [['--cors-origin', 'localhost:5173'], '--cors-origin takes origins like https://app.example.org'],
    [['--metering', '--no-metering'], '--metering and --no-metering contradict each other'],
    [['--collections-dir', 'x', '--no-collections'], '--collections-dir and --no-collections contradict'],
    [
      ['--no-collections', '--collections-port', '9999'],
      '--collections-port serves the collections: drop --no-collections',
    ],
    [['--access-log'], '--access-log needs a file, - (stdout), stderr or off'],
  ])('%j', async (args, message) => {
    const refused = await runCli(['serve', '--catalog', catalogDir, ...args])
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toContain(message)
  })

  it('says when the access log cannot be opened', async () => {
    const refused = await runCli([
      'serve',
      '--catalog',
      catalogDir,
      '--port',
      '0',
      '--no-collections',
      '--access-log',
      join(catalogDir, 'catalog.json', 'access.log'),
    ])
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toContain('the access log')
    expect(refused.stderr).toContain('cannot be opened')
    // As its own process too: the stream that failed must not throw again as the process exits (pino
    // flushes its destinations at exit; one never opened threw "sonic boom is not ready yet").
    const child = await spawnServe(join(catalogDir, 'catalog.json', 'access.log'))
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const code = await new Promise<number | null>((done) => child.once('exit', (exitCode) => done(exitCode)))
    expect(stderr).toContain('cannot be opened')
    expect(stderr).not.toMatch(/sonic boom|Error:.*\n\s+at /)
    expect(code).toBe(1)
  }, 60_000)
})
