import {
  connectRedis,
  createRedisCollectionStore,
  keyspaceNodes,
  migrateLegacyCollections,
  type RedisClient,
} from '@oqlkit/adapter-redis'
import type { CollectionDraft, CollectionStore } from '@oqlkit/engine'
import { describeCollectionStoreContract } from '@oqlkit/engine/testing'
import { afterAll, describe, expect, it } from 'vitest'
import { redisTargetsForTests, removeRedisKeys } from './redis-test-gate.ts'

// Every key this file writes starts with this prefix; all of them are deleted at the end.
const PREFIX = `oqlkit-test:collections-${process.pid}-${Date.now().toString(36)}:`

const draft = (id: string, userId: string, extra: Partial<CollectionDraft> = {}): CollectionDraft => ({
  id,
  userId,
  entityType: 'works',
  displayName: `Name of ${id}`,
  description: '',
  entityIds: ['W1'],
  at: '2026-07-01T00:00:00',
  ...extra,
})

for (const redis of await redisTargetsForTests()) {
  const skip = !redis.reachable
  const clients: RedisClient[] = []
  const client = async (): Promise<RedisClient> => {
    const opened = await connectRedis(redis.url)
    clients.push(opened)
    return opened
  }

  afterAll(async () => {
    for (const opened of clients) opened.disconnect()
    if (redis.reachable) await removeRedisKeys(redis.url, `${PREFIX}*`)
  })

  let stores = 0
  const prefixOf = new Map<CollectionStore, string>()
  const open = async (): Promise<CollectionStore> => {
    const prefix = `${PREFIX}${redis.name.replace(' ', '-')}-${++stores}:`
    const store = createRedisCollectionStore({ client: await client(), prefix })
    prefixOf.set(store, prefix)
    return store
  }

  /** Every key under a prefix, from every node. */
  const keysUnder = async (reader: RedisClient, prefix: string): Promise<string[]> => {
    const found: string[] = []
    for (const node of keyspaceNodes(reader)) found.push(...(await node.keys(`${prefix}*`)))
    return found.sort()
  }

  // Each store of the suite gets keys of its own; its twin is a second connection on the same keys, so
  // the concurrency cases race two clients against each other, as two server processes would.
  describeCollectionStoreContract(`${redis.name} (Lua)`, {
    open,
    openTwin: async (store) =>
      createRedisCollectionStore({ client: await client(), prefix: prefixOf.get(store)! }),
    skip,
  })

  describe.skipIf(skip)(`the collection store on ${redis.name}`, () => {
    it("keeps a user's collections under the user's hash tag, and leaves nothing of a deleted collection", async () => {
      const store = await open()
      const prefix = prefixOf.get(store)!
      const reader = clients.at(-1)!
      const made = await store.create(draft('col_redis00001', 'u1'))
      expect(await keysUnder(reader, prefix)).toEqual(
        [
          '{collections}:all',
          '{collections}:seq',
          'collection-owner:col_redis00001',
          'collections:{u1}:c:col_redis00001',
          'collections:{u1}:m:col_redis00001',
          'collections:{u1}:n',
          'collections:{u1}:u',
        ]
          .map((name) => `${prefix}${name}`)
          .sort(),
      )
      await store.delete(made.id)
      expect(await keysUnder(reader, prefix)).toEqual([`${prefix}{collections}:seq`])
    })

    it('keeps a user id with braces, colons and percent signs to its own keys', async () => {
      const store = await open()
      const prefix = prefixOf.get(store)!
      for (const [i, userId] of ['a{b}:c', 'a', 'a%7Bb%7D%3Ac', '}{'].entries()) {
        await store.create(draft(`col_oddusers${i}`, userId, { displayName: 'Same name' }))
        expect((await store.list({ userId, offset: 0, limit: 10 })).collections.map((c) => c.id)).toEqual([
          `col_oddusers${i}`,
        ])
      }
      const names = await keysUnder(clients.at(-1)!, `${prefix}collections:`)
      expect(names.every((name) => /^[^{}]*\{[^{}]+\}:[^{}]*$/.test(name.slice(prefix.length)))).toBe(true)
    })

    it('treats an owner and index entry left by a create cut short as no collection, and clears them', async () => {
      const store = await open()
      const prefix = prefixOf.get(store)!
      const writer = clients.at(-1)!
      await store.create(draft('col_whole00001', 'u1'))
      // What a process that died after claiming the id and indexing it, before storing it, leaves behind.
      await writer.set(`${prefix}collection-owner:col_ghost00001`, 'u1')
      await writer.zadd(`${prefix}{collections}:all`, 99, 'col_ghost00001')
      expect(await store.get('col_ghost00001')).toBeUndefined()
      expect(await store.members('col_ghost00001', 0, 10)).toBeUndefined()
      const everyone = await store.list({ offset: 0, limit: 10 })
      expect(everyone).toMatchObject({ total: 1, collections: [{ id: 'col_whole00001' }] })
      await expect(
        store.addEntities('col_ghost00001', ['W2'], 'works', '2026-07-02T00:00:00'),
      ).rejects.toMatchObject({
        code: 'collection_not_found',
      })
      expect(await store.delete('col_ghost00001')).toBe(false)
      expect(await writer.exists(`${prefix}collection-owner:col_ghost00001`)).toBe(0)
      expect(await writer.zscore(`${prefix}{collections}:all`, 'col_ghost00001')).toBeNull()
    })

    it('releases the id of a refused create', async () => {
      const store = await open()
      const prefix = prefixOf.get(store)!
      await store.create(draft('col_first00001', 'u1', { displayName: 'Taken' }))
      await expect(
        store.create(draft('col_second0001', 'u1', { displayName: 'taken' })),
      ).rejects.toMatchObject({
        code: 'display_name_duplicate',
      })
      const reader = clients.at(-1)!
      expect(await reader.exists(`${prefix}collection-owner:col_second0001`)).toBe(0)
      expect(await reader.zscore(`${prefix}{collections}:all`, 'col_second0001')).toBeNull()
    })

    it('keeps working after the server forgets its scripts', async () => {
      const store = await open()
      for (const node of keyspaceNodes(clients.at(-1)!)) await node.script('FLUSH')
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

    it('moves collections stored in the single-slot layout of 0.1 to their users, once', async () => {
      const store = await open()
      const prefix = prefixOf.get(store)!
      const writer = clients.at(-1)!
      const legacy = `${prefix}{collections}:`
      // The keys an 0.1 server wrote for one collection of two members.
      await writer.hset(`${legacy}c:col_legacy0001`, {
        id: 'col_legacy0001',
        user_id: 'old:user',
        entity_type: 'works',
        display_name: 'From 0.1',
        name_key: 'from 0.1',
        description: 'kept',
        created_at: '2026-01-01T00:00:00',
        updated_at: '2026-01-02T00:00:00',
        seq: '7',
        next: '2',
      })
      await writer.zadd(`${legacy}m:col_legacy0001`, 1, 'W2', 2, 'W1')
      await writer.zadd(`${legacy}u:old:user`, 7, 'col_legacy0001')
      await writer.hset(`${legacy}n:old:user`, 'from 0.1', 'col_legacy0001')
      await writer.zadd(`${legacy}all`, 7, 'col_legacy0001')
      await writer.set(`${legacy}seq`, 7)
      expect(await migrateLegacyCollections(writer, prefix)).toBe(1)
      expect(await migrateLegacyCollections(writer, prefix)).toBe(0)
      expect(await store.get('col_legacy0001')).toMatchObject({
        userId: 'old:user',
        displayName: 'From 0.1',
        description: 'kept',
        entityCount: 2,
        updatedAt: '2026-01-02T00:00:00',
      })
      expect(await store.members('col_legacy0001', 0, 10)).toEqual({ total: 2, ids: ['W2', 'W1'] })
      expect((await store.list({ userId: 'old:user', offset: 0, limit: 10 })).total).toBe(1)
      await expect(
        store.create(draft('col_legacy0002', 'old:user', { displayName: 'FROM 0.1' })),
      ).rejects.toMatchObject({
        code: 'display_name_duplicate',
      })
      // A new collection comes after it: the creation counter carried on.
      await store.create(draft('col_legacy0003', 'old:user'))
      expect((await store.list({ offset: 0, limit: 10 })).collections.map((c) => c.id)).toEqual([
        'col_legacy0003',
        'col_legacy0001',
      ])
      expect(await keysUnder(writer, `${legacy}c:`)).toEqual([])
      expect(await keysUnder(writer, `${legacy}u:`)).toEqual([])
    })

    // Only a cluster has slots to spread over.
    if (redis.name === 'Redis Cluster')
      it("spreads users over the cluster's nodes, one slot a user", async () => {
        const store = await open()
        const prefix = prefixOf.get(store)!
        const reader = clients.at(-1)!
        for (let user = 0; user < 24; user++)
          await store.create(draft(`col_spread${String(user).padStart(4, '0')}`, `user-${user}`))
        const slotOf = (key: string) => reader.call('CLUSTER', 'KEYSLOT', key) as Promise<number>
        for (let user = 0; user < 24; user++) {
          const keys = await keysUnder(reader, `${prefix}collections:{user-${user}}:`)
          expect(keys).toHaveLength(4)
          expect(new Set(await Promise.all(keys.map(slotOf))).size).toBe(1)
        }
        const perNode = await Promise.all(
          keyspaceNodes(reader).map(async (node) => (await node.keys(`${prefix}collections:*`)).length),
        )
        expect(perNode.filter((count) => count > 0).length).toBeGreaterThan(1)
      })
  })
}
