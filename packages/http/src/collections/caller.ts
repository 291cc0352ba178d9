import { type CollectionCaller, hashApiKey, type KeyStore } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { readCredential } from '../metering/credential-reader.ts'
import { callerOf } from '../metering/metered-request.ts'
import { rawQueryOf } from '../request/query-parameters.ts'

/**
 * Who sends a request to the collections API or a collection filter: the user of its API key and
 * whether that user is an admin, or null for no key (or one no user holds), which is answered with 401.
 * The composition root supplies it from its key store.
 */
export type CallerResolver = (event: H3Event) => Promise<CollectionCaller | null> | CollectionCaller | null

/**
 * The API key a request presents, `api_key=` in the query or `Authorization: Bearer <key>`, read by the
 * same reader as metering's; none for no key, and none for a credential that reader refuses.
 */
export const apiKeyOf = (request: Request): string | undefined => {
  const credential = readCredential(request.headers.get('authorization'), rawQueryOf(request.url))
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
    // A malformed key or header is refused with metering's own 401 (or 400 for two keys), saying why.
    const credential = readCredential(event.req.headers.get('authorization'), rawQueryOf(event.req.url))
    if (credential.kind === 'refused') throw credential.error
    if (credential.kind === 'none') return null
    const record = await keys.findKey(await hashApiKey(credential.key))
    return record === undefined ? null : { userId: record.userId, admin: record.admin }
  }
