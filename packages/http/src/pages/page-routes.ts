import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { H3, H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { staticFolder, staticResponse } from './static-files.ts'

/** Where the pages' files come from; by default the bundle of the installed `@oqlkit/playground`. */
export interface PagesOptions {
  /** The folder of the pages' bundle (`@oqlkit/playground`'s `bundle/`). */
  readonly bundleDir?: string
}

const require = createRequire(import.meta.url)

const installedBundle = (): string =>
  join(dirname(require.resolve('@oqlkit/playground/package.json')), 'bundle')

// Everything a page loads comes from this server ('self'): the pages work with no other network, and a
// script injected through a query result could not phone out. CodeMirror and Swagger UI set inline styles.
const PAGE_SECURITY = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}

/** True when a browser asks for the root: it prefers HTML to JSON (a client or `curl` does not). */
export const prefersHtml = (event: H3Event): boolean => {
  const accept = event.req.headers.get('accept') ?? ''
  return /\btext\/html\b/i.test(accept) && !/^\s*application\/json\b/i.test(accept)
}

/** A browser at the root goes to the playground; relative, so it works behind a path prefix too. */
export const toPlayground = (): Response =>
  new Response(null, { status: 302, headers: { location: 'playground', 'cache-control': 'no-cache' } })

/**
 * The pages for people: `/playground` (the OQL editor) and `/docs` (the OpenAPI document rendered by
 * Swagger UI), with their scripts and styles under `<page>/assets/`, all from `@oqlkit/playground`'s
 * bundle. Registered before the entity routes, which would otherwise read `playground` as an entity type.
 */
export const usePages = (app: H3, options: PagesOptions = {}): void => {
  const bundle = staticFolder(() => options.bundleDir ?? installedBundle())
  const serve = (event: H3Event, name: string, isPage: boolean): Response => {
    const files = bundle()
    if (files === undefined)
      throw ApiError.of(
        503,
        'page_unavailable',
        'The pages bundle of @oqlkit/playground is not in this installation. Build it with `npm run build` (npm ci runs it) and restart the server.',
      )
    const file = files.get(name)
    if (file === undefined || (!isPage && name.endsWith('.html')))
      throw ApiError.of(404, 'not_found', `The pages have no asset '${name}'.`)
    return staticResponse(file, event.req, PAGE_SECURITY)
  }
  app.get('/playground', (event) => serve(event, 'playground.html', true))
  app.get('/docs', (event) => serve(event, 'docs.html', true))
  for (const page of ['playground', 'docs'])
    app.get(`/${page}/assets/:file`, (event) => serve(event, event.context.params?.file ?? '', false))
}
