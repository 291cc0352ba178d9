import {
  jsonBody,
  jsonOf,
  type OpenApiObject,
  parameter,
  pathParameter,
  query,
  response,
} from './openapi-parts.ts'

const BEARER = [{ bearer: [] }]

const COLLECTION_ID = pathParameter('collection_id', 'The collection id (`col_` and 10 letters or digits).', {
  type: 'string',
  pattern: '^col_[A-Za-z0-9]{10}$',
})

const ERRORS: Readonly<Record<400 | 401 | 403 | 404, OpenApiObject>> = {
  400: jsonOf(
    'Invalid collection operation: `entity_type_invalid`, `display_name_invalid`, `display_name_too_long`, `display_name_duplicate`, `description_invalid`, `entity_id_invalid`, `entity_id_wrong_type`, `collection_full`, `too_many_collections`, or a malformed body or parameter.',
    'Error',
  ),
  401: jsonOf('No API key, or one the server does not know.', 'Error'),
  403: jsonOf('The collection belongs to another user (or the path is for admins).', 'Error'),
  404: jsonOf('No such collection.', 'Error'),
}

/** The error answers an operation can give, and no others. */
const errors = (...statuses: readonly (keyof typeof ERRORS)[]): OpenApiObject => ({
  ...Object.fromEntries(statuses.map((status) => [status, ERRORS[status]])),
  default: response('ServerError'),
})

/**
 * The collection-management API: served when the server has a collection store (`oqlkit serve
 * --collections-dir`), beside the main API (the paths do not collide) or on a port of its own
 * (`--collections-port`). Every call needs a key.
 */
export const collectionPaths = (): Record<string, OpenApiObject> => ({
  '/me/collections': {
    get: {
      operationId: 'listMyCollections',
      tags: ['Collections'],
      summary: 'The caller’s collections',
      security: BEARER,
      parameters: [
        parameter('page'),
        query('per_page', 'At most 100.', { type: 'integer', minimum: 1, maximum: 100 }),
        query('entity_id', 'Only the collections holding this entity.'),
      ],
      responses: { 200: jsonOf('A page of collections.', 'CollectionPage'), ...errors(400, 401) },
    },
    post: {
      operationId: 'createCollection',
      tags: ['Collections'],
      summary: 'Create a collection (up to 100 per user, 1,000 entities each)',
      security: BEARER,
      requestBody: jsonBody('The new collection.', 'CollectionCreate'),
      responses: { 201: jsonOf('The collection.', 'Collection'), ...errors(400, 401) },
    },
  },
  '/me/collections/{collection_id}': {
    patch: {
      operationId: 'updateCollection',
      tags: ['Collections'],
      summary: 'Rename, describe or retype (while empty) a collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The fields to change.', 'CollectionPatch'),
      responses: { 200: jsonOf('The collection.', 'Collection'), ...errors(400, 401, 403, 404) },
    },
    delete: {
      operationId: 'deleteCollection',
      tags: ['Collections'],
      summary: 'Delete a collection and its members',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('What was deleted.', 'DeleteResult'), ...errors(401, 403, 404) },
    },
  },
  '/me/collections/{collection_id}/entities': {
    post: {
      operationId: 'addCollectionEntities',
      tags: ['Collections'],
      summary: 'Add entities to a collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The ids to add.', 'EntityIds'),
      responses: { 200: jsonOf('What was added.', 'BulkAddResult'), ...errors(400, 401, 403, 404) },
    },
    delete: {
      operationId: 'removeCollectionEntities',
      tags: ['Collections'],
      summary: 'Remove entities from a collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The ids to remove.', 'EntityIds'),
      responses: { 200: jsonOf('What was removed.', 'RemoveResult'), ...errors(400, 401, 403, 404) },
    },
  },
  '/me/collections/{collection_id}/entities/{entity_id}': {
    delete: {
      operationId: 'removeCollectionEntity',
      tags: ['Collections'],
      summary: 'Remove one entity from a collection',
      security: BEARER,
      parameters: [COLLECTION_ID, pathParameter('entity_id', 'A short id or an id URL.')],
      responses: { 200: jsonOf('What was removed.', 'RemoveResult'), ...errors(400, 401, 403, 404) },
    },
  },
  '/collections/{collection_id}': {
    get: {
      operationId: 'getCollection',
      tags: ['Collections'],
      summary: 'One collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('The collection.', 'Collection'), ...errors(401, 403, 404) },
    },
  },
  '/collections/{collection_id}/entities': {
    get: {
      operationId: 'getCollectionEntities',
      tags: ['Collections'],
      summary: 'A page of a collection’s entity ids',
      security: BEARER,
      parameters: [
        COLLECTION_ID,
        parameter('page'),
        query('per_page', 'At most 200.', { type: 'integer', minimum: 1, maximum: 200 }),
      ],
      responses: {
        200: jsonOf('The collection and a page of its ids.', 'CollectionEntitiesPage'),
        ...errors(400, 401, 403, 404),
      },
    },
  },
  '/admin/collections': {
    get: {
      operationId: 'searchCollections',
      tags: ['Collections admin'],
      summary: 'Search the collections of every user (admins only)',
      security: BEARER,
      parameters: [
        query('q', 'Text in the name or description.'),
        query('owner_id', 'The owner.'),
        query('entity_type', 'The entity type.'),
        parameter('page'),
        query('per_page', 'At most 100.', { type: 'integer', minimum: 1, maximum: 100 }),
      ],
      responses: { 200: jsonOf('A page of collections.', 'CollectionPage'), ...errors(400, 401, 403) },
    },
  },
  '/admin/collections/{collection_id}': {
    get: {
      operationId: 'adminGetCollection',
      tags: ['Collections admin'],
      summary: 'Read any collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('The collection.', 'Collection'), ...errors(401, 403, 404) },
    },
    patch: {
      operationId: 'adminUpdateCollection',
      tags: ['Collections admin'],
      summary: 'Change any collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The fields to change.', 'CollectionPatch'),
      responses: { 200: jsonOf('The collection.', 'Collection'), ...errors(400, 401, 403, 404) },
    },
    delete: {
      operationId: 'adminDeleteCollection',
      tags: ['Collections admin'],
      summary: 'Hard-delete any collection and its members',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('What was deleted.', 'DeleteResult'), ...errors(401, 403, 404) },
    },
  },
})
