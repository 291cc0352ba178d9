import { jsonBody, jsonOf, type OpenApiObject, PLANNED, parameter, query, response } from './openapi-parts.ts'

const text = (path: string, summary: string, deprecated = false): OpenApiObject => {
  const operation = (method: 'get' | 'post'): OpenApiObject => ({
    ...PLANNED,
    operationId: `${method === 'get' ? 'get' : 'post'}${path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => `${segment[0]!.toUpperCase()}${segment.slice(1)}`)
      .join('')}`,
    tags: ['Text'],
    summary,
    ...(deprecated ? { deprecated: true } : {}),
    description:
      'Tags free text (a title and an optional abstract, 20-2000 characters together) with keywords and concepts. $0.01 per request; 1 request per second.',
    ...(method === 'get'
      ? {
          parameters: [
            query('title', 'The title (required).'),
            query('abstract', 'The abstract.'),
            parameter('api_key'),
          ],
        }
      : { parameters: [parameter('api_key')], requestBody: jsonBody('The text to tag.', 'TextRequest') }),
    responses: {
      200: jsonOf('The tags.', 'TextTagging'),
      400: response('BadRequest'),
      429: jsonOf('More than one request per second, or the daily budget is spent.', 'Error'),
      default: response('ServerError'),
    },
  })
  return { get: operation('get'), post: operation('post') }
}

/**
 * The paths the API description names that this server does not serve yet, each operation marked
 * `x-oqlkit-status: planned`.
 */
export const plannedPaths = (): Record<string, OpenApiObject> => ({
  '/text': text('/text', 'Tag text with keywords and concepts'),
  '/text/keywords': text('/text/keywords', 'Tag text with keywords'),
  '/text/concepts': text('/text/concepts', 'Tag text with concepts'),
  '/text/topics': text('/text/topics', 'Tag text with topics (deprecated: use /text/keywords)', true),
})
