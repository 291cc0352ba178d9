import { type OpenApiObject, response } from './openapi-parts.ts'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

/**
 * The served operations with the answers the server can give any of them: 401 for an unknown key and 429 for
 * a call refused by the rate or the budget (metering), 503 for a query stopped at its deadline, a full queue of
 * heavy queries or a shutdown (the request limits). Both run before every route, so these belong to every
 * operation rather than being repeated by hand in each.
 */
export const withServerWideResponses = (
  paths: Record<string, OpenApiObject>,
): Record<string, OpenApiObject> =>
  Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, operation]) => {
          if (!(METHODS as readonly string[]).includes(key)) return [key, operation]
          const { responses } = operation as { responses: Record<string, unknown> }
          return [
            key,
            {
              ...(operation as OpenApiObject),
              responses: {
                ...responses,
                401: responses['401'] ?? response('Unauthorized'),
                429: response('RateLimited'),
                503: response('Unavailable'),
              },
            },
          ]
        }),
      ),
    ]),
  )
