import type { QueryResponse } from '@oqlkit/engine'
import { jsonBytesResponse } from '../errors/error-response.ts'
import { type DataVersion, dataVersionJson } from './data-version.ts'
import type { XQuery } from './x-query.ts'

export interface EnvelopeFacts {
  /** Milliseconds the storage took. */
  readonly dbResponseTimeMs: number
  /** What the call costs, from the engine's one price table. */
  readonly costUsd: number
  readonly xQuery: XQuery
  /** The `q` of a group_by, echoed in `meta.q`. */
  readonly groupFilter?: string
  /** The data answered from, named in `meta.data_version` (absent when the app was given none). */
  readonly dataVersion?: DataVersion
}

/**
 * The list envelope: `meta` (count, timing, paging, groups, cursor, cost, the query's three forms) and
 * `results` for rows (with an empty `group_by`, as the public API writes it) or `group_by` for buckets.
 * `next_cursor` is there only under cursor paging; the totals asked for (`apc_list_sum_usd`, …) only when
 * asked for. When the results are stored records unchanged, the
 * envelope is a response with their stored bytes spliced in, rather than an object to serialise.
 */
export const listEnvelope = (
  response: QueryResponse,
  facts: EnvelopeFacts,
): Record<string, unknown> | Response => {
  const meta = {
    count: response.count,
    db_response_time_ms: facts.dbResponseTimeMs,
    // The API description types meta.page as an integer (a client decoding it strictly breaks on null).
    // Under cursor paging the cursor, not a number, says where a page starts: the page reads 1 there.
    page: response.page ?? 1,
    per_page: response.perPage,
    groups_count: response.kind === 'groups' ? response.groupsCount : null,
    ...(response.nextCursor === undefined ? {} : { next_cursor: response.nextCursor }),
    ...(facts.groupFilter === undefined ? {} : { q: facts.groupFilter }),
    ...response.sums,
    cost_usd: facts.costUsd,
    ...(facts.dataVersion === undefined ? {} : { data_version: dataVersionJson(facts.dataVersion) }),
    x_query: facts.xQuery,
  }
  if (response.kind === 'groups') return { meta, group_by: response.groups }
  if (response.resultsJsonBytes !== undefined)
    return jsonBytesResponse(
      spliceJson(
        `{"meta":${JSON.stringify(meta)},"results":[`,
        response.resultsJsonBytes,
        '],"group_by":[]}',
      ),
    )
  return { meta, results: response.results, group_by: [] }
}

const utf8 = new TextEncoder()
const COMMA = 0x2c

/**
 * `head`, the records separated by commas, then `tail`, in one buffer. A page of 25 works is about 300 KB:
 * decoding the stored bytes into strings, joining them and encoding the whole again cost more than the
 * rest of the request together, and left that much garbage behind.
 */
const spliceJson = (head: string, records: readonly Uint8Array[], tail: string): Uint8Array => {
  const headBytes = utf8.encode(head)
  const tailBytes = utf8.encode(tail)
  let length = headBytes.length + tailBytes.length + Math.max(0, records.length - 1)
  for (const record of records) length += record.length
  const body = new Uint8Array(length)
  body.set(headBytes, 0)
  let at = headBytes.length
  records.forEach((record, index) => {
    if (index > 0) body[at++] = COMMA
    body.set(record, at)
    at += record.length
  })
  body.set(tailBytes, at)
  return body
}
