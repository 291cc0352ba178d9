// `oqlkit serve` with metering, as real processes: keys from a file and from `oqlkit keys create` while
// the server runs, the embedded store surviving SIGKILL without losing an acknowledged charge, two
// servers sharing budgets, the request rate and collections through Redis and through a Redis Cluster,
// and keys telling who calls the collections API with metering off, on the main port and on a port of
// its own.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { redisTargetsForTests, removeRedisKeys } from '@oqlkit/adapter-redis/test-support'
import { runCli } from '@oqlkit/cli'
import { toMicroUsd } from '@oqlkit/engine'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomPort, type ServerProcess, startServerProcess } from './support/server-process.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-serve-metering-'))
const catalogDir = join(scratch, 'catalog')

beforeAll(async () => {
  // The run's sample catalog, copied: the server writes its state beside the catalog it serves.
  cpSync(await sharedSampleCatalog(), catalogDir, { recursive: true })
}, 180_000)
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

type Server = ServerProcess

const startServer = (args: readonly string[]): Promise<Server> => startServerProcess(catalogDir, args)

const usedOf = async (server: Server, key: string): Promise<number> => {
  const response = await fetch(`${server.url}/rate-limit`, { headers: { authorization: `Bearer ${key}` } })
  const body = (await response.json()) as { rate_limit: { daily_used_usd: number } }
  return toMicroUsd(body.rate_limit.daily_used_usd)
}

const keysFile = (name: string, entries: readonly Record<string, unknown>[]): string => {
  const path = join(scratch, name)
  writeFileSync(path, JSON.stringify(entries))
  return path
}

/**
 * One metered server on the embedded store, its keys from a file, with collections on a port of their own:
 * shared by the keys test, the SIGKILL test and the collections-port test (a server start costs 2-4 s of
 * CPU), which each use a key of their own and add only what they own (a key, a collection, charges). The
 * SIGKILL test kills it and starts its successor on the same folders and flags, which the tests after it
 * use. Stopped, and its clean exit checked, as the file ends.
 */
const meteredState = join(scratch, 'state-keys')
const fileKey = 'file-key-000000000000000001'
const collectorKey = 'metered-collector-key-0000001'
const crashKey = 'crash-key-00000000000000001'
const meteredCollectionsPort = randomPort()
let meteredArgs: readonly string[] | undefined
let metered: Promise<Server> | undefined
const startMetered = (): Promise<Server> => {
  meteredArgs ??= [
    '--state',
    meteredState,
    '--keys',
    keysFile('keys.json', [
      { key: fileKey, user_id: 'file-user', admin: false, daily_budget_usd: 3, prepaid_usd: 0 },
      { key: collectorKey, user_id: 'collector', daily_budget_usd: 2 },
      { key: crashKey, user_id: 'crash' },
    ]),
    '--collections-dir',
    join(scratch, 'metered-collections'),
    '--collections-port',
    String(meteredCollectionsPort),
  ]
  metered = startServer(meteredArgs)
  return metered
}
const meteredServer = (): Promise<Server> => metered ?? startMetered()
afterAll(async () => {
  const server = await metered?.catch(() => undefined)
  if (server !== undefined) expect(await server.stop()).toBe(0)
})

