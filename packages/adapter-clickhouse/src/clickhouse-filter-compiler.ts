// A plan's filter tree as a ClickHouse predicate over an entity table: the catalog's one filter compiler
// (`compileSqlFilter` of @oqlkit/catalog, which DuckDB's adapter uses too) in ClickHouse's words. Values are
// query parameters (`{p0:String}`), named and typed here, never text of the statement: the fragments the
// compiler writes carry their placeholders' names in their text and no positional parameter.
import {
  type CatalogEntity,
  type SqlParam as CatalogSqlParam,
  type ColumnMap,
  compileSqlFilter,
  LETTER_ID_PATTERN,
  raw,
  type SqlDialect,
  sql,
  type ValueCodec,
} from '@oqlkit/catalog'
import { type FilterNode, type SearchNode, UnsupportedPlanError } from '@oqlkit/engine'
import { clickHouseConstant } from './clickhouse-column-dialect.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'

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

const LETTER_ID_SQL = clickHouseConstant(`(?i)${LETTER_ID_PATTERN}`)

export const tableOf = (context: FilterContext, name: string): string =>
  `${quoteIdentifier(context.database)}.${quoteIdentifier(name)}`

/** A value of a type as a fragment whose text is its named placeholder (`{p3:String}`). */
const bound = (context: FilterContext, value: CatalogSqlParam, codec: ValueCodec | null) =>
  raw(
    codec === null
      ? context.params.add(value as SqlParam, 'String')
      : codec.placeholder.replace('?', context.params.add(value as SqlParam, TYPES[codec.inputType])),
  )

/** ClickHouse's words for the catalog's filter compiler, over one statement's context. */
export const clickHouseSqlDialect = (context: FilterContext): SqlDialect => ({
  columnSourceOf: (entity, column) => context.map.columnSourceOf(entity, column),
  trueSql: raw('true'),
  falseSql: raw('false'),
  idColumn: '`id`',
  table: (name) => tableOf(context, name),
  bind: (codec, value) => bound(context, value, codec),
  bindText: (value) => bound(context, value, null),
  mapList: (list, lambda, element) => `arrayMap(${lambda} -> ${element}, ${list})`,
  listHasAny: (list, values) => sql`hasAny(${raw(list)}, [${values}])`,
  listHasBeyond: (list, operator, value) =>
    sql`arrayExists(__e -> __e ${raw(operator)} ${value}, ${raw(list)})`,
  listEmpty: (list) => `empty(${list})`,
  startsWith: (text, prefix) => sql`startsWith(${raw(text)}, ${prefix})`,
  relatedWorkIds: (list, ids) =>
    sql`SELECT upper(extract(trimBoth(__r), ${raw(LETTER_ID_SQL)})) FROM ${raw(tableOf(context, 'works'))} ARRAY JOIN ${raw(list.expr)} AS __r WHERE id IN (${ids})`,
  search: (node) => {
    const relation = context.searches?.get(node)
    if (relation === undefined)
      throw new UnsupportedPlanError('full_text_search', `${node.column.id} cannot be searched here`)
    return raw(`\`id\` IN (SELECT id FROM ${relation})`)
  },
  searchRelationName: (node) => context.searches?.get(node),
})

/** The predicate of a filter tree over the rows of `entity`'s table (`true` for none). */
export const compileClickHouseFilter = (
  context: FilterContext,
  entity: CatalogEntity,
  filter: FilterNode | null,
): string => compileSqlFilter(clickHouseSqlDialect(context), entity, filter).sql
