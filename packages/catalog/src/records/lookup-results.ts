// What a lookup of one entity answers, the same from every storage adapter: the record found (parsed only
// when read), or nothing. Merged and deleted ids are answered by the adapters from their id tables.
import type { LookupResult } from '@oqlkit/engine'

/** No record by that id, and no merged or deleted id either. */
export const MISSING_RECORD: LookupResult = { status: 'missing' }

const utf8 = new TextDecoder()

/** A found record: its stored bytes, parsed only if something reads the object (a `select`). */
export const foundRecord = (jsonBytes: Uint8Array): LookupResult => {
  let parsed: Record<string, unknown> | undefined
  return {
    status: 'found',
    jsonBytes,
    get record() {
      parsed ??= JSON.parse(utf8.decode(jsonBytes)) as Record<string, unknown>
      return parsed
    },
  }
}
