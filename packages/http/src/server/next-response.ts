import { type H3Event, toResponse } from 'h3'
import { errorResponse } from '../errors/error-response.ts'

/**
 * The response of the rest of the chain, for a middleware that works on it: thrown errors, and the
 * not-found h3 returns (not throws) when no route matches, become the API's JSON errors as the app's
 * `onError` makes them, not h3's own error bodies.
 */
export const responseOfNext = async (
  event: H3Event,
  next: () => unknown,
  logError?: (error: unknown) => void,
): Promise<Response> => {
  const onError = (error: unknown) => errorResponse(error, logError)
  try {
    return await toResponse(await next(), event, { onError })
  } catch (error) {
    return onError(error)
  }
}
