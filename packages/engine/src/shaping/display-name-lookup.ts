import { decodePercentEscapes, type EntityType, type PropertiesRegistry } from '@oqlkit/oqo-schema/registry'
import type { StorageAdapter } from '../adapter/storage-adapter.ts'
import { FilterNodes } from '../plan/filter-node.ts'
import { DEFAULT_GROUP_ORDER, type QueryPlan } from '../plan/query-plan.ts'

// One statement per this many ids: an in-list the adapter can probe, not one query per key.
const BATCH = 500

/** The short form of an id as the lookup is keyed: `W123` for letter ids, the last path segment otherwise. */
const shortOf = (id: string): string => {
  const letter = /^(?:https?:\/\/(?:www\.)?openalex\.org\/)?([A-Za-z]\d+)$/i.exec(id)?.[1]
  if (letter !== undefined) return letter.toUpperCase()
  return decodePercentEscapes(id.replace(/\/+$/, '').split('/').at(-1) ?? id)
}

/**
 * The `display_name`s of entities by short id (`A123`, `ecology`), read through `queryRows` with an
 * id in-list and `select`, a batch at a time: what group keys and hints show. Ids that are not found
 * are missing from the map; a failing lookup yields no names rather than failing the response.
 */
export const findDisplayNames = async (
  adapter: StorageAdapter,
  entity: EntityType,
  shortIds: readonly string[],
  registry: PropertiesRegistry,
): Promise<Map<string, string>> => {
  const names = new Map<string, string>()
  const column = [registry.resolveColumn(entity, 'ids.openalex'), registry.resolveColumn(entity, 'id')].find(
    (candidate) => candidate?.kind !== null && candidate?.actions.includes('filter') === true,
  )
  if (column === undefined || column.kind === null) return names
  const ref = { id: column.id, kind: column.kind }
  const lowered = new Map(shortIds.map((id) => [id.toLowerCase(), id]))
  for (let start = 0; start < shortIds.length; start += BATCH) {
    const batch = shortIds.slice(start, start + BATCH)
    const plan: QueryPlan = Object.freeze({
      kind: 'query',
      entity,
      corpus: 'all',
      filter:
        batch.length === 1 ? FilterNodes.comparison(ref, '=', batch[0]!) : FilterNodes.inList(ref, batch),
      sort: Object.freeze([{ column: 'id', direction: 'asc' }] as const),
      page: Object.freeze({ kind: 'offset', page: 1, perPage: batch.length }),
      sample: null,
      select: Object.freeze(['id', 'display_name']),
      groupBy: Object.freeze([]),
      groupOrder: DEFAULT_GROUP_ORDER,
    })
    try {
      const { rows } = await adapter.queryRows(plan)
      for (const row of rows) {
        if (typeof row.id !== 'string' || typeof row.display_name !== 'string') continue
        const short = shortOf(row.id)
        names.set(lowered.get(short.toLowerCase()) ?? short, row.display_name)
      }
    } catch {
      // Names are decoration: a key without one is shown as itself.
    }
  }
  return names
}
