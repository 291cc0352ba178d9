import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { ENTITY_PATH_LIST, entityOfPath } from '../request/entity-paths.ts'

// First path segments of the routes besides the entity paths.
const ROUTE_SEGMENTS = [
  '',
  'autocomplete',
  'query',
  'validate',
  'parse-context',
  'properties',
  'openapi.json',
]

// The paths that also take POST (the execute and translate endpoints).
const POST_PATHS = ['/', '/query']

/**
 * Every request no route took: 405 for a known path with another method, 404 (JSON, naming the
 * routes there are) otherwise.
 */
export const fallbackHandler = (event: H3Event): never => {
  const { pathname } = event.url
  const segment = pathname.split('/')[1] ?? ''
  const known = ROUTE_SEGMENTS.includes(segment) || entityOfPath(segment) !== undefined
  if (known && event.req.method !== 'GET' && event.req.method !== 'HEAD') {
    const lookup = /^\/[^/]+\/lookup\/?$/.test(pathname)
    const allow = lookup ? 'POST' : POST_PATHS.includes(pathname) ? 'GET, HEAD, POST' : 'GET, HEAD'
    throw new ApiError(
      405,
      [
        {
          error: 'method_not_allowed',
          message: lookup
            ? `${event.req.method} ${pathname} is not served: POST the ids as {"ids": [...]}.`
            : `${event.req.method} ${pathname} is not served; this path answers ${allow.replace(', HEAD', '')}.`,
        },
      ],
      { allow },
    )
  }
  throw ApiError.of(
    404,
    'not_found',
    `No route matches ${pathname}. Routes: GET /, GET or POST / with a query (oql, oqo), GET /works (or another entity type) and GET /works/W123… (one entity by id), GET /autocomplete and /autocomplete/works, GET /query/oql/, /query/oqo/ and /query/oxurl/ followed by the query, POST /query, GET /validate, GET /parse-context, GET /properties and /properties/works, GET /query/spec, GET /query/spec/oqo and GET /openapi.json. Entity types: ${ENTITY_PATH_LIST}. GET /openapi.json describes them all.`,
  )
}
