import { readCollectionEntityId } from './collection-entity-id.ts'
import {
  CollectionError,
  writeCollectionNotFoundMessage,
  writeForbiddenCollectionMessage,
} from './collection-error.ts'
import {
  type CollectionChanges,
  readCollectionChanges,
  readCollectionInput,
  readEntityIdsBody,
  readEntityType,
} from './collection-input-reader.ts'
import {
  COLLECTION_LIMITS,
  type CollectionEntityType,
  type CollectionList,
  type CollectionMembers,
  type CollectionRecord,
  collectionTimestamp,
  ISSUED_COLLECTION_ID,
  newCollectionId,
} from './collection-record.ts'
import type { AddResult, CollectionStore, RemoveResult } from './collection-store.ts'
import { englishProfanityFilter, type ProfanityFilter } from './profanity-filter.ts'

/** Who calls: the user an API key belongs to, and whether that user is an admin. */
export interface CollectionCaller {
  readonly userId: string
  readonly admin: boolean
}

/** A page by number: `page` from 1, `perPage` within the endpoint's limit (the HTTP layer checks both). */
export interface PageRequest {
  readonly page: number
  readonly perPage: number
}

export interface CollectionServiceOptions {
  readonly store: CollectionStore
  /** Default: the English list of the `obscenity` package. */
  readonly profanity?: ProfanityFilter
  readonly now?: () => Date
  readonly newId?: () => string
}

/** A collection's members for a filter: everything a query needs to replace the collection by its ids. */
export interface ResolvedCollection {
  readonly entityType: CollectionEntityType
  readonly entityIds: readonly string[]
}

/** Filters of the admin search (`GET /admin/collections`), all optional. */
export interface AdminQuery extends PageRequest {
  readonly text?: string
  readonly ownerId?: string
  /** As the client wrote it; checked here. */
  readonly entityType?: string
}

const offsetOf = (page: PageRequest) => (page.page - 1) * page.perPage

/**
 * The collections API over a store, the same for every store: reads and checks each request body,
 * checks who may touch which collection (owners, and admins everywhere), then lets the store make the
 * change atomically. Methods throw `CollectionError`s; the HTTP layer maps them to statuses.
 */
export class CollectionService {
  readonly #store: CollectionStore
  readonly #profanity: ProfanityFilter
  readonly #now: () => Date
  readonly #newId: () => string

  constructor(options: CollectionServiceOptions) {
    this.#store = options.store
    this.#profanity = options.profanity ?? englishProfanityFilter
    this.#now = options.now ?? (() => new Date())
    this.#newId = options.newId ?? newCollectionId
  }

  #at(): string {
    return collectionTimestamp(this.#now())
  }

