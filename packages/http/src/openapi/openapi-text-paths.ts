import { jsonBody, jsonOf, type OpenApiObject, parameter, query, response } from './openapi-parts.ts'

type TextRoute = 'all' | 'keywords' | 'concepts' | 'topics'

const SCHEMA: Record<TextRoute, string> = {
  all: 'TextTagging',
  keywords: 'TextKeywords',
  concepts: 'TextConcepts',
  topics: 'TextTopics',
}

const text = (route: TextRoute, summary: string): OpenApiObject => {
  const path = route === 'all' ? '/text' : `/text/${route}`
  const deprecated = route === 'topics'
  const operation = (method: 'get' | 'post'): OpenApiObject => ({
    operationId: `${method === 'get' ? 'get' : 'post'}${path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => `${segment[0]!.toUpperCase()}${segment.slice(1)}`)
      .join('')}`,
    tags: ['Text'],
    summary,
    ...(deprecated ? { deprecated: true } : {}),
    description: `Tags free text (a title and an optional abstract, 20-2000 characters together) with the catalog's labels, using a model trained from the catalog's works at ingest. Scores are in [0, 1], highest first; labels under the model's threshold are left out, so unrelated text gets few or no tags. $0.01 per request; at most 1 request per second per key or address (429 with Retry-After beyond).${deprecated ? ' Deprecated: answers with a `Deprecation` header and a `warning`; use /text/keywords.' : ''}`,
    ...(method === 'get'
      ? {
          parameters: [
            query('title', 'The title (required).'),
            query('abstract', 'The abstract.'),
            parameter('api_key'),
          ],
        }
      : {
          parameters: [parameter('api_key')],
          requestBody: jsonBody(
            'The text to tag: only the fields `title` and `abstract`. Without a body, title= and abstract= may come in the query string.',
            'TextRequest',
          ),
        }),
    responses: {
      200: jsonOf('The tags.', SCHEMA[route]),
      400: response('BadRequest'),
      ...(method === 'post' ? { 413: jsonOf('The body is larger than 64 KB.', 'Error') } : {}),
      501: jsonOf('The catalog has no text-tagging model (`tagger_unavailable`); re-ingest it.', 'Error'),
      default: response('ServerError'),
    },
  })
  return { get: operation('get'), post: operation('post') }
}

/** The text-tagging operations: `/text` and its single-kind routes, GET and POST. */
export const textPaths = (): Record<string, OpenApiObject> => ({
  '/text': text('all', 'Tag text with keywords and concepts'),
  '/text/keywords': text('keywords', 'Tag text with keywords'),
  '/text/concepts': text('concepts', 'Tag text with concepts'),
  '/text/topics': text('topics', 'Tag text with topics (deprecated: use /text/keywords)'),
})
