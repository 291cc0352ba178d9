import type { PlanOptions } from '@oqlkit/engine'
import type { H3 } from 'h3'
import { rateLimitHandler } from '../routes/rate-limit-handler.ts'
import { meteringMiddleware } from './metering-middleware.ts'
import type { MeteringOptions } from './metering-options.ts'

/**
 * Meters an app: the middleware (keys, prices, budgets, request rate, X-RateLimit headers) around every
 * route registered after it, and `GET /rate-limit`. Registered first, so every response is metered.
 */
export const useMetering = (
  app: H3,
  options: MeteringOptions,
  logError?: (error: unknown) => void,
  planOptions: PlanOptions = {},
): void => {
  app.use(meteringMiddleware(options, logError, planOptions))
  app.get('/rate-limit', rateLimitHandler)
}
