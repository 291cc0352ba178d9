/**
 * The codes of the collections API and of collection filters, with what each means. The first nine are
 * the validation codes of the API description; the rest say who may not do what, or what a filter got wrong.
 */
export const COLLECTION_ERROR_CODES = {
  entity_type_invalid:
    'entity_type is missing or not one of the 10 collection types, or it was changed on a collection that has members.',
  display_name_invalid:
    'display_name is missing, empty after trimming, has control characters, looks like a URL or is profane.',
  display_name_too_long: 'display_name is over 30 characters.',
  display_name_duplicate: 'The user already has a collection of that name (case-insensitive).',
  description_invalid:
    'description is not a string, is over 500 characters, has control characters or looks like a URL.',
  entity_id_invalid: 'An entity id matches no known id shape (or entity_ids is not an array of strings).',
  entity_id_wrong_type: "An entity id's type differs from the collection's entity_type.",
  collection_full: 'The addition would take the collection past 1,000 entities.',
  too_many_collections: 'The user already owns 100 collections.',
  invalid_body: 'The body is not a JSON object of the fields this endpoint takes, or it is too large.',
  authentication_required:
    'The endpoint or a collection filter needs an API key, and none (or an unknown one) was given.',
  forbidden: "The collection is another user's, or the endpoint is for admins.",
  collection_not_found: 'No collection has this id.',
  collection_filter_type_mismatch:
    "A collection's entity type does not fit the endpoint (collection:) or the field it filters.",
  collection_filter_repeated: 'More than one collection: filter in one request.',
  collection_filter_or: 'Collections ORed together; combine them client-side with their ids.',
  collection_filter_mixed: 'A collection and literal ids on one field, in one clause.',
  collection_filter_same_field: 'Two collections on one filter field.',
  collection_filter_search: 'A collection id given to a text search, which takes text, not ids.',
  too_many_collection_ids: 'The collection filters of the request resolve to more than 10,000 ids.',
} as const

export type CollectionErrorCode = keyof typeof COLLECTION_ERROR_CODES

/** What kind of refusal a code is, which the HTTP layer turns into 400, 401, 403 or 404. */
export type CollectionErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found'

const KINDS: Partial<Record<CollectionErrorCode, CollectionErrorKind>> = {
  authentication_required: 'unauthenticated',
  forbidden: 'forbidden',
  collection_not_found: 'not_found',
}

export const collectionErrorKindOf = (code: CollectionErrorCode): CollectionErrorKind =>
  KINDS[code] ?? 'invalid'

/**
 * A request the collections API or a collection filter refuses: a stable code and a message that says
 * what was wrong and what to do instead. Stores throw it too (for the limits they enforce atomically).
 */
export class CollectionError extends Error {
  override readonly name = 'CollectionError'
  readonly code: CollectionErrorCode
  /** The request field at fault (`display_name`, `entity_ids`, `filter`), when there is one. */
  readonly field: string | undefined

  constructor(code: CollectionErrorCode, message: string, field?: string) {
    super(message)
    this.code = code
    this.field = field
  }

  get kind(): CollectionErrorKind {
    return collectionErrorKindOf(this.code)
  }
}

/** True for a `CollectionError`, also from another copy of this package (checks the name). */
export const isCollectionError = (error: unknown): error is CollectionError =>
  error instanceof Error &&
  error.name === 'CollectionError' &&
  typeof (error as CollectionError).code === 'string' &&
  (error as CollectionError).code in COLLECTION_ERROR_CODES

/**
 * The message of a refused collection lookup: nothing about the collection but its id. Where to look for
 * one's collections is the HTTP layer's to add (`collection-api-error.ts`): the engine knows no routes.
 */
export const writeCollectionNotFoundMessage = (id: string): string => `No collection has the id '${id}'.`

export const writeForbiddenCollectionMessage = (id: string): string =>
  `The collection '${id}' belongs to another user; only its owner (or an admin) can use it.`
