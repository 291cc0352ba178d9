import type {
  CollectionEntityType,
  CollectionList,
  CollectionMembers,
  CollectionRecord,
} from './collection-record.ts'

/** A collection to create, already read and checked (`readCollectionInput`), with its id and time. */
export interface CollectionDraft {
  readonly id: string
  readonly userId: string
  readonly entityType: CollectionEntityType
  readonly displayName: string
  readonly description: string
  /** Normalised and without repeats. */
  readonly entityIds: readonly string[]
  /** `YYYY-MM-DDTHH:MM:SS`: both `created_at` and `updated_at`. */
  readonly at: string
}

/** What an update changes, and when. */
export interface CollectionUpdate {
  readonly displayName?: string
  readonly description?: string
  readonly entityType?: CollectionEntityType
  readonly at: string
}

/** Which collections to list: all conditions given must hold. Newest first. */
export interface CollectionQuery {
  readonly userId?: string
  readonly entityType?: CollectionEntityType
  /** Text the display name or description contains, any case. */
  readonly text?: string
  /** A normalised entity id the collection must hold. */
  readonly entityId?: string
  readonly offset: number
  readonly limit: number
}

export interface AddResult {
  readonly added: number
  readonly alreadyPresent: number
  readonly collection: CollectionRecord
}

export interface RemoveResult {
  readonly removed: number
  readonly notPresent: number
  readonly collection: CollectionRecord
}

/**
 * Where collections live. Every write is atomic and enforces, whatever else runs at the same time:
 * at most `COLLECTION_LIMITS.collectionsPerUser` collections per user, display names unique per user by
 * `displayNameKey`, at most `COLLECTION_LIMITS.entitiesPerCollection` members, and `entityType`
 * changing only while a collection is empty. A refused write changes nothing and throws a
 * `CollectionError` (`too_many_collections`, `display_name_duplicate`, `collection_full`,
 * `entity_type_invalid`, `entity_id_wrong_type` when the type changed under an addition,
 * `collection_not_found`). A write that resolves has been stored durably.
 *
 * The store checks no ownership and reads no input: `CollectionService` does both before calling it.
 */
export interface CollectionStore {
  create(draft: CollectionDraft): Promise<CollectionRecord>
  get(id: string): Promise<CollectionRecord | undefined>
  list(query: CollectionQuery): Promise<CollectionList>
  update(id: string, update: CollectionUpdate): Promise<CollectionRecord>
  /** Deletes the collection and its members; false when there was none. */
  delete(id: string): Promise<boolean>
  /**
   * Adds normalised ids of `entityType` (the type the caller checked them against): all of them or,
   * when the collection would pass its limit or its type is no longer `entityType`, none.
   */
  addEntities(
    id: string,
    entityIds: readonly string[],
    entityType: CollectionEntityType,
    at: string,
  ): Promise<AddResult>
  removeEntities(id: string, entityIds: readonly string[], at: string): Promise<RemoveResult>
  /** Members in the order they were added, from `offset`; undefined when there is no such collection. */
  members(id: string, offset: number, limit: number): Promise<CollectionMembers | undefined>
  close(): Promise<void>
}
