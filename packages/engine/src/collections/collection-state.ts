import { CollectionError, writeCollectionNotFoundMessage } from './collection-error.ts'
import { collectionFullError } from './collection-input-reader.ts'
import {
  COLLECTION_LIMITS,
  type CollectionEntityType,
  type CollectionList,
  type CollectionMembers,
  type CollectionRecord,
  displayNameKey,
} from './collection-record.ts'
import type {
  AddResult,
  CollectionDraft,
  CollectionQuery,
  CollectionUpdate,
  RemoveResult,
} from './collection-store.ts'

/** A collection's own fields, as an operation carries them. */
export interface StoredCollection {
  readonly id: string
  readonly userId: string
  readonly entityType: CollectionEntityType
  readonly displayName: string
  readonly description: string
  readonly createdAt: string
  readonly updatedAt: string
}

/**
 * One change of the collections, as a plain JSON object: what a write-ahead log records and replays.
 * `add` and `remove` list only the ids that change, so replaying them needs no decision.
 */
export type CollectionOperation =
  | { readonly op: 'create'; readonly collection: StoredCollection; readonly entityIds: readonly string[] }
  | {
      readonly op: 'update'
      readonly id: string
      readonly displayName?: string
      readonly description?: string
      readonly entityType?: CollectionEntityType
      readonly at: string
    }
  | { readonly op: 'delete'; readonly id: string }
  | { readonly op: 'add'; readonly id: string; readonly entityIds: readonly string[]; readonly at: string }
  | { readonly op: 'remove'; readonly id: string; readonly entityIds: readonly string[]; readonly at: string }

/** A decided write: the operation to store (null when nothing changes) and what to answer once stored. */
export interface Decision<R> {
  readonly operation: CollectionOperation | null
  readonly result: () => R
}

interface Entry {
  fields: StoredCollection
  /** Insertion-ordered, as a Set iterates. */
  readonly members: Set<string>
  readonly seq: number
}

/** A collection state a log could not have produced: an operation on a collection that is not there. */
export class CollectionLogError extends Error {
  override readonly name = 'CollectionLogError'
}

/**
 * The collections of one process in memory, changed in two steps so a store can make a change durable
 * before it is visible: `decide*` checks a write against the limits and returns the operation without
 * changing anything; `apply` makes an operation part of the state (also when replaying a log). A store
 * that runs decide, store, apply without another write in between enforces every limit atomically.
 */
export class CollectionState {
  readonly #entries = new Map<string, Entry>()
  /** Per user: display-name key to collection id. */
  readonly #names = new Map<string, Map<string, string>>()
  #seq = 0

  get size(): number {
    return this.#entries.size
  }

