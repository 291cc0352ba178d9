// The status line of a run: how many came back, how long it took (as the page measured it, and the
// database's share as the server measured it) and what it cost. Pure, so it reads the same everywhere.
import { isGrouped, type ListEnvelope } from './list-envelope.ts'

const USD = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 6,
})

/** `$0.0001`; `$0` for a free call. */
export const formatUsd = (usd: number): string => USD.format(usd)

const plural = (count: number, one: string, many: string): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`

/** What a call cost: `X-RateLimit-Credits-Used` when the server meters (what was charged), else `meta.cost_usd`. */
export const runCostUsd = (headers: Headers, body: ListEnvelope): number | null => {
  const header = headers.get('x-ratelimit-credits-used')
  if (header !== null && header.trim() !== '' && Number.isFinite(Number(header))) return Number(header)
  return typeof body.meta.cost_usd === 'number' ? body.meta.cost_usd : null
}

/** The data an answer comes from (`meta.data_version`), as a status line ends: ` · data default (2025-01-20)`. */
export const dataVersionText = (
  version: { readonly name: string; readonly snapshot_date: string | null } | undefined,
): string =>
  version === undefined
    ? ''
    : ` · data ${version.name}${version.snapshot_date === null ? '' : ` (${version.snapshot_date})`}`

export interface RunFacts {
  readonly body: ListEnvelope
  readonly clientMs: number
  readonly costUsd: number | null
}

/**
 * `52 results in 34 ms (database 12 ms) · $0.0001 · data default (2025-01-20)`, or for a grouping
 * `15 groups of 565 works in 20 ms (database 3 ms) · $0.0001 · …`.
 */
export const runStatusText = ({ body, clientMs, costUsd }: RunFacts): string => {
  const count = body.meta.count ?? 0
  const entity = body.meta.x_query?.oqo?.get_rows ?? 'rows'
  const what = !isGrouped(body)
    ? plural(count, 'result', 'results')
    : `${plural(body.meta.groups_count ?? body.group_by?.length ?? 0, 'group', 'groups')} of ${count.toLocaleString('en-US')} ${entity}`
  const database =
    typeof body.meta.db_response_time_ms === 'number' ? ` (database ${body.meta.db_response_time_ms} ms)` : ''
  const cost = costUsd === null ? '' : ` · ${formatUsd(costUsd)}`
  const version = body.meta.data_version as Parameters<typeof dataVersionText>[0]
  return `${what} in ${clientMs} ms${database}${cost}${dataVersionText(version)}`
}
