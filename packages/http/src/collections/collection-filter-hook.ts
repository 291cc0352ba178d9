import {
  CollectionError,
  type CollectionService,
  hasCollectionFilters,
  type PlannedQuery,
  refuseCollectionSearches,
  resolveCollectionFilters,
} from '@oqlkit/engine'
import type { H3Event } from 'h3'
import type { CallerResolver } from './caller.ts'

/**
 * What a main-API handler runs between planning and executing: a plan with its collection filters
 * replaced by the collections' member ids, for the request's caller. Plans without collections pass
 * through untouched (and need no key).
 */
export type PlanResolver = (event: H3Event, planned: PlannedQuery) => Promise<PlannedQuery>

/**
 * Resolves collection filters for the caller of each request: 401 without a key, 403 for another user's
 * collection (admins excepted), 404 for an unknown one, 400 for a misuse (see `resolveCollectionFilters`).
 * A collection id given to a text search is a 400 even in a plan without collection filters.
 */
export const collectionFilterResolver =
  (service: CollectionService, callers: CallerResolver): PlanResolver =>
  async (event, planned) => {
    if (!hasCollectionFilters(planned.plan)) {
      refuseCollectionSearches(planned.plan)
      return planned
    }
    const caller = await callers(event)
    if (caller === null)
      throw new CollectionError(
        'authentication_required',
        'Filtering by a collection needs your API key: send Authorization: Bearer <key> (or api_key=<key>).',
      )
    const plan = await resolveCollectionFilters(planned.plan, (id) => service.resolveForFilter(caller, id))
    return { ...planned, plan }
  }
