// The sample snapshot's records read straight from its part files (node:zlib), without the code under test:
// the expected side of the entity-API tests.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'

export { SAMPLE_SNAPSHOT_DIR }

export type Row = Readonly<Record<string, unknown>>

const cache = new Map<string, Row[]>()

/** Every record of a snapshot folder (`works`, `work-types`, …), the newest version of each id. */
export function sampleRecords(folder: string): Row[] {
  const cached = cache.get(folder)
  if (cached !== undefined) return cached
  const dir = join(SAMPLE_SNAPSHOT_DIR, folder)
  const byId = new Map<string, Row>()
  if (existsSync(dir))
    for (const partition of readdirSync(dir)
      .filter((name) => name.startsWith('updated_date='))
      .sort())
      for (const part of readdirSync(join(dir, partition)).sort())
        for (const line of gunzipSync(readFileSync(join(dir, partition, part)))
          .toString('utf8')
          .split('\n'))
          if (line.trim() !== '') {
            const record = JSON.parse(line) as Row
            byId.set(String(record.id), record)
          }
  const records = [...byId.values()]
  cache.set(folder, records)
  return records
}

/** The works the list endpoint serves by default: the core corpus (records not marked `is_xpac`). */
export const coreWorks = (): Row[] => sampleRecords('works').filter((work) => work.is_xpac !== true)

/** `https://openalex.org/W1` → `W1`; path ids → their last segment, decoded. */
export const shortOf = (id: unknown): string => {
  const text = String(id)
  const tail = text.slice(text.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(tail)
  } catch {
    return tail
  }
}

/** The value at a dotted path, with arrays flattened along the way (`authorships.author.id`). */
export const valuesAt = (record: unknown, path: string): unknown[] => {
  let current: unknown[] = [record]
  for (const step of path.split('.')) {
    const next: unknown[] = []
    for (const value of current) {
      if (Array.isArray(value)) {
        for (const item of value)
          if (item !== null && typeof item === 'object') next.push((item as Record<string, unknown>)[step])
      } else if (value !== null && typeof value === 'object')
        next.push((value as Record<string, unknown>)[step])
    }
    current = next
      .flatMap((value) => (Array.isArray(value) ? value : [value]))
      .filter((value) => value != null)
  }
  return current
}