describe('oqlkit serve, metered', () => {
  it('serves keys from a keys file and keys created while it runs; refuses unknown ones', async () => {
    const state = meteredState
    const server = await meteredServer()
    // The keys of the shared server's file: this test's, the SIGKILL test's and the collections-port test's.
    expect(server.output()).toContain('with 3 key(s) from')
    const report = await fetch(`${server.url}/rate-limit?api_key=${fileKey}`)
    expect(report.status).toBe(200)
    expect(
      ((await report.json()) as { rate_limit: { daily_budget_usd: number } }).rate_limit.daily_budget_usd,
    ).toBe(3)
    const works = await fetch(`${server.url}/works?per_page=1`, {
      headers: { authorization: `Bearer ${fileKey}` },
    })
    expect(works.status).toBe(200)
    expect(works.headers.get('x-ratelimit-credits-used')).toBe('0.0001')
    expect(works.headers.get('x-ratelimit-limit')).toBe('3')
    const created = await runCli(['keys', 'create', '--user', 'late', '--state', state])
    expect(created.exitCode, created.stderr).toBe(0)
    const lateKey = created.stdout?.trim() ?? ''
    expect((await fetch(`${server.url}/rate-limit?api_key=${lateKey}`)).status).toBe(200)
    expect((await fetch(`${server.url}/rate-limit?api_key=${lateKey.slice(0, -1)}x`)).status).toBe(401)
  }, 90_000)

  it('refuses to start on a keys file with problems, naming them', async () => {
    const bad = keysFile('bad.json', [{ key: 'short', user_id: 'x' }, { key: 'file-key-000000000000000002' }])
    const { exitCode, stderr } = await runCli([
      'serve',
      '--catalog',
      catalogDir,
      '--port',
      '0',
      '--state',
      join(scratch, 'state-bad'),
      '--keys',
      bad,
    ])
    expect(exitCode).toBe(1)
    expect(stderr).toContain('entry 0: key must be 16 to 128 characters')
    expect(stderr).toContain('entry 1: user_id must be a non-empty string')
  }, 60_000)

  it('loses no acknowledged charge when killed with SIGKILL (embedded store)', async () => {
    // The shared metered server: this key is spent only here.
    const key = crashKey
    const first = await meteredServer()
    let acknowledged = 0
    for (let i = 0; i < 40; i++) {
      const response = await fetch(`${first.url}/works?per_page=1&page=${1 + (i % 5)}&api_key=${key}`)
      expect(response.status).toBe(200)
      acknowledged++
    }
    await first.kill()
    // Started again on the same state and keys; it serves the tests after this one, and is stopped at the end.
    const second = await startMetered()
    expect(await usedOf(second, key)).toBe(acknowledged * toMicroUsd(0.0001))
  }, 120_000)
})

describe('oqlkit serve, metered, with collections on a port of their own', () => {
  it("meters the collections port with the main port's stores: X-RateLimit headers, one budget", async () => {
    // The shared metered server: this key is spent only here.
    const key = collectorKey
    const server = await meteredServer()
    const side = `http://127.0.0.1:${meteredCollectionsPort}`
    // A list on the main port spends from the key's budget; the collections port reports what is left.
    expect((await fetch(`${server.url}/works?per_page=1&api_key=${key}`)).status).toBe(200)
    const created = await fetch(`${side}/me/collections`, {
      method: 'POST',
      headers: { api_key: key, 'content-type': 'application/json' },
      body: JSON.stringify({ display_name: 'Reading', entity_type: 'works', entity_ids: ['W1'] }),
    })
    expect(created.status).toBe(201)
    expect(((await created.json()) as { user_id: string }).user_id).toBe('collector')
    expect(created.headers.get('x-ratelimit-limit')).toBe('2')
    expect(created.headers.get('x-ratelimit-remaining')).toBe('1.9999')
    expect(created.headers.get('x-ratelimit-credits-used')).toBe('0')
    // Refused and anonymous callers there get their address's anonymous allowance.
    for (const init of [{}, { headers: { authorization: '' } }]) {
      const refused = await fetch(`${side}/me/collections`, init)
      expect(refused.status).toBe(401)
      expect(refused.headers.get('x-ratelimit-limit')).toBe('0.1')
    }
  }, 90_000)
})

