// Requests of the query-endpoint tests: JSON POSTs (with or without a content type, or a raw body) and GETs
// through `app.fetch`, the answer parsed as JSON; and the normative OQL corpus they draw queries from.
import { readFileSync } from 'node:fs'
import type { JsonResponse } from './sample-app.ts'

export interface FetchApp {
  fetch(request: Request): Response | Promise<Response>
}

export interface PostOptions {
  /** The Content-Type header; null sends none. Default `application/json`. */
  readonly contentType?: string | null
  /** Send this text as the body instead of the JSON of `body`. */
  readonly raw?: string
}

const parse = async <T>(label: string, response: Response): Promise<JsonResponse<T>> => {
  const text = await response.text()
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as T }
  } catch {
    throw new Error(
      `${label} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    )
  }
}

/** One POST of a JSON body (or of `raw`), the answer parsed as JSON. */
export async function post<T = Record<string, unknown>>(
  app: FetchApp,
  path: string,
  body: unknown,
  options: PostOptions = {},
): Promise<JsonResponse<T>> {
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType
  const request = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: contentType === null ? {} : { 'content-type': contentType },
    body: options.raw ?? JSON.stringify(body),
  })
  // A body given as text gets `text/plain` from the Request constructor unless a type is set; drop it.
  if (contentType === null) request.headers.delete('content-type')
  return parse(`POST ${path}`, await app.fetch(request))
}

/** One GET, the answer parsed as JSON. */
export async function getJson<T = Record<string, unknown>>(
  app: FetchApp,
  path: string,
): Promise<JsonResponse<T>> {
  return parse(`GET ${path}`, await app.fetch(new Request(`http://localhost${path}`, { redirect: 'manual' })))
}

export interface CorpusRow {
  readonly id: number
  readonly status: 'ok' | 'error' | 'out-of-scope'
  readonly oxurl_status?: 'has-oxurl' | 'oql-only'
  readonly oql?: string
  readonly oqo?: Record<string, unknown> & { sample?: number }
  readonly oxurl?: string
  readonly diagnostic?: string
}

const CORPUS_FILE = new URL('../../../../spec/conformance/oql-corpus.json', import.meta.url)

/** The rows of the normative OQL corpus (`spec/conformance/oql-corpus.json`). */
export const corpusRows = (): readonly CorpusRow[] =>
  (JSON.parse(readFileSync(CORPUS_FILE, 'utf8')) as { rows: CorpusRow[] }).rows

/** The corpus rows that have all three forms (OQL, OQO and a classic URL). */
export const rowsWithAllForms = (): readonly CorpusRow[] =>
  corpusRows().filter(
    (row) =>
      row.status === 'ok' &&
      row.oxurl_status === 'has-oxurl' &&
      row.oql !== undefined &&
      row.oqo !== undefined &&
      row.oxurl !== undefined,
  )

/** A corpus URL as a path of this server (`https://openalex.org/works?…` → `/works?…`). */
export const classicPath = (oxurl: string): string => oxurl.replace(/^https?:\/\/[^/]+/, '')
