import { H3 } from 'h3'
import { errorResponse } from '../errors/error-response.ts'
import { type CollectionsOptions, useCollections } from './collection-routes.ts'

/**
 * The collection-management API alone, for a server that serves it on a port of its own ({user_url}).
 * `createApp({collections})` serves the same routes beside the main API on one port; the paths do not
 * collide. Anything but a collection route is a JSON 404.
 */
export const createCollectionsApp = (
  options: CollectionsOptions & { readonly logError?: (error: unknown) => void },
): H3 => {
  const app = new H3({ silent: true, onError: (error) => errorResponse(error, options.logError) })
  useCollections(app, options)
  return app
}
