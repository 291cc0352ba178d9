// The page checks a run the way the server will, before sending it: the OQL with the library's own
// validation, then the view (select, paging) with the engine's planner, the same code the server plans
// with. A query the server would refuse is answered at once, in the server's words, without a request (and
// so without the 400 a browser reports on its console for every refused fetch).
import { planQuery } from '@oqlkit/engine'
import { translate } from '@oqlkit/oql'
import { normalizeSelect } from './playground-link-state.ts'
import type { RunRequest } from './query-runner.ts'

/** Why the server would refuse this run, or undefined when it would take it. */
export const preflightProblem = (request: RunRequest): string | undefined => {
  const translation = translate({ oql: request.oql })
  if (!translation.validation.valid || translation.oqo === null)
    return translation.validation.errors[0]?.message ?? 'The query is not valid OQL.'
  const select = normalizeSelect(request.select ?? '')
  const planned = planQuery(translation.oqo, {
    ...(select === '' ? {} : { select: select.split(',') }),
    ...(request.page === undefined ? {} : { page: request.page }),
    ...(request.perPage === undefined ? {} : { perPage: request.perPage }),
  })
  return planned.ok ? undefined : planned.errors[0]?.message
}
