import { isWellFormedApiKey } from '@oqlkit/engine'
import { ApiError } from '../errors/api-error.ts'
import { readQueryParameters } from '../request/query-parameters.ts'

/** The key a request presents: none, one (from either transport), or a refusal before any lookup. */
export type Credential =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'refused'; readonly error: ApiError }

const CHALLENGE = { 'www-authenticate': 'Bearer realm="oqlkit"' }
const INVALID_TOKEN = { 'www-authenticate': 'Bearer realm="oqlkit", error="invalid_token"' }

const HOW_TO_SEND =
  'Send a key as api_key=<key> or as the header Authorization: Bearer <key>, or send none (the anonymous daily budget applies).'

/** The 401 for a key no record matches. It never repeats the key. */
export const unknownKeyError = (): ApiError =>
  new ApiError(
    401,
    [
      {
        error: 'invalid_api_key',
        message: `The API key is not valid: this server issued no such key. ${HOW_TO_SEND}`,
      },
    ],
    INVALID_TOKEN,
  )

const malformedKeyError = (length: number): ApiError =>
  new ApiError(
    401,
    [
      {
        error: 'invalid_api_key',
        message: `The API key is not valid: a key is 16 to 128 characters of A-Z, a-z, 0-9, '_' and '-' (this one has ${length} characters or others). ${HOW_TO_SEND}`,
      },
    ],
    INVALID_TOKEN,
  )

const BEARER = /^Bearer +([^\s,]+) *$/i
const SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,30})(?: |$)/

/**
 * Reads the API key of a request from its two transports, `api_key=` in the query and
 * `Authorization: Bearer <key>`. An empty `api_key=` counts as no key. A malformed Authorization header
 * or key is refused with 401, two different keys with 400: a request never silently falls back to
 * anonymous use when it tried to authenticate. Messages never echo what was sent.
 */
export const readCredential = (authorization: string | null, rawQuery: string): Credential => {
  const keys = new Set<string>()
  for (const parameter of readQueryParameters(rawQuery))
    if (parameter.name === 'api_key' && parameter.value !== '') keys.add(parameter.value)
  if (authorization !== null && authorization.trim() !== '') {
    const bearer = BEARER.exec(authorization.trim())
    if (bearer === null) {
      const scheme = SCHEME.exec(authorization.trim())?.[1]
      return {
        kind: 'refused',
        error: new ApiError(
          401,
          [
            {
              error: 'invalid_authorization',
              message: `The Authorization header must be 'Bearer <API key>'${scheme === undefined || /^bearer$/i.test(scheme) ? '' : ` (was a ${scheme} credential)`}. ${HOW_TO_SEND}`,
            },
          ],
          CHALLENGE,
        ),
      }
    }
    keys.add(bearer[1] as string)
  }
  if (keys.size > 1)
    return {
      kind: 'refused',
      error: ApiError.of(
        400,
        'conflicting_api_keys',
        'The request carries different API keys (in api_key= and the Authorization header, or api_key= given twice). Send one key.',
      ),
    }
  const [key] = keys
  if (key === undefined) return { kind: 'none' }
  if (!isWellFormedApiKey(key)) return { kind: 'refused', error: malformedKeyError(key.length) }
  return { kind: 'key', key }
}