  /** The collection, if the caller may use it: its owner or an admin. */
  async #owned(caller: CollectionCaller, id: string): Promise<CollectionRecord> {
    // An id of another shape was never issued: no store is asked about it.
    const record = ISSUED_COLLECTION_ID.test(id) ? await this.#store.get(id) : undefined
    if (record === undefined)
      throw new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
    if (record.userId !== caller.userId && !caller.admin)
      throw new CollectionError('forbidden', writeForbiddenCollectionMessage(id))
    return record
  }

  #requireAdmin(caller: CollectionCaller): void {
    if (!caller.admin)
      throw new CollectionError(
        'forbidden',
        'The /admin/collections endpoints are for admins; your key is not an admin key.',
      )
  }

  async create(caller: CollectionCaller, body: unknown): Promise<CollectionRecord> {
    const input = readCollectionInput(body, this.#profanity)
    return this.#store.create({ ...input, id: this.#newId(), userId: caller.userId, at: this.#at() })
  }

  /** The caller's collections, newest first; with `entityId`, only those holding that entity. */
  async listOwn(caller: CollectionCaller, page: PageRequest, entityId?: string): Promise<CollectionList> {
    let normalised: string | undefined
    if (entityId !== undefined) {
      const read = readCollectionEntityId(entityId)
      if (read === undefined)
        throw new CollectionError(
          'entity_id_invalid',
          `entity_id ${JSON.stringify(entityId)} is not an entity id. Give a full id URL or a short id, such as W2741809807.`,
          'entity_id',
        )
      normalised = read.id
    }
    return this.#store.list({
      userId: caller.userId,
      ...(normalised === undefined ? {} : { entityId: normalised }),
      offset: offsetOf(page),
      limit: page.perPage,
    })
  }

  get(caller: CollectionCaller, id: string): Promise<CollectionRecord> {
    return this.#owned(caller, id)
  }

  async members(
    caller: CollectionCaller,
    id: string,
    page: PageRequest,
  ): Promise<{ readonly collection: CollectionRecord; readonly members: CollectionMembers }> {
    const collection = await this.#owned(caller, id)
    const members = await this.#store.members(id, offsetOf(page), page.perPage)
    if (members === undefined)
      throw new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
    return { collection: { ...collection, entityCount: members.total }, members }
  }

  async update(caller: CollectionCaller, id: string, body: unknown): Promise<CollectionRecord> {
    await this.#owned(caller, id)
    const changes: CollectionChanges = readCollectionChanges(body, this.#profanity)
    return this.#store.update(id, { ...changes, at: this.#at() })
  }

  async delete(caller: CollectionCaller, id: string): Promise<void> {
    await this.#owned(caller, id)
    if (!(await this.#store.delete(id)))
      throw new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
  }

  async addEntities(caller: CollectionCaller, id: string, body: unknown): Promise<AddResult> {
    const collection = await this.#owned(caller, id)
    const ids = readEntityIdsBody(body, collection.entityType)
    return this.#store.addEntities(id, ids, collection.entityType, this.#at())
  }

  async removeEntities(caller: CollectionCaller, id: string, body: unknown): Promise<RemoveResult> {
    const collection = await this.#owned(caller, id)
    const ids = readEntityIdsBody(body, collection.entityType)
    return this.#store.removeEntities(id, ids, this.#at())
  }

  /** Removes one entity, its id as the path gives it. */
  async removeEntity(caller: CollectionCaller, id: string, entityId: string): Promise<RemoveResult> {
    const collection = await this.#owned(caller, id)
    const ids = readEntityIdsBody({ entity_ids: [entityId] }, collection.entityType)
    return this.#store.removeEntities(id, ids, this.#at())
  }

  /** Every user's collections matching the query, newest first; admins only. */
  async adminList(caller: CollectionCaller, query: AdminQuery): Promise<CollectionList> {
    this.#requireAdmin(caller)
    const text = query.text?.trim()
    return this.#store.list({
      ...(text === undefined || text === '' ? {} : { text }),
      ...(query.ownerId === undefined ? {} : { userId: query.ownerId }),
      ...(query.entityType === undefined ? {} : { entityType: readEntityType(query.entityType) }),
      offset: offsetOf(query),
      limit: query.perPage,
    })
  }

  async adminGet(caller: CollectionCaller, id: string): Promise<CollectionRecord> {
    this.#requireAdmin(caller)
    return this.get(caller, id)
  }

  async adminUpdate(caller: CollectionCaller, id: string, body: unknown): Promise<CollectionRecord> {
    this.#requireAdmin(caller)
    return this.update(caller, id, body)
  }

  async adminDelete(caller: CollectionCaller, id: string): Promise<void> {
    this.#requireAdmin(caller)
    return this.delete(caller, id)
  }

  /**
   * A collection a query filters by, for a caller: 401 for no caller, 404 for no such collection, 403 for
   * another user's (unless admin). Never an empty list in place of a refusal.
   */
  async resolveForFilter(caller: CollectionCaller | null, id: string): Promise<ResolvedCollection> {
    if (caller === null)
      throw new CollectionError(
        'authentication_required',
        `Filtering by a collection (${id}) needs a caller: only its owner (or an admin) can use it.`,
      )
    const collection = await this.#owned(caller, id)
    const members = await this.#store.members(id, 0, COLLECTION_LIMITS.entitiesPerCollection)
    if (members === undefined)
      throw new CollectionError('collection_not_found', writeCollectionNotFoundMessage(id))
    return { entityType: collection.entityType, entityIds: members.ids }
  }
}
