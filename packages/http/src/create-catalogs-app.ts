// A server of several catalogs at once (`oqlkit serve --catalog NAME=DIR …`): each is a whole app (`createApp`)
// over its own adapter, sharing the server's limits, metering and collections; a request picks one with
// `data_version=NAME` (its fingerprint works too) and gets the first, the default, without. So that a query can
// be asked again of the data it was first asked of, after the catalog has been refreshed beside it.
import { H3 } from 'h3'
import type { DataVersion } from './envelope/data-version.ts'
import { ApiError } from './errors/api-error.ts'
import { errorResponse } from './errors/error-response.ts'
import { rawQueryOf, readQueryParameters } from './request/query-parameters.ts'
import { withEditedHeaders } from './server/byte-responses.ts'
import { type ServingOptions, useServingLayers } from './server/serving-layers.ts'

/** The query parameter that picks a catalog. */
export const DATA_VERSION_PARAMETER = 'data_version'

export interface ServedCatalog {
  readonly version: DataVersion
  /** The catalog's app, made by `createApp` without serving layers (the catalogs app has them, once). */
  readonly app: { fetch(request: Request): Response | Promise<Response> }
}

/**
 * The catalogs served now, the default first, asked before each request: for a store whose versions come and
 * go while the server runs (a ClickHouse that `oqlkit load` fills: the newest load is the default, and those
 * it keeps stay reachable by name).
 */
export type CatalogDirectory = () => Promise<readonly ServedCatalog[]>

export interface CatalogsAppOptions extends ServingOptions {
  /** The catalogs, the default first; names (and fingerprints) pick them. */
  readonly catalogs: readonly ServedCatalog[] | CatalogDirectory
  readonly logError?: (error: unknown) => void
}

const namesOf = (pick: Map<string, ServedCatalog>): string[] => [
  ...new Set([...pick.values()].map(({ version }) => version.name)),
]

/** The catalogs by name, then by fingerprint where that names no other (two catalogs may hold the same data). */
const catalogsByName = (catalogs: readonly ServedCatalog[]): Map<string, ServedCatalog> => {
  const pick = new Map<string, ServedCatalog>()
  for (const served of catalogs) {
    if (pick.has(served.version.name))
      throw new RangeError(`Two catalogs are named ${served.version.name}: give each its own name`)
    pick.set(served.version.name, served)
  }
  for (const served of catalogs)
    if (!pick.has(served.version.fingerprint)) pick.set(served.version.fingerprint, served)
  return pick
}

/** The request for the chosen catalog: the URL without `data_version`, the same body, headers and client. */
const forwarded = (request: Request, keptQuery: string): Request => {
  const url = new URL(request.url)
  url.search = keptQuery === '' ? '' : `?${keptQuery}`
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(request.body === null ? {} : { body: request.body, duplex: 'half' }),
  }
  const next = new Request(url, init)
  // The client's address, which budgets are kept by, as the server read it (srvx's `request.ip`).
  const { ip } = request as Request & { ip?: string }
  if (ip !== undefined) Object.defineProperty(next, 'ip', { value: ip })
  return next
}

/**
 * A redirect (a merged id's 301) that stays in the version asked for: its `Location` carries the
 * `data_version` pair the request had, as it arrived.
 */
const keepVersionInRedirect = (response: Response, versionPair: string): Response => {
  const location = response.headers.get('location')
  if (response.status < 300 || response.status >= 400 || location === null) return response
  const [path, hash] = location.split('#', 2) as [string, string | undefined]
  const joined = `${path}${path.includes('?') ? (path.endsWith('?') ? '' : '&') : '?'}${versionPair}${hash === undefined ? '' : `#${hash}`}`
  return withEditedHeaders(response, (headers) => headers.set('location', joined))
}

export const createCatalogsApp = (options: CatalogsAppOptions): H3 => {
  const given = options.catalogs
  let catalogsNow: () => Promise<{ first: ServedCatalog; pick: Map<string, ServedCatalog> }>
  if (typeof given === 'function')
    catalogsNow = async () => {
      const catalogs = await given()
      const [first] = catalogs
      if (first === undefined)
        throw new ApiError(
          503,
          [
            {
              error: 'server_busy',
              message:
                'The server holds no version of its data it can answer from now (one is being loaded, or none can be read). Retry after 5 s.',
            },
          ],
          { 'retry-after': '5' },
        )
      return { first, pick: catalogsByName(catalogs) }
    }
  else {
    const [first] = given
    if (first === undefined) throw new RangeError('A catalogs app needs at least one catalog')
    const fixed = { first, pick: catalogsByName(given) }
    catalogsNow = () => Promise.resolve(fixed)
  }
  const app = new H3({ silent: true, onError: (error) => errorResponse(error, options.logError) })
  useServingLayers(app, options, options.logError)
  app.use(async (event) => {
    const parameters = readQueryParameters(rawQueryOf(event.req.url))
    const asked = parameters.filter((parameter) => parameter.name === DATA_VERSION_PARAMETER)
    const { first, pick } = await catalogsNow()
    if (asked.length === 0) return first.app.fetch(event.req)
    if (asked.length > 1)
      throw new ApiError(400, [
        {
          error: 'repeated_parameter',
          parameter: DATA_VERSION_PARAMETER,
          message: `${DATA_VERSION_PARAMETER}= appears more than once; give it once.`,
        },
      ])
    const value = asked[0]!.value.trim()
    const chosen = pick.get(value)
    if (chosen === undefined)
      throw new ApiError(400, [
        {
          error: 'unknown_data_version',
          parameter: DATA_VERSION_PARAMETER,
          message: `${DATA_VERSION_PARAMETER}=${value} is not a version of this server's data: give one of ${namesOf(pick).join(', ')} (or its fingerprint), or leave it out for ${first.version.name}. GET / lists them.`,
        },
      ])
    const kept = parameters
      .filter((parameter) => parameter.name !== DATA_VERSION_PARAMETER)
      .map((parameter) => parameter.raw)
      .join('&')
    return keepVersionInRedirect(await chosen.app.fetch(forwarded(event.req, kept)), asked[0]!.raw)
  })
  return app
}
