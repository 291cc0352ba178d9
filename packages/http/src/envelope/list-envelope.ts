import type { QueryResponse } from '@oqlkit/engine'
import { jsonTextResponse } from '../errors/error-response.ts'
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
 * `next_cursor` is there only under cursor paging. When the results are stored records unchanged, the
 * envelope is a response with their stored text spliced in, rather than an object to serialise.
 */
export const listEnvelope = (
  response: QueryResponse,
  facts: EnvelopeFacts,
): Record<string, unknown> | Response => {
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
  if (response.kind === 'groups') return { meta, group_by: response.groups }
  // Stored records go out as the text they are stored as, spliced into the envelope.
  if (response.resultsJson !== undefined)
    return jsonTextResponse(
      `{"meta":${JSON.stringify(meta)},"results":[${response.resultsJson.join(',')}],"group_by":[]}`,
    )
  return { meta, results: response.results, group_by: [] }
}
