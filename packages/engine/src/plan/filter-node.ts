import type { ValueKind } from '@oqlkit/oqo-schema/registry'

// The filter of a query plan: immutable nodes with a `kind`, in the manner of kysely's operation
// nodes. The planner builds them from a canonical OQO; an adapter's compiler visits them. Columns are
// registry column ids (canonical), with the value kind so a compiler can type its parameters.

export type FilterValue = string | number | boolean

export interface ColumnRef {
  /** The canonical registry column id (`publication_year`, `authorships.author.id`). */
  readonly id: string
  readonly kind: ValueKind
}

export type ComparisonOperator = '=' | '<' | '<=' | '>' | '>='

/** `column <op> value`; for a list column (`authorships.author.id`) `=` means "contains". */
export interface ComparisonNode {
  readonly kind: 'comparison'
  readonly column: ColumnRef
  readonly operator: ComparisonOperator
  readonly value: FilterValue
}

/** `column = any of values`: an OR of equalities on one column, or a resolved collection. */
export interface InListNode {
  readonly kind: 'in-list'
  readonly column: ColumnRef
  readonly values: readonly FilterValue[]
}

/** The column has no value (null, missing, or an empty list). */
export interface MissingNode {
  readonly kind: 'missing'
  readonly column: ColumnRef
}

export type SearchMode = 'stemmed' | 'exact' | 'semantic'

/**
 * A search on one text field: `field` is the search base (`title_and_abstract`, `display_name`),
 * `text` is the OQO search value (bare words, a quoted phrase, `"a"~3~"b"` proximity, wildcards).
 */
export interface SearchNode {
  readonly kind: 'search'
  readonly column: ColumnRef
  readonly field: string
  readonly mode: SearchMode
  readonly text: string
}

/** Membership in a private collection, before the engine resolves it to an `in-list` of ids. */
export interface CollectionNode {
  readonly kind: 'collection'
  readonly column: ColumnRef
  readonly collectionId: string
}

export interface AndNode {
  readonly kind: 'and'
  readonly children: readonly FilterNode[]
}

export interface OrNode {
  readonly kind: 'or'
  readonly children: readonly FilterNode[]
}

/** Negation that counts rows without a value as not matching the inner condition (`!x` keeps nulls). */
export interface NotNode {
  readonly kind: 'not'
  readonly child: FilterNode
}

export type FilterNode =
  | ComparisonNode
  | InListNode
  | MissingNode
  | SearchNode
  | CollectionNode
  | AndNode
  | OrNode
  | NotNode

export type FilterNodeKind = FilterNode['kind']

type NodeOfKind<K extends FilterNodeKind> = Extract<FilterNode, { kind: K }>

/** A visitor with one method per node kind: adding a kind fails to compile until every visitor handles it. */
export type FilterVisitor<R> = { readonly [K in FilterNodeKind]: (node: NodeOfKind<K>) => R }

export const visitFilter = <R>(node: FilterNode, visitor: FilterVisitor<R>): R =>
  (visitor[node.kind] as (node: FilterNode) => R)(node)

// Frozen factories, so a plan can be shared and cached without defensive copies.
export const FilterNodes = {
  comparison: (column: ColumnRef, operator: ComparisonOperator, value: FilterValue): ComparisonNode =>
    Object.freeze({ kind: 'comparison', column, operator, value }),
  inList: (column: ColumnRef, values: readonly FilterValue[]): InListNode =>
    Object.freeze({ kind: 'in-list', column, values: Object.freeze([...values]) }),
  missing: (column: ColumnRef): MissingNode => Object.freeze({ kind: 'missing', column }),
  search: (column: ColumnRef, field: string, mode: SearchMode, text: string): SearchNode =>
    Object.freeze({ kind: 'search', column, field, mode, text }),
  collection: (column: ColumnRef, collectionId: string): CollectionNode =>
    Object.freeze({ kind: 'collection', column, collectionId }),
  and: (children: readonly FilterNode[]): AndNode =>
    Object.freeze({ kind: 'and', children: Object.freeze([...children]) }),
  or: (children: readonly FilterNode[]): OrNode =>
    Object.freeze({ kind: 'or', children: Object.freeze([...children]) }),
  not: (child: FilterNode): NotNode => Object.freeze({ kind: 'not', child }),
} as const
