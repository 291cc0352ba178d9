import type { H3 } from 'h3'
import type { MeteringOptions } from '../metering/metering-options.ts'
import { type AccessLog, accessLogMiddleware } from './access-log.ts'
import { corsMiddleware } from './cors-middleware.ts'
import type { CorsOptions } from './cors-options.ts'
import type { ProxyTrust } from './proxy-trust.ts'
import { type CompressionOptions, compressionMiddleware } from './response-compression.ts'

/** What a self-hosted server adds around an app: all off unless given. */
export interface ServingOptions {
  /** CORS for browser apps on other origins; without it no CORS headers, and a preflight is a 405. */
  readonly cors?: CorsOptions
  /** brotli/gzip by `Accept-Encoding` (`true` for the defaults); without it answers go as they are. */
  readonly compression?: CompressionOptions | boolean
  /** One entry per request (`openAccessLog`, `createAccessLog`); none without. */
  readonly accessLog?: AccessLog
  /**
   * Which proxies to believe about the client's address (`readProxyTrust`), for anonymous budgets and the
   * access log; without it the socket's peer is the client and `X-Forwarded-For` is ignored.
   */
  readonly trustProxy?: ProxyTrust
}

/**
 * Registers the serving layers, outermost first: the access log (it sees every final status and the whole
 * time), CORS (preflights answered before metering or any route), compression. Call before any other
 * middleware.
 */
export const useServingLayers = (
  app: H3,
  options: ServingOptions,
  logError?: (error: unknown) => void,
): void => {
  if (options.accessLog !== undefined)
    app.use(accessLogMiddleware(options.accessLog, options.trustProxy, logError))
  if (options.cors !== undefined) app.use(corsMiddleware(options.cors, logError))
  if (options.compression !== undefined && options.compression !== false)
    app.use(compressionMiddleware(options.compression === true ? {} : options.compression, logError))
}

/** Metering options with the app's proxy trust, unless they name their own. */
export const withTrustProxy = (
  metering: MeteringOptions,
  trustProxy: ServingOptions['trustProxy'],
): MeteringOptions =>
  trustProxy === undefined || metering.trustProxy !== undefined ? metering : { ...metering, trustProxy }
