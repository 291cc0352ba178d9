import {
  costClassOfPlan,
  costUsdOf,
  executeQuery,
  type PlanOptions,
  type StorageAdapter,
} from '@oqlkit/engine'
import type { H3Event } from 'h3'
import type { PlanResolver } from '../collections/collection-filter-hook.ts'
import { versionFact } from '../envelope/data-version.ts'
import { listEnvelope } from '../envelope/list-envelope.ts'
import { xQueryOf } from '../envelope/x-query.ts'
import { ApiError } from '../errors/api-error.ts'
import { planProblemsOf } from '../errors/plan-problems.ts'
import { ENTITY_PATH_LIST, entityOfPath } from '../request/entity-paths.ts'
import { readListOnce } from '../request/list-reading.ts'

/** A 404 for a path segment that names no entity type. */
export const unknownEntityError = (segment: string): ApiError =>
  ApiError.of(
    404,
    'not_found',
    `'/${segment}' is not an entity type of this API. Entity paths: ${ENTITY_PATH_LIST}.`,
  )

/**
 * `GET /{entities}`: the classic request read into an OQO and view (one path shared with the OQL
 * endpoints), planned, run on the adapter and shaped into the list envelope.
 */
export const entityListHandler =
  (adapter: StorageAdapter, resolvePlan?: PlanResolver, planOptions: PlanOptions = {}) =>
  async (event: H3Event): Promise<unknown> => {
    const segment = event.context.params?.entity ?? ''
    const entity = entityOfPath(segment)
    if (entity === undefined) throw unknownEntityError(segment)
    // Read and planned once: by the metering middleware when it priced the request, else here.
    const { reading, planning } = readListOnce(event.context, entity, event.req.url, planOptions)
    if (!reading.ok) throw new ApiError(400, reading.problems)
    const { request } = reading
    if (planning === undefined || !planning.ok)
      throw new ApiError(400, planProblemsOf(planning?.errors ?? [], undefined, request.urlView))
    // Collection filters become their members' ids here, for this request's caller.
    const planned = resolvePlan === undefined ? planning : await resolvePlan(event, planning)
    const started = performance.now()
    const response = await executeQuery(
      adapter,
      planned,
      request.groupFilter === undefined ? {} : { groupFilter: request.groupFilter },
    )
    return listEnvelope(response, {
      dbResponseTimeMs: Math.round(performance.now() - started),
      ...versionFact(event),
      costUsd: costUsdOf(costClassOfPlan(planned.plan)),
      xQuery: xQueryOf(request.oqo, request.urlView),
      ...(request.groupFilter === undefined ? {} : { groupFilter: request.groupFilter }),
    })
  }
