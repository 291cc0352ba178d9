import { jsonOf, type OpenApiObject, pathParameter, response } from './openapi-parts.ts'

const html = (description: string): OpenApiObject => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
})

const asset = (description: string): OpenApiObject => ({
  description,
  headers: {
    ETag: { description: 'A hash of the file; send it as If-None-Match.', schema: { type: 'string' } },
  },
  content: {
    'text/javascript': { schema: { type: 'string' } },
    'text/css': { schema: { type: 'string' } },
    'application/json': { schema: { type: 'string' } },
  },
})

const UNAVAILABLE = jsonOf(
  'The page\u2019s files are missing from this installation (`page_unavailable`: the bundle of `@oqlkit/playground` is not built).',
  'Error',
)

const page = (operationId: string, summary: string, description: string): OpenApiObject => ({
  get: {
    operationId,
    tags: ['Pages'],
    summary,
    description,
    responses: { 200: html('The page.'), 503: UNAVAILABLE, default: response('ServerError') },
  },
})

const assets = (operationId: string, summary: string): OpenApiObject => ({
  get: {
    operationId,
    tags: ['Pages'],
    summary,
    parameters: [pathParameter('file', 'The file name, as the page links it.')],
    responses: {
      200: asset('The file.'),
      304: { description: 'The file is unchanged since the ETag sent in If-None-Match.' },
      404: response('NotFound'),
      503: UNAVAILABLE,
      default: response('ServerError'),
    },
  },
})

/** The pages for people (`pages/page-routes.ts`); a browser at `GET /` is sent to the playground. */
export const pagePaths = (): Record<string, OpenApiObject> => ({
  '/playground': page(
    'getPlayground',
    'The playground: write OQL with completion and lint, see the three forms, results and charts',
    'An HTML page that runs `@oqlkit/oql` in the browser and calls this API; every script and style comes from this server.',
  ),
  '/playground/assets/{file}': assets('getPlaygroundAsset', 'A script or stylesheet of the playground'),
  '/docs': page('getDocs', 'This document, rendered for people', 'Swagger UI rendering `/openapi.json`.'),
  '/docs/assets/{file}': assets('getDocsAsset', 'A script or stylesheet of the docs page'),
})
