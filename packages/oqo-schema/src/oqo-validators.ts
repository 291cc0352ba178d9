import { type } from 'arktype'
import { ENTITY_TYPE_ALIASES, ENTITY_TYPES, type EntityTypeAlias } from './entity-types.ts'
import { OPERATORS } from './registry/column.ts'

// Arktype validators for each node of an OQO. The recursive filter tree is walked by
// `validateOqoShape`, which picks the leaf or branch validator for each node, so an error speaks of
// the node the user meant instead of listing why it is neither a leaf nor a branch.

export const CORPORA = ['core', 'expansion', 'all'] as const
export type Corpus = (typeof CORPORA)[number]

export const JOINS = ['and', 'or'] as const

/** `sample` is at most this many rows. */
export const MAX_SAMPLE = 10_000

export const entityTypeValidator = type.enumerated(
  ...ENTITY_TYPES,
  ...(Object.keys(ENTITY_TYPE_ALIASES) as EntityTypeAlias[]),
)

export const operatorValidator = type.enumerated(...OPERATORS)

export const leafFilterValidator = type({
  '+': 'reject',
  column_id: 'string > 0',
  value: 'string | number | boolean | null',
  'operator?': operatorValidator,
  'is_negated?': 'boolean',
})

export const branchFilterValidator = type({
  '+': 'reject',
  join: type.enumerated(...JOINS),
  filters: type('object[]').atLeastLength(1),
  'is_negated?': 'boolean',
})

export const groupByValidator = type({
  '+': 'reject',
  column_id: 'string > 0',
})

const oqoShape = {
  '+': 'reject',
  get_rows: entityTypeValidator,
  'corpus?': type.enumerated(...CORPORA),
  'filter_rows?': 'object[]',
  'group_by?': groupByValidator.array(),
  'sample?': type(`1 <= number.integer <= ${MAX_SAMPLE}`).or('null'),
  'seed?': type('string | number.integer | null'),
} as const

/** The top level of an OQO v1.4 (the filter tree is checked node by node). */
export const oqoValidator = type(oqoShape)

const sortByEntryValidator = type({
  column_id: 'string > 0',
  'direction?': type.enumerated('asc', 'desc'),
  'aggregate?': 'string',
})

/**
 * The top level of an OQO as input: v1.4 plus the view keys that older clients embed (`sort_by`,
 * `select`, `per_page`, `page`, `cursor`, `sort_by_column`, `sort_by_order`). They are accepted with a
 * warning and lose to sibling request parameters.
 */
export const oqoInputValidator = type({
  ...oqoShape,
  'sort_by?': sortByEntryValidator.array(),
  'select?': type('string').array().or('string'),
  'per_page?': '1 <= number.integer <= 100',
  'page?': 'number.integer >= 1',
  'cursor?': 'string',
  'sort_by_column?': 'string',
  'sort_by_order?': type.enumerated('asc', 'desc'),
})

export const LEGACY_VIEW_KEYS = [
  'sort_by',
  'select',
  'per_page',
  'page',
  'cursor',
  'sort_by_column',
  'sort_by_order',
] as const
