// A plan's filter tree as a ClickHouse predicate over an entity table, with the semantics of the DuckDB
// compiler (the conformance suite pins them): values normalised by the column's codec on both sides, a value
// no stored value can equal matching nothing, link and external-id columns read through their tables, and
// every leaf under a NOT made FALSE rather than NULL for a row without the value, so `NOT` keeps those rows.
// Values are query parameters (`{p0:String}`), never text of the statement.
import type { CatalogEntity, ColumnMap, ColumnSource, ListSource, ValueCodec } from '@oqlkit/catalog'
import { codecInputs, LETTER_ID_PATTERN, ownValuesOf } from '@oqlkit/catalog'
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
import { clickHouseConstant } from './clickhouse-column-dialect.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { linkTableName } from './clickhouse-schema.ts'

type SqlParam = string | number | boolean

/** The ClickHouse types parameters are sent as. */
export type ParamType =
  | 'String'
  | 'Float64'
  | 'Int64'
  | 'Bool'
  | 'UInt64'
  | 'Array(String)'
  | 'Array(Float64)'

/** The parameters of one statement: each value gets a name and a ClickHouse type. */
export class QueryParams {
  readonly values: Record<string, SqlParam | readonly string[] | readonly number[]> = {}
  #next = 0

  /** The placeholder of a value of a type (`{p3:String}`). */
  add(value: SqlParam | readonly string[] | readonly number[], type: ParamType): string {
    const name = `p${this.#next++}`
    this.values[name] = value
    return `{${name}:${type}}`
  }
}

const TYPES = { text: 'String', number: 'Float64', boolean: 'Bool' } as const

/**
 * Where a filter runs: the served version's database, its column map and the statement's parameters; and
 * the relations `(id, score)` of the filter's searches, by node, which the statement defines in its WITH
 * clause (`clickhouse-search-relations.ts`).
 */
export interface FilterContext {
  readonly database: string
  readonly map: ColumnMap
  readonly params: QueryParams
  readonly searches?: ReadonlyMap<SearchNode, string>
}

const TRUE_SQL = 'true'
const FALSE_SQL = 'false'
const DATE_BOUND = /^(from|to)_(.+_date)$/
const LAMBDA = '__x'
const LETTER_ID_SQL = clickHouseConstant(`(?i)${LETTER_ID_PATTERN}`)

export const tableOf = (context: FilterContext, name: string): string =>
  `${quoteIdentifier(context.database)}.${quoteIdentifier(name)}`

const sourceOf = (context: FilterContext, entity: CatalogEntity, column: ColumnRef): ColumnSource => {
  const source = context.map.columnSourceOf(entity, column)
  if (source.kind === 'unsupported')
    throw new UnsupportedPlanError('column', `Cannot filter on ${source.message}`)
  return source
}

const inputs = codecInputs

/** One placeholder with the codec's cast around it (`toDate32(parseDateTime64BestEffortOrNull({p0:String}))`). */
const placeholder = (context: FilterContext, codec: ValueCodec, value: SqlParam): string =>
  codec.placeholder.replace('?', context.params.add(value, TYPES[codec.inputType]))

const placeholders = (context: FilterContext, codec: ValueCodec, values: readonly SqlParam[]): string =>
  values.map((value) => placeholder(context, codec, value)).join(', ')

/** The list of a list source, each element typed and normalised by its codec. */
const normalisedList = (list: ListSource): string => {
  const element = list.codec.stored(list.element(LAMBDA))
  return element === LAMBDA ? list.expr : `arrayMap(${LAMBDA} -> ${element}, ${list.expr})`
}

const idsIn = (subquery: string): string => `\`id\` IN (${subquery})`

type RangeOperator = '<' | '<=' | '>' | '>='

