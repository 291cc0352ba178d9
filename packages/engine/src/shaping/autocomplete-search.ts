import { type EntityType, type PropertiesRegistry, propertiesRegistry } from '@oqlkit/oqo-schema/registry'
import type { EntityRecord, StorageAdapter } from '../adapter/storage-adapter.ts'
import { type FilterNode, FilterNodes } from '../plan/filter-node.ts'
import { DEFAULT_GROUP_ORDER, type QueryPlan } from '../plan/query-plan.ts'
import { type AutocompleteResult, toAutocompleteResult } from './autocomplete-result.ts'
import { autocompleteTier } from './autocomplete-text.ts'

export interface AutocompleteQuery {
  /** The entities to suggest from; results of several are merged by how well they match. */
  readonly entities: readonly EntityType[]
  readonly text: string
  readonly limit: number
  /** Suggestions must also match this filter (no search nodes; only with one entity), or null. */
  readonly filter: FilterNode | null
}

// Without an adapter-side type-ahead, a display-name search ranked by relevance is the next best thing.
const searchDisplayNames = async (
  adapter: StorageAdapter,
  entity: EntityType,
  text: string,
  limit: number,
  filter: FilterNode | null,
  registry: PropertiesRegistry,
): Promise<readonly EntityRecord[]> => {
  const column = registry.resolveColumn(entity, 'display_name.search')
  if (adapter.capabilities.fullTextSearch !== true || column === undefined || column.kind !== 'search')
    return []
  const search = FilterNodes.search({ id: column.id, kind: 'search' }, 'display_name', 'stemmed', text)
  const plan: QueryPlan = Object.freeze({
    kind: 'query',
    entity,
    corpus: 'all',
    filter: filter === null ? search : FilterNodes.and([filter, search]),
    sort: Object.freeze([
      { column: 'relevance_score', direction: 'desc' },
      { column: 'id', direction: 'asc' },
    ] as const),
    page: Object.freeze({ kind: 'offset', page: 1, perPage: limit }),
    sample: null,
    select: null,
    groupBy: Object.freeze([]),
    groupOrder: DEFAULT_GROUP_ORDER,
  })
  return (await adapter.queryRows(plan)).rows
}

const popularity = (result: AutocompleteResult): number =>
  (result.entity_type === 'work' ? result.cited_by_count : result.works_count) ?? result.cited_by_count ?? 0

/**
 * Type-ahead suggestions for typed text: the adapter's `autocomplete` per entity (or a display-name
 * search where it has none), shaped as `/autocomplete` results. Suggestions of several entities are
 * merged best match first (same name, then name start, then word start), then by works (or, for works,
 * citations).
 */
export const autocompleteEntities = async (
  adapter: StorageAdapter,
  query: AutocompleteQuery,
  registry: PropertiesRegistry = propertiesRegistry,
): Promise<AutocompleteResult[]> => {
  const perEntity = await Promise.all(
    query.entities.map(async (entity) => {
      const records =
        adapter.autocomplete === undefined
          ? await searchDisplayNames(adapter, entity, query.text, query.limit, query.filter, registry)
          : await adapter.autocomplete({ entity, text: query.text, limit: query.limit, filter: query.filter })
      return records.map((record) => toAutocompleteResult(entity, record))
    }),
  )
  if (perEntity.length === 1) return perEntity[0]!.slice(0, query.limit)
  return perEntity
    .flat()
    .map((result, index) => ({ result, index, tier: autocompleteTier(result.display_name, query.text) }))
    .sort(
      (left, right) =>
        right.tier - left.tier ||
        popularity(right.result) - popularity(left.result) ||
        left.index - right.index,
    )
    .slice(0, query.limit)
    .map(({ result }) => result)
}
