import { type CollectionCaller, hashApiKey, isWellFormedApiKey, type KeyStore } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { callerOf } from '../metering/metered-request.ts'
import { readQueryParameters } from '../request/query-parameters.ts'

/**
 * Who sends a request to the collections API or a collection filter: the user of its API key and
 * whether that user is an admin, or null for no key (or one no user holds), which is answered with 401.
 * The composition root supplies it from its key store.
 */
export type CallerResolver = (event: H3Event) => Promise<CollectionCaller | null> | CollectionCaller | null

const BEARER = /^Bearer +(\S+) *$/i

/** The API key a request presents, `api_key=` in the query or `Authorization: Bearer <key>`. */
export const apiKeyOf = (request: Request): string | undefined => {
  const authorization = request.headers.get('authorization')
  const bearer = authorization === null ? null : BEARER.exec(authorization.trim())
  if (bearer !== null) return bearer[1]
  const question = request.url.indexOf('?')
  if (question === -1) return undefined
  const parameter = readQueryParameters(request.url.slice(question + 1).split('#', 1)[0] ?? '').find(
    (each) => each.name === 'api_key' && each.value !== '',
  )
  return parameter?.value
}

/**
 * A resolver over a fixed map of keys to callers: for tests, and for servers that provision a few keys
 * at start. A key not in the map is no caller.
 */
export const fixedKeyCallers =
  (keys: Readonly<Record<string, CollectionCaller>>): CallerResolver =>
  (event) => {
    const key = apiKeyOf(event.req)
    return key !== undefined && Object.hasOwn(keys, key) ? keys[key]! : null
  }

/**
 * The caller as the metering middleware identified it (`callerOf`): the holder of a known key, or null
 * for anonymous use. Needs `createApp({metering})`, which refuses unknown and malformed keys itself (401)
 * before any route runs; without metering every caller is null.
 */
export const meteredCaller: CallerResolver = (event) => {
  const caller = callerOf(event)
  return caller?.kind === 'key' ? { userId: caller.key.userId, admin: caller.key.admin } : null
}

/**
 * A resolver over a key store: the holder of a known key. For a server that serves collections without
 * metering, and for the collections API on a port of its own, where no metering middleware has
 * identified the caller. A malformed key is no caller, without being hashed or looked up.
 */
export const keyStoreCallers =
  (keys: KeyStore): CallerResolver =>
  async (event) => {
    const key = apiKeyOf(event.req)
    if (key === undefined || !isWellFormedApiKey(key)) return null
    const record = await keys.findKey(await hashApiKey(key))
    return record === undefined ? null : { userId: record.userId, admin: record.admin }
  }
