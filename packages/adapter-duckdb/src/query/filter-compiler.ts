// The filter of a plan as an SQL predicate over one entity view: the catalog's one filter compiler
// (`compileSqlFilter` of @oqlkit/catalog, which ClickHouse's adapter uses too) in DuckDB's words, with what
// only DuckDB has: a filter over a narrow table, whose rows link tables name by row number, and searches met
// by a relation of the statement's WITH (joined when every row must match one). Values are `?` parameters.
// Only a bare comparison is pushed into DuckDB's scan, where zone maps skip whole row groups (a key lookup in
// a sorted link table: 1.6 ms bare, 230 ms wrapped in the `coalesce` a leaf under a NOT gets).

import type { CatalogEntity, SqlParam } from '@oqlkit/catalog'
import {
  boundList,
  codecInputs,
  comparisonOperatorOf,
  compileSqlFilter,
  constantLiteral,
  FALSE_SQL,
  filterSourceOf,
  joinSql,
  LETTER_ID_PATTERN,
  type LinkSource,
  param,
  quoteIdentifier,
  raw,
  type SqlDialect,
  type SqlFragment,
  sql,
  TRUE_SQL,
} from '@oqlkit/catalog'
import type { FilterNode, SearchNode } from '@oqlkit/engine'
import { entityView, NARROW_ROW_COLUMN } from './catalog-views.ts'
import { columnSourceOf } from './duckdb-column-map.ts'

/** Where a search node's matches are, in the statement's WITH, and how a row meets them. */
export interface SearchRelation {
  /** The name of its `(doc, score)` relation. */
  readonly name: string
  /** The row's value that `doc` holds (its id, or its number in the search index), for the filter's target. */
  readonly doc: (target: FilterTarget) => string
  /** The statement joins the row to its match (the search is required of every row): the leaf is TRUE. */
  readonly joined: boolean
}

export type SearchRelationOf = (node: SearchNode) => SearchRelation

/**
 * Where the filter's rows are: the entity view (by id), or a narrow table whose rows link tables can name
 * by row number, under the alias `narrowRow`, its number being `narrowRowNumber` (`readNarrowRowNumber`;
 * default the quoted `NARROW_ROW_COLUMN`).
 */
export interface FilterTarget {
  readonly narrowRow?: string
  readonly narrowRowNumber?: string
}

/**
 * Link keys (codec-normalised) as the narrow copy of their table holds them: the ids' numbers where it numbers
 * them, an id of another letter left out (it links nothing there); null when none is left.
 */
export const narrowLinkKeys = (
  source: LinkSource,
  found: readonly SqlParam[],
): { readonly keys: SqlFragment; readonly count: number } | null => {
  const letter = source.narrowKeyLetter
  if (letter === null)
    return found.length === 0
      ? null
      : { keys: boundList(DUCKDB_SQL, source.codec, found), count: found.length }
  const digits = found.flatMap((value) => {
    const id = /^([A-Za-z])([0-9]+)$/.exec(String(value))
    return id !== null && id[1]!.toUpperCase() === letter ? [id[2]!] : []
  })
  if (digits.length === 0) return null
  return {
    keys: joinSql(
      digits.map((number) => sql`TRY_CAST(${param(number)} AS UBIGINT)`),
      ', ',
    ),
    count: digits.length,
  }
}

const LETTER_ID_SQL = constantLiteral(`(?i)${LETTER_ID_PATTERN}`)

