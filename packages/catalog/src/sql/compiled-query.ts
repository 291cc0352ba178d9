// What the plan compiler produces: SQL text with `?` placeholders and the values that fill them, in order.
// User values only ever travel in `params`; the text holds identifiers and constants of this package.

import type { CatalogEntity } from '../layout/catalog-entities.ts'

/** A value bound to a `?` placeholder. */
export type SqlParam = string | number | boolean | null

/** One statement: SQL text with `?` placeholders, and one parameter per placeholder, in text order. */
export interface SqlStatement {
  readonly sql: string
  readonly params: readonly SqlParam[]
}

/** How a group key read from DuckDB becomes the key the adapter returns (an id URL, a code, …). */
export type GroupKeyFormat = (value: unknown) => string | number | boolean | null

/**
 * A compiled plan without `groupBy`: the page (`__id`, the record's place `__ro`/`__rb`, `__score`, sort keys
 * `__k0…`; or `__row` in place of the first three, see `locate`) and the count of every matching row. The
 * records are read afterwards, from where the rows say.
 */
export interface CompiledRowsQuery extends SqlStatement {
  readonly kind: 'rows'
  /** The catalog table the rows come from. */
  readonly entity: CatalogEntity
  /** `SELECT count(*) …`: the exact number of rows that match the filter. */
  readonly count: SqlStatement
  /** Rows per page; the statement asks for one more, so the adapter can tell whether a next page exists. */
  readonly perPage: number
  /**
   * How many sort-key columns (`__k0`, `__k1`, …) each row carries, for `nextAfter`; 0 for a sample, which has
   * no cursor.
   */
  readonly sortKeyCount: number
  /** Top-level fields to keep from each record, or null for whole records. */
  readonly select: readonly string[] | null
  /** Whether rows carry `relevance_score` (the query searched). */
  readonly scored: boolean
  /**
   * Set when the page rows carry only their row number (`__row`) and sort keys: the statement that adds their
   * id and record location afterwards. A page chosen this way never reads the id text of the rows it passes
   * over, which at 1M works was half the time of a link filter's page.
   */
  readonly locate?: RowLocator
  /**
   * The page rows carry the count as `__count`: a query that joins a search counts its matches as it chooses
   * the page, so the search runs once, not once more for `count`, which is left for a page with no rows past
   * the first (`firstPage`: an empty first page has nothing to count, and a search without hits runs once).
   */
  readonly countInPage?: { readonly firstPage: boolean }
}

/** How page rows that carry only `__row` get their `__id`, `__ro` and `__rb`. */
export interface RowLocator {
  /** `SELECT __row, __id, __ro, __rb` of these rows, in any order. */
  statementFor(rows: readonly number[]): SqlStatement
  /** The sort key (`__k<n>`) that is the id, which the page holds as a row number until located; or null. */
  readonly idKeyIndex: number | null
}

/** A compiled plan with `groupBy`: the buckets (`__g0`, `__g1`, …, `__n`, `__groups`) and the row count. */
export interface CompiledGroupsQuery extends SqlStatement {
  readonly kind: 'groups'
  readonly count: SqlStatement
  /** One per dimension, in order. */
  readonly keyFormats: readonly GroupKeyFormat[]
  /** The buckets statement without paging, for the number of buckets when the page is past the last one. */
  readonly groupsCount: SqlStatement
}

export type CompiledQuery = CompiledRowsQuery | CompiledGroupsQuery
