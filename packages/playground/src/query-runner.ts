// Runs OQL against the server that served the page (`GET /?oql=`), and says what came back. A failure of
// any kind (a refusal, a broken connection, a body that is not JSON) comes back as an outcome to show,
// never as a thrown error or a console message.
import { fetchApiAnswer } from './api-answer-fetch.ts'
import type { ListEnvelope } from './list-envelope.ts'
import { normalizeSelect } from './playground-link-state.ts'
import { runCostUsd } from './run-status-format.ts'

/** What one run asks for: the query and its view (sibling parameters of the execute endpoint). */
export interface RunRequest {
  readonly oql: string
  readonly page?: number
  readonly perPage?: number
  /** Comma-separated top-level fields, as typed; empty for all. */
  readonly select?: string
}

export type RunOutcome =
  | {
      readonly ok: true
      readonly body: ListEnvelope
      /** Round trip as the page measured it. */
      readonly clientMs: number
      /** What the call cost: `X-RateLimit-Credits-Used` when the server meters, else `meta.cost_usd`. */
      readonly costUsd: number | null
    }
  | { readonly ok: false; readonly message: string; readonly aborted?: boolean }

/** The API's root, beside the page: the page is served at `<root>/playground`. */
export const apiRoot = (): URL => new URL('.', location.href)

/** The execute endpoint's URL for a run; the view parameters only when they are set. */
export const executeUrl = (request: RunRequest): URL => {
  const url = new URL(apiRoot())
  url.searchParams.set('oql', request.oql)
  if (request.page !== undefined && request.page > 1) url.searchParams.set('page', String(request.page))
  if (request.perPage !== undefined) url.searchParams.set('per-page', String(request.perPage))
  const select = normalizeSelect(request.select ?? '')
  if (select !== '') url.searchParams.set('select', select)
  return url
}

interface ErrorBody {
  readonly message?: string
  readonly error?: string
  readonly validation?: { readonly errors?: readonly { readonly message?: string }[] }
}

/** The server's own words for a refusal: every validation message, else its `message`, else the status. */
const refusalMessage = (body: ErrorBody | undefined, status: number): string => {
  const messages = (body?.validation?.errors ?? [])
    .map((error) => error.message)
    .filter((message): message is string => typeof message === 'string' && message !== '')
  if (messages.length > 0) return [...new Set(messages)].join(' ')
  return body?.message ?? body?.error ?? `The server answered HTTP ${status}.`
}

export const runQuery = async (request: RunRequest, signal?: AbortSignal): Promise<RunOutcome> => {
  const answer = await fetchApiAnswer(
    executeUrl(request),
    { headers: { accept: 'application/json' } },
    signal,
  )
  if (!answer.ok) return answer
  const { response, body, clientMs } = answer
  if (!response.ok) return { ok: false, message: refusalMessage(body as ErrorBody, response.status) }
  const envelope = body as ListEnvelope
  return { ok: true, body: envelope, clientMs, costUsd: runCostUsd(response.headers, envelope) }
}
