import type { StorageAdapter } from '@oqlkit/engine'
import { H3 } from 'h3'
import { errorResponse } from './errors/error-response.ts'
import { checkRequestLine } from './request/request-line-limit.ts'
import { autocompleteHandler, entityAutocompleteHandler } from './routes/autocomplete-handler.ts'
import { entityListHandler } from './routes/entity-list-handler.ts'
import { entitySingletonHandler } from './routes/entity-singleton-handler.ts'
import { fallbackHandler } from './routes/fallback-handler.ts'
import { type CatalogInfo, rootHandler } from './routes/root-handler.ts'

export type { CatalogInfo } from './routes/root-handler.ts'

export interface AppOptions {
  readonly adapter: StorageAdapter
  readonly catalog: CatalogInfo
  readonly version?: string
  /** Where faults of the server are logged (default `console.error`); their details never reach clients. */
  readonly logError?: (error: unknown) => void
}

/**
 * The oqlkit API as an h3 app: handlers read the request, call the library and return JSON; one
 * `onError` turns domain errors into JSON error responses. Serve it with h3's `serve`, or call
 * `app.fetch(request)` in process (as the tests do).
 *
 * Routes: `GET /` (health and catalog summary), `GET /autocomplete`, `GET /autocomplete/:entity`,
 * `GET /:entity` (lists, groups) and `GET /:entity/**` (singletons); anything else is a JSON 404/405.
 */
export const createApp = (options: AppOptions): H3 => {
  const { adapter } = options
  const app = new H3({
    // Expected errors are answered, not logged; `errorResponse` logs the unexpected ones.
    silent: true,
    onError: (error) => errorResponse(error, options.logError),
  })
  app.use((event) => {
    checkRequestLine(event.req)
  })
  app.get('/', rootHandler(adapter, options.catalog, options.version ?? '0.0.0'))
  app.get('/autocomplete', autocompleteHandler(adapter))
  app.get('/autocomplete/:entity', entityAutocompleteHandler(adapter))
  app.get('/:entity', entityListHandler(adapter))
  app.get('/:entity/**', entitySingletonHandler(adapter))
  app.all('/**', fallbackHandler)
  return app
}
