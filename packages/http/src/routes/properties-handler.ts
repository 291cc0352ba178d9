import {
  buildPropertiesPayload,
  ENTITY_TYPES,
  entityPath,
  type PropertiesPayload,
  resolveEntityType,
} from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { readKnownParameters } from '../request/known-parameters.ts'
import { rawQueryOf } from '../request/query-parameters.ts'

let payload: PropertiesPayload | undefined

// Built on first use: the registry does not change while the server runs.
const registryPayload = (): PropertiesPayload => {
  payload ??= buildPropertiesPayload()
  return payload
}

const decodeSegment = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const ENTITY_NAMES = ENTITY_TYPES.map(entityPath).sort().join(', ')

const forEntity = (name: string): unknown => {
  const entity = resolveEntityType(name)
  const all = registryPayload()
  const properties = entity === undefined ? undefined : all.properties[entityPath(entity)]
  if (entity === undefined || properties === undefined)
    throw ApiError.of(
      404,
      'invalid_entity',
      `'${name}' is not an entity type of the properties registry. Entity types: ${ENTITY_NAMES}.`,
    )
  return {
    meta: {
      ...all.meta,
      entity_count: 1,
      property_count: Object.keys(properties).length,
      entity: entityPath(entity),
    },
    properties: { [entityPath(entity)]: properties },
  }
}

/**
 * `GET /properties` (optionally `?entity=`) and `GET /properties/{entity}`: the properties registry,
 * every queryable column of each entity with its operators, value kind, OQL name and aliases, and
 * actions (filter, search, sort, group_by, column). The same document as `spec/properties.json`.
 */
export const propertiesHandler = (event: H3Event): unknown => {
  const parameters = readKnownParameters(
    rawQueryOf(event.req.url),
    ['entity', 'api_key', 'mailto'],
    '/properties',
  )
  const segment = event.context.params?.entity
  const name = segment === undefined ? parameters.get('entity')?.value : decodeSegment(segment)
  return name === undefined || name.trim() === '' ? registryPayload() : forEntity(name.trim())
}
