import {
  costClassOfPlan,
  costUsdOf,
  executeQuery,
  type PlanOptions,
  planQuery,
  type StorageAdapter,
} from '@oqlkit/engine'
import type { H3Event } from 'h3'
import type { PlanResolver } from '../collections/collection-filter-hook.ts'
import { versionFact } from '../envelope/data-version.ts'
import { listEnvelope } from '../envelope/list-envelope.ts'
import { xQueryOf } from '../envelope/x-query.ts'
import { planProblemsOf } from '../errors/plan-problems.ts'
import { queryError, queryProblem } from '../errors/query-error.ts'
import { readExecuteGet, readExecutePost } from '../request/query-execute-reader.ts'
import { readQueryInput } from '../request/query-input-reader.ts'
import { rawQueryOf } from '../request/query-parameters.ts'
import { viewByPrecedence } from '../request/view-precedence.ts'

/**
 * The OQL execute endpoint: `GET /?oql=…`, `GET /?oqo=…` and `POST /` `{oql | oqo, …siblings}`. The
 * query is read into its canonical OQO (as `translate()` reads it), its view taken by precedence (body,
 * query string, then embedded in the OQO), then planned and run exactly as the classic list of the same
 * query is: the same envelope, the same entities, the same cost, its collection filters resolved for
 * the caller by the same `resolvePlan`. Every refusal is a 400 with `validation` (and the `oqo` once the
 * query was read); a query never fails into an empty result.
 */
export const queryExecuteHandler =
  (adapter: StorageAdapter, resolvePlan?: PlanResolver, planOptions: PlanOptions = {}) =>
  async (event: H3Event): Promise<unknown> => {
    const search = rawQueryOf(event.req.url)
    const reading =
      event.req.method === 'POST' ? await readExecutePost(event.req, search) : readExecuteGet(search)
    if (!reading.ok) throw queryError(reading.errors, { status: reading.status })
    const query = readQueryInput(reading.request.input)
    if (!query.ok) throw queryError(query.errors, { warnings: query.warnings, oqo: query.oqo })
    const { view, urlView } = viewByPrecedence(reading.request.siblings, query.embedded)
    const planning = planQuery(query.oqo, view, planOptions)
    if (!planning.ok)
      throw queryError(
        planProblemsOf(planning.errors, undefined, urlView).map((problem) =>
          queryProblem('bad_request', problem.error, problem.message, problem.parameter),
        ),
        { warnings: query.warnings, oqo: query.oqo },
      )
    // Collection filters become their members' ids here, for this request's caller (as on the lists).
    const planned = resolvePlan === undefined ? planning : await resolvePlan(event, planning)
    const started = performance.now()
    const response = await executeQuery(adapter, planned)
    return listEnvelope(response, {
      dbResponseTimeMs: Math.round(performance.now() - started),
      ...versionFact(event),
      costUsd: costUsdOf(costClassOfPlan(planned.plan)),
      xQuery: xQueryOf(query.oqo, urlView),
    })
  }
