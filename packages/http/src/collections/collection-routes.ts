import {
  COLLECTION_LIMITS,
  type CollectionCaller,
  CollectionError,
  type CollectionRecord,
  CollectionService,
  type CollectionStore,
  DEFAULT_ID_BASE,
  type ProfanityFilter,
} from '@oqlkit/engine'
import type { H3, H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { jsonResponse } from '../errors/error-response.ts'
import { rawPathOf } from '../request/query-parameters.ts'
import type { CallerResolver } from './caller.ts'
import { collectionFilterResolver, type PlanResolver } from './collection-filter-hook.ts'
import { readCollectionParameters, readPage } from './collection-parameters.ts'
import { collectionEntitiesPage, collectionPage, collectionResource } from './collection-resource.ts'
import { readJsonBody } from './json-body-reader.ts'

export interface CollectionsOptions {
  /** Where collections live: the embedded store, the Redis store, or one in memory. */
  readonly store: CollectionStore
  /** Who calls, from the request's API key. */
  readonly callers: CallerResolver
  /** Default: the English list of the `obscenity` package. */
  readonly profanity?: ProfanityFilter
  /** The prefix of the entity id URLs the API shows (default `https://openalex.org`). */
  readonly idBase?: string
  readonly now?: () => Date
}

/** Default page sizes: collections as the main API pages lists, members a hundred at a time. */
const LIST_PER_PAGE = 25
const ENTITIES_PER_PAGE = 100

const idOf = (event: H3Event): string => event.context.params?.id ?? ''

/** The entity id at the end of `/me/collections/{id}/entities/{entity_id}`: a full URL has slashes. */
const entityIdOf = (event: H3Event): string => {
  const path = rawPathOf(event.req.url)
  const rest = path.slice(path.indexOf('/entities/') + '/entities/'.length)
  try {
    return decodeURIComponent(rest)
  } catch {
    return rest
  }
}

const ROUTES =
  'POST and GET /me/collections; PATCH and DELETE /me/collections/ and a collection id; POST and DELETE /me/collections/ and an id, then /entities; DELETE /me/collections/ and an id, /entities/ and an entity id; GET /collections/ and an id, with or without /entities after it; GET /admin/collections; GET, PATCH and DELETE /admin/collections/ and an id'

const PATHS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/me\/collections\/?$/, 'GET, POST'],
  [/^\/me\/collections\/[^/]+\/?$/, 'PATCH, DELETE'],
  [/^\/me\/collections\/[^/]+\/entities\/?$/, 'POST, DELETE'],
  [/^\/me\/collections\/[^/]+\/entities\/.+$/, 'DELETE'],
  [/^\/collections\/[^/]+(?:\/entities)?\/?$/, 'GET'],
  [/^\/admin\/collections\/?$/, 'GET'],
  [/^\/admin\/collections\/[^/]+\/?$/, 'GET, PATCH, DELETE'],
]

/** Paths of the collections API no route took: 405 naming the methods there are, or 404. */
const collectionsFallback = (event: H3Event): never => {
  const path = event.url.pathname
  const allow = PATHS.find(([pattern]) => pattern.test(path))?.[1]
  if (allow !== undefined)
    throw new ApiError(
      405,
      [
        {
          error: 'method_not_allowed',
          message: `${event.req.method} ${path} is not served; this path answers ${allow}.`,
        },
      ],
      { allow },
    )
  throw ApiError.of(404, 'not_found', `No route matches ${path}. Collection routes: ${ROUTES}.`)
}

/**
 * Adds the collection-management API to an app (its paths do not collide with the main API's) and
 * returns what the main API's handlers use to resolve collection filters with the same store and callers.
 * Every route needs a key (401 without); `/me/…` and `/collections/…` act on the caller's own
 * collections (403 on another user's, except for admins), `/admin/…` on anyone's, for admins only.
 */
