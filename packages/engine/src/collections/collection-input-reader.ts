import { readCollectionEntityId } from './collection-entity-id.ts'
import { CollectionError } from './collection-error.ts'
import {
  COLLECTION_ENTITY_TYPES,
  COLLECTION_LIMITS,
  type CollectionEntityType,
  isCollectionEntityType,
} from './collection-record.ts'
import type { ProfanityFilter } from './profanity-filter.ts'

// Reading what a client sends to the collections API, the same for every store: each reader returns
// the value in the form stores keep, or throws the `CollectionError` of the first problem it finds.

/** A collection to create, read and checked. */
export interface CollectionInput {
  readonly displayName: string
  readonly entityType: CollectionEntityType
  readonly description: string
  /** Normalised, without repeats, in the order given. */
  readonly entityIds: readonly string[]
}

/** What a PATCH changes: only the fields it names. */
export interface CollectionChanges {
  readonly displayName?: string
  readonly description?: string
  readonly entityType?: CollectionEntityType
}

// C0 and C1 controls, the line and paragraph separators, and the bidirectional overrides that make
// text display other than it reads.
const CONTROL = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u
const SCHEME = /[a-z][a-z0-9+.-]*:\/\//i
const WWW = /(?:^|[^\p{L}\p{N}])www\./iu
// A host name with a path after it (`example.org/x`) or with one of the top-level domains links mostly use.
const HOST_WITH_PATH = /(?:^|[^\p{L}\p{N}@-])(?:[a-z0-9-]+\.)+[a-z]{2,24}\/\S/iu
const COMMON_DOMAIN =
  /(?:^|[^\p{L}\p{N}@.-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|org|net|edu|gov|int|io|info|biz|co|me|ly|xyz|app|dev|site|online|ru|cn|uk|de)(?![\p{L}\p{N}-])/iu

/** Whether a text looks like a link: a scheme, `www.`, a host with a path, or a common domain name. */
export const looksLikeUrl = (text: string): boolean =>
  SCHEME.test(text) || WWW.test(text) || HOST_WITH_PATH.test(text) || COMMON_DOMAIN.test(text)

const characters = (text: string): number => [...text].length

const quoted = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  return text.length > 60 ? `${JSON.stringify(text.slice(0, 57))}…` : JSON.stringify(text)
}

export const readEntityType = (value: unknown): CollectionEntityType => {
  if (isCollectionEntityType(value)) return value
  throw new CollectionError(
    'entity_type_invalid',
    `${value === undefined ? 'entity_type is missing' : `entity_type ${quoted(value)} is not a collection type`}. Give one of: ${COLLECTION_ENTITY_TYPES.join(', ')}.`,
    'entity_type',
  )
}

export const readDisplayName = (value: unknown, profanity: ProfanityFilter): string => {
  const invalid = (why: string) =>
    new CollectionError('display_name_invalid', `display_name ${why}.`, 'display_name')
  if (typeof value !== 'string')
    throw invalid(
      value === undefined ? 'is missing: name the collection' : `must be a string (was ${quoted(value)})`,
    )
  const name = value.trim()
  if (name === '') throw invalid('is empty: give 1 to 30 characters')
  const length = characters(name)
  if (length > COLLECTION_LIMITS.displayNameLength)
    throw new CollectionError(
      'display_name_too_long',
      `display_name has ${length} characters; at most ${COLLECTION_LIMITS.displayNameLength} are allowed.`,
      'display_name',
    )
  if (CONTROL.test(name)) throw invalid('has control characters (tabs, line breaks, …); write it on one line')
  if (looksLikeUrl(name)) throw invalid(`looks like a URL (${quoted(name)}); name the collection in words`)
  if (profanity.isProfane(name)) throw invalid('is not allowed: it contains a profane word')
  return name
}

export const readDescription = (value: unknown): string => {
  const invalid = (why: string) =>
    new CollectionError('description_invalid', `description ${why}.`, 'description')
  if (typeof value !== 'string') throw invalid(`must be a string (was ${quoted(value)})`)
  const description = value.trim()
  const length = characters(description)
  if (length > COLLECTION_LIMITS.descriptionLength)
    throw invalid(`has ${length} characters; at most ${COLLECTION_LIMITS.descriptionLength} are allowed`)
  if (CONTROL.test(description)) throw invalid('has control characters (tabs, line breaks, …)')
  if (looksLikeUrl(description))
    throw invalid('looks like it holds a URL; describe the collection without links')
  return description
}

/**
 * Entity ids for a collection of `entityType`: each read in any accepted form and normalised, repeats
 * dropped. The first id that has no known shape, or is of another type, fails the whole list.
 */
