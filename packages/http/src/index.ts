// The public API of @oqlkit/http: the app factory and the pieces later routes reuse (the classic
// request reader, the envelope, the error type and its mapper). The server is composed by `@oqlkit/cli`.
export { type AppOptions, type CatalogInfo, createApp } from './create-app.ts'
export { listEnvelope } from './envelope/list-envelope.ts'
export { type XQuery, xQueryOf } from './envelope/x-query.ts'
export {
  API_ERROR_CODES,
  ApiError,
  type ApiErrorCode,
  type ApiProblem,
  isApiError,
} from './errors/api-error.ts'
export { errorResponse, toApiError } from './errors/error-response.ts'
export { API_ENTITIES, entityOfPath } from './request/entity-paths.ts'
export { type ListRequest, type ListRequestReading, readListRequest } from './request/list-request-reader.ts'
export { MAX_REQUEST_LINE_BYTES } from './request/request-line-limit.ts'
