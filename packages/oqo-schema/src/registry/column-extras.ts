import type { EntityType } from '../entity-types.ts'
import type { RegistryProperty } from './column-derivation.ts'

/** An unlisted property: filtered, grouped and sorted by its own value, with no vocabulary or aliases. */
const unlisted = (
  name: string,
  type: RegistryProperty['type'],
  operators: RegistryProperty['operators'],
  displayName: string,
): RegistryProperty => ({
  name,
  type,
  operators,
  actions: ['filter', 'group_by', 'sort'],
  entity_type: null,
  display_name: displayName,
  aliases: [],
  alternate_keys: [],
  category: null,
  supported_by: [],
})

/**
 * Filter keys the classic API accepts that the `/properties` snapshot does not list (the reference
 * server keeps them "unlisted"). They resolve like any other column but are not served by `/properties`.
 */
export const UNLISTED_PROPERTIES: Readonly<Partial<Record<EntityType, readonly RegistryProperty[]>>> = {
  // The retired expansion-corpus flag: canonicalisation turns a top-level leaf into `corpus`.
  works: [unlisted('is_xpac', 'boolean', ['eq', 'null'], 'extended index')],
  locations: [
    unlisted('raw_type', 'string', ['eq', 'not', 'null', 'or'], 'raw type'),
    unlisted('raw_source_name', 'string', ['eq', 'not', 'null', 'or'], 'raw source name'),
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