describe('oqlkit serve --no-metering with collections', () => {
  it('identifies callers by their keys, on the main port and on --collections-port', async () => {
    const key = 'collector-key-000000000000001'
    const keys = keysFile('collections-keys.json', [{ key, user_id: 'collector' }])
    const collectionsPort = randomPort()
    const server = await startServer([
      '--no-metering',
      '--state',
      join(scratch, 'state-collections'),
      '--keys',
      keys,
      '--collections-dir',
      join(scratch, 'collections'),
      '--collections-port',
      String(collectionsPort),
    ])
    try {
      expect(server.output()).toContain('Metering is off')
      const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
      const created = await fetch(`${server.url}/me/collections`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ display_name: 'Reading', entity_type: 'works', entity_ids: ['W1'] }),
      })
      expect(created.status).toBe(201)
      const collection = (await created.json()) as { id: string; user_id: string }
      expect(collection.user_id).toBe('collector')
      // No budgets: no rate-limit headers, and no /rate-limit.
      expect(created.headers.get('x-ratelimit-limit')).toBeNull()
      const anonymous = await fetch(`${server.url}/me/collections`)
      expect(anonymous.status).toBe(401)
      // The same store on the collections port, which serves nothing else.
      const side = `http://127.0.0.1:${collectionsPort}`
      const read = await fetch(`${side}/collections/${collection.id}/entities`, { headers: json })
      expect(read.status).toBe(200)
      expect(((await read.json()) as { entity_ids: string[] }).entity_ids).toEqual([
        'https://openalex.org/W1',
      ])
      expect((await fetch(`${side}/collections/${collection.id}`)).status).toBe(401)
      const works = await fetch(`${side}/works`)
      expect(works.status).toBe(404)
      expect(await works.json()).toMatchObject({ error: 'Not Found', code: 'not_found' })
      // The collection works in a filter of the main API.
      const filtered = await fetch(`${server.url}/works?filter=collection:${collection.id}`, {
        headers: json,
      })
      expect(filtered.status).toBe(200)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 90_000)

  it('refuses --collections-port with collections off, or on the main port', async () => {
    // Collections are on by default (in the state folder); --no-collections leaves the port nothing to serve.
    const alone = await runCli([
      'serve',
      '--catalog',
      catalogDir,
      '--no-collections',
      '--collections-port',
      '9999',
    ])
    expect(alone.exitCode).toBe(2)
    expect(alone.stderr).toContain('--collections-port serves the collections: drop --no-collections')
    const same = await runCli([
      'serve',
      '--catalog',
      catalogDir,
      '--port',
      '9999',
      '--collections-dir',
      join(scratch, 'c'),
      '--collections-port',
      '9999',
    ])
    expect(same.exitCode).toBe(2)
    expect(same.stderr).toContain('a port other than --port')
  })
})

