import { COLLECTION_ENTITY_TYPES } from '@oqlkit/oqo-schema/registry'

// The list is one of the entity facts oqo-schema keeps; re-exported here, where collections live.
export { COLLECTION_ENTITY_TYPES }

export type CollectionEntityType = (typeof COLLECTION_ENTITY_TYPES)[number]

export const isCollectionEntityType = (value: unknown): value is CollectionEntityType =>
  typeof value === 'string' && (COLLECTION_ENTITY_TYPES as readonly string[]).includes(value)

/** The limits of the collections API, as the API description states them. */
export const COLLECTION_LIMITS = Object.freeze({
  entitiesPerCollection: 1000,
  collectionsPerUser: 100,
  displayNameLength: 30,
  descriptionLength: 500,
  listPerPage: 100,
  entitiesPerPage: 200,
  /** Member ids all collection filters of one request may resolve to, together. */
  resolvedIdsPerRequest: 10_000,
})

/** A collection as stores keep it; entity ids are normalised short ids (`W123`, `sdgs/3`, `keywords/x`). */
export interface CollectionRecord {
  /** `col_` and 10 letters or digits. */
  readonly id: string
  readonly userId: string
  readonly entityType: CollectionEntityType
  /** Trimmed, 1-30 characters. */
  readonly displayName: string
  readonly description: string
  readonly entityCount: number
  /** `YYYY-MM-DDTHH:MM:SS`, UTC. */
  readonly createdAt: string
  readonly updatedAt: string
}

/** A page of collections and how many match in all. */
export interface CollectionList {
  readonly total: number
  readonly collections: readonly CollectionRecord[]
}

/** A page of a collection's member ids (in the order they were added) and how many it has. */
export interface CollectionMembers {
  readonly total: number
  readonly ids: readonly string[]
}

/** `YYYY-MM-DDTHH:MM:SS` in UTC: the timestamp form of the collection resource. */
export const collectionTimestamp = (date: Date): string => date.toISOString().slice(0, 19)

/**
 * The key display names are unique by, per user: case and compatibility forms folded (`Ｍy` is `my`).
 * Stores compare this, never the name itself, so every store agrees on what a duplicate is.
 */
export const displayNameKey = (displayName: string): string => displayName.normalize('NFKC').toLowerCase()

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** The id form the collections API issues: `col_` and 10 letters or digits. */
export const ISSUED_COLLECTION_ID = /^col_[A-Za-z0-9]{10}$/

/** A new random collection id (Web Crypto, present in Node and browsers alike). */
export const newCollectionId = (): string => {
  // 62 does not divide 256: bytes past the last multiple of 62 are drawn again, so no letter is favoured.
  const chars: string[] = []
  const bytes = new Uint8Array(32)
  while (chars.length < 10) {
    globalThis.crypto.getRandomValues(bytes)
    for (const byte of bytes) if (byte < 248 && chars.length < 10) chars.push(ID_ALPHABET[byte % 62]!)
  }
  return `col_${chars.join('')}`
}
