import type { EntityType } from '../entity-types.ts'

/**
 * What kind of value a column holds. It decides how values are typed and validated, which operators
 * make sense, and (in `@oqlkit/oql`) how the value is written.
 * - `number` / `float`: integers only, or decimals too;
 * - `date` (`YYYY-MM-DD`) / `datetime` (ISO 8601);
 * - `entity_id`: the id of an entity of `valueEntity` (letter ids such as `I136199984`, or codes of a
 *   closed vocabulary such as SDG `3`), annotatable with the entity's name;
 * - `enum`: a code of a closed vocabulary with a canonical casing (`article`, `US`, `en`);
 * - `string`: a literal (DOI, ORCID, volume, …);
 * - `search`: free text matched by a search mode;
 * - `collection`: the id of a private collection (`col_…`).
 */
export type ValueKind =
  | 'number'
  | 'float'
  | 'date'
  | 'datetime'
  | 'boolean'
  | 'entity_id'
  | 'enum'
  | 'string'
  | 'search'
  | 'collection'

export const VALUE_KINDS: readonly ValueKind[] = [
  'number',
  'float',
  'date',
  'datetime',
  'boolean',
  'entity_id',
  'enum',
  'string',
  'search',
  'collection',
]

/** What a column can be used for. `select` is the registry's `column` action: a field of the result. */
export type ColumnAction = 'filter' | 'search' | 'sort' | 'group_by' | 'select'

/** The OQO leaf operators (strictly affirmative: negation is `is_negated`). */
export const OPERATORS = ['is', '>', '>=', '<', '<=', 'has', 'in collection'] as const
export type Operator = (typeof OPERATORS)[number]

/** The operator buckets of `/properties`, kept so that the registry can be served as the reference serves it. */
export type OperatorBucket = 'eq' | 'not' | 'null' | 'or' | 'range' | 'date_range' | 'search' | 'collection'

/** How a value of an `enum` column is written canonically. */
export type ValueCasing = 'lower' | 'upper' | 'verbatim'

export interface Column {
  /** The canonical column id (`publication_year`, `authorships.author.id`, `title_and_abstract.search`). */
  readonly id: string
  /** The entity whose rows this column belongs to. */
  readonly entity: EntityType
  /** The public display name; for curated columns it is also the OQL word. */
  readonly displayName: string
  /** Other OQL words that name this column. */
  readonly aliases: readonly string[]
  /** Other column ids that mean this column (`is_oa` for `open_access.is_oa`); canonicalisation collapses them. */
  readonly alternateKeys: readonly string[]
  /** Alternate keys that resolve to this column but are not advertised by `/properties`. */
  readonly hiddenAlternateKeys: readonly string[]
  /** Null for columns that can only be selected (result fields with no filter, sort or group action). */
  readonly kind: ValueKind | null
  /** The entity a value refers to, for `entity_id`, `enum` and `collection` columns. */
  readonly valueEntity: EntityType | null
  readonly casing: ValueCasing
  readonly operators: readonly Operator[]
  readonly operatorBuckets: readonly OperatorBucket[]
  readonly actions: readonly ColumnAction[]
  readonly category: string | null
  /** `gui` when the reference GUI facets it, `oxurl` when it is a documented classic-URL column. */
  readonly supportedBy: readonly string[]
  /** The registry `type` as `/properties` reports it (`openalex_id`, `string`, …), or null. */
  readonly registryType: string | null
  /** True for columns the classic API accepts that the `/properties` snapshot does not list. */
  readonly unlisted: boolean
}

export const columnAllows = (column: Column, operator: Operator): boolean =>
  column.operators.includes(operator)

export const columnCan = (column: Column, action: ColumnAction): boolean => column.actions.includes(action)