// The same pair of servers on one Redis and on a local three-node Redis Cluster.
for (const redis of await redisTargetsForTests()) {
  describe.skipIf(!redis.reachable)(`two oqlkit servers sharing ${redis.name}`, () => {
    const prefix = `oqlkit-test:serve-${process.pid}-${Date.now().toString(36)}:`
    const budgetKey = 'shared-budget-key-0000000001'
    const burstKey = 'shared-burst-key-00000000001'
    let pair: Server[] = []

    beforeAll(async () => {
      const keys = keysFile(`shared-keys-${redis.name.replace(' ', '-')}.json`, [
        { key: budgetKey, user_id: 'budget', daily_budget_usd: 0.005 },
        { key: burstKey, user_id: 'burst' },
        { key: collectorKey, user_id: 'collector' },
        { key: crashKey, user_id: 'crash', daily_budget_usd: 1 },
        { key: limitKey, user_id: 'limit' },
      ])
      args = ['--redis', redis.url, '--redis-prefix', prefix, '--keys', keys]
      pair = await Promise.all([startServer(args), startServer(args)])
    }, 120_000)
    afterAll(async () => {
      for (const server of pair) await server.stop()
      await removeRedisKeys(redis.url, `${prefix}*`)
    })

    const collectorKey = 'shared-collector-key-000001'
    const crashKey = 'shared-crash-key-0000000001'
    const limitKey = 'shared-limit-key-0000000001'
    let args: string[] = []
    const createCollection = (server: Server, key: string, name: string) =>
      fetch(`${server.url}/me/collections`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: name, entity_type: 'works', entity_ids: ['W1'] }),
      })
    const ownIds = async (server: Server, key: string): Promise<string[]> => {
      const ids: string[] = []
      for (let page = 1; ; page++) {
        const response = await fetch(`${server.url}/me/collections?per_page=100&page=${page}`, {
          headers: { authorization: `Bearer ${key}` },
        })
        expect(response.status).toBe(200)
        const body = (await response.json()) as { results: { id: string }[] }
        ids.push(...body.results.map((result) => result.id))
        if (body.results.length < 100) return ids
      }
    }

    it('shares collections: one made on either server is read, changed and deleted on the other', async () => {
      const [first, second] = pair as [Server, Server]
      const made = await createCollection(first, collectorKey, 'Made on the first')
      expect(made.status).toBe(201)
      const { id } = (await made.json()) as { id: string }
      const read = await fetch(`${second.url}/collections/${id}`, {
        headers: { authorization: `Bearer ${collectorKey}` },
      })
      expect(read.status).toBe(200)
      expect(((await read.json()) as { display_name: string }).display_name).toBe('Made on the first')
      const renamed = await fetch(`${second.url}/me/collections/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${collectorKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ display_name: 'Renamed on the second' }),
      })
      expect(renamed.status).toBe(200)
      // The name is unique per user across both servers, whichever one is asked.
      expect((await createCollection(first, collectorKey, 'renamed on the SECOND')).status).toBe(400)
      const removed = await fetch(`${first.url}/me/collections/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${collectorKey}` },
      })
      expect(removed.status).toBe(200)
      const gone = await fetch(`${second.url}/collections/${id}`, {
        headers: { authorization: `Bearer ${collectorKey}` },
      })
      expect(gone.status).toBe(404)
    }, 60_000)

    it('holds 100 collections per user across both servers, not 100 per server, under concurrent creates', async () => {
      // Two waves of 60 (under the key's 100 requests a second), each split between the servers: the
      // second wave races 60 creates for the last 40 places.
      const statuses: number[] = []
      for (const wave of [0, 1]) {
        if (wave === 1) await new Promise((done) => setTimeout(done, 1100))
        const answers = await Promise.all(
          Array.from({ length: 60 }, async (_, i) => {
            const response = await createCollection(pair[i % 2]!, limitKey, `Wave ${wave} number ${i}`)
            const body = (await response.json()) as { error?: string; message?: string }
            if (response.status !== 201) expect(body.message).toContain('the most a user can have')
            return response.status
          }),
        )
        statuses.push(...answers)
      }
      expect(statuses.filter((status) => status === 201)).toHaveLength(100)
      expect(statuses.filter((status) => status === 400)).toHaveLength(20)
      for (const server of pair) expect(await ownIds(server, limitKey)).toHaveLength(100)
    }, 90_000)

    it('never lets a shared budget go negative: exactly the budget is spent', async () => {
      // $0.005 pays for 50 list calls; 90 arrive at once, split between the two processes.
      const answers = await Promise.all(
        Array.from({ length: 90 }, async (_, i) => {
          const response = await fetch(`${pair[i % 2]!.url}/works?per_page=1&page=${1 + (i % 7)}`, {
            headers: { authorization: `Bearer ${budgetKey}` },
          })
          return { status: response.status, body: (await response.json()) as { code?: string } }
        }),
      )
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(50)
      const refused = answers.filter((answer) => answer.status === 429)
      expect(refused).toHaveLength(40)
      for (const answer of refused) expect(answer.body.code).toBe('budget_exhausted')
      for (const server of pair) {
        const report = (await (await fetch(`${server.url}/rate-limit?api_key=${budgetKey}`)).json()) as {
          rate_limit: { daily_used_usd: number; daily_remaining_usd: number }
        }
        expect(report.rate_limit).toMatchObject({ daily_used_usd: 0.005, daily_remaining_usd: 0 })
      }
    }, 60_000)

    it('holds 100 requests per second for one key under 300 requests per second across both', async () => {
      interface Sent {
        readonly sentAt: number
        readonly answeredAt: number
        readonly status: number
      }
      const sent: Promise<Sent>[] = []
      const started = performance.now()
      // 15 requests every 50 ms for 2 seconds: 300 a second, alternating between the servers.
      for (let tick = 0; tick < 40; tick++) {
        const due = started + tick * 50
        await new Promise((done) => setTimeout(done, Math.max(0, due - performance.now())))
        for (let i = 0; i < 15; i++) {
          const server = pair[(tick * 15 + i) % 2]!
          const sentAt = performance.now()
          sent.push(
            fetch(`${server.url}/rate-limit`, { headers: { authorization: `Bearer ${burstKey}` } }).then(
              async (response) => {
                await response.arrayBuffer()
                return { sentAt, answeredAt: performance.now(), status: response.status }
              },
            ),
          )
        }
      }
      const results = await Promise.all(sent)
      const accepted = results.filter((result) => result.status === 200).sort((a, b) => a.sentAt - b.sentAt)
      expect(results.filter((result) => result.status !== 200 && result.status !== 429)).toEqual([])
      // Each accepted request was admitted between sending and answer; no one-second span may wholly
      // contain more than 100 of those intervals.
      for (const first of accepted) {
        const inside = accepted.filter(
          (other) => other.sentAt >= first.sentAt && other.answeredAt < first.sentAt + 1000,
        ).length
        expect(inside).toBeLessThanOrEqual(100)
      }
      // Every admission fell between the first acceptance's sending and the last answer: the latest answer,
      // not the answer of the last one sent (under load a request sent earlier can be answered later).
      const span = Math.max(...accepted.map((result) => result.answeredAt)) - (accepted[0]?.sentAt ?? 0)
      expect(accepted.length).toBeLessThanOrEqual(100 * Math.ceil(span / 1000))
      // And the limiter is not stricter than the rule: most of the allowed requests got through.
      expect(accepted.length).toBeGreaterThanOrEqual(150)
      expect(results.filter((result) => result.status === 429).length).toBeGreaterThan(100)
    }, 60_000)

    // Last: it kills the second server of the pair, which the tests above need.
    it('loses no acknowledged collection or charge when a server is killed with SIGKILL mid-stream', async () => {
      const [survivor, doomed] = pair as [Server, Server]
      const acknowledged: string[] = []
      let charged = 0
      const writing = (async () => {
        for (let i = 0; ; i++) {
          try {
            const created = await createCollection(doomed, crashKey, `Before the crash ${i}`)
            if (created.status === 201) acknowledged.push(((await created.json()) as { id: string }).id)
            const listed = await fetch(`${doomed.url}/works?per_page=1&page=${1 + (i % 5)}`, {
              headers: { authorization: `Bearer ${crashKey}` },
            })
            if (listed.status === 200) charged++
          } catch {
            return // the server is gone
          }
        }
      })()
      await new Promise((done) => setTimeout(done, 1500))
      await doomed.kill()
      await writing
      expect(acknowledged.length).toBeGreaterThan(3)
      // On a fast machine the loop above spends the key's 100 requests a second (a 429 there is only a write
      // not acknowledged); the reads below wait for the next second rather than be refused.
      await new Promise((done) => setTimeout(done, 1100))
      const ids = await ownIds(survivor, crashKey)
      for (const id of acknowledged) expect(ids).toContain(id)
      // At most the one create in flight at the kill was stored without its answer reaching the caller.
      expect(ids.length - acknowledged.length).toBeLessThanOrEqual(1)
      const used = await usedOf(survivor, crashKey)
      expect(used).toBeGreaterThanOrEqual(charged * toMicroUsd(0.0001))
      expect(used).toBeLessThanOrEqual((charged + 1) * toMicroUsd(0.0001))
    }, 60_000)
  })
}
