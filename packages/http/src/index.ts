// The public API of @oqlkit/http: the app factory and the pieces later routes reuse (the classic
// request reader, the envelope, the error type and its mapper). The server is composed by `@oqlkit/cli`.
export {
  apiKeyOf,
  type CallerResolver,
  fixedKeyCallers,
  keyStoreCallers,
  meteredCaller,
} from './collections/caller.ts'
export { collectionFilterResolver, type PlanResolver } from './collections/collection-filter-hook.ts'
export { type CollectionsOptions, useCollections } from './collections/collection-routes.ts'
export { createCollectionsApp } from './collections/collections-app.ts'
export { type AppOptions, type CatalogInfo, createApp } from './create-app.ts'
export {
  type CatalogDirectory,
  type CatalogsAppOptions,
  createCatalogsApp,
  DATA_VERSION_PARAMETER,
  type ServedCatalog,
} from './create-catalogs-app.ts'
export { DATA_VERSION_HEADER, type DataVersion } from './envelope/data-version.ts'
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
export {
  EXPORT_CONTENT_TYPES,
  EXPORT_FORMATS,
  type ExportFormat,
  isExportFormat,
} from './export/export-format.ts'
export { EXPORT_BATCH_ROWS, EXPORT_IDLE_MS, exportCostUsd } from './export/export-handler.ts'
export type { ExportEnd, ParquetWriter } from './export/row-export-body.ts'
export {
  csvColumnsOf,
  csvEncoder,
  jsonArrayEncoder,
  jsonLinesEncoder,
  type RowTextEncoder,
} from './export/row-text-encoder.ts'
export { AdmissionQueue } from './limits/admission-queue.ts'
export {
  DEFAULT_EXPORT_SLOTS,
  DEFAULT_QUERY_TIMEOUT_MS,
  RequestLimits,
  type RequestLimitsOptions,
} from './limits/request-limits.ts'
export { type Credential, readCredential } from './metering/credential-reader.ts'
export { callerOf, type MeteredRequest, meteredRequestOf } from './metering/metered-request.ts'
export type { MeteringOptions } from './metering/metering-options.ts'
export { priceRequest } from './metering/request-pricing.ts'
export { API_VERSION, buildOpenApiDocument } from './openapi/openapi-document.ts'
export { API_ENTITIES, entityOfPath } from './request/entity-paths.ts'
export { type ListRequest, type ListRequestReading, readListRequest } from './request/list-request-reader.ts'
export { MAX_QUERY_BODY_BYTES } from './request/query-body-reader.ts'
export { MAX_REQUEST_LINE_BYTES } from './request/request-line-limit.ts'
export {
  type AccessLog,
  type AccessLogEntry,
  createAccessLog,
  keyIdOf,
  openAccessLog,
} from './server/access-log.ts'
export { clientAddressOf } from './server/client-address.ts'
export { answerClientErrors, type ClientErrorSource } from './server/client-error-answer.ts'
export { type CorsOptions, readCorsOrigins } from './server/cors-options.ts'
export { type OpenResponses, trackOpenResponses } from './server/open-responses.ts'
export { type ProxyTrust, readProxyTrust } from './server/proxy-trust.ts'
export type { CompressionOptions } from './server/response-compression.ts'
export {
  DEFAULT_HOST,
  hostProblem,
  type ServerStartOptions,
  type StartedServer,
  startServer,
} from './server/server-start.ts'
export type { ServingOptions } from './server/serving-layers.ts'
