import { connectRedis, createRedisCollectionStore } from '@oqlkit/adapter-redis'
import type { CollectionStore } from '@oqlkit/engine'
import { describeCollectionStoreContract } from '@oqlkit/engine/testing'
import type { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { redisForTests } from './redis-test-gate.ts'

const redis = await redisForTests()
const skip = !redis.reachable

// Every key this file writes starts with this prefix; all of them are deleted at the end.
const PREFIX = `oqlkit-test:collections-${process.pid}-${Date.now().toString(36)}:`
const clients: Redis[] = []
const client = async (): Promise<Redis> => {
  const opened = await connectRedis(redis.url)
  clients.push(opened)
  return opened
}

afterAll(async () => {
  const [first] = clients
  if (first !== undefined) {
    const keys = await first.keys(`${PREFIX}*`)
    if (keys.length > 0) await first.del(...keys)
  }
  for (const opened of clients) opened.disconnect()
})

let stores = 0
const prefixOf = new Map<CollectionStore, string>()
const open = async (): Promise<CollectionStore> => {
  const prefix = `${PREFIX}${++stores}:`
  const store = createRedisCollectionStore({ client: await client(), prefix })
  prefixOf.set(store, prefix)
  return store
}

// Each store of the suite gets keys of its own; its twin is a second connection on the same keys, so
// the concurrency cases race two clients against each other, as two server processes would.
describeCollectionStoreContract('Redis (Lua)', {
  open,
  openTwin: async (store) =>
    createRedisCollectionStore({ client: await client(), prefix: prefixOf.get(store)! }),
  skip,
})

describe.skipIf(skip)('the Redis collection store', () => {
  it('keeps every key under its prefix, in one cluster slot, and leaves nothing of a deleted collection', async () => {
    const store = await open()
    const prefix = prefixOf.get(store)!
    const reader = clients.at(-1)!
    const made = await store.create({
      id: 'col_redis00001',
      userId: 'u1',
      entityType: 'works',
      displayName: 'Keys',
      description: '',
      entityIds: ['W1'],
      at: '2026-07-01T00:00:00',
    })
    const keys = await reader.keys(`${prefix}*`)
    expect(keys.every((key) => key.startsWith(`${prefix}{collections}:`))).toBe(true)
    expect(keys.sort()).toEqual(
      ['all', 'c:col_redis00001', 'm:col_redis00001', 'n:u1', 'seq', 'u:u1'].map(
        (name) => `${prefix}{collections}:${name}`,
      ),
    )
    await store.delete(made.id)
    expect((await reader.keys(`${prefix}*`)).sort()).toEqual([`${prefix}{collections}:seq`])
  })

  it('keeps working after the server forgets its scripts', async () => {
    const store = await open()
    await clients.at(-1)!.script('FLUSH')
    const made = await store.create({
      id: 'col_redis00002',
      userId: 'u1',
      entityType: 'authors',
      displayName: 'After flush',
      description: '',
      entityIds: ['A1'],
      at: '2026-07-01T00:00:00',
    })
    expect(made.entityCount).toBe(1)
  })
})
