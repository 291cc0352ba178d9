import { findDisplayNames, type StorageAdapter } from '@oqlkit/engine'
import type { NameLookup } from '@oqlkit/oql'
import {
  COLLECTION_ID,
  type EntityType,
  type Filter,
  findVocabularyEntry,
  type Oqo,
  propertiesRegistry,
  resolveEntityType,
} from '@oqlkit/oqo-schema'

// The ids of other entities an OQO names (`institution is I1`, `country is US`), by the entity they are of.
const referencedIds = (
  entity: EntityType,
  filters: readonly Filter[],
  into: Map<EntityType, Set<string>>,
) => {
  for (const filter of filters) {
    if ('filters' in filter) {
      referencedIds(entity, filter.filters, into)
      continue
    }
    const { value } = filter
    if (typeof value !== 'string' && typeof value !== 'number') continue
    if (typeof value === 'string' && COLLECTION_ID.test(value)) continue
    const column = propertiesRegistry.resolveColumn(entity, filter.column_id)
    if (column === undefined || column.valueEntity === null) continue
    if (column.kind !== 'entity_id' && column.kind !== 'enum') continue
    const ids = into.get(column.valueEntity) ?? new Set<string>()
    ids.add(String(value))
    into.set(column.valueEntity, ids)
  }
}

/**
 * The display names of the ids a query names, read from the catalog (closed vocabularies fill in what
 * the catalog lacks), for the `[annotation]` the printer writes after each id. Undefined when the
 * query names no id, so the caller can skip printing it again. An id the catalog does not have prints
 * as `[no entity found]`, which is what a reader should see.
 */
export const catalogNameLookup = async (
  adapter: StorageAdapter,
  oqo: Oqo,
): Promise<NameLookup | undefined> => {
  const entity = resolveEntityType(oqo.get_rows)
  if (entity === undefined) return undefined
  const wanted = new Map<EntityType, Set<string>>()
  referencedIds(entity, oqo.filter_rows ?? [], wanted)
  if (wanted.size === 0) return undefined
  const found = new Map<EntityType, Map<string, string>>()
  await Promise.all(
    [...wanted].map(async ([valueEntity, ids]) => {
      found.set(valueEntity, await findDisplayNames(adapter, valueEntity, [...ids], propertiesRegistry))
    }),
  )
  return (valueEntity, id) =>
    found.get(valueEntity)?.get(id) ?? findVocabularyEntry(valueEntity, id)?.displayName
}
