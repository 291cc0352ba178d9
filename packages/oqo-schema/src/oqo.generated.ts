/* Generated from spec/oqo.schema.json by scripts/generate-artifacts.ts with json-schema-to-typescript.
 * Do not edit: run `npm run generate`. A test fails when this file drifts from the schema. */

/**
 * The entity type whose rows the query returns; 'work-types' is another name of 'types'.
 *
 * This interface was referenced by `Oqo`'s JSON-Schema
 * via the `definition` "EntityTypeName".
 */
export type EntityTypeName =
  | 'authors'
  | 'awards'
  | 'concepts'
  | 'continents'
  | 'countries'
  | 'domains'
  | 'fields'
  | 'funders'
  | 'indexes'
  | 'institution-types'
  | 'institutions'
  | 'keywords'
  | 'languages'
  | 'licenses'
  | 'locations'
  | 'oa-statuses'
  | 'publishers'
  | 'sdgs'
  | 'source-types'
  | 'sources'
  | 'subfields'
  | 'topics'
  | 'types'
  | 'work-types'
  | 'works'
/**
 * A leaf (one condition) or a branch (a boolean combination).
 *
 * This interface was referenced by `Oqo`'s JSON-Schema
 * via the `definition` "Filter".
 */
export type Filter = LeafFilter | BranchFilter
/**
 * A leaf comparison, 'is' when absent. Strictly affirmative: negation is is_negated.
 *
 * This interface was referenced by `Oqo`'s JSON-Schema
 * via the `definition` "Operator".
 */
export type Operator = '<' | '<=' | '>' | '>=' | 'has' | 'in collection' | 'is'

/**
 * An OQO (OpenAlex Query Object) v1.4: which rows a query matches. Sorting, column selection and paging are sibling request parameters, not part of the object.
 */
export interface Oqo {
  get_rows: EntityTypeName
  /**
   * Works only: which corpus seeds the result set. 'core' (the default, omitted in canonical form), 'expansion' (the expansion corpus alone) or 'all' (both).
   */
  corpus?: 'all' | 'core' | 'expansion'
  /**
   * Filters on the rows; top-level entries are implicitly AND-joined.
   */
  filter_rows?: Filter[]
  /**
   * Group-by dimensions, in order.
   */
  group_by?: GroupBy[]
  /**
   * Return a random sample of this many matching rows instead of all of them.
   */
  sample?: number | null
  /**
   * Makes a sample reproducible. Canonically a string; an integer is accepted and turned into its string.
   */
  seed?: string | number | null
}
/**
 * One condition on one column.
 *
 * This interface was referenced by `Oqo`'s JSON-Schema
 * via the `definition` "LeafFilter".
 */
export interface LeafFilter {
  /**
   * A column id of the properties registry (dot notation), or one of its alternate keys.
   */
  column_id: string
  /**
   * The bare value: an id without prefix (I136199984), a code (US, article, 3), a number, a boolean, search text, a collection id (col_…), or null for a missing value.
   */
  value: number | string | boolean | null
  operator?: Operator
  /**
   * True negates the leaf.
   */
  is_negated?: boolean
}
/**
 * A boolean combination of filters.
 *
 * This interface was referenced by `Oqo`'s JSON-Schema
 * via the `definition` "BranchFilter".
 */
export interface BranchFilter {
  /**
   * 'and' requires every child; 'or' requires at least one.
   */
  join: 'and' | 'or'
  /**
   * The children: leaves or branches, nested to any depth.
   *
   * @minItems 1
   */
  filters: Filter[]
  /**
   * Negates the whole branch; canonicalisation pushes it to the leaves (De Morgan).
   */
  is_negated?: boolean
}
/**
 * One group-by dimension.
 *
 * This interface was referenced by `Oqo`'s JSON-Schema
 * via the `definition` "GroupBy".
 */
export interface GroupBy {
  /**
   * The column to group by.
   */
  column_id: string
}
