import { METHODS } from 'node:http'
import type { StorageAdapter, Tagger } from '@oqlkit/engine'
import { H3, type H3Event, type HTTPMethod, toResponse } from 'h3'
import { type CollectionsOptions, useCollections } from './collections/collection-routes.ts'
import { setDataVersion, withDataVersionHeader } from './envelope/data-version.ts'
import { errorResponse } from './errors/error-response.ts'
import { exportHandler, queryExportHandler } from './export/export-handler.ts'
import type { ParquetWriter } from './export/row-export-body.ts'
import { RequestLimits } from './limits/request-limits.ts'
import type { MeteringOptions } from './metering/metering-options.ts'
import { useMetering } from './metering/use-metering.ts'
import { API_VERSION } from './openapi/openapi-document.ts'
import { type PagesOptions, prefersHtml, toPlayground, usePages } from './pages/page-routes.ts'
import { LOOKUP_SEGMENT } from './request/lookup-request-reader.ts'
import { asksToExecute } from './request/query-execute-reader.ts'
import { rawQueryOf } from './request/query-parameters.ts'
import { checkRequestLine } from './request/request-line-limit.ts'
import { SNOWBALL_SEGMENT } from './request/snowball-request-reader.ts'
import { autocompleteHandler, entityAutocompleteHandler } from './routes/autocomplete-handler.ts'
import { entityListHandler } from './routes/entity-list-handler.ts'
import { entityLookupHandler } from './routes/entity-lookup-handler.ts'
import { entitySingletonHandler } from './routes/entity-singleton-handler.ts'
import { fallbackHandler } from './routes/fallback-handler.ts'
import { propertiesHandler } from './routes/properties-handler.ts'
import { queryExecuteHandler } from './routes/query-execute-handler.ts'
import { queryParseContextHandler } from './routes/query-parse-context-handler.ts'
import { openApiHandler, oqoSchemaHandler, querySpecIndexHandler } from './routes/query-spec-handler.ts'
import {
  queryDescriptorHandler,
  queryTranslatePathHandler,
  queryTranslatePostHandler,
} from './routes/query-translate-handler.ts'
import { queryValidateHandler } from './routes/query-validate-handler.ts'
import { unmeteredRateLimitHandler } from './routes/rate-limit-handler.ts'
import { type CatalogInfo, rootHandler } from './routes/root-handler.ts'
import { textTaggingHandler } from './routes/text-tagging-handler.ts'
import { worksSnowballHandler } from './routes/works-snowball-handler.ts'
import { type ServingOptions, useServingLayers, withTrustProxy } from './server/serving-layers.ts'

export type { CatalogInfo } from './routes/root-handler.ts'

/** The app's parts, and the serving layers (`cors`, `compression`, `accessLog`, `trustProxy`) around them. */
export interface AppOptions extends ServingOptions {
  readonly adapter: StorageAdapter
  readonly catalog: CatalogInfo
  /** The version `GET /` reports (default `API_VERSION`, the version of this package and its API). */
  readonly version?: string
  /** Where faults of the server are logged (default `console.error`); their details never reach clients. */
  readonly logError?: (error: unknown) => void
  /** API keys, budgets and rate limits (`GET /rate-limit`, X-RateLimit headers); unmetered without. */
  readonly metering?: MeteringOptions
  /** The collection-management API (`/me/collections`, …) and collection filters; absent without. */
  readonly collections?: CollectionsOptions
  /**
   * Tags free text for `/text*` (a model trained from the catalog, `loadCatalogTagger`). Without it those
   * routes answer 501 `tagger_unavailable`.
   */
  readonly tagger?: Tagger
  /**
   * The largest `per_page` of a list (default 200, what the public server takes, so its clients work
   * unchanged; the API description's strict limit is 100). Paging still reaches 10,000 results deep.
   */
  readonly maxPerPage?: number
  /**
   * Each request's time budget, the admission of heavy plans, and shutdown (`new RequestLimits({…})`;
   * default: 10 s per request, 2 heavy plans at once and 8 waiting). The server keeps it to call
   * `shutdown(graceMs)` on SIGTERM.
   */
  readonly limits?: RequestLimits
  /**
   * Writes the Parquet of `GET /{entities}/export?format=parquet` (the DuckDB adapter's
   * `writeJsonLinesAsParquet`); without it that format answers 501 and the others still stream.
   */
  readonly writeParquet?: ParquetWriter
  /** Where the pages' bundle is (default: the installed `@oqlkit/playground`'s). */
  readonly pages?: PagesOptions
}

/**
 * The oqlkit API as an h3 app: handlers read the request, call the library and return JSON; one
 * `onError` turns domain errors into JSON error responses. Serve it with h3's `serve`, or call
 * `app.fetch(request)` in process (as the tests do). `spec/openapi.json` describes every route.
 *
 * Routes: `GET /` (health check, a browser's way to the playground, or with `oql=`/`oqo=` the execute
 * endpoint); `GET /playground` and `GET /docs` (pages for people, `pages/page-routes.ts`) and `POST /` (execute);
 * `GET /query`, `GET /query/{oql,oqo,oxurl}/…` and `POST /query` (translate); `GET /validate`,
 * `GET /parse-context`; `GET /properties[/{entity}]`; `GET /query/spec[/oqo]`, `GET /openapi.json`;
 * `GET /autocomplete[/{entity}]`; `GET|POST /text[/{keywords,concepts,topics}]` (text tagging); `GET /{entities}` (lists, groups), `GET /{entities}/…`
 * (singletons), `POST /{entities}/lookup` (many at once) and `GET /works/snowball` (citations from seed works).
 * Anything else is a JSON 404/405.
 */