export const useCollections = (app: H3, options: CollectionsOptions): PlanResolver => {
  const service = new CollectionService({
    store: options.store,
    ...(options.profanity === undefined ? {} : { profanity: options.profanity }),
    ...(options.now === undefined ? {} : { now: options.now }),
  })
  const idBase = options.idBase ?? DEFAULT_ID_BASE

  const callerOf = async (event: H3Event): Promise<CollectionCaller> => {
    const caller = await options.callers(event)
    if (caller === null)
      throw new CollectionError(
        'authentication_required',
        'The collections API needs your API key: send Authorization: Bearer <key> (or api_key=<key>).',
      )
    return caller
  }
  /** A handler that needs a caller and checks the query parameters (`allowed`) first. */
  const route =
    (
      allowed: readonly string[],
      handle: (
        event: H3Event,
        caller: CollectionCaller,
        parameters: ReadonlyMap<string, string>,
      ) => Promise<unknown>,
    ) =>
    async (event: H3Event): Promise<unknown> => {
      const caller = await callerOf(event)
      return handle(event, caller, readCollectionParameters(event.req.url, allowed))
    }

  /** A collection's PATCH and DELETE at `path`: its owner's under /me, an admin's under /admin. */
  const changeRoutes = (
    path: string,
    update: (caller: CollectionCaller, id: string, body: unknown) => Promise<CollectionRecord>,
    remove: (caller: CollectionCaller, id: string) => Promise<void>,
  ): void => {
    app.patch(
      path,
      route([], async (event, caller) =>
        collectionResource(await update(caller, idOf(event), await readJsonBody(event.req))),
      ),
    )
    app.delete(
      path,
      route([], async (event, caller) => {
        await remove(caller, idOf(event))
        return { deleted_collection_id: idOf(event) }
      }),
    )
  }

  app.post(
    '/me/collections',
    route([], async (event, caller) =>
      jsonResponse(collectionResource(await service.create(caller, await readJsonBody(event.req))), 201),
    ),
  )
  app.get(
    '/me/collections',
    route(['page', 'per_page', 'entity_id'], async (_event, caller, parameters) => {
      const page = readPage(parameters, COLLECTION_LIMITS.listPerPage, LIST_PER_PAGE)
      return collectionPage(
        await service.listOwn(caller, page, parameters.get('entity_id')),
        page.page,
        page.perPage,
      )
    }),
  )
  app.get(
    '/collections/:id',
    route([], async (event, caller) => collectionResource(await service.get(caller, idOf(event)))),
  )
  app.get(
    '/collections/:id/entities',
    route(['page', 'per_page'], async (event, caller, parameters) => {
      const page = readPage(parameters, COLLECTION_LIMITS.entitiesPerPage, ENTITIES_PER_PAGE)
      const { collection, members } = await service.members(caller, idOf(event), page)
      return collectionEntitiesPage(collection, members.ids, page.page, page.perPage, idBase)
    }),
  )
  changeRoutes(
    '/me/collections/:id',
    (caller, id, body) => service.update(caller, id, body),
    (caller, id) => service.delete(caller, id),
  )
  app.post(
    '/me/collections/:id/entities',
    route([], async (event, caller) => {
      const result = await service.addEntities(caller, idOf(event), await readJsonBody(event.req))
      return { added: result.added, already_present: result.alreadyPresent, rejected_wrong_type: 0 }
    }),
  )
  const removed = (result: { removed: number; notPresent: number; collection: { entityCount: number } }) => ({
    removed: result.removed,
    not_present: result.notPresent,
    entity_count: result.collection.entityCount,
  })
  app.delete(
    '/me/collections/:id/entities',
    route([], async (event, caller) =>
      removed(await service.removeEntities(caller, idOf(event), await readJsonBody(event.req))),
    ),
  )
  app.delete(
    '/me/collections/:id/entities/**',
    route([], async (event, caller) =>
      removed(await service.removeEntity(caller, idOf(event), entityIdOf(event))),
    ),
  )
  app.get(
    '/admin/collections',
    route(['q', 'owner_id', 'entity_type', 'page', 'per_page'], async (_event, caller, parameters) => {
      const page = readPage(parameters, COLLECTION_LIMITS.listPerPage, LIST_PER_PAGE)
      const q = parameters.get('q')
      const ownerId = parameters.get('owner_id')
      const entityType = parameters.get('entity_type')
      const list = await service.adminList(caller, {
        ...page,
        ...(q === undefined ? {} : { text: q }),
        ...(ownerId === undefined || ownerId === '' ? {} : { ownerId }),
        ...(entityType === undefined || entityType === '' ? {} : { entityType }),
      })
      return collectionPage(list, page.page, page.perPage)
    }),
  )
  app.get(
    '/admin/collections/:id',
    route([], async (event, caller) => collectionResource(await service.adminGet(caller, idOf(event)))),
  )
  changeRoutes(
    '/admin/collections/:id',
    (caller, id, body) => service.adminUpdate(caller, id, body),
    (caller, id) => service.adminDelete(caller, id),
  )
  for (const prefix of ['/me/**', '/collections/**', '/admin/**']) app.all(prefix, collectionsFallback)
  app.all('/me', collectionsFallback)

  return collectionFilterResolver(service, options.callers)
}
