import type { PlannedQuery, PlanOptions } from '@oqlkit/engine'
import { planQuery } from '@oqlkit/engine'
import { entityOfPath, readListRequest } from '@oqlkit/http'
import { translate } from '@oqlkit/oql'

/** A query of `oqlkit query` read and planned, or what is wrong with it, in words for a terminal. */
export type QueryReading =
  | { readonly ok: true; readonly planned: PlannedQuery; readonly notes: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] }

/** List parameters a query that streams every row has no use for: dropped, with a note. */
const PAGING_PARAMETERS = new Set(['page', 'per_page', 'per-page', 'cursor'])

/** Whether the text is a classic URL (`/works?filter=…`, `works?…` or a full `https://…/works?…`). */
const isUrl = (text: string): boolean => /^(?:https?:\/\/|\/)/i.test(text) || /^[a-z-]+\?/i.test(text)

const readUrl = (text: string, planOptions: PlanOptions): QueryReading => {
  let url: URL
  try {
    url = new URL(text.startsWith('/') || /^https?:/i.test(text) ? text : `/${text}`, 'http://localhost')
  } catch {
    return { ok: false, problems: [`'${text}' is not a URL that can be read.`] }
  }
  const segments = url.pathname.split('/').filter((segment) => segment !== '')
  const entity = segments.length === 1 ? entityOfPath(segments[0]!) : undefined
  if (entity === undefined)
    return {
      ok: false,
      problems: [
        `the URL's path '${url.pathname}' is not a list of one entity type; write it as /works?filter=…, /authors?search=…`,
      ],
    }
  const notes: string[] = []
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => {
      const name = decodeURIComponent(pair.split('=', 1)[0] ?? '').trim()
      if (!PAGING_PARAMETERS.has(name)) return pair !== ''
      notes.push(`${name}= ignored: the query streams every row that matches`)
      return false
    })
  const reading = readListRequest(entity, kept.join('&'))
  if (!reading.ok)
    return {
      ok: false,
      problems: reading.problems.map((problem) =>
        problemLine(problem.parameter, problem.message, problem.error),
      ),
    }
  return plan(reading.request.oqo, reading.request.view, planOptions, notes)
}

/** A problem as one line: the parameter at fault (when there is one), what is wrong, and its code. */
const problemLine = (parameter: string | undefined, message: string, code: string): string =>
  `${parameter === undefined ? '' : `${parameter}: `}${message} (${code})`

const plan = (
  oqo: Parameters<typeof planQuery>[0],
  view: Parameters<typeof planQuery>[1],
  planOptions: PlanOptions,
  notes: readonly string[],
): QueryReading => {
  const planned = planQuery(oqo, view, planOptions)
  if (!planned.ok)
    return {
      ok: false,
      problems: planned.errors.map((error) => problemLine(error.parameter, error.message, error.code)),
    }
  if (planned.plan.groupBy.length > 0)
    return {
      ok: false,
      problems: [
        'a group_by answers buckets, not rows: query streams rows. Drop the grouping, or ask the server for the buckets (GET /works?group_by=…).',
      ],
    }
  return { ok: true, planned, notes }
}

/**
 * Reads the query of `oqlkit query`: OQL (`works where year is 2020`) or a classic URL (`/works?filter=…`, or a
 * full URL of any server), planned as the server plans its lists. Paging parameters of a URL are dropped (the
 * query has every row); a group_by is refused.
 */
export const readQueryInput = (text: string, planOptions: PlanOptions = {}): QueryReading => {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problems: ['the query is empty'] }
  if (isUrl(trimmed)) return readUrl(trimmed, planOptions)
  const translation = translate({ oql: trimmed })
  if (!translation.validation.valid || translation.oqo === null)
    return {
      ok: false,
      problems: translation.validation.errors.map(
        (error) =>
          `${error.code}: ${error.message}${error.position === undefined ? '' : ` (at character ${error.position}${error.context === null ? '' : `: ${error.context}`})`}`,
      ),
    }
  return plan(translation.oqo, {}, planOptions, [])
}