const matchAny = (
  context: FilterContext,
  entity: CatalogEntity,
  source: ColumnSource,
  values: readonly FilterValue[],
): string => {
  switch (source.kind) {
    case 'scalar': {
      const found = inputs(source.codec, values)
      if (found.length === 0) return FALSE_SQL
      return `${source.codec.stored(source.expr)} IN (${placeholders(context, source.codec, found)})`
    }
    case 'list': {
      const found = inputs(source.codec, values)
      if (found.length === 0) return FALSE_SQL
      return `hasAny(${normalisedList(source)}, [${placeholders(context, source.codec, found)}])`
    }
    case 'link': {
      const found = inputs(source.codec, values)
      if (found.length === 0) return FALSE_SQL
      return idsIn(
        `SELECT work_id FROM ${tableOf(context, source.view)} WHERE key IN (${placeholders(context, source.codec, found)})`,
      )
    }
    case 'external-id': {
      const found = inputs(source.codec, values)
      if (found.length === 0) return FALSE_SQL
      const entityParam = context.params.add(entity, 'String')
      const schemeParam = context.params.add(source.scheme, 'String')
      return idsIn(
        `SELECT id FROM ${tableOf(context, 'external_ids')} WHERE entity = ${entityParam} AND scheme = ${schemeParam} AND value IN (${placeholders(context, source.codec, found)})`,
      )
    }
    case 'choice': {
      const known = [...new Set(values.map((value) => String(value).trim().toLowerCase()))].flatMap(
        (value) => {
          const predicate = source.choices.get(value)
          return predicate === undefined ? [] : [predicate]
        },
      )
      return known.length === 0 ? FALSE_SQL : `(${known.join(' OR ')})`
    }
    case 'prefix': {
      const found = inputs(source.scalar.codec, values)
      if (found.length === 0) return FALSE_SQL
      return `(${found.map((value) => `startsWith(${source.scalar.expr}, ${context.params.add(value, 'String')})`).join(' OR ')})`
    }
    case 'cited-by': {
      const found = inputs(source.codec, values)
      if (found.length === 0) return FALSE_SQL
      // The list codec compares lower-cased ids; the link table holds short ids in upper case.
      const upper = found.map((value) => context.params.add(String(value).toUpperCase(), 'String'))
      return idsIn(
        `SELECT key FROM ${tableOf(context, linkTableName('works-referenced-works'))} WHERE work_id IN (${upper.join(', ')})`,
      )
    }
    case 'related-to': {
      const found = inputs(source.list.codec, values)
      if (found.length === 0) return FALSE_SQL
      const upper = found.map((value) => context.params.add(String(value).toUpperCase(), 'String'))
      return idsIn(
        `SELECT upper(extract(trimBoth(__r), ${LETTER_ID_SQL})) FROM ${tableOf(context, 'works')} ARRAY JOIN ${source.list.expr} AS __r WHERE id IN (${upper.join(', ')})`,
      )
    }
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
  }
}

const compareRange = (
  context: FilterContext,
  source: ColumnSource,
  operator: RangeOperator,
  value: FilterValue,
): string => {
  switch (source.kind) {
    case 'scalar':
    case 'external-id':
    case 'choice':
    case 'prefix': {
      const scalar = source.kind === 'scalar' ? source : source.scalar
      const input = scalar.codec.input(value)
      if (input === null) return FALSE_SQL
      return `${scalar.codec.stored(scalar.expr)} ${operator} ${placeholder(context, scalar.codec, input)}`
    }
    case 'list':
    case 'link':
    case 'cited-by':
    case 'related-to': {
      const own = ownValuesOf(source)
      const input = own.codec.input(value)
      if (input === null) return FALSE_SQL
      const bound = placeholder(context, own.codec, input)
      // A list has an element beyond the value when any of its elements is (an empty list has none).
      return own.kind === 'list'
        ? `arrayExists(__e -> __e ${operator} ${bound}, ${normalisedList(own)})`
        : idsIn(`SELECT work_id FROM ${tableOf(context, own.view)} WHERE key ${operator} ${bound}`)
    }
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
  }
}

