// `describeCollectionStoreContract`: the behaviour every CollectionStore must have, as one vitest suite,
// run against the in-memory, embedded (file-backed) and Redis stores alike. Limits are the API's own
// (100 collections per user, 1,000 members), including under concurrent writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CollectionErrorCode, isCollectionError } from '../collections/collection-error.ts'
import { COLLECTION_LIMITS, type CollectionEntityType } from '../collections/collection-record.ts'
import type { CollectionDraft, CollectionStore } from '../collections/collection-store.ts'

export interface CollectionStoreHarness {
  /** A new, empty store (each call isolated from the others). */
  readonly open: () => Promise<CollectionStore>
  /**
   * Another handle on the same data as `store` (another connection or process-level client), when the
   * store can have several; concurrent writes are then spread over both.
   */
  readonly openTwin?: (store: CollectionStore) => Promise<CollectionStore>
  /** Skips the suite (a store whose server is not there, outside CI). */
  readonly skip?: boolean
}

let sequence = 0
const uniqueId = (): string =>
  `col_${(++sequence).toString(36).padStart(4, '0')}${Math.random().toString(36).slice(2, 8)}`.slice(0, 14)

const draft = (overrides: Partial<CollectionDraft> = {}): CollectionDraft => ({
  id: uniqueId(),
  userId: 'user-a',
  entityType: 'works',
  displayName: `Reading list ${sequence}`,
  description: '',
  entityIds: [],
  at: '2026-03-01T10:00:00',
  ...overrides,
})

const works = (from: number, count: number): string[] =>
  Array.from({ length: count }, (_, index) => `W${from + index}`)

/** The code of a rejected promise's `CollectionError`, failing the test for anything else. */
const codeOf = async (promise: Promise<unknown>): Promise<CollectionErrorCode> => {
  try {
    await promise
  } catch (error) {
    if (isCollectionError(error)) return error.code
    throw error
  }
  throw new Error('Expected a CollectionError, but the write succeeded')
}

/** Settles every promise and splits the outcomes into values and error codes. */
const settle = async <T>(promises: readonly Promise<T>[]) => {
  const outcomes = await Promise.allSettled(promises)
  const values: T[] = []
  const codes: string[] = []
  for (const outcome of outcomes)
    if (outcome.status === 'fulfilled') values.push(outcome.value)
    else if (isCollectionError(outcome.reason)) codes.push(outcome.reason.code)
    else throw outcome.reason
  return { values, codes }
}

