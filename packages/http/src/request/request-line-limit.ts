import { ApiError } from '../errors/api-error.ts'
import { rawPathOf, rawQueryOf } from './query-parameters.ts'

/** The longest GET request line the API reads (`GET <target> HTTP/1.1`), in bytes. */
export const MAX_REQUEST_LINE_BYTES = 8190

const utf8 = new TextEncoder()

/** The length in bytes of the request line `<METHOD> <path?query> HTTP/1.1` of a request. */
export const requestLineBytes = (request: Request): number => {
  const query = rawQueryOf(request.url)
  const target = `${rawPathOf(request.url)}${query === '' ? '' : `?${query}`}`
  return utf8.encode(`${request.method} ${target} HTTP/1.1`).length
}

/**
 * Refuses a GET whose request line is too long with a 414 that says how to send the query instead.
 * Servers and proxies cut such lines off anyway; failing here gives the reason rather than a bare error.
 */
export const checkRequestLine = (request: Request): void => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return
  const bytes = requestLineBytes(request)
  if (bytes > MAX_REQUEST_LINE_BYTES)
    throw ApiError.of(
      414,
      'request_line_too_long',
      `The request line is ${bytes} bytes; GET request lines are limited to ${MAX_REQUEST_LINE_BYTES} bytes. POST the query to / instead, as a JSON object with "oql" (OQL text) or "oqo" (an OQO object) and Content-Type: application/json (no length limit), or split a long OR list into several requests.`,
    )
}
