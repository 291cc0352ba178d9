// Many entities by their ids at once (`POST /{entities}/lookup`): through the adapter's own `findMany` where
// it has one (one statement for them all), else one `findById` / `findByExternalId` after another.
import type { EntityType } from '@oqlkit/oqo-schema/registry'
import { throwIfInterrupted } from './query-interrupted-error.ts'
import type { LookupKey, LookupOptions, LookupResult, StorageAdapter } from './storage-adapter.ts'

/** The most ids one bulk lookup takes: past it a client splits its list (a 400 says so). */
export const MAX_LOOKUP_IDS = 10_000

/** How many single lookups run at once for an adapter without `findMany`. */
const SINGLE_LOOKUPS_AT_ONCE = 4

/** One result per key, in the keys' order (a merged id answered `merged`, not followed). */
export async function lookupEntities(
  adapter: StorageAdapter,
  entity: EntityType,
  keys: readonly LookupKey[],
  options: LookupOptions = {},
): Promise<readonly LookupResult[]> {
  if (keys.length === 0) return []
  if (adapter.findMany !== undefined) {
    const results = await adapter.findMany(entity, keys, options)
    if (results.length !== keys.length)
      throw new Error(`The adapter answered ${results.length} lookups for ${keys.length} keys`)
    return results
  }
  const results: LookupResult[] = new Array(keys.length)
  let next = 0
  const worker = async (): Promise<void> => {
    for (let at = next++; at < keys.length; at = next++) {
      throwIfInterrupted(options.signal)
      const key = keys[at]!
      results[at] =
        key.kind === 'openalex'
          ? await adapter.findById(entity, key.id, options)
          : await adapter.findByExternalId(entity, key.scheme, key.value, options)
    }
  }
  await Promise.all(Array.from({ length: Math.min(SINGLE_LOOKUPS_AT_ONCE, keys.length) }, worker))
  return results
}
