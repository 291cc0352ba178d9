import { ENTITY_TYPES, type EntityType, entityPath } from '../entity-types.ts'
import { closestMatches } from '../string-similarity.ts'
import type { Column } from './column.ts'
import { deriveColumn, type RegistryProperty } from './column-derivation.ts'
import { EXTRA_ALTERNATE_KEYS, HIDDEN_ALTERNATE_KEYS, UNLISTED_PROPERTIES } from './column-extras.ts'
import snapshot from './properties-snapshot.json' with { type: 'json' }

/** The registry's identity as `/properties` reports it. */
export interface RegistryMeta {
  readonly version: string
  readonly fingerprint: string
  readonly entityCount: number
  readonly propertyCount: number
}

/** What properties-snapshot.json holds: the type its declaration (properties-snapshot.d.json.ts) gives it. */
export interface PropertiesSnapshot {
  readonly meta: {
    readonly version: string
    readonly fingerprint: string
    readonly entity_count: number
    readonly property_count: number
  }
  readonly properties: Readonly<Record<string, Readonly<Record<string, RegistryProperty>>>>
}

const SNAPSHOT: PropertiesSnapshot = snapshot

// Classic filter keys treat `-` and `_` alike (`publication-year` is `publication_year`).
const normalizeKey = (key: string): string => key.trim().replaceAll('-', '_')

interface EntityColumns {
  readonly listed: readonly Column[]
  readonly all: readonly Column[]
  readonly byKey: ReadonlyMap<string, Column>
  readonly byWord: ReadonlyMap<string, readonly Column[]>
}

const withExtraAlternateKeys = (property: RegistryProperty): RegistryProperty => {
  const extra = EXTRA_ALTERNATE_KEYS[property.name] ?? []
  return extra.length === 0
    ? property
    : { ...property, alternate_keys: [...property.alternate_keys, ...extra] }
}

// Any `<base>.search` column can also be searched by meaning where the entity has semantic search;
// the reference maps `abstract.search.semantic` and friends to the `semantic.search` capability.
const semanticColumns = (properties: readonly RegistryProperty[]): RegistryProperty[] => {
  if (!properties.some((property) => property.name === 'semantic.search')) return []
  return properties
    .filter(
      (property) =>
        property.type === 'search' && /\.search$/.test(property.name) && property.name !== 'semantic.search',
    )
    .map((property) => ({
      ...property,
      name: `${property.name}.semantic`,
      display_name: `${property.display_name} (semantic)`,
      aliases: [],
      alternate_keys: [],
      supported_by: [],
    }))
}

const buildEntityColumns = (entity: EntityType): EntityColumns => {
  const raw = Object.values(SNAPSHOT.properties[entityPath(entity)] ?? {})
  const listed = raw.map((property) =>
    deriveColumn(entity, withExtraAlternateKeys(property), {
      hiddenAlternateKeys: HIDDEN_ALTERNATE_KEYS[`${entity}:${property.name}`] ?? [],
    }),
  )
  const unlisted = [...(UNLISTED_PROPERTIES[entity] ?? []), ...semanticColumns(raw)].map((property) =>
    deriveColumn(entity, property, { unlisted: true }),
  )
  const all = [...listed, ...unlisted]
  const byKey = new Map<string, Column>()
  // Canonical ids first, so an alternate key can never shadow a real column of the same name.
  for (const column of all) byKey.set(normalizeKey(column.id), column)
  for (const column of all)
    for (const key of [...column.alternateKeys, ...column.hiddenAlternateKeys])
      if (!byKey.has(normalizeKey(key))) byKey.set(normalizeKey(key), column)
  const byWord = new Map<string, Column[]>()
  for (const column of all)
    for (const word of new Set([column.displayName, ...column.aliases].map((name) => name.toLowerCase()))) {
      const named = byWord.get(word)
      if (named === undefined) byWord.set(word, [column])
      else named.push(column)
    }
  return { listed: Object.freeze(listed), all: Object.freeze(all), byKey, byWord }
}

