import { isWellFormedApiKey } from '@oqlkit/engine'
import { ApiError } from '../errors/api-error.ts'
import { rawQueryOf, readQueryParameters } from '../request/query-parameters.ts'

/** The key a request presents: none, one (in any of its transports), or a refusal before any lookup. */
export type Credential =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly key: string }
  | { readonly kind: 'refused'; readonly error: ApiError }

const CHALLENGE = { 'www-authenticate': 'Bearer realm="oqlkit"' }
const INVALID_TOKEN = { 'www-authenticate': 'Bearer realm="oqlkit", error="invalid_token"' }

const HOW_TO_SEND =
  'Send a key as api_key=<key>, as the header Authorization: Bearer <key> or as the header api_key: <key>, or send none (the anonymous daily budget applies).'

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

/**
 * An empty key where a key was announced: `api_key=` with no value, an empty `Authorization` or
 * `api_key` header, or `Bearer` with nothing after it. Most often a client's unset variable; serving it
 * as anonymous would hide that until the smaller budget runs out.
 */
const emptyKeyError = (where: string): ApiError =>
  new ApiError(
    401,
    [{ error: 'invalid_api_key', message: `The API key is empty (${where}). ${HOW_TO_SEND}` }],
    INVALID_TOKEN,
  )

const BEARER = /^Bearer +([^\s,]+) *$/i
const BEARER_ALONE = /^Bearer *$/i
const SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,30})(?: |$)/

/** The key of an `Authorization` header, or the refusal of a header that is not `Bearer <key>`. */
const readAuthorization = (authorization: string): string | ApiError => {
  const value = authorization.trim()
  if (value === '') return emptyKeyError('the Authorization header is empty')
  if (BEARER_ALONE.test(value)) return emptyKeyError('Authorization: Bearer has no key after it')
  const bearer = BEARER.exec(value)
  if (bearer !== null) return bearer[1] as string
  const scheme = SCHEME.exec(value)?.[1]
  return new ApiError(
    401,
    [
      {
        error: 'invalid_authorization',
        message: `The Authorization header must be 'Bearer <API key>'${scheme === undefined || /^bearer$/i.test(scheme) ? '' : ` (was a ${scheme} credential)`}. ${HOW_TO_SEND}`,
      },
    ],
    CHALLENGE,
  )
}

/**
 * Reads the API key of a request from its three transports: `api_key=` in the query,
 * `Authorization: Bearer <key>`, and an `api_key: <key>` header (the one openalexR sends). None of them
 * takes precedence: a key may come in several as long as it is the same key; two different keys are a
 * 400, since the server cannot tell which one the client meant to pay with. An empty key in any
 * transport, a header that is not `Bearer <key>`, or a malformed key is a 401: a request that tried to
 * authenticate never silently falls back to anonymous use. Messages never echo what was sent.
 */
export const readCredential = (request: Request): Credential => {
  const keys = new Set<string>()
  for (const parameter of readQueryParameters(rawQueryOf(request.url)))
    if (parameter.name === 'api_key') {
      if (parameter.value === '') return { kind: 'refused', error: emptyKeyError('api_key= has no value') }
      keys.add(parameter.value)
    }
  const authorization = request.headers.get('authorization')
  if (authorization !== null) {
    const read = readAuthorization(authorization)
    if (read instanceof ApiError) return { kind: 'refused', error: read }
    keys.add(read)
  }
  // Two `api_key` headers arrive joined by a comma, which no key contains: refused as malformed.
  const header = request.headers.get('api_key')
  if (header !== null) {
    if (header.trim() === '') return { kind: 'refused', error: emptyKeyError('the api_key header is empty') }
    keys.add(header.trim())
  }
  if (keys.size > 1)
    return {
      kind: 'refused',
      error: ApiError.of(
        400,
        'conflicting_api_keys',
        'The request carries different API keys (among api_key=, the Authorization header and the api_key header, or in one of them twice). Send one key.',
      ),
    }
  const [key] = keys
  if (key === undefined) return { kind: 'none' }
  if (!isWellFormedApiKey(key)) return { kind: 'refused', error: malformedKeyError(key.length) }
  return { kind: 'key', key }
}
