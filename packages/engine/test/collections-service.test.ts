import {
  type CollectionErrorCode,
  CollectionService,
  createMemoryCollectionStore,
  isCollectionError,
  type ProfanityFilter,
} from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'

const ann = { userId: 'ann', admin: false }
const bob = { userId: 'bob', admin: false }
const root = { userId: 'root', admin: true }

const codeOf = async (promise: Promise<unknown>): Promise<CollectionErrorCode> => {
  try {
    await promise
  } catch (error) {
    if (isCollectionError(error)) return error.code
    throw error
  }
  throw new Error('accepted')
}

const service = () =>
  new CollectionService({
    store: createMemoryCollectionStore(),
    now: () => new Date(Date.UTC(2026, 4, 6, 7, 8, 9, 500)),
  })

describe('the collection service', () => {
  it('stamps new collections with the time to the second, UTC, and an issued id', async () => {
    const made = await service().create(ann, { display_name: 'x', entity_type: 'works' })
    expect(made).toMatchObject({
      userId: 'ann',
      createdAt: '2026-05-06T07:08:09',
      updatedAt: '2026-05-06T07:08:09',
    })
    expect(made.id).toMatch(/^col_[A-Za-z0-9]{10}$/)
  })

  it('lets owners and admins use a collection, and refuses everyone else', async () => {
    const collections = service()
    const made = await collections.create(ann, {
      display_name: 'x',
      entity_type: 'works',
      entity_ids: ['W1'],
    })
    expect(await codeOf(collections.get(bob, made.id))).toBe('forbidden')
    expect(await codeOf(collections.resolveForFilter(bob, made.id))).toBe('forbidden')
    expect(await codeOf(collections.resolveForFilter(null, made.id))).toBe('authentication_required')
    expect(await collections.resolveForFilter(root, made.id)).toEqual({
      entityType: 'works',
      entityIds: ['W1'],
    })
    expect(await collections.resolveForFilter(ann, made.id)).toEqual({
      entityType: 'works',
      entityIds: ['W1'],
    })
    expect(await codeOf(collections.adminList(ann, { page: 1, perPage: 10 }))).toBe('forbidden')
    expect((await collections.adminList(root, { page: 1, perPage: 10, ownerId: 'ann' })).total).toBe(1)
    expect(await codeOf(collections.get(ann, 'col_unknown000'))).toBe('collection_not_found')
    // The engine's words name no route: that is the HTTP layer's to add.
    await expect(collections.get(ann, 'col_unknown000')).rejects.toThrow(
      /^No collection has the id 'col_unknown000'\.$/,
    )
    await expect(collections.resolveForFilter(null, made.id)).rejects.toThrow(/needs a caller/)
    // Ids of a shape never issued are unknown without asking the store.
    expect(await codeOf(collections.get(ann, 'col_a'))).toBe('collection_not_found')
  })

  it('checks display names with the profanity filter it is given', async () => {
    const strict: ProfanityFilter = { isProfane: (text) => text.toLowerCase().includes('forbidden') }
    const collections = new CollectionService({ store: createMemoryCollectionStore(), profanity: strict })
    expect(
      await codeOf(collections.create(ann, { display_name: 'A forbidden list', entity_type: 'works' })),
    ).toBe('display_name_invalid')
    expect((await collections.create(ann, { display_name: 'Fine', entity_type: 'works' })).displayName).toBe(
      'Fine',
    )
  })
})
