import type { CollectionError, CollectionErrorKind } from '@oqlkit/engine'
import { ApiError } from '../errors/api-error.ts'

const STATUS: Readonly<Record<CollectionErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
}

/**
 * The HTTP error of a refused collection request or filter: 400, 401 (with a Bearer challenge), 403 or
 * 404, its code one of `COLLECTION_ERROR_CODES`. A filter problem names the `filter` parameter.
 */
export const collectionApiError = (error: CollectionError): ApiError => {
  const status = STATUS[error.kind]
  return new ApiError(
    status,
    [
      error.field === 'filter' || error.field === 'entity_id'
        ? { error: error.code, message: error.message, parameter: error.field }
        : { error: error.code, message: error.message },
    ],
    status === 401 ? { 'www-authenticate': 'Bearer realm="oqlkit"' } : {},
  )
}