export const describeCollectionStoreContract = (name: string, harness: CollectionStoreHarness): void => {
  describe.skipIf(harness.skip === true)(`CollectionStore contract: ${name}`, () => {
    let store: CollectionStore
    let twin: CollectionStore
    const opened: CollectionStore[] = []
    const fresh = async (): Promise<CollectionStore> => {
      const next = await harness.open()
      opened.push(next)
      return next
    }

    beforeAll(async () => {
      store = await fresh()
      twin = harness.openTwin === undefined ? store : await harness.openTwin(store)
      if (twin !== store) opened.push(twin)
    })
    afterAll(async () => {
      for (const each of opened.reverse()) await each.close()
    })

    it('creates a collection and reads it back, with its members in the order given', async () => {
      const input = draft({ entityIds: ['W3', 'W1', 'W2'], description: 'Papers to read' })
      const created = await store.create(input)
      expect(created).toEqual({
        id: input.id,
        userId: 'user-a',
        entityType: 'works',
        displayName: input.displayName,
        description: 'Papers to read',
        entityCount: 3,
        createdAt: input.at,
        updatedAt: input.at,
      })
      expect(await store.get(input.id)).toEqual(created)
      expect(await twin.get(input.id)).toEqual(created)
      expect(await store.members(input.id, 0, 10)).toEqual({ total: 3, ids: ['W3', 'W1', 'W2'] })
      expect(await store.members(input.id, 1, 1)).toEqual({ total: 3, ids: ['W1'] })
      expect(await store.members(input.id, 5, 10)).toEqual({ total: 3, ids: [] })
    })

    it('answers undefined for a collection that does not exist', async () => {
      expect(await store.get('col_none000000')).toBeUndefined()
      expect(await store.members('col_none000000', 0, 10)).toBeUndefined()
      expect(await store.delete('col_none000000')).toBe(false)
      expect(
        await codeOf(store.update('col_none000000', { displayName: 'x', at: '2026-03-01T10:00:00' })),
      ).toBe('collection_not_found')
      expect(await codeOf(store.addEntities('col_none000000', ['W1'], 'works', '2026-03-01T10:00:00'))).toBe(
        'collection_not_found',
      )
      expect(await codeOf(store.removeEntities('col_none000000', ['W1'], '2026-03-01T10:00:00'))).toBe(
        'collection_not_found',
      )
    })

    it('keeps display names unique per user, ignoring case, and frees a name on rename and delete', async () => {
      const own = await fresh()
      const first = await own.create(draft({ userId: 'u1', displayName: 'Climate Papers' }))
      expect(await codeOf(own.create(draft({ userId: 'u1', displayName: 'climate papers' })))).toBe(
        'display_name_duplicate',
      )
      expect(await codeOf(own.create(draft({ userId: 'u1', displayName: 'CLIMATE PAPERS' })))).toBe(
        'display_name_duplicate',
      )
      // Another user may use the same name.
      await own.create(draft({ userId: 'u2', displayName: 'Climate Papers' }))
      const second = await own.create(draft({ userId: 'u1', displayName: 'Ocean' }))
      expect(
        await codeOf(own.update(second.id, { displayName: 'climate PAPERS', at: '2026-03-01T11:00:00' })),
      ).toBe('display_name_duplicate')
      // Renaming a collection to another case of its own name is no clash.
      expect(
        (await own.update(first.id, { displayName: 'CLIMATE papers', at: '2026-03-01T11:00:00' }))
          .displayName,
      ).toBe('CLIMATE papers')
      await own.update(first.id, { displayName: 'Weather', at: '2026-03-01T11:00:00' })
      await own.create(draft({ userId: 'u1', displayName: 'Climate papers' }))
      expect(await own.delete(second.id)).toBe(true)
      await own.create(draft({ userId: 'u1', displayName: 'ocean' }))
    })

    it(`refuses a user's collection number ${COLLECTION_LIMITS.collectionsPerUser + 1}, and counts a deleted one as gone`, async () => {
      const own = await fresh()
      const made: string[] = []
      for (let index = 0; index < COLLECTION_LIMITS.collectionsPerUser; index++)
        made.push((await own.create(draft({ userId: 'busy', displayName: `List ${index}` }))).id)
      expect(await codeOf(own.create(draft({ userId: 'busy', displayName: 'One more' })))).toBe(
        'too_many_collections',
      )
      // The limit is per user.
      await own.create(draft({ userId: 'calm', displayName: 'One more' }))
      await own.delete(made[0]!)
      await own.create(draft({ userId: 'busy', displayName: 'One more' }))
      expect((await own.list({ userId: 'busy', offset: 0, limit: 1 })).total).toBe(
        COLLECTION_LIMITS.collectionsPerUser,
      )
    })

    it(`holds at most ${COLLECTION_LIMITS.entitiesPerCollection} members, refusing an addition past it whole`, async () => {
      const max = COLLECTION_LIMITS.entitiesPerCollection
      expect(await codeOf(store.create(draft({ entityIds: works(1, max + 1) })))).toBe('collection_full')
      const full = await store.create(draft({ entityIds: works(1, max - 2) }))
      expect(await codeOf(store.addEntities(full.id, works(5000, 3), 'works', '2026-03-02T10:00:00'))).toBe(
        'collection_full',
      )
      expect((await store.get(full.id))?.entityCount).toBe(max - 2)
      // Ids already there do not count against the limit.
      const result = await store.addEntities(
        full.id,
        [...works(1, 5), ...works(5000, 2)],
        'works',
        '2026-03-02T10:00:00',
      )
      expect(result).toMatchObject({ added: 2, alreadyPresent: 5 })
      expect(result.collection.entityCount).toBe(max)
      expect(result.collection.updatedAt).toBe('2026-03-02T10:00:00')
    })

    it('adds and removes members, counting what changed and what did not', async () => {
      const made = await store.create(draft({ entityIds: ['W1', 'W2'] }))
      const added = await store.addEntities(made.id, ['W2', 'W3', 'W3', 'W4'], 'works', '2026-03-03T10:00:00')
      expect(added.added).toBe(2)
      expect(added.alreadyPresent).toBe(1)
      expect(added.collection.entityCount).toBe(4)
      const unchanged = await store.addEntities(made.id, ['W1'], 'works', '2026-03-04T10:00:00')
      expect(unchanged).toMatchObject({ added: 0, alreadyPresent: 1 })
      expect(unchanged.collection.updatedAt).toBe('2026-03-03T10:00:00')
      const removed = await twin.removeEntities(made.id, ['W1', 'W9', 'W3'], '2026-03-05T10:00:00')
      expect(removed).toMatchObject({ removed: 2, notPresent: 1 })
      expect(removed.collection).toMatchObject({ entityCount: 2, updatedAt: '2026-03-05T10:00:00' })
      expect((await store.members(made.id, 0, 10))?.ids).toEqual(['W2', 'W4'])
      // A removed id added again goes to the end.
      await store.addEntities(made.id, ['W1'], 'works', '2026-03-06T10:00:00')
      expect((await store.members(made.id, 0, 10))?.ids).toEqual(['W2', 'W4', 'W1'])
    })

    it('refuses an addition whose type no longer matches the collection', async () => {
      const made = await store.create(draft())
      await store.update(made.id, { entityType: 'authors', at: '2026-03-03T10:00:00' })
      expect(await codeOf(store.addEntities(made.id, ['W1'], 'works', '2026-03-03T10:00:00'))).toBe(
        'entity_id_wrong_type',
      )
      expect((await store.get(made.id))?.entityCount).toBe(0)
    })

    it('updates fields, and the entity type only while the collection is empty', async () => {
      const made = await store.create(draft({ displayName: 'Before', description: 'old' }))
      const updated = await store.update(made.id, {
        displayName: 'After',
        description: 'new',
        entityType: 'sources',
        at: '2026-04-01T09:30:00',
      })
      expect(updated).toMatchObject({
        displayName: 'After',
        description: 'new',
        entityType: 'sources',
        createdAt: made.createdAt,
        updatedAt: '2026-04-01T09:30:00',
      })
      await store.addEntities(made.id, ['S1'], 'sources', '2026-04-01T09:31:00')
      expect(await codeOf(store.update(made.id, { entityType: 'works', at: '2026-04-01T09:32:00' }))).toBe(
        'entity_type_invalid',
      )
      // Naming the type it already has is no change.
      expect(
        (await store.update(made.id, { entityType: 'sources', at: '2026-04-01T09:33:00' })).entityType,
      ).toBe('sources')
      await store.removeEntities(made.id, ['S1'], '2026-04-01T09:34:00')
      expect(
        (await store.update(made.id, { entityType: 'works', at: '2026-04-01T09:35:00' })).entityType,
      ).toBe('works')
      expect(await store.get(made.id)).toMatchObject({ description: 'new', displayName: 'After' })
    })

    it('deletes a collection with its members', async () => {
      const made = await store.create(draft({ entityIds: works(1, 10) }))
      expect(await twin.delete(made.id)).toBe(true)
      expect(await store.get(made.id)).toBeUndefined()
      expect(await store.members(made.id, 0, 10)).toBeUndefined()
      expect(await store.delete(made.id)).toBe(false)
      expect(
        (await store.list({ entityId: 'W5', userId: 'user-a', offset: 0, limit: 100 })).collections.map(
          (c) => c.id,
        ),
      ).not.toContain(made.id)
    })

    it('lists newest first, by user, type, text and member, with a total and pages', async () => {
      const own = await fresh()
      const make = (
        userId: string,
        displayName: string,
        entityType: CollectionEntityType,
        extra: Partial<CollectionDraft> = {},
      ) => own.create(draft({ userId, displayName, entityType, ...extra }))
      const a1 = await make('ann', 'Alpha', 'works', { entityIds: ['W1', 'W2'] })
      const a2 = await make('ann', 'Beta', 'authors', { description: 'Co-authors of ALPHA papers' })
      const a3 = await make('ann', 'Gamma', 'works', { entityIds: ['W2'] })
      const b1 = await make('bob', 'alphabet', 'works', { entityIds: ['W1'] })
      const ids = (list: { collections: readonly { id: string }[] }) => list.collections.map((c) => c.id)
      const everything = await own.list({ offset: 0, limit: 10 })
      expect(ids(everything)).toEqual([b1.id, a3.id, a2.id, a1.id])
      expect(everything.total).toBe(4)
      expect(ids(await own.list({ userId: 'ann', offset: 0, limit: 10 }))).toEqual([a3.id, a2.id, a1.id])
      const page = await own.list({ userId: 'ann', offset: 1, limit: 1 })
      expect({ total: page.total, ids: ids(page) }).toEqual({ total: 3, ids: [a2.id] })
      expect(ids(await own.list({ userId: 'ann', entityId: 'W2', offset: 0, limit: 10 }))).toEqual([
        a3.id,
        a1.id,
      ])
      expect(ids(await own.list({ entityId: 'W1', offset: 0, limit: 10 }))).toEqual([b1.id, a1.id])
      expect(ids(await own.list({ entityType: 'authors', offset: 0, limit: 10 }))).toEqual([a2.id])
      expect(ids(await own.list({ text: 'alpha', offset: 0, limit: 10 }))).toEqual([b1.id, a2.id, a1.id])
      expect(
        ids(await own.list({ text: 'alpha', userId: 'bob', entityType: 'works', offset: 0, limit: 10 })),
      ).toEqual([b1.id])
      expect(await own.list({ userId: 'nobody', offset: 0, limit: 10 })).toEqual({
        total: 0,
        collections: [],
      })
    })

    it('never passes the member limit under 50 parallel additions', async () => {
      const max = COLLECTION_LIMITS.entitiesPerCollection
      const made = await store.create(draft({ entityIds: works(1, max - 100) }))
      // 50 additions of 5 new ids each race for the last 100 places: exactly 20 fit.
      const { values, codes } = await settle(
        Array.from({ length: 50 }, (_, index) =>
          (index % 2 === 0 ? store : twin).addEntities(
            made.id,
            works(10_000 + index * 5, 5),
            'works',
            '2026-05-01T00:00:00',
          ),
        ),
      )
      expect(values).toHaveLength(20)
      expect(codes).toEqual(Array.from({ length: 30 }, () => 'collection_full'))
      expect(values.every((value) => value.added === 5)).toBe(true)
      const members = await store.members(made.id, 0, max + 10)
      expect(members?.total).toBe(max)
      expect(new Set(members?.ids).size).toBe(max)
      expect((await store.get(made.id))?.entityCount).toBe(max)
    })

    it('never passes the collection limit, nor repeats a name, under parallel creates', async () => {
      const own = await fresh()
      const other = harness.openTwin === undefined ? own : await harness.openTwin(own)
      if (other !== own) opened.push(other)
      const limit = COLLECTION_LIMITS.collectionsPerUser
      const many = await settle(
        Array.from({ length: limit + 30 }, (_, index) =>
          (index % 2 === 0 ? own : other).create(draft({ userId: 'racer', displayName: `Race ${index}` })),
        ),
      )
      expect(many.values).toHaveLength(limit)
      expect(many.codes).toEqual(Array.from({ length: 30 }, () => 'too_many_collections'))
      expect((await own.list({ userId: 'racer', offset: 0, limit: 1 })).total).toBe(limit)

      const spellings = ['Shared', 'shared', 'SHARED', 'sHaReD']
      const same = await settle(
        Array.from({ length: 24 }, (_, index) =>
          (index % 2 === 0 ? own : other).create(
            draft({ userId: 'namer', displayName: spellings[index % spellings.length]! }),
          ),
        ),
      )
      expect(same.values).toHaveLength(1)
      expect(same.codes).toEqual(Array.from({ length: 23 }, () => 'display_name_duplicate'))

      // Renames racing for one name: one wins.
      const targets = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          own.create(draft({ userId: 'renamer', displayName: `Old ${index}` })),
        ),
      )
      const renames = await settle(
        targets.map((target, index) =>
          (index % 2 === 0 ? own : other).update(target.id, {
            displayName: `Final ${index % 2 === 0 ? 'X' : 'x'}`,
            at: '2026-05-02T00:00:00',
          }),
        ),
      )
      expect(renames.values).toHaveLength(1)
      expect(renames.codes).toEqual(Array.from({ length: 9 }, () => 'display_name_duplicate'))
    })
  })
}
