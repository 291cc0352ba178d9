import { ENTITY_TYPES, entityPath } from '../entity-types.ts'
import type { Column } from './column.ts'
import { type PropertiesRegistry, propertiesRegistry } from './properties-registry.ts'

/** One property as `GET /properties` serves it: the reference server's fields, plus ours (`value_kind`, …). */
export interface PropertyPayload {
  readonly name: string
  readonly display_name: string
  readonly type: string | null
  readonly operators: readonly string[]
  readonly actions: readonly string[]
  readonly entity_type: string | null
  readonly aliases: readonly string[]
  readonly alternate_keys: readonly string[]
  readonly category: string | null
  readonly supported_by: readonly string[]
  readonly bool_true: null
  readonly bool_false: null
  readonly value_kind: string | null
  readonly value_entity: string | null
  readonly oqo_operators: readonly string[]
}

export interface PropertiesPayload {
  readonly meta: {
    readonly version: string
    readonly entity_count: number
    readonly property_count: number
    readonly fingerprint: string
  }
  readonly properties: Readonly<Record<string, Readonly<Record<string, PropertyPayload>>>>
}

/** The version of the registry we serve: the reference snapshot's, marked as ours because we add keys. */
export const REGISTRY_VERSION_SUFFIX = '+oqlkit.1'

const toPayload = (column: Column): PropertyPayload => ({
  name: column.id,
  display_name: column.displayName,
  type: column.registryType,
  operators: column.operatorBuckets,
  actions: [...column.actions.map((action) => (action === 'select' ? 'column' : action))].sort(),
  entity_type: column.valueEntity === null ? null : entityPath(column.valueEntity),
  aliases: column.aliases,
  alternate_keys: column.alternateKeys,
  category: column.category,
  supported_by: column.supportedBy,
  bool_true: null,
  bool_false: null,
  value_kind: column.kind,
  value_entity: column.valueEntity,
  oqo_operators: column.operators,
})

// FNV-1a (64-bit): a stable content fingerprint for caches, without a crypto dependency in a pure package.
const fingerprintOf = (text: string): string => {
  let hash = 0xcbf29ce484222325n
  for (let index = 0; index < text.length; index++) {
    hash ^= BigInt(text.charCodeAt(index))
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return hash.toString(16).padStart(16, '0')
}

/** The registry as `GET /properties` serves it (and as `spec/properties.json` records it). */
export const buildPropertiesPayload = (
  registry: PropertiesRegistry = propertiesRegistry,
): PropertiesPayload => {
  const properties: Record<string, Record<string, PropertyPayload>> = {}
  let count = 0
  for (const entity of ENTITY_TYPES) {
    const byName: Record<string, PropertyPayload> = {}
    const listed = [...registry.columnsOf(entity, { includeUnlisted: false })].sort((a, b) =>
      a.id < b.id ? -1 : 1,
    )
    for (const column of listed) byName[column.id] = toPayload(column)
    count += listed.length
    properties[entityPath(entity)] = byName
  }
  const sortedProperties = Object.fromEntries(Object.entries(properties).sort(([a], [b]) => (a < b ? -1 : 1)))
  return {
    meta: {
      version: `${registry.meta.version}${REGISTRY_VERSION_SUFFIX}`,
      entity_count: ENTITY_TYPES.length,
      property_count: count,
      fingerprint: fingerprintOf(JSON.stringify(sortedProperties)),
    },
    properties: sortedProperties,
  }
}
