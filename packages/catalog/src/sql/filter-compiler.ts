// The filter of a plan as an SQL predicate over one entity table, for every SQL dialect: one visitor over the
// engine's filter nodes, writing fragments through an `SqlDialect` that says only what differs between
// databases (how a value is bound, tables and lists named, searches met), as kysely's dialects override its
// one query compiler. A row without the value never matches a leaf, and `NOT` of a leaf keeps it
// (`!type:article` keeps works with no type), as the API's negation does: under a NOT, each leaf is wrapped
// in `coalesce(…, FALSE)` so that its NULL becomes FALSE before the negation. Elsewhere the leaf stays bare:
// AND and OR alone treat a NULL as WHERE does, as not matching, and a bare comparison is what DuckDB pushes
// into its scan, where zone maps skip whole row groups.
import {
  type ColumnRef,
  type ComparisonNode,
  type FilterNode,
  type FilterValue,
  type FilterVisitor,
  type SearchNode,
  UnsupportedPlanError,
  visitFilter,
} from '@oqlkit/engine'
// The column sources' shapes by the package's index, which names them wherever the columns/ folder keeps them.
import {
  type ColumnSource,
  isSingleValued,
  type LinkSource,
  type ListSource,
  ownValuesOf,
  rowScalarOf,
} from '../columns/column-source-shapes.ts'
import { codecInputs, type ValueCodec } from '../columns/value-codecs.ts'
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import type { SqlParam } from './compiled-query.ts'
import { joinSql, raw, type SqlFragment, sql } from './sql-fragment.ts'

export type RangeOperator = '<' | '<=' | '>' | '>='

/** What a filter's SQL says differently in one database. Every method gets SQL this package wrote. */
export interface SqlDialect {
  /** Where a registry column's values are, in this dialect's column map. */
  columnSourceOf(entity: CatalogEntity, column: ColumnRef): ColumnSource
  readonly trueSql: SqlFragment
  readonly falseSql: SqlFragment
  /** The row's id column, unqualified. */
  readonly idColumn: string
  /** A table (or view) of the catalog by its name (`link_…`, `external_ids`, `works`). */
  table(name: string): string
  /** One value through a codec's placeholder (its cast around the bound value). */
  bind(codec: ValueCodec, value: SqlParam): SqlFragment
  /** One text value, bound as it is. */
  bindText(value: string): SqlFragment
  /** `element` (an expression of `lambda`) of each element of a list. */
  mapList(list: string, lambda: string, element: string): string
  /** Whether a list holds any of `count` values (`values`: a comma-separated list of them). */
  listHasAny(list: string, values: SqlFragment, count: number): SqlFragment
  /** Whether some element of a list is `operator` `bound` (an empty list has none). */
  listHasBeyond(list: string, operator: RangeOperator, bound: SqlFragment): SqlFragment
  /** Whether a list is empty or NULL. */
  listEmpty(list: string): string
  /** Whether a text starts with a bound value. */
  startsWith(text: string, prefix: SqlFragment): SqlFragment
  /**
   * The ids (as the works' `id` holds them) of the works related to some works (`ids`: their upper-case
   * short ids), read from those works' `related_works` list `list`.
   */
  relatedWorkIds(list: ListSource, ids: SqlFragment): SqlFragment
  /** The leaf of a search, under a NOT when `negated`; its relation is the statement's. */
  search(node: SearchNode, negated: boolean): SqlFragment
  /** The relation of a search: the searches of one OR that share it are one condition on it. */
  searchRelationName(node: SearchNode): string | undefined
  /** The rows linked to some keys (codec-normalised) by a link table, where the statement's rows are not by id. */
  linkedRows?(source: LinkSource, keys: readonly SqlParam[]): SqlFragment
  /** The rows without a link in a link table, where the statement's rows are not by id. */
  unlinkedRows?(link: LinkSource): string
}

// `from_publication_date: d` is `publication_date >= d`. The planner rewrites it when the base column is in
// the registry; on entities whose registry lists only the bounds (authors' `from_created_date`), it is here
// (the column map reads the base column's values).
const DATE_BOUND = /^(from|to)_(.+_date)$/
const LAMBDA = '__x'
const EXTERNAL_IDS = 'external_ids'

/** The operator of a comparison, `=` on `from_x_date`/`to_x_date` being the bound `>=`/`<=` of `x_date`. */
export const comparisonOperatorOf = (node: ComparisonNode): ComparisonNode['operator'] => {
  const bound = DATE_BOUND.exec(node.column.id)
  if (bound === null || node.operator !== '=') return node.operator
  return bound[1] === 'from' ? '>=' : '<='
}