/** DuckDB's words for the catalog's filter compiler: the parts that do not depend on a statement. */
export const DUCKDB_SQL = {
  columnSourceOf,
  trueSql: TRUE_SQL,
  falseSql: FALSE_SQL,
  idColumn: '"id"',
  table: quoteIdentifier,
  bind: (codec, value) => ({ sql: codec.placeholder, params: [value] }),
  bindText: (value) => param(value),
  mapList: (list, lambda, element) => `list_transform(${list}, lambda ${lambda}: ${element})`,
  listHasAny: (list, values, count) =>
    count === 1 ? sql`list_contains(${raw(list)}, ${values})` : sql`list_has_any(${raw(list)}, [${values}])`,
  // A list has an element beyond `value` when its largest (or smallest) element is.
  listHasBeyond: (list, operator, value) =>
    sql`${raw(`${operator === '>' || operator === '>=' ? 'list_max' : 'list_min'}(${list})`)} ${raw(operator)} ${value}`,
  listEmpty: (list) => `coalesce(len(${list}), 0) = 0`,
  startsWith: (text, prefix) => sql`starts_with(${raw(text)}, ${prefix})`,
  // The works related to the given works: their `related_works` lists, as ingest extracted them.
  relatedWorkIds: (list, ids) =>
    sql`SELECT upper(regexp_extract(trim(__r), ${raw(LETTER_ID_SQL)}, 1)) FROM (SELECT unnest(__w.${raw(list.expr)}) AS __r FROM ${raw(entityView('works'))} AS __w WHERE __w."id" IN (${ids}))`,
} satisfies Omit<SqlDialect, 'search' | 'searchRelationName'>

/** DuckDB's dialect for one statement: its search relations, and the rows it filters. */
const duckDbSqlDialect = (searchRelationOf: SearchRelationOf, target: FilterTarget): SqlDialect => {
  const narrowRow =
    target.narrowRow === undefined
      ? undefined
      : `${target.narrowRow}.${target.narrowRowNumber ?? quoteIdentifier(NARROW_ROW_COLUMN)}`
  return {
    ...DUCKDB_SQL,
    search: (node, negated) => {
      const relation = searchRelationOf(node)
      if (relation.joined && !negated) return TRUE_SQL
      const leaf = sql`${raw(relation.doc(target))} IN (SELECT doc FROM ${raw(quoteIdentifier(relation.name))})`
      return negated ? sql`coalesce(${leaf}, FALSE)` : leaf
    },
    searchRelationName: (node) => searchRelationOf(node).name,
    ...(narrowRow === undefined
      ? {}
      : {
          linkedRows: (source: LinkSource, found: readonly SqlParam[]) => {
            const narrow = narrowLinkKeys(source, found)
            if (narrow === null) return FALSE_SQL
            return sql`${raw(narrowRow)} IN (SELECT work_row FROM ${raw(quoteIdentifier(source.narrowTable))} WHERE key IN (${narrow.keys}))`
          },
          unlinkedRows: (link: LinkSource) =>
            `${narrowRow} NOT IN (SELECT work_row FROM ${quoteIdentifier(link.narrowTable)})`,
        }),
  }
}

/**
 * The link table and keys (as its narrow copy holds them) of a filter that is one link leaf
 * (`authorships.author.id:A1|A2`), so that the rows it keeps can be counted and paged from the narrow link
 * table alone; undefined for any other filter.
 */
export const singleLinkLeaf = (
  entity: CatalogEntity,
  filter: FilterNode | null,
): { readonly source: LinkSource; readonly keys: SqlFragment; readonly keyCount: number } | undefined => {
  if (filter === null) return undefined
  if (filter.kind !== 'in-list' && (filter.kind !== 'comparison' || comparisonOperatorOf(filter) !== '='))
    return undefined
  const source = filterSourceOf(DUCKDB_SQL, entity, filter.column)
  if (source.kind !== 'link') return undefined
  const narrow = narrowLinkKeys(
    source,
    codecInputs(source.codec, filter.kind === 'in-list' ? filter.values : [filter.value]),
  )
  if (narrow === null) return undefined
  return { source, keys: narrow.keys, keyCount: narrow.count }
}

/** The predicate of a filter tree (TRUE for none). */
export const compileFilter = (
  entity: CatalogEntity,
  filter: FilterNode | null,
  searchRelationOf: SearchRelationOf,
  target: FilterTarget = {},
): SqlFragment => compileSqlFilter(duckDbSqlDialect(searchRelationOf, target), entity, filter)
