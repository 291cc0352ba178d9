import { shapeOfValueKind, type ValueShape } from '@oqlkit/engine'
import { type EntityType, type PropertiesRegistry, propertiesRegistry } from '@oqlkit/oqo-schema'

/**
 * The types the registry knows of an entity's top-level fields (`publication_year` a number, `publication_date`
 * a date, `corresponding_author_ids` ids): what a typed export's columns start from, so a field keeps its type
 * in a file where every value of it is null. Fields the registry only selects (`authorships`) have no type
 * there; their shapes come from the rows.
 */
export const registryShapesOf = (
  entity: EntityType,
  registry: PropertiesRegistry = propertiesRegistry,
): ReadonlyMap<string, ValueShape> =>
  new Map(
    registry
      .columnsOf(entity)
      .filter(
        (column) => column.kind !== null && !column.id.includes('.') && column.actions.includes('select'),
      )
      .map((column) => [column.id, shapeOfValueKind(column.kind)]),
  )
