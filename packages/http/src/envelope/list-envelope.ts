import type { QueryResponse } from '@oqlkit/engine'
import type { XQuery } from './x-query.ts'

export interface EnvelopeFacts {
  /** Milliseconds the storage took. */
  readonly dbResponseTimeMs: number
  /** What the call costs, from the engine's one price table. */
  readonly costUsd: number
  readonly xQuery: XQuery
  /** The `q` of a group_by, echoed in `meta.q`. */
  readonly groupFilter?: string
}

/**
 * The list envelope: `meta` (count, timing, paging, groups, cursor, cost, the query's three forms) and
 * `results` for rows (with an empty `group_by`, as the public API writes it) or `group_by` for buckets.
 * `next_cursor` is there only under cursor paging.
 */
export const listEnvelope = (response: QueryResponse, facts: EnvelopeFacts): Record<string, unknown> => {
  const meta = {
    count: response.count,
    db_response_time_ms: facts.dbResponseTimeMs,
    page: response.page,
    per_page: response.perPage,
    groups_count: response.kind === 'groups' ? response.groupsCount : null,
    ...(response.nextCursor === undefined ? {} : { next_cursor: response.nextCursor }),
    ...(facts.groupFilter === undefined ? {} : { q: facts.groupFilter }),
    cost_usd: facts.costUsd,
    x_query: facts.xQuery,
  }
  return response.kind === 'rows'
    ? { meta, results: response.results, group_by: [] }
    : { meta, group_by: response.groups }
}
