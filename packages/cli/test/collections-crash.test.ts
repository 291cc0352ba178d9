import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServerProcess } from './support/server-process.ts'

// The embedded collection store under SIGKILL: a server takes a stream of collection writes from four
// users at once, is killed mid-stream with no chance to flush anything, and is started again on the same
// folders. Every write it acknowledged (a 2xx) must be there; writes cut off in flight may or may not be.

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-collections-crash-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// The run's shared sample catalog, read only: the collections and state live in folders of this test's own.
// (An empty folder made the first start build the whole sample, ~40 s of the test's 50.)
let catalogDir: string
beforeAll(async () => {
  catalogDir = await sharedSampleCatalog()
})
const stateDir = join(scratch, 'state')
const collectionsDir = join(scratch, 'collections')
const keysFile = join(scratch, 'keys.json')
const WRITERS = ['writer-a', 'writer-b', 'writer-c', 'writer-d'].map((user, index) => ({
  user,
  key: `crash-test-key-${String(index).padStart(10, '0')}`,
}))
writeFileSync(keysFile, JSON.stringify(WRITERS.map(({ user, key }) => ({ key, user_id: user }))))

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

const startServer = (): Promise<ServerProcess> =>
  startServerProcess(catalogDir, [
    '--state',
    stateDir,
    '--keys',
    keysFile,
    '--collections-dir',
    collectionsDir,
  ])

const call = async (server: ServerProcess, key: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** What one writer knows: collections it was told were made, members it was told were added. */
interface Ledger {
  readonly acknowledged: Map<string, Set<string>>
  /** Members sent but not answered when the server died: they may or may not have been stored. */
  readonly inFlight: Map<string, Set<string>>
  readonly deleted: Set<string>
  writes: number
}

const write = async (
  server: ServerProcess,
  writer: { user: string; key: string },
  ledger: Ledger,
  stop: { now: boolean },
) => {
  let next = 0
  let current: string | undefined
  while (!stop.now) {
    try {
      if (current === undefined || ledger.acknowledged.get(current)!.size >= 40) {
        const answer = await call(server, writer.key, 'POST', '/me/collections', {
          display_name: `${writer.user} ${ledger.acknowledged.size + ledger.deleted.size}`,
          entity_type: 'works',
        })
        if (answer.status !== 201) throw new Error(`create: ${answer.status} ${JSON.stringify(answer.body)}`)
        const id = String(answer.body.id)
        ledger.acknowledged.set(id, new Set())
        ledger.writes++
        // Every third full collection is deleted again: an acknowledged delete must stay deleted.
        if (current !== undefined && ledger.acknowledged.size % 3 === 0) {
          const removed = await call(server, writer.key, 'DELETE', `/me/collections/${current}`)
          if (removed.status !== 200) throw new Error(`delete: ${removed.status}`)
          ledger.acknowledged.delete(current)
          ledger.deleted.add(current)
          ledger.writes++
        }
        current = id
        continue
      }
      const ids = [
        `W${writer.user.length}${String(next++).padStart(6, '0')}`,
        `W9${String(next++).padStart(6, '0')}`,
      ]
      const pending = ledger.inFlight.get(current) ?? new Set<string>()
      for (const id of ids) pending.add(id)
      ledger.inFlight.set(current, pending)
      const answer = await call(server, writer.key, 'POST', `/me/collections/${current}/entities`, {
        entity_ids: ids,
      })
      if (answer.status === 200) {
        for (const id of ids) {
          ledger.acknowledged.get(current)!.add(id)
          pending.delete(id)
        }
        ledger.writes++
      } else if (answer.status !== 429)
        throw new Error(`add: ${answer.status} ${JSON.stringify(answer.body)}`)
      // Stay under the 100 requests per second a key may send.
      await pause(12)
    } catch (error) {
      // The server died under the request: what it had in flight is neither confirmed nor refused.
      if (stop.now || (error instanceof TypeError && /fetch failed/.test(error.message))) return
      throw error
    }
  }
}

describe('the embedded collection store and SIGKILL', () => {
  it('keeps every acknowledged write of a server killed mid-stream', async () => {
    const ledgers = WRITERS.map(
      (): Ledger => ({ acknowledged: new Map(), inFlight: new Map(), deleted: new Set(), writes: 0 }),
    )
    const first = await startServer()
    const stop = { now: false }
    const writers = WRITERS.map((writer, index) => write(first, writer, ledgers[index]!, stop))
    // Kill once a good stream has been acknowledged, with writes still arriving.
    const started = Date.now()
    while (ledgers.reduce((sum, ledger) => sum + ledger.writes, 0) < 300 && Date.now() - started < 60_000)
      await pause(20)
    first.child.kill('SIGKILL')
    const exited = await new Promise<NodeJS.Signals | null>((done) =>
      first.child.on('exit', (_code, signal) => done(signal)),
    )
    stop.now = true
    await Promise.all(writers)
    expect(exited).toBe('SIGKILL')
    const acknowledgedWrites = ledgers.reduce((sum, ledger) => sum + ledger.writes, 0)
    expect(acknowledgedWrites).toBeGreaterThanOrEqual(300)

    const second = await startServer()
    try {
      for (const [index, writer] of WRITERS.entries()) {
        const ledger = ledgers[index]!
        for (const [id, members] of ledger.acknowledged) {
          const page = await call(second, writer.key, 'GET', `/collections/${id}/entities?per_page=200`)
          expect({ id, status: page.status }).toEqual({ id, status: 200 })
          const stored = new Set(
            (page.body.entity_ids as string[]).map((url) => url.slice(url.lastIndexOf('/') + 1)),
          )
          for (const member of members) expect(stored.has(member), `${id} lost ${member}`).toBe(true)
          const possible = new Set([...members, ...(ledger.inFlight.get(id) ?? [])])
          for (const member of stored)
            expect(possible.has(member), `${id} holds ${member}, never sent`).toBe(true)
          expect(page.body.user_id).toBe(writer.user)
        }
        for (const id of ledger.deleted)
          expect((await call(second, writer.key, 'GET', `/collections/${id}`)).status).toBe(404)
      }
      // The restarted server writes on, with its limits intact.
      const [writer] = WRITERS
      const [id] = [...ledgers[0]!.acknowledged.keys()]
      const added = await call(second, writer!.key, 'POST', `/me/collections/${id}/entities`, {
        entity_ids: ['W1'],
      })
      expect(added.status).toBe(200)
    } finally {
      second.child.kill('SIGINT')
      await new Promise((done) => second.child.on('exit', done))
    }
  }, 300_000)
})
