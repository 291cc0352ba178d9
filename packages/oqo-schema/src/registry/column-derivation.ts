import { type EntityType, resolveEntityType } from '../entity-types.ts'
import type { Column, ColumnAction, Operator, OperatorBucket, ValueCasing, ValueKind } from './column.ts'

/** One property of the `/properties` snapshot, as the reference server publishes it. */
export interface RegistryProperty {
  readonly name: string
  readonly type: string | null
  readonly operators: readonly string[]
  readonly actions: readonly string[]
  readonly entity_type: string | null
  readonly display_name: string
  readonly aliases: readonly string[]
  readonly alternate_keys: readonly string[]
  readonly category: string | null
  readonly supported_by: readonly string[]
  readonly bool_true?: unknown
  readonly bool_false?: unknown
}

// The snapshot types every number `number`; these hold decimals (FWCI 1.37, percentiles 0.93, …).
const FLOAT_COLUMNS: ReadonlySet<string> = new Set([
  'fwci',
  'citation_normalized_percentile.value',
  'summary_stats.2yr_mean_citedness',
  'sustainable_development_goals.score',
  'apc_paid.value',
  'apc_paid.value_usd',
])

// Closed vocabularies whose codes are slugs or country codes with a canonical casing. The other
// vocabularies (SDGs, domains, fields, subfields, continents) use opaque ids and count as entity ids.
const ENUM_CASING: Readonly<Partial<Record<EntityType, ValueCasing>>> = {
  countries: 'upper',
  languages: 'lower',
  types: 'lower',
  'source-types': 'lower',
  'institution-types': 'lower',
  'oa-statuses': 'lower',
  indexes: 'lower',
  licenses: 'lower',
}

// The snapshot leaves `entity_type` empty on some id columns; the entity follows from the column.
// Columns that hold ids of several entity types (a host organisation is a publisher or an institution)
// stay null and are checked only for being an OpenAlex id.
const INFERRED_VALUE_ENTITY: Readonly<Record<string, EntityType>> = {
  'x_concepts.id': 'concepts',
  'ancestors.id': 'concepts',
  funded_outputs: 'works',
  work_id: 'works',
  cited_by: 'works',
  referenced_works: 'works',
  related_to: 'works',
  datasets: 'works',
  'institution_awarded.id': 'institutions',
  'institution_awarded.lineage': 'institutions',
  'primary_topic.id': 'topics',
  'topics.id': 'topics',
  'repositories.id': 'sources',
  parent_publisher: 'publishers',
  // Closed vocabularies the snapshot types as plain strings on some entities only: a country code is a
  // code of countries on a funder, a publisher or an award as it is on a work or an institution, so it
  // is validated, cased and annotated the same way everywhere.
  country_code: 'countries',
  country_codes: 'countries',
  'institution_awarded.country_code': 'countries',
  continent: 'continents',
  'institution_awarded.continent': 'continents',
  'institution_awarded.type': 'institution-types',
  'affiliations.institution.type': 'institution-types',
  // The topic hierarchy: `domain.id` names a domain on fields and subfields as it does on topics.
  'domain.id': 'domains',
  'field.id': 'fields',
  'primary_topic.domain.id': 'domains',
  'primary_topic.field.id': 'fields',
  'primary_topic.subfield.id': 'subfields',
  'topics.domain.id': 'domains',
  'topics.field.id': 'fields',
  'topics.subfield.id': 'subfields',
}

const inferValueEntity = (entity: EntityType, property: RegistryProperty): EntityType | null => {
  if (property.entity_type !== null) return resolveEntityType(property.entity_type) ?? null
  if (property.name === 'ids.openalex') return entity
  if (property.name === 'lineage' && (entity === 'institutions' || entity === 'publishers')) return entity
  if (property.name === 'host_organization_lineage' && entity === 'sources') return 'publishers'
  return INFERRED_VALUE_ENTITY[property.name] ?? null
}

const deriveKind = (property: RegistryProperty, valueEntity: EntityType | null): ValueKind | null => {
  switch (property.type) {
    case 'search':
      return 'search'
    case 'boolean':
      return 'boolean'
    case 'date':
      return 'date'
    case 'datetime':
      return 'datetime'
    case 'collection':
      return 'collection'
    case 'number':
      // A number that names an entity is an id (`fields.id` of a domain, `subfields.id` of a field): the
      // reference's OQL reads it with its id field (`field`, `subfield`) and keeps the id text, checked
      // against the vocabulary, where a number would let `field is (9999)` through unchecked.
      if (valueEntity !== null) return 'entity_id'
      return FLOAT_COLUMNS.has(property.name) ? 'float' : 'number'
    case 'openalex_id':
      return 'entity_id'
    case 'external_id':
    case 'string':
      if (valueEntity === null) return 'string'
      return ENUM_CASING[valueEntity] === undefined ? 'entity_id' : 'enum'
    case null:
      return null
    default:
      // A registry type this code does not know yet: treat values as literal strings rather than fail.
      return 'string'
  }
}

const deriveOperators = (kind: ValueKind | null, buckets: readonly string[]): Operator[] => {
  const operators: Operator[] = []
  if (buckets.includes('eq')) operators.push('is')
  // Only numbers and dates compare: an id column the snapshot lists with a range bucket (`fields.id` of
  // a domain) takes none, as its OQL field (`field`, an id) takes none.
  const compares = kind === 'number' || kind === 'float' || kind === 'date' || kind === 'datetime'
  if (compares && (buckets.includes('range') || buckets.includes('date_range')))
    operators.push('>', '>=', '<', '<=')
  if (buckets.includes('search')) operators.push('has')
  // A private collection stands in for a list of ids, so only id-valued columns take one (a date or a
  // boolean given a collection is an error, as the API description requires).
  const takesCollection =
    buckets.includes('collection') || (buckets.includes('eq') && (kind === 'entity_id' || kind === 'enum'))
  if (takesCollection) operators.push('in collection')
  return operators
}

const deriveActions = (actions: readonly string[]): ColumnAction[] =>
  actions.map((action) => (action === 'column' ? 'select' : action)) as ColumnAction[]

export const deriveColumn = (
  entity: EntityType,
  property: RegistryProperty,
  options: { readonly unlisted?: boolean; readonly hiddenAlternateKeys?: readonly string[] } = {},
): Column => {
  const valueEntity = inferValueEntity(entity, property)
  const kind = deriveKind(property, valueEntity)
  return Object.freeze({
    id: property.name,
    entity,
    displayName: property.display_name,
    aliases: Object.freeze([...property.aliases]),
    alternateKeys: Object.freeze([...property.alternate_keys]),
    hiddenAlternateKeys: Object.freeze([...(options.hiddenAlternateKeys ?? [])]),
    kind,
    valueEntity: kind === 'string' ? null : valueEntity,
    casing: kind === 'enum' && valueEntity !== null ? (ENUM_CASING[valueEntity] ?? 'verbatim') : 'verbatim',
    operators: Object.freeze(deriveOperators(kind, property.operators)),
    operatorBuckets: Object.freeze([...property.operators] as OperatorBucket[]),
    actions: Object.freeze(deriveActions(property.actions)),
    category: property.category,
    supportedBy: Object.freeze([...property.supported_by]),
    registryType: property.type,
    unlisted: options.unlisted ?? false,
  })
}
