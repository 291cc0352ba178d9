import type { EntityType, PropertiesRegistry } from '@oqlkit/oqo-schema/registry'

/**
 * The fields `select` may name for an entity: the top-level fields of its records (nested paths such
 * as `open_access.is_oa` are not selectable), sorted. Lists and singletons check `select` alike.
 */
export const selectableFields = (entity: EntityType, registry: PropertiesRegistry): readonly string[] =>
  registry
    .columnsOf(entity)
    .filter((column) => column.actions.includes('select') && !column.id.includes('.'))
    .map((column) => column.id)
    .sort()

/** The names of `select` that are not selectable fields of the entity, in the order written. */
export const unknownSelectFields = (
  entity: EntityType,
  registry: PropertiesRegistry,
  select: readonly string[],
): string[] => {
  const valid = new Set(selectableFields(entity, registry))
  return select.filter((field) => !valid.has(field))
}

/** The message for a `select` that names fields the entity does not have. */
export const writeUnknownSelectMessage = (
  entityPath: string,
  unknown: readonly string[],
  valid: readonly string[],
): string =>
  `select takes top-level fields of ${entityPath}; ${unknown.map((field) => `'${field}'`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not one. Valid fields: ${valid.join(', ')}.`