/** Where a filtered column's values are; a column no table holds cannot be filtered on. */
export const filterSourceOf = (
  dialect: Pick<SqlDialect, 'columnSourceOf'>,
  entity: CatalogEntity,
  column: ColumnRef,
): ColumnSource => {
  const source = dialect.columnSourceOf(entity, column)
  if (source.kind === 'unsupported')
    throw new UnsupportedPlanError('column', `Cannot filter on ${source.message}`)
  return source
}

/** The list of a list source, each element typed and normalised by its codec. */
export const normalisedList = (dialect: SqlDialect, list: ListSource): string => {
  const element = list.codec.stored(list.element(LAMBDA))
  return element === LAMBDA ? list.expr : dialect.mapList(list.expr, LAMBDA, element)
}

/** Values through a codec's placeholder, comma-separated. */
export const boundList = (
  dialect: Pick<SqlDialect, 'bind'>,
  codec: ValueCodec,
  values: readonly SqlParam[],
): SqlFragment =>
  joinSql(
    values.map((value) => dialect.bind(codec, value)),
    ', ',
  )

const idsIn = (dialect: SqlDialect, subquery: SqlFragment): SqlFragment =>
  sql`${raw(dialect.idColumn)} IN (${subquery})`

/** The ids of the works linked to `found` (codec-normalised keys) by a link table. */
const linkedWorks = (dialect: SqlDialect, source: LinkSource, found: readonly SqlParam[]): SqlFragment =>
  dialect.linkedRows?.(source, found) ??
  idsIn(
    dialect,
    sql`SELECT work_id FROM ${raw(dialect.table(source.view))} WHERE key IN (${boundList(dialect, source.codec, found)})`,
  )

const upperIds = (dialect: SqlDialect, values: readonly SqlParam[]): SqlFragment =>
  joinSql(
    values.map((value) => dialect.bindText(String(value).toUpperCase())),
    ', ',
  )

/** `column = any of values` for one source (a single value is a list of one). */
const matchAny = (
  dialect: SqlDialect,
  entity: CatalogEntity,
  source: ColumnSource,
  values: readonly FilterValue[],
): SqlFragment => {
  switch (source.kind) {
    case 'scalar': {
      const found = codecInputs(source.codec, values)
      if (found.length === 0) return dialect.falseSql
      const stored = raw(source.codec.stored(source.expr))
      return found.length === 1
        ? sql`${stored} = ${boundList(dialect, source.codec, found)}`
        : sql`${stored} IN (${boundList(dialect, source.codec, found)})`
    }
    case 'list': {
      const found = codecInputs(source.codec, values)
      if (found.length === 0) return dialect.falseSql
      return dialect.listHasAny(
        normalisedList(dialect, source),
        boundList(dialect, source.codec, found),
        found.length,
      )
    }
    case 'link': {
      const found = codecInputs(source.codec, values)
      if (found.length === 0) return dialect.falseSql
      return linkedWorks(dialect, source, found)
    }
    case 'external-id': {
      const found = codecInputs(source.codec, values)
      if (found.length === 0) return dialect.falseSql
      return idsIn(
        dialect,
        sql`SELECT id FROM ${raw(dialect.table(EXTERNAL_IDS))} WHERE entity = ${dialect.bindText(entity)} AND scheme = ${dialect.bindText(source.scheme)} AND value IN (${boundList(dialect, source.codec, found)})`,
      )
    }
    case 'choice': {
      const known = [...new Set(values.map((value) => String(value).trim().toLowerCase()))].flatMap(
        (value) => {
          const predicate = source.choices.get(value)
          return predicate === undefined ? [] : [predicate]
        },
      )
      return known.length === 0 ? dialect.falseSql : raw(`(${known.join(' OR ')})`)
    }
    case 'prefix': {
      const found = codecInputs(source.scalar.codec, values)
      if (found.length === 0) return dialect.falseSql
      return sql`(${joinSql(
        found.map((value) => dialect.startsWith(source.scalar.expr, dialect.bindText(String(value)))),
        ' OR ',
      )})`
    }
    case 'cited-by': {
      const found = codecInputs(source.codec, values)
      if (found.length === 0) return dialect.falseSql
      // The list codec compares lower-cased ids; the link table holds short ids in upper case.
      return idsIn(
        dialect,
        sql`SELECT key FROM ${raw(dialect.table(source.references.view))} WHERE work_id IN (${upperIds(dialect, found)})`,
      )
    }
    case 'related-to': {
      const found = codecInputs(source.list.codec, values)
      if (found.length === 0) return dialect.falseSql
      return idsIn(dialect, dialect.relatedWorkIds(source.list, upperIds(dialect, found)))
    }
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
  }
}

