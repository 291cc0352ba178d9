import { type CollectionCaller, hashApiKey, type KeyStore } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { readCredential } from '../metering/credential-reader.ts'
import { callerOf } from '../metering/metered-request.ts'

/**
 * Who sends a request to the collections API or a collection filter: the user of its API key and
 * whether that user is an admin, or null for no key (or one no user holds), which is answered with 401.
 * The composition root supplies it from its key store.
 */
export type CallerResolver = (event: H3Event) => Promise<CollectionCaller | null> | CollectionCaller | null

/**
 * The API key a request presents (`api_key=`, `Authorization: Bearer <key>` or an `api_key` header),
 * read by the same reader as metering's; undefined for no key. A credential that reader refuses (an
 * empty key, a malformed one, two different ones) throws its 401 or 400, saying why, rather than
 * passing for no key.
 */
export const apiKeyOf = (request: Request): string | undefined => {
  const credential = readCredential(request)
  if (credential.kind === 'refused') throw credential.error
  return credential.kind === 'key' ? credential.key : undefined
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
 * identified the caller.
 */
export const keyStoreCallers =
  (keys: KeyStore): CallerResolver =>
  async (event) => {
    // An empty or malformed key or header is refused with metering's own 401 (or 400 for two keys).
    const key = apiKeyOf(event.req)
    if (key === undefined) return null
    const record = await keys.findKey(await hashApiKey(key))
    return record === undefined ? null : { userId: record.userId, admin: record.admin }
  }
