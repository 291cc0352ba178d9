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

// Quick shape checks for the common case. Arktype's validators build detailed errors, which costs
// even when there are none, and validation runs several times per translation. Each check below is
// stricter than its validator: when it passes, the validator passes too (and returns the object as
// it is); when it fails, the caller asks the validator, which finds the errors. A key written as a
// symbol, an `undefined` member or an unusual number always goes to the validator.

type Members = Readonly<Record<string, unknown>>

// An inherited key is checked too: the check only has to be stricter than the validator.
const hasOnlyKeys = (node: Members, allowed: ReadonlySet<string>): boolean => {
  for (const key in node) if (!allowed.has(key)) return false
  return Object.getOwnPropertySymbols(node).length === 0
}

const isObjectNode = (value: unknown): value is Members =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const isNonEmptyText = (value: unknown): boolean => typeof value === 'string' && value.length > 0

const OPERATOR_SET: ReadonlySet<unknown> = new Set(OPERATORS)
const LEAF_KEYS: ReadonlySet<string> = new Set(['column_id', 'value', 'operator', 'is_negated'])
const BRANCH_KEYS: ReadonlySet<string> = new Set(['join', 'filters', 'is_negated'])
const GROUP_BY_KEYS: ReadonlySet<string> = new Set(['column_id'])
const OQO_KEYS: ReadonlySet<string> = new Set([
  'get_rows',
  'corpus',
  'filter_rows',
  'group_by',
  'sample',
  'seed',
])
const ENTITY_NAMES: ReadonlySet<unknown> = new Set<string>([
  ...ENTITY_TYPES,
  ...Object.keys(ENTITY_TYPE_ALIASES),
])
const CORPUS_SET: ReadonlySet<unknown> = new Set(CORPORA)

const isLeafValue = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value))

const optionalBoolean = (node: Members, key: string): boolean =>
  !(key in node) || typeof node[key] === 'boolean'

/** A leaf `leafFilterValidator` accepts as it is. */
export const isPlainLeafShape = (node: Members): boolean =>
  hasOnlyKeys(node, LEAF_KEYS) &&
  isNonEmptyText(node.column_id) &&
  isLeafValue(node.value) &&
  (!('operator' in node) || OPERATOR_SET.has(node.operator)) &&
  optionalBoolean(node, 'is_negated')

/** A branch `branchFilterValidator` accepts as it is (its children are checked on their own). */
export const isPlainBranchShape = (node: Members): boolean =>
  hasOnlyKeys(node, BRANCH_KEYS) &&
  (node.join === 'and' || node.join === 'or') &&
  Array.isArray(node.filters) &&
  node.filters.length > 0 &&
  node.filters.every(isObjectNode) &&
  optionalBoolean(node, 'is_negated')

/** A group-by entry `groupByValidator` accepts as it is. */
export const isPlainGroupByShape = (node: unknown): boolean =>
  isObjectNode(node) && hasOnlyKeys(node, GROUP_BY_KEYS) && isNonEmptyText(node.column_id)

/** A query object (without the legacy view keys) `oqoInputValidator` accepts as it is. */
export const isPlainOqoShape = (input: Members): boolean =>
  hasOnlyKeys(input, OQO_KEYS) &&
  ENTITY_NAMES.has(input.get_rows) &&
  (!('corpus' in input) || CORPUS_SET.has(input.corpus)) &&
  (!('filter_rows' in input) ||
    (Array.isArray(input.filter_rows) && input.filter_rows.every(isObjectNode))) &&
  (!('group_by' in input) || (Array.isArray(input.group_by) && input.group_by.every(isPlainGroupByShape))) &&
  (!('sample' in input) ||
    input.sample === null ||
    (Number.isSafeInteger(input.sample) &&
      (input.sample as number) >= 1 &&
      (input.sample as number) <= MAX_SAMPLE)) &&
  (!('seed' in input) ||
    input.seed === null ||
    typeof input.seed === 'string' ||
    Number.isSafeInteger(input.seed))