/**
 * The properties registry: every queryable column of the 24 entity types, with its value kind,
 * operators and actions. Data (the reference `/properties` snapshot plus the classic API's unlisted
 * keys) behind a small typed API that `oql`, `engine` and `http` all read.
 */
export class PropertiesRegistry {
  readonly #entities = new Map<EntityType, EntityColumns>()
  readonly meta: RegistryMeta

  constructor() {
    for (const entity of ENTITY_TYPES) this.#entities.set(entity, buildEntityColumns(entity))
    this.meta = Object.freeze({
      version: SNAPSHOT.meta.version,
      fingerprint: SNAPSHOT.meta.fingerprint,
      entityCount: ENTITY_TYPES.length,
      propertyCount: [...this.#entities.values()].reduce((sum, columns) => sum + columns.listed.length, 0),
    })
  }

  #columns(entity: EntityType): EntityColumns {
    const columns = this.#entities.get(entity)
    if (columns === undefined) throw new TypeError(`Unknown entity type '${entity}'`)
    return columns
  }

  /** The columns of an entity: the listed ones (what `/properties` serves), then the unlisted ones. */
  columnsOf(entity: EntityType, options: { readonly includeUnlisted?: boolean } = {}): readonly Column[] {
    const columns = this.#columns(entity)
    return options.includeUnlisted === false ? columns.listed : columns.all
  }

  /** The column a canonical id or an alternate key names (`is_oa` → `open_access.is_oa`), if any. */
  resolveColumn(entity: EntityType, idOrAlias: string): Column | undefined {
    // Every key of the map is already normalised, so a hit on the text as written is the same answer.
    const byKey = this.#columns(entity).byKey
    return byKey.get(idOrAlias) ?? byKey.get(normalizeKey(idOrAlias))
  }

  /**
   * The columns whose display name or alias is `word` (case-insensitive), in registry order. A word can
   * name several (on authors, `name` is both the `display_name` field and its search column); the OQL
   * field resolver decides between them by what the clause does.
   */
  findColumnsByWord(entity: EntityType, word: string): readonly Column[] {
    return this.#columns(entity).byWord.get(word.trim().toLowerCase()) ?? []
  }

  /**
   * Keys that look like a mistyped `idOrAlias`, for "did you mean" hints: a listed column's id or alternate key
   * close to it, or the id of a column whose name people use is close to it (its display name or an alias: `yeer` suggests `publication_year`, by
   * `year`). Keys (ids or alternate keys) first, each once. Names are short, so one wrong letter in them is allowed (0.75 similar: `yeer`
   * and `year`), where ids need 0.8.
   */
  suggestColumns(entity: EntityType, idOrAlias: string, limit = 3): string[] {
    const { listed, byWord } = this.#columns(entity)
    const listedIds = new Set(listed.map((column) => column.id))
    // What may be written for a listed column: its id or an alternate key (`is_oa` for `open_access.is_oa`).
    const keys = new Set(listed.flatMap((column) => [column.id, ...column.alternateKeys]))
    const byId = closestMatches(idOrAlias, keys, limit)
    const byName = closestMatches(idOrAlias, byWord.keys(), limit, 0.75).flatMap((word) =>
      (byWord.get(word) ?? []).map((column) => column.id).filter((id) => listedIds.has(id)),
    )
    return [...new Set([...byId, ...byName])].slice(0, limit)
  }
}

/** The registry built from the bundled snapshot. */
export const propertiesRegistry = new PropertiesRegistry()

export const columnsOf = (entity: EntityType): readonly Column[] => propertiesRegistry.columnsOf(entity)

export const resolveColumn = (entity: EntityType, idOrAlias: string): Column | undefined =>
  propertiesRegistry.resolveColumn(entity, idOrAlias)

export const findColumnsByWord = (entity: EntityType, word: string): readonly Column[] =>
  propertiesRegistry.findColumnsByWord(entity, word)

export const suggestColumns = (entity: EntityType, idOrAlias: string): string[] =>
  propertiesRegistry.suggestColumns(entity, idOrAlias)
