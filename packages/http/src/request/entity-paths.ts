import { type EntityType, entityPath, SERVED_ENTITY_TYPES } from '@oqlkit/oqo-schema'

/** The entity types the API serves at `/{entities}`, by path (`/work-types` is the OQO's `types`). */
export const API_ENTITIES: readonly EntityType[] = SERVED_ENTITY_TYPES

// `/types` too: the classic URLs the language writes for work types use it, as the reference engine does, so
// a URL from `oxurl` or `meta.x_query` runs here unchanged.
const BY_PATH: ReadonlyMap<string, EntityType> = new Map([
  ...API_ENTITIES.map((entity) => [entityPath(entity), entity] as const),
  ['types', 'types'],
])

/** The entity a path segment names (`work-types` → `types`), any case; undefined when it names none. */
export const entityOfPath = (segment: string): EntityType | undefined => BY_PATH.get(segment.toLowerCase())

/** `/works, /authors, …`: for messages that list the valid entity paths. */
export const ENTITY_PATH_LIST = API_ENTITIES.map((entity) => `/${entityPath(entity)}`).join(', ')
