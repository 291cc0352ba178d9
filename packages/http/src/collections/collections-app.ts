import { H3 } from 'h3'
import { errorResponse } from '../errors/error-response.ts'
import { meteringMiddleware } from '../metering/metering-middleware.ts'
import type { MeteringOptions } from '../metering/metering-options.ts'
import { type ServingOptions, useServingLayers, withTrustProxy } from '../server/serving-layers.ts'
import { type CollectionsOptions, useCollections } from './collection-routes.ts'

/**
 * The collection-management API alone, for a server that serves it on a port of its own ({user_url}).
 * `createApp({collections})` serves the same routes beside the main API on one port; the paths do not
 * collide. Anything but a collection route is a JSON 404.
 *
 * With `metering` (the main API's stores), this port is metered as the main one is: its callers are
 * identified and refused alike, its requests count against the same request rate, and every answer
 * carries the X-RateLimit headers of the caller's budget. Collection management itself is free, so
 * those headers report the budget without spending it. `meteredCaller` then names the callers.
 */
export const createCollectionsApp = (
  options: CollectionsOptions &
    ServingOptions & {
      readonly metering?: MeteringOptions
      readonly logError?: (error: unknown) => void
    },
): H3 => {
  const app = new H3({ silent: true, onError: (error) => errorResponse(error, options.logError) })
  useServingLayers(app, options, options.logError)
  if (options.metering !== undefined)
    app.use(meteringMiddleware(withTrustProxy(options.metering, options.trustProxy), options.logError))
  useCollections(app, options)
  return app
}
