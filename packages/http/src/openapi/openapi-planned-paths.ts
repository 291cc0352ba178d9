import {
  jsonBody,
  jsonOf,
  type OpenApiObject,
  PLANNED,
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

const collectionErrors = {
  400: jsonOf(
    'Invalid collection operation: `entity_type_invalid`, `display_name_invalid`, `display_name_too_long`, `display_name_duplicate`, `description_invalid`, `entity_id_invalid`, `entity_id_wrong_type`, `collection_full`, `too_many_collections`.',
    'Error',
  ),
  401: jsonOf('No API key.', 'Error'),
  403: jsonOf('The collection belongs to another user.', 'Error'),
  404: response('NotFound'),
  default: response('ServerError'),
}

const adminErrors = {
  401: jsonOf('No API key.', 'Error'),
  403: jsonOf('The caller is not an admin.', 'Error'),
  404: response('NotFound'),
  default: response('ServerError'),
}

const text = (path: string, summary: string, deprecated = false): OpenApiObject => {
  const operation = (method: 'get' | 'post'): OpenApiObject => ({
    ...PLANNED,
    operationId: `${method === 'get' ? 'get' : 'post'}${path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => `${segment[0]!.toUpperCase()}${segment.slice(1)}`)
      .join('')}`,
    tags: ['Text'],
    summary,
    ...(deprecated ? { deprecated: true } : {}),
    description:
      'Tags free text (a title and an optional abstract, 20-2000 characters together) with keywords and concepts. $0.01 per request; 1 request per second.',
    ...(method === 'get'
      ? {
          parameters: [
            query('title', 'The title (required).'),
            query('abstract', 'The abstract.'),
            parameter('api_key'),
          ],
        }
      : { parameters: [parameter('api_key')], requestBody: jsonBody('The text to tag.', 'TextRequest') }),
    responses: {
      200: jsonOf('The tags.', 'TextTagging'),
      400: response('BadRequest'),
      429: jsonOf('More than one request per second, or the daily budget is spent.', 'Error'),
      default: response('ServerError'),
    },
  })
  return { get: operation('get'), post: operation('post') }
}

/**
 * The paths the API description names that this server does not serve yet, each operation marked
 * `x-oqlkit-status: planned`. Collection management lives on the user API ({user_url}); its paths do
 * not collide with the main API's, so one listener can serve both.
 */
export const plannedPaths = (): Record<string, OpenApiObject> => ({
  '/rate-limit': {
    get: {
      ...PLANNED,
      operationId: 'getRateLimit',
      tags: ['Metering'],
      summary: 'The caller’s daily budget, what is used and what each operation costs',
      parameters: [parameter('api_key')],
      responses: {
        200: jsonOf('The rate-limit report.', 'RateLimitReport'),
        default: response('ServerError'),
      },
    },
  },
  '/text': text('/text', 'Tag text with keywords and concepts'),
  '/text/keywords': text('/text/keywords', 'Tag text with keywords'),
  '/text/concepts': text('/text/concepts', 'Tag text with concepts'),
  '/text/topics': text('/text/topics', 'Tag text with topics (deprecated: use /text/keywords)', true),
  '/me/collections': {
    get: {
      ...PLANNED,
      operationId: 'listMyCollections',
      tags: ['Collections'],
      summary: 'The caller’s collections',
      security: BEARER,
      parameters: [
        parameter('page'),
        query('per_page', 'At most 100.', { type: 'integer', minimum: 1, maximum: 100 }),
        query('entity_id', 'Only the collections holding this entity.'),
      ],
      responses: { 200: jsonOf('A page of collections.', 'CollectionPage'), ...collectionErrors },
    },
    post: {
      ...PLANNED,
      operationId: 'createCollection',
      tags: ['Collections'],
      summary: 'Create a collection (up to 100 per user, 1,000 entities each)',
      security: BEARER,
      requestBody: jsonBody('The new collection.', 'CollectionCreate'),
      responses: { 201: jsonOf('The collection.', 'Collection'), ...collectionErrors },
    },
  },
  '/me/collections/{collection_id}': {
    patch: {
      ...PLANNED,
      operationId: 'updateCollection',
      tags: ['Collections'],
      summary: 'Rename, describe or retype (while empty) a collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The fields to change.', 'CollectionPatch'),
      responses: { 200: jsonOf('The collection.', 'Collection'), ...collectionErrors },
    },
    delete: {
      ...PLANNED,
      operationId: 'deleteCollection',
      tags: ['Collections'],
      summary: 'Delete a collection and its members',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('What was deleted.', 'DeleteResult'), ...collectionErrors },
    },
  },
  '/me/collections/{collection_id}/entities': {
    post: {
      ...PLANNED,
      operationId: 'addCollectionEntities',
      tags: ['Collections'],
      summary: 'Add entities to a collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The ids to add.', 'EntityIds'),
      responses: { 200: jsonOf('What was added.', 'BulkAddResult'), ...collectionErrors },
    },
    delete: {
      ...PLANNED,
      operationId: 'removeCollectionEntities',
      tags: ['Collections'],
      summary: 'Remove entities from a collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The ids to remove.', 'EntityIds'),
      responses: { 200: { description: 'Removed (the body is not specified yet).' }, ...collectionErrors },
    },
  },
  '/me/collections/{collection_id}/entities/{entity_id}': {
    delete: {
      ...PLANNED,
      operationId: 'removeCollectionEntity',
      tags: ['Collections'],
      summary: 'Remove one entity from a collection',
      security: BEARER,
      parameters: [COLLECTION_ID, pathParameter('entity_id', 'A short id or an id URL.')],
      responses: { 200: { description: 'Removed (the body is not specified yet).' }, ...collectionErrors },
    },
  },
  '/collections/{collection_id}': {
    get: {
      ...PLANNED,
      operationId: 'getCollection',
      tags: ['Collections'],
      summary: 'One collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('The collection.', 'Collection'), ...collectionErrors },
    },
  },
  '/collections/{collection_id}/entities': {
    get: {
      ...PLANNED,
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
        ...collectionErrors,
      },
    },
  },
  '/admin/collections': {
    get: {
      ...PLANNED,
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
      responses: { 200: jsonOf('A page of collections.', 'CollectionPage'), ...adminErrors },
    },
  },
  '/admin/collections/{collection_id}': {
    get: {
      ...PLANNED,
      operationId: 'adminGetCollection',
      tags: ['Collections admin'],
      summary: 'Read any collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: jsonOf('The collection.', 'Collection'), ...adminErrors },
    },
    patch: {
      ...PLANNED,
      operationId: 'adminUpdateCollection',
      tags: ['Collections admin'],
      summary: 'Change any collection',
      security: BEARER,
      parameters: [COLLECTION_ID],
      requestBody: jsonBody('The fields to change.', 'CollectionPatch'),
      responses: { 200: { description: 'Changed (the body is not specified yet).' }, ...adminErrors },
    },
    delete: {
      ...PLANNED,
      operationId: 'adminDeleteCollection',
      tags: ['Collections admin'],
      summary: 'Hard-delete any collection and its members',
      security: BEARER,
      parameters: [COLLECTION_ID],
      responses: { 200: { description: 'Deleted (the body is not specified yet).' }, ...adminErrors },
    },
  },
})