  #entry(id: string): Entry {
    const entry = this.#entries.get(id)
    if (entry === undefined)
      throw new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
    return entry
  }

  #record(entry: Entry): CollectionRecord {
    return Object.freeze({ ...entry.fields, entityCount: entry.members.size })
  }

  #namesOf(userId: string): Map<string, string> {
    let names = this.#names.get(userId)
    if (names === undefined) {
      names = new Map()
      this.#names.set(userId, names)
    }
    return names
  }

  #checkNameFree(userId: string, displayName: string, except?: string): void {
    const holder = this.#names.get(userId)?.get(displayNameKey(displayName))
    if (holder !== undefined && holder !== except)
      throw new CollectionError(
        'display_name_duplicate',
        `You already have a collection named ${JSON.stringify(displayName)} (names are compared ignoring case). Choose another name.`,
        'display_name',
      )
  }

  decideCreate(draft: CollectionDraft): Decision<CollectionRecord> {
    if (this.#entries.has(draft.id)) throw new Error(`The collection id ${draft.id} is taken`)
    const owned = this.#names.get(draft.userId)?.size ?? 0
    if (owned >= COLLECTION_LIMITS.collectionsPerUser)
      throw new CollectionError(
        'too_many_collections',
        `You already have ${owned} collections, the most a user can have. Delete one to create another.`,
      )
    this.#checkNameFree(draft.userId, draft.displayName)
    if (draft.entityIds.length > COLLECTION_LIMITS.entitiesPerCollection)
      throw collectionFullError(draft.entityIds.length)
    const collection: StoredCollection = {
      id: draft.id,
      userId: draft.userId,
      entityType: draft.entityType,
      displayName: draft.displayName,
      description: draft.description,
      createdAt: draft.at,
      updatedAt: draft.at,
    }
    return {
      operation: { op: 'create', collection, entityIds: [...draft.entityIds] },
      result: () => this.#record(this.#entry(draft.id)),
    }
  }

  decideUpdate(id: string, update: CollectionUpdate): Decision<CollectionRecord> {
    const entry = this.#entry(id)
    if (update.displayName !== undefined) this.#checkNameFree(entry.fields.userId, update.displayName, id)
    if (
      update.entityType !== undefined &&
      update.entityType !== entry.fields.entityType &&
      entry.members.size > 0
    )
      throw new CollectionError(
        'entity_type_invalid',
        `entity_type can change only while the collection is empty; this one holds ${entry.members.size} ${entry.fields.entityType}. Remove them first, or create a new collection.`,
        'entity_type',
      )
    return {
      operation: {
        op: 'update',
        id,
        ...(update.displayName === undefined ? {} : { displayName: update.displayName }),
        ...(update.description === undefined ? {} : { description: update.description }),
        ...(update.entityType === undefined ? {} : { entityType: update.entityType }),
        at: update.at,
      },
      result: () => this.#record(this.#entry(id)),
    }
  }

  decideDelete(id: string): Decision<boolean> {
    if (!this.#entries.has(id)) return { operation: null, result: () => false }
    return { operation: { op: 'delete', id }, result: () => true }
  }

  decideAdd(
    id: string,
    entityIds: readonly string[],
    entityType: CollectionEntityType,
    at: string,
  ): Decision<AddResult> {
    const entry = this.#entry(id)
    if (entry.fields.entityType !== entityType)
      throw new CollectionError(
        'entity_id_wrong_type',
        `The collection now holds ${entry.fields.entityType}, not ${entityType} (its type changed while the request ran); nothing was added.`,
        'entity_ids',
      )
    const fresh = [...new Set(entityIds)].filter((entityId) => !entry.members.has(entityId))
    const total = entry.members.size + fresh.length
    if (total > COLLECTION_LIMITS.entitiesPerCollection) throw collectionFullError(total)
    const alreadyPresent = new Set(entityIds).size - fresh.length
    return {
      operation: fresh.length === 0 ? null : { op: 'add', id, entityIds: fresh, at },
      result: () => ({ added: fresh.length, alreadyPresent, collection: this.#record(this.#entry(id)) }),
    }
  }

  decideRemove(id: string, entityIds: readonly string[], at: string): Decision<RemoveResult> {
    const entry = this.#entry(id)
    const unique = [...new Set(entityIds)]
    const present = unique.filter((entityId) => entry.members.has(entityId))
    return {
      operation: present.length === 0 ? null : { op: 'remove', id, entityIds: present, at },
      result: () => ({
        removed: present.length,
        notPresent: unique.length - present.length,
        collection: this.#record(this.#entry(id)),
      }),
    }
  }

  /** Makes a decided (or replayed) operation part of the state. */
  apply(operation: CollectionOperation): void {
    const missing = (id: string) => new CollectionLogError(`${operation.op} of ${id}, which does not exist`)
    switch (operation.op) {
      case 'create': {
        const { collection } = operation
        if (this.#entries.has(collection.id))
          throw new CollectionLogError(`create of ${collection.id}, which exists`)
        this.#entries.set(collection.id, {
          fields: { ...collection },
          members: new Set(operation.entityIds),
          seq: ++this.#seq,
        })
        this.#namesOf(collection.userId).set(displayNameKey(collection.displayName), collection.id)
        return
      }
      case 'update': {
        const entry = this.#entries.get(operation.id)
        if (entry === undefined) throw missing(operation.id)
        const names = this.#namesOf(entry.fields.userId)
        if (operation.displayName !== undefined) {
          names.delete(displayNameKey(entry.fields.displayName))
          names.set(displayNameKey(operation.displayName), operation.id)
        }
        entry.fields = {
          ...entry.fields,
          ...(operation.displayName === undefined ? {} : { displayName: operation.displayName }),
          ...(operation.description === undefined ? {} : { description: operation.description }),
          ...(operation.entityType === undefined ? {} : { entityType: operation.entityType }),
          updatedAt: operation.at,
        }
        return
      }
      case 'delete': {
        const entry = this.#entries.get(operation.id)
        if (entry === undefined) throw missing(operation.id)
        const names = this.#namesOf(entry.fields.userId)
        names.delete(displayNameKey(entry.fields.displayName))
        if (names.size === 0) this.#names.delete(entry.fields.userId)
        this.#entries.delete(operation.id)
        return
      }
      case 'add':
      case 'remove': {
        const entry = this.#entries.get(operation.id)
        if (entry === undefined) throw missing(operation.id)
        for (const entityId of operation.entityIds)
          if (operation.op === 'add') entry.members.add(entityId)
          else entry.members.delete(entityId)
        entry.fields = { ...entry.fields, updatedAt: operation.at }
        return
      }
    }
  }

  get(id: string): CollectionRecord | undefined {
    const entry = this.#entries.get(id)
    return entry === undefined ? undefined : this.#record(entry)
  }

  list(query: CollectionQuery): CollectionList {
    const text = query.text?.toLowerCase()
    const matching = [...this.#entries.values()].filter(
      (entry) =>
        (query.userId === undefined || entry.fields.userId === query.userId) &&
        (query.entityType === undefined || entry.fields.entityType === query.entityType) &&
        (query.entityId === undefined || entry.members.has(query.entityId)) &&
        (text === undefined ||
          entry.fields.displayName.toLowerCase().includes(text) ||
          entry.fields.description.toLowerCase().includes(text)),
    )
    matching.sort((a, b) => b.seq - a.seq)
    return {
      total: matching.length,
      collections: matching
        .slice(query.offset, query.offset + query.limit)
        .map((entry) => this.#record(entry)),
    }
  }

  members(id: string, offset: number, limit: number): CollectionMembers | undefined {
    const entry = this.#entries.get(id)
    if (entry === undefined) return undefined
    return { total: entry.members.size, ids: [...entry.members].slice(offset, offset + limit) }
  }

  /** Operations that rebuild this state from nothing (one `create` per collection, oldest first). */
  snapshot(): CollectionOperation[] {
    return [...this.#entries.values()]
      .sort((a, b) => a.seq - b.seq)
      .map((entry) => ({ op: 'create', collection: { ...entry.fields }, entityIds: [...entry.members] }))
  }
}
