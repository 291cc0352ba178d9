import type { CollectionError, CollectionErrorCode, CollectionErrorKind } from '@oqlkit/engine'
import { ApiError } from '../errors/api-error.ts'

const STATUS: Readonly<Record<CollectionErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
}

/**
 * What a client can do next, in this API's words, after the engine's message (the engine knows no routes).
 * The 401s are written here already, with the header to send (`collection-routes.ts`, the filter hook).
 */
const NEXT_STEPS: Partial<Readonly<Record<CollectionErrorCode, string>>> = {
  collection_not_found: 'GET /me/collections lists yours.',
}

/**
 * The HTTP error of a refused collection request or filter: 400, 401 (with a Bearer challenge), 403 or
 * 404, its code one of `COLLECTION_ERROR_CODES`. A filter problem names the `filter` parameter.
 */
export const collectionApiError = (error: CollectionError): ApiError => {
  const status = STATUS[error.kind]
  const next = NEXT_STEPS[error.code]
  const message = next === undefined ? error.message : `${error.message} ${next}`
  return new ApiError(
    status,
    [
      error.field === 'filter' || error.field === 'entity_id'
        ? { error: error.code, message, parameter: error.field }
        : { error: error.code, message },
    ],
    status === 401 ? { 'www-authenticate': 'Bearer realm="oqlkit"' } : {},
  )
}
