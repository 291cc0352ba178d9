import type { Middleware } from 'h3'
import { errorBody, jsonResponse } from '../errors/error-response.ts'
import { withEditedHeaders } from './byte-responses.ts'
import { CORS_EXPOSED_HEADERS, CORS_METHODS, CORS_REQUEST_HEADERS, type CorsOptions } from './cors-options.ts'
import { responseOfNext } from './next-response.ts'

const DEFAULT_MAX_AGE_SECONDS = 86_400

/** Adds a name to a `Vary` header once. */
export const appendVary = (headers: Headers, name: string): void => {
  const vary = headers.get('vary')
  if (vary === null) headers.set('vary', name)
  else if (!vary.split(',').some((part) => part.trim().toLowerCase() === name.toLowerCase()))
    headers.set('vary', `${vary}, ${name}`)
}

/**
 * CORS for the API. Registered before metering: a preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) is answered here, 204, uncharged and without a key (browsers send
 * none with it); an origin not allowed gets a JSON 403 that says so. Every other response, errors and 429s
 * included, gets `Access-Control-Allow-Origin` for an allowed origin, the exposed headers (scripts can
 * then read the X-RateLimit budget) and `Vary: Origin`, so a cache never hands one origin's answer to
 * another. Credentials (cookies) are never allowed: keys travel in headers a script sets itself.
 */
export const corsMiddleware = (options: CorsOptions, logError?: (error: unknown) => void): Middleware => {
  const allowed = (origin: string): boolean => options.origins === '*' || options.origins.includes(origin)
  const allowOriginOf = (origin: string): string => (options.origins === '*' ? '*' : origin)
  const maxAge = String(options.maxAgeSeconds ?? DEFAULT_MAX_AGE_SECONDS)
  return async (event, next) => {
    const origin = event.req.headers.get('origin')
    const requestedMethod = event.req.headers.get('access-control-request-method')
    if (event.req.method === 'OPTIONS' && origin !== null && requestedMethod !== null) {
      if (!allowed(origin))
        return withEditedHeaders(
          jsonResponse(
            errorBody(403, [
              {
                error: 'cors_origin_refused',
                message: `This server does not answer calls from pages of ${origin}: its operator allows ${options.origins.length === 0 ? 'no origin' : (options.origins as readonly string[]).join(', ')} (oqlkit serve --cors-origin).`,
              },
            ]),
            403,
          ),
          (headers) => appendVary(headers, 'Origin'),
        )
      const headers = new Headers({
        'access-control-allow-origin': allowOriginOf(origin),
        'access-control-allow-methods': CORS_METHODS.join(', '),
        'access-control-allow-headers': CORS_REQUEST_HEADERS.join(', '),
        'access-control-max-age': maxAge,
      })
      appendVary(headers, 'Origin')
      return new Response(null, { status: 204, headers })
    }
    const response = await responseOfNext(event, next, logError)
    return withEditedHeaders(response, (headers) => {
      appendVary(headers, 'Origin')
      if (origin === null || !allowed(origin)) return
      headers.set('access-control-allow-origin', allowOriginOf(origin))
      headers.set('access-control-expose-headers', CORS_EXPOSED_HEADERS.join(', '))
    })
  }
}
