import { selectableFields, unknownSelectFields, writeUnknownSelectMessage } from '@oqlkit/engine'
import { type EntityType, entityPath, propertiesRegistry } from '@oqlkit/oqo-schema'
import type { ApiProblem } from '../errors/api-error.ts'

/**
 * The problem of a `select` of records (a singleton's, a bulk lookup's) naming fields the entity does not
 * have, or undefined when every field is one. Lists check theirs in the planner, with the same message.
 */
export const unknownSelectProblem = (
  entity: EntityType,
  select: readonly string[],
): ApiProblem | undefined => {
  const unknown = unknownSelectFields(entity, propertiesRegistry, select)
  return unknown.length === 0
    ? undefined
    : {
        error: 'invalid_select',
        parameter: 'select',
        message: writeUnknownSelectMessage(
          entityPath(entity),
          unknown,
          selectableFields(entity, propertiesRegistry),
        ),
      }
}