export const createApp = (options: AppOptions): H3 => {
  const limits = options.limits ?? new RequestLimits()
  // Every storage call of a request carries its deadline; heavy plans wait for a slot.
  const adapter = limits.adapter(options.adapter)
  const app = new H3({
    // Expected errors are answered, not logged; `errorResponse` logs the unexpected ones.
    silent: true,
    onError: (error, event) => withDataVersionHeader(errorResponse(error, options.logError), event),
  })
  useServingLayers(app, options, options.logError)
  const { version } = options.catalog
  // Every answer names the data it comes from: a header on each response, `meta.data_version` where there is meta.
  if (version !== undefined)
    app.use((event) => {
      setDataVersion(event, version)
    })
  // HEAD is answered by the GET route of the path (h3 falls back to it), with the GET's headers and no body.
  app.use(async (event, next) => {
    if (event.req.method !== 'HEAD') return next()
    const response = await toResponse(await next(), event)
    // A body made as it is read (a lookup's, a snowball's) is let go at once, not left to its idle timeout.
    await response.body?.cancel().catch(() => {})
    return new Response(null, { status: response.status, headers: response.headers })
  })
  const planOptions = options.maxPerPage === undefined ? {} : { maxPerPage: options.maxPerPage }
  if (options.metering !== undefined)
    useMetering(app, withTrustProxy(options.metering, options.trustProxy), options.logError, planOptions)
  else app.get('/rate-limit', unmeteredRateLimitHandler)
  app.use(limits.middleware)
  app.use((event) => {
    checkRequestLine(event.req)
  })
  const resolvePlan = options.collections === undefined ? undefined : useCollections(app, options.collections)
  const health = rootHandler(adapter, options.catalog, options.version ?? API_VERSION)
  const execute = queryExecuteHandler(adapter, resolvePlan, planOptions)
  usePages(app, options.pages)
  app.get('/', (event: H3Event) => {
    if (asksToExecute(rawQueryOf(event.req.url))) return execute(event)
    return prefersHtml(event) ? toPlayground() : health()
  })
  app.post('/', execute)
  app.get('/query', queryDescriptorHandler)
  app.post('/query', queryTranslatePostHandler(adapter))
  app.get('/query/oql/**', queryTranslatePathHandler(adapter, 'oql'))
  app.get('/query/oqo/**', queryTranslatePathHandler(adapter, 'oqo'))
  app.get('/query/oxurl/**', queryTranslatePathHandler(adapter, 'oxurl'))
  app.get('/query/spec', querySpecIndexHandler)
  app.get('/query/spec/oqo', oqoSchemaHandler)
  app.get('/validate', queryValidateHandler)
  app.get('/parse-context', queryParseContextHandler(adapter))
  app.get('/properties', propertiesHandler)
  app.get('/properties/:entity', propertiesHandler)
  app.get('/openapi.json', openApiHandler)
  for (const route of ['all', 'keywords', 'concepts', 'topics'] as const) {
    const path = route === 'all' ? '/text' : `/text/${route}`
    const handler = textTaggingHandler(options.tagger, route)
    app.get(path, handler)
    app.post(path, handler)
  }
  app.get('/autocomplete', autocompleteHandler(adapter))
  app.get('/autocomplete/:entity', entityAutocompleteHandler(adapter))
  // Exports stream every row of a list (`/{entities}/export?filter=…`) or of a query (`/export?oql=…`).
  const exportOptions = {
    adapter: options.adapter,
    limits,
    ...(resolvePlan === undefined ? {} : { resolvePlan }),
    planOptions,
    ...(options.writeParquet === undefined ? {} : { writeParquet: options.writeParquet }),
    ...(options.logError === undefined ? {} : { logError: options.logError }),
  }
  app.get('/export', queryExportHandler(exportOptions))
  app.get('/:entity', entityListHandler(adapter, resolvePlan, planOptions))
  app.get('/:entity/export', exportHandler(exportOptions))
  // Their answers flow after the handler returns: a shutdown waits for them as for an export's rows.
  const holdOpen = (stop: AbortController, finished: Promise<unknown>) => limits.holdOpen(stop, finished)
  app.post(`/:entity/${LOOKUP_SEGMENT}`, entityLookupHandler(adapter, holdOpen))
  app.get(`/works/${SNOWBALL_SEGMENT}`, worksSnowballHandler(adapter, holdOpen))
  app.get('/:entity/**', entitySingletonHandler(adapter))
  // Every method Node reads but HEAD, so that a HEAD finds the GET route of its path rather than this.
  for (const method of METHODS) if (method !== 'HEAD') app.on(method as HTTPMethod, '/**', fallbackHandler)
  return app
}
