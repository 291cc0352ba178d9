import type { EntityType } from '../entity-types.ts'
import type { RegistryProperty } from './column-derivation.ts'

/**
 * Filter keys the classic API accepts that the `/properties` snapshot does not list (the reference
 * server keeps them "unlisted"). They resolve like any other column but are not served by `/properties`.
 */
export const UNLISTED_PROPERTIES: Readonly<Partial<Record<EntityType, readonly RegistryProperty[]>>> = {
  works: [
    {
      // The retired expansion-corpus flag: canonicalisation turns a top-level leaf into `corpus`.
      name: 'is_xpac',
      type: 'boolean',
      operators: ['eq', 'null'],
      actions: ['filter', 'group_by', 'sort'],
      entity_type: null,
      display_name: 'extended index',
      aliases: [],
      alternate_keys: [],
      category: null,
      supported_by: [],
    },
  ],
  locations: [
    {
      name: 'raw_type',
      type: 'string',
      operators: ['eq', 'not', 'null', 'or'],
      actions: ['filter', 'group_by', 'sort'],
      entity_type: null,
      display_name: 'raw type',
      aliases: [],
      alternate_keys: [],
      category: null,
      supported_by: [],
    },
    {
      name: 'raw_source_name',
      type: 'string',
      operators: ['eq', 'not', 'null', 'or'],
      actions: ['filter', 'group_by', 'sort'],
      entity_type: null,
      display_name: 'raw source name',
      aliases: [],
      alternate_keys: [],
      category: null,
      supported_by: [],
    },
  ],
}

/** Alternate keys added to listed columns and served by `/properties`: `service` is the ID-list filter's name in the API description. */
export const EXTRA_ALTERNATE_KEYS: Readonly<Record<string, readonly string[]>> = {
  'ids.openalex': ['service'],
}

/** Alternate keys the classic API accepts but does not advertise, by `entity:column`. */
export const HIDDEN_ALTERNATE_KEYS: Readonly<Record<string, readonly string[]>> = {
  'authors:last_known_institutions.id': ['last_known_authorships.institutions.lineage'],
}