const missing = (context: FilterContext, entity: CatalogEntity, source: ColumnSource): string => {
  switch (source.kind) {
    case 'scalar':
      return `${source.expr} IS NULL`
    case 'choice':
    case 'prefix':
      return `${source.scalar.expr} IS NULL`
    case 'list':
    case 'related-to':
      return `empty(${(source.kind === 'list' ? source : source.list).expr})`
    case 'link':
    case 'cited-by': {
      const link = source.kind === 'link' ? source : source.references
      return `\`id\` NOT IN (SELECT work_id FROM ${tableOf(context, link.view)})`
    }
    case 'external-id': {
      const entityParam = context.params.add(entity, 'String')
      const schemeParam = context.params.add(source.scheme, 'String')
      return `\`id\` NOT IN (SELECT id FROM ${tableOf(context, 'external_ids')} WHERE entity = ${entityParam} AND scheme = ${schemeParam} AND id IS NOT NULL)`
    }
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
  }
}

/** The operator of a comparison, `=` on `from_x_date`/`to_x_date` being the bound `>=`/`<=` of `x_date`. */
const operatorOf = (node: ComparisonNode): ComparisonNode['operator'] => {
  const bound = DATE_BOUND.exec(node.column.id)
  if (bound === null || node.operator !== '=') return node.operator
  return bound[1] === 'from' ? '>=' : '<='
}

const filterVisitor = (
  context: FilterContext,
  entity: CatalogEntity,
  negated: boolean,
): FilterVisitor<string> => {
  const guard = (predicate: string): string => (negated ? `coalesce(${predicate}, false)` : predicate)
  let underNot: FilterVisitor<string> | undefined
  const visitor: FilterVisitor<string> = {
    comparison: (node) => {
      const operator = operatorOf(node)
      const source = sourceOf(context, entity, node.column)
      return guard(
        operator === '='
          ? matchAny(context, entity, source, [node.value])
          : compareRange(context, source, operator, node.value),
      )
    },
    'in-list': (node) =>
      guard(matchAny(context, entity, sourceOf(context, entity, node.column), node.values)),
    missing: (node) => guard(missing(context, entity, sourceOf(context, entity, node.column))),
    search: (node) => {
      const relation = context.searches?.get(node)
      if (relation === undefined)
        throw new UnsupportedPlanError('full_text_search', `${node.column.id} cannot be searched here`)
      return idsIn(`SELECT id FROM ${relation}`)
    },
    collection: (node) => {
      throw new UnsupportedPlanError(
        'collection',
        `Collection '${node.collectionId}' reached the adapter unresolved; the engine resolves collections to id lists first`,
      )
    },
    and: (node) =>
      node.children.length === 0
        ? TRUE_SQL
        : `(${node.children.map((child) => visitFilter(child, visitor)).join(' AND ')})`,
    or: (node) => {
      if (node.children.length === 0) return FALSE_SQL
      // The searches of an OR that share a relation (`searchGroupsOf`) are one condition on it, not one each.
      const relations = new Set<string | undefined>()
      const children = node.children.filter((child) => {
        if (child.kind !== 'search') return true
        const relation = context.searches?.get(child)
        if (relation !== undefined && relations.has(relation)) return false
        relations.add(relation)
        return true
      })
      return `(${children.map((child) => visitFilter(child, visitor)).join(' OR ')})`
    },
    not: (node) => {
      underNot ??= negated ? visitor : filterVisitor(context, entity, true)
      return `(NOT ${visitFilter(node.child, underNot)})`
    },
  }
  return visitor
}

/** The predicate of a filter tree over the rows of `entity`'s table (`true` for none). */
export const compileClickHouseFilter = (
  context: FilterContext,
  entity: CatalogEntity,
  filter: FilterNode | null,
): string => (filter === null ? TRUE_SQL : visitFilter(filter, filterVisitor(context, entity, false)))
