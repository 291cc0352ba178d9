// What a lookup or a snowball of many ids shows: its status line and the rows of its table (the results table
// of a query, results-table-view.ts, renders them). Pure, as the run's own status line is.
import type { LookupBody, SnowballBody } from './id-batch-runner.ts'
import { dataVersionText, formatUsd } from './run-status-format.ts'
import { shortId } from './value-summary-format.ts'

type Row = Record<string, unknown>

const plural = (count: number, one: string, many: string): string =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`

const tail = (costUsd: number | undefined, version: Parameters<typeof dataVersionText>[0]): string =>
  `${costUsd === undefined ? '' : ` · ${formatUsd(costUsd)}`}${dataVersionText(version)}`

/** The columns of a lookup's table: what was asked, what it found, and why not or where it was merged. */
export const LOOKUP_COLUMNS = ['input', 'id', 'display_name', 'note'] as const

/** One row per id, in the order given: the record found, or the reason it was not. */
export const lookupRows = (body: LookupBody): Row[] =>
  body.results.map((result) => ({
    input: result.input,
    id: result.record?.id,
    display_name: result.record?.display_name,
    note:
      result.record === null
        ? (result.message ?? result.error)
        : result.merged_into === undefined
          ? undefined
          : `merged into ${shortId(result.merged_into)}`,
  }))

/** `12 ids: 10 found, 2 not in 34 ms · $0.0001 · data default (2025-01-20)`. */
export const lookupStatusText = (body: LookupBody, clientMs: number): string =>
  `${plural(body.meta.count, 'id', 'ids')}: ${body.meta.found.toLocaleString('en-US')} found, ${body.meta.missing.toLocaleString('en-US')} not in ${clientMs} ms${tail(body.meta.cost_usd, body.meta.data_version)}`

/** The columns of a snowball's table: the step a work was reached at, then the work. */
export const SNOWBALL_COLUMNS = ['depth', 'id', 'display_name', 'publication_year', 'cited_by_count'] as const

/** One row per work, seeds first (depth 0), as the server lists them. */
export const snowballRows = (body: SnowballBody): Row[] =>
  body.works.map((work) => ({ ...work.record, depth: work.depth, id: work.id }))

const directionText: Record<SnowballBody['meta']['direction'], string> = {
  both: 'cited by or citing',
  cited: 'cited by',
  citing: 'citing',
}

/**
 * `3 seeds: 120 works cited by or citing them, 310 citations among them in 48 ms · 2 seeds not found
 * · $0.0001 · data …`.
 */
export const snowballStatusText = (body: SnowballBody, clientMs: number): string => {
  const reached = body.meta.count - body.meta.seeds_found
  const missed =
    body.seeds_not_found.length === 0
      ? ''
      : ` · ${plural(body.seeds_not_found.length, 'seed', 'seeds')} not found`
  return `${plural(body.meta.seeds_found, 'seed', 'seeds')}: ${plural(reached, 'work', 'works')} ${directionText[body.meta.direction]} them, ${plural(body.meta.citations_count, 'citation', 'citations')} among them in ${clientMs} ms${missed}${tail(body.meta.cost_usd, body.meta.data_version)}`
}