const compareRange = (
  dialect: SqlDialect,
  source: ColumnSource,
  operator: RangeOperator,
  value: FilterValue,
): SqlFragment => {
  if (isSingleValued(source)) {
    const scalar = rowScalarOf(source)
    const input = scalar.codec.input(value)
    if (input === null) return dialect.falseSql
    return sql`${raw(scalar.codec.stored(scalar.expr))} ${raw(operator)} ${dialect.bind(scalar.codec, input)}`
  }
  switch (source.kind) {
    case 'list':
    case 'link':
    case 'cited-by':
    case 'related-to': {
      const own = ownValuesOf(source)
      const input = own.codec.input(value)
      if (input === null) return dialect.falseSql
      const bound = dialect.bind(own.codec, input)
      // A list has an element beyond the value when any of its elements is (an empty list has none).
      return own.kind === 'list'
        ? dialect.listHasBeyond(normalisedList(dialect, own), operator, bound)
        : idsIn(
            dialect,
            sql`SELECT work_id FROM ${raw(dialect.table(own.view))} WHERE key ${raw(operator)} ${bound}`,
          )
    }
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
  }
}

const missing = (dialect: SqlDialect, entity: CatalogEntity, source: ColumnSource): SqlFragment => {
  switch (source.kind) {
    case 'scalar':
      return raw(`${source.expr} IS NULL`)
    case 'choice':
    case 'prefix':
      return raw(`${source.scalar.expr} IS NULL`)
    case 'list':
    case 'related-to':
      return raw(dialect.listEmpty((source.kind === 'list' ? source : source.list).expr))
    case 'link':
    case 'cited-by': {
      const link = source.kind === 'link' ? source : source.references
      return raw(
        dialect.unlinkedRows?.(link) ??
          `${dialect.idColumn} NOT IN (SELECT work_id FROM ${dialect.table(link.view)})`,
      )
    }
    case 'external-id':
      return sql`${raw(dialect.idColumn)} NOT IN (SELECT id FROM ${raw(dialect.table(EXTERNAL_IDS))} WHERE entity = ${dialect.bindText(entity)} AND scheme = ${dialect.bindText(source.scheme)} AND id IS NOT NULL)`
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
  }
}

/**
 * The visitor compiling a filter tree of `entity` to a predicate; `negated` when the tree is under a NOT,
 * whose leaves must be FALSE rather than NULL for a row without the value.
 */
export const sqlFilterVisitor = (
  dialect: SqlDialect,
  entity: CatalogEntity,
  negated = false,
): FilterVisitor<SqlFragment> => {
  const guard = (fragment: SqlFragment): SqlFragment =>
    negated ? sql`coalesce(${fragment}, ${dialect.falseSql})` : fragment
  const sourceOf = (column: ColumnRef) => filterSourceOf(dialect, entity, column)
  let underNot: FilterVisitor<SqlFragment> | undefined
  const visitor: FilterVisitor<SqlFragment> = {
    comparison: (node) => {
      const operator = comparisonOperatorOf(node)
      const source = sourceOf(node.column)
      return guard(
        operator === '='
          ? matchAny(dialect, entity, source, [node.value])
          : compareRange(dialect, source, operator, node.value),
      )
    },
    'in-list': (node) => guard(matchAny(dialect, entity, sourceOf(node.column), node.values)),
    missing: (node) => guard(missing(dialect, entity, sourceOf(node.column))),
    search: (node) => dialect.search(node, negated),
    collection: (node) => {
      throw new UnsupportedPlanError(
        'collection',
        `Collection '${node.collectionId}' reached the adapter unresolved; the engine resolves collections to id lists first`,
      )
    },
    and: (node) =>
      node.children.length === 0
        ? dialect.trueSql
        : sql`(${joinSql(
            node.children.map((child) => visitFilter(child, visitor)),
            ' AND ',
          )})`,
    or: (node) => {
      if (node.children.length === 0) return dialect.falseSql
      // The searches of an OR that share a relation (`searchGroupsOf`) are one condition on it, not one each.
      const relations = new Set<string | undefined>()
      const children = node.children.filter((child) => {
        if (child.kind !== 'search') return true
        const relation = dialect.searchRelationName(child)
        if (relations.has(relation)) return false
        relations.add(relation)
        return true
      })
      return sql`(${joinSql(
        children.map((child) => visitFilter(child, visitor)),
        ' OR ',
      )})`
    },
    not: (node) => {
      underNot ??= negated ? visitor : sqlFilterVisitor(dialect, entity, true)
      return sql`(NOT ${visitFilter(node.child, underNot)})`
    },
  }
  return visitor
}

/** The predicate of a filter tree over the rows of `entity`'s table (the dialect's TRUE for none). */
export const compileSqlFilter = (
  dialect: SqlDialect,
  entity: CatalogEntity,
  filter: FilterNode | null,
): SqlFragment => (filter === null ? dialect.trueSql : visitFilter(filter, sqlFilterVisitor(dialect, entity)))
