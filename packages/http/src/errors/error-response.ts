import {
  isCollectionError,
  isEmbedderError,
  isQueryLimitError,
  isUnsupportedPlanError,
  type UnsupportedPlanError,
} from '@oqlkit/engine'
import { HTTPError } from 'h3'
import { collectionApiError } from '../collections/collection-api-error.ts'
import { bytesResponse } from '../server/byte-responses.ts'
import { ApiError, type ApiProblem, isApiError } from './api-error.ts'
import { errorTitle } from './error-title.ts'

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' }

/** A JSON response. */
export const jsonResponse = (
  body: unknown,
  status = 200,
  headers: Readonly<Record<string, string>> = {},
): Response => new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } })

/**
 * A 200 of JSON that is already written, as UTF-8 bytes (a stored record, an envelope around stored records):
 * written to the socket as it is, and compressed whole (`bytesResponse`).
 */
export const jsonBytesResponse = (json: Uint8Array): Response =>
  bytesResponse(json, { headers: JSON_HEADERS })

/** One problem as the body lists it: its stable code under `code`, like the body's own. */
const problemBody = (problem: ApiProblem): Record<string, unknown> => ({
  code: problem.error,
  message: problem.message,
  ...(problem.parameter === undefined ? {} : { parameter: problem.parameter }),
})

/**
 * The body of an error: `error` in the public server's words for the kind of failure (what clients such
 * as pyalex match on), the first problem's stable `code`, `message` and `parameter`, and every problem
 * under `errors` when there are several.
 */
export const errorBody = (status: number, problems: readonly ApiProblem[]): Record<string, unknown> => {
  const [first = { error: 'bad_request', message: 'The request failed.' }] = problems
  return {
    error: errorTitle(
      status,
      problems.map((problem) => problem.error),
    ),
    ...problemBody(first),
    ...(problems.length > 1 ? { errors: problems.map(problemBody) } : {}),
  }
}

// A plan an adapter refuses is a capability it lacks, except for the two reasons that are the request's fault.
const unsupportedPlanError = (error: UnsupportedPlanError): ApiError =>
  error.reason === 'invalid_cursor' || error.reason === 'invalid_search'
    ? ApiError.of(400, error.reason, error.message)
    : ApiError.of(501, 'not_supported', `This catalog cannot answer the query: ${error.message}.`)

const UNREADABLE_REQUEST =
  'The request could not be read. This usually means a malformed percent-encoding in its path or query: each % must be followed by two hexadecimal digits, and the bytes they spell must be UTF-8.'

/** The `ApiError` a thrown value stands for, or undefined for a fault of the server. */
export const toApiError = (thrown: unknown): ApiError | undefined => {
  const error = HTTPError.isError(thrown) && thrown.cause instanceof Error ? thrown.cause : thrown
  if (isApiError(error)) return error
  if (isQueryLimitError(error)) return ApiError.of(400, 'too_many_groups', error.message)
  if (isCollectionError(error)) return collectionApiError(error)
  if (isUnsupportedPlanError(error)) return unsupportedPlanError(error)
  // The embeddings server semantic search needs is down or misbehaving: the server is fine, that part is not.
  if (isEmbedderError(error))
    return ApiError.of(503, 'embeddings_unavailable', `Semantic search cannot run now: ${error.message}`)
  if (HTTPError.isError(error) && error.status === 404)
    return ApiError.of(404, 'not_found', 'No route matches this path. GET / describes the server.')
  // h3 refuses a path it cannot decode with its bare status text, which tells a client nothing.
  if (HTTPError.isError(error) && error.status === 400 && error.message === 'Bad Request')
    return ApiError.of(400, 'bad_request', UNREADABLE_REQUEST)
  if (HTTPError.isError(error) && error.status < 500 && error.unhandled !== true)
    return ApiError.of(error.status, 'bad_request', error.message)
  return undefined
}

/**
 * The one mapper from thrown errors to responses (h3's `onError`): domain errors become their JSON
 * error, anything else a 500 whose body says nothing of its cause (the cause is logged instead).
 */
export const errorResponse = (thrown: unknown, log: (error: unknown) => void = console.error): Response => {
  const apiError = toApiError(thrown)
  if (apiError !== undefined)
    return jsonResponse(
      apiError.body ?? errorBody(apiError.status, apiError.problems),
      apiError.status,
      apiError.headers,
    )
  log(HTTPError.isError(thrown) && thrown.cause !== undefined ? thrown.cause : thrown)
  return jsonResponse(
    errorBody(500, [
      { error: 'internal_error', message: 'The server failed to answer this request. It has been logged.' },
    ]),
    500,
  )
}
