import type { TranslationError } from '@oqlkit/oql'
import { parseBoundedJson } from '@oqlkit/oqo-schema'
import { queryProblem } from '../errors/query-error.ts'
import { readCappedBody } from './capped-body-reader.ts'

/**
 * The largest POST body the query endpoints read, in bytes. Queries have no length limit of their own
 * (a GET line has 8,190 bytes; POST is the way past it): this cap only keeps one request from filling
 * the server's memory. An OR list of 10,000 ids is about 200 KB.
 */
export const MAX_QUERY_BODY_BYTES = 4 * 1024 * 1024

export type BodyReading =
  | { readonly ok: true; readonly body: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly status: number; readonly error: TranslationError }

const JSON_MEDIA_TYPE = /^\s*application\/json\s*(?:;|$)/i

const tooLarge = (): BodyReading => ({
  ok: false,
  status: 413,
  error: queryProblem(
    'invalid_body',
    'payload_too_large',
    `The body is larger than ${MAX_QUERY_BODY_BYTES.toLocaleString('en')} bytes, the most this server reads. Split the query (an OR list of ids into several requests) or filter on a collection.`,
  ),
})

const invalid = (message: string): BodyReading => ({
  ok: false,
  status: 400,
  error: queryProblem('invalid_body', 'invalid_body', message),
})

/**
 * Reads the JSON object body of a query POST: `Content-Type: application/json` required, the size
 * capped (413), the text parsed, an object (not an array or a scalar) required. Each refusal says how
 * to send the request instead. The keys are the caller's to check.
 */
export const readJsonObjectBody = async (request: Request, example: string): Promise<BodyReading> => {
  const contentType = request.headers.get('content-type')
  if (contentType === null || !JSON_MEDIA_TYPE.test(contentType))
    return invalid(
      `The body must be JSON sent with Content-Type: application/json (was ${contentType === null ? 'no Content-Type' : `'${contentType}'`}). Send ${example}.`,
    )
  const bytes = await readCappedBody(request, MAX_QUERY_BODY_BYTES)
  if (bytes === undefined) return tooLarge()
  const text = new TextDecoder().decode(bytes)
  if (text.trim() === '') return invalid(`The body is empty. Send ${example}.`)
  let body: unknown
  try {
    body = parseBoundedJson(text)
  } catch (error) {
    return invalid(
      `The body is not valid JSON (${error instanceof Error ? error.message : String(error)}). Send ${example}.`,
    )
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return invalid(
      `The body must be a JSON object (was ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}). Send ${example}.`,
    )
  return { ok: true, body: body as Record<string, unknown> }
}