export const readEntityIds = (value: unknown, entityType: CollectionEntityType): string[] => {
  if (!Array.isArray(value))
    throw new CollectionError(
      'entity_id_invalid',
      `entity_ids must be an array of entity ids, such as ["W2741809807", "https://openalex.org/W1775749144"] (was ${quoted(value)}).`,
      'entity_ids',
    )
  // A list far past the limit is refused before each id is read.
  if (value.length > COLLECTION_LIMITS.entitiesPerCollection * 10) throw fullError(value.length)
  const ids = new Set<string>()
  for (const item of value) {
    const read = typeof item === 'string' ? readCollectionEntityId(item) : undefined
    if (read === undefined)
      throw new CollectionError(
        'entity_id_invalid',
        `${quoted(item)} is not an entity id. Give a full id URL (https://openalex.org/W2741809807) or a short id (W2741809807; K123 or keywords/machine-learning; sdgs/3).`,
        'entity_ids',
      )
    if (read.entityType !== entityType)
      throw new CollectionError(
        'entity_id_wrong_type',
        `${quoted(item)} is a ${read.entityType} id, but the collection holds ${entityType}; nothing was changed. Remove it from the list, or use a collection of ${read.entityType}.`,
        'entity_ids',
      )
    ids.add(read.id)
  }
  return [...ids]
}

const fullError = (count: number): CollectionError =>
  new CollectionError(
    'collection_full',
    `A collection holds at most ${COLLECTION_LIMITS.entitiesPerCollection} entities; this request would give it ${count}. Split the entities over several collections.`,
    'entity_ids',
  )

/** The error of an addition that would take a collection to `count` members. */
export const collectionFullError = fullError

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The fields of a body, refusing anything but a JSON object of `allowed` keys. */
const fieldsOf = (body: unknown, allowed: readonly string[], example: string): Record<string, unknown> => {
  if (!isPlainObject(body))
    throw new CollectionError('invalid_body', `The body must be a JSON object, such as ${example}.`)
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
  if (unknown.length > 0)
    throw new CollectionError(
      'invalid_body',
      `The body has ${unknown.length === 1 ? 'a field' : 'fields'} this endpoint does not take: ${unknown.map((key) => quoted(key)).join(', ')}. Fields: ${allowed.join(', ')}.`,
    )
  return body
}

const CREATE_FIELDS = ['display_name', 'entity_type', 'description', 'entity_ids']
const PATCH_FIELDS = ['display_name', 'description', 'entity_type']

/** The body of `POST /me/collections`. */
export const readCollectionInput = (body: unknown, profanity: ProfanityFilter): CollectionInput => {
  const fields = fieldsOf(body, CREATE_FIELDS, 'one with display_name "My papers" and entity_type "works"')
  const entityType = readEntityType(fields.entity_type)
  const displayName = readDisplayName(fields.display_name, profanity)
  const description = fields.description === undefined ? '' : readDescription(fields.description)
  const entityIds = fields.entity_ids === undefined ? [] : readEntityIds(fields.entity_ids, entityType)
  if (entityIds.length > COLLECTION_LIMITS.entitiesPerCollection) throw fullError(entityIds.length)
  return { displayName, entityType, description, entityIds }
}

/** The body of `PATCH /me/collections/{id}`: at least one of the fields it takes. */
export const readCollectionChanges = (body: unknown, profanity: ProfanityFilter): CollectionChanges => {
  const fields = fieldsOf(body, PATCH_FIELDS, 'one with display_name "New name"')
  if (!PATCH_FIELDS.some((field) => fields[field] !== undefined))
    throw new CollectionError(
      'invalid_body',
      `The body changes nothing: give at least one of ${PATCH_FIELDS.join(', ')}.`,
    )
  return {
    ...(fields.display_name === undefined
      ? {}
      : { displayName: readDisplayName(fields.display_name, profanity) }),
    ...(fields.description === undefined ? {} : { description: readDescription(fields.description) }),
    ...(fields.entity_type === undefined ? {} : { entityType: readEntityType(fields.entity_type) }),
  }
}

/** The `{entity_ids: [...]}` body of the bulk add and remove endpoints. */
export const readEntityIdsBody = (body: unknown, entityType: CollectionEntityType): string[] => {
  const fields = fieldsOf(body, ['entity_ids'], 'one with entity_ids, a list such as ["W2741809807"]')
  if (fields.entity_ids === undefined)
    throw new CollectionError(
      'entity_id_invalid',
      'entity_ids is missing: give entity_ids, a list of ids such as ["W2741809807", …].',
      'entity_ids',
    )
  return readEntityIds(fields.entity_ids, entityType)
}
