import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { ENTITY_PATH_LIST, entityOfPath } from '../request/entity-paths.ts'

/**
 * Every request no route took: 405 for a known path with another method, 404 (JSON, naming the
 * routes there are) otherwise.
 */
export const fallbackHandler = (event: H3Event): never => {
  const segment = event.url.pathname.split('/')[1] ?? ''
  const known = segment === '' || segment === 'autocomplete' || entityOfPath(segment) !== undefined
  if (known && event.req.method !== 'GET' && event.req.method !== 'HEAD')
    throw new ApiError(
      405,
      [
        {
          error: 'method_not_allowed',
          message: `${event.req.method} ${event.url.pathname} is not served; this path answers GET.`,
        },
      ],
      { allow: 'GET, HEAD' },
    )
  throw ApiError.of(
    404,
    'not_found',
    `No route matches ${event.url.pathname}. Routes: GET /, GET /{entities}, GET /{entities}/{id}, GET /autocomplete and GET /autocomplete/{entity}, where {entities} is one of ${ENTITY_PATH_LIST}.`,
  )
}
