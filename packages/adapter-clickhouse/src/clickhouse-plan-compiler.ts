// A plan compiled to ClickHouse statements over the served version of a loaded catalog, with the DuckDB
// adapter's semantics (the conformance suite pins them): a page of rows chosen from the entity table's narrow
// columns and the count of every match, the group buckets and their counts, the totals, type-ahead, and the
// records of a page by id. Nothing here runs a statement: the adapter (`clickhouse-adapter.ts`) runs them
// through the driver. Every value is a query parameter.
import {
  boundList,
  bucketOrder,
  type CatalogEntity,
  type ColumnSource,
  type CompiledSortKey,
  catalogEntityInfo,
  codecInputs,
  comparisonOperatorOf,
  compileSortKey,
  createColumnMap,
  filterSourceOf,
  type GroupKeyFormat,
  groupedValuesOf,
  ID_NUMBER_COLUMN,
  keysetAfter,
  type LinkSource,
  pageOffset,
  raw,
  type SortKeyDialect,
  type SqlFragment,
  sortKeyOutput,
  sortKeysOrder,
  sql,
  valueCodecsFor,
} from '@oqlkit/catalog'
import {
  type AutocompleteRequest,
  filterWithout,
  type QueryPlan,
  type SearchNode,
  type SortKey,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import { entityPath } from '@oqlkit/oqo-schema/registry'
import {
  autocompletePopularitySql,
  autocompleteTableName,
  fitsAutocompleteIndex,
  normalizedNameSql,
} from './clickhouse-autocomplete-index.ts'
import { CLICKHOUSE_COLUMN_DIALECT } from './clickhouse-column-dialect.ts'
import type { ClickHouseStatement } from './clickhouse-driver.ts'
import {
  clickHouseSqlDialect,
  compileClickHouseFilter,
  type FilterContext,
  QueryParams,
  tableOf,
} from './clickhouse-filter-compiler.ts'
import { letterIdNumberSql, letterIdOrderSql } from './clickhouse-id-order.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import {
  entityTableName,
  linkSortColumn,
  recordsTableName,
  WORK_IS_XPAC_COLUMN,
} from './clickhouse-schema.ts'
import {
  requiredSearchOf,
  type SearchSources,
  type StatementSearches,
  statementSearches,
} from './clickhouse-search-relations.ts'
import { nearestWorksStatement, type SemanticQueries } from './clickhouse-semantic-search.ts'

const MAP = createColumnMap(CLICKHOUSE_COLUMN_DIALECT)
const CODECS = valueCodecsFor(CLICKHOUSE_COLUMN_DIALECT)
const LAMBDA = '__x'

const statement = (sql: string, params: QueryParams): ClickHouseStatement => ({ sql, params: params.values })

/** The catalog table of a plan's entity. */
export const entityOf = (plan: QueryPlan): CatalogEntity => {
  const info = catalogEntityInfo(entityPath(plan.entity))
  if (info === undefined) throw new UnsupportedPlanError('entity', `${plan.entity} has no table in a catalog`)
  return info.entity
}

const sourceOf = (entity: CatalogEntity, column: SortKey['column'] & object): ColumnSource => {
  const source = MAP.columnSourceOf(entity, column)
  if (source.kind === 'unsupported') throw new UnsupportedPlanError('column', source.message)
  return source
}

const contextOf = (database: string, params: QueryParams): FilterContext => ({ database, map: MAP, params })

/** WHERE of a plan: its corpus (works) and its filter. */
const whereOf = (context: FilterContext, entity: CatalogEntity, plan: QueryPlan): string => {
  const filter = compileClickHouseFilter(context, entity, plan.filter)
  if (entity !== 'works' || plan.corpus === 'all') return filter
  const corpus = plan.corpus === 'core' ? 'NOT coalesce(`is_xpac`, false)' : 'coalesce(`is_xpac`, false)'
  return `${corpus} AND ${filter}`
}

/**
 * One statement's searches (its WITH clause, their relations and the relevance) and its WHERE. A statement
 * that reads `scoreJoins` (a page) joins a search the whole filter requires INNER, and its WHERE leaves that
 * search out: the search is evaluated once in the statement, not twice (`statementSearches`).
 */
const filterOf = (
  context: FilterContext,
  entity: CatalogEntity,
  plan: QueryPlan,
  sources: SearchSources,
  joinsScores = false,
): StatementSearches & { readonly where: string } => {
  const inner = joinsScores ? requiredSearchOf(plan.filter) : undefined
  const searches = statementSearches(context, entity, plan.filter, sources, inner)
  const filter =
    searches.joinedInner === undefined ? plan.filter : filterWithout(plan.filter, searches.joinedInner)
  return { ...searches, where: whereOf(searches.context, entity, { ...plan, filter }) }
}

/**
 * The statement that finds a semantic search's nearest works among those the rest of the plan (corpus, other
 * filters, full-text searches) keeps; undefined when its text has no direction.
 */
export const compileNearestWorks = (
  database: string,
  sources: SearchSources,
  entity: CatalogEntity,
  plan: QueryPlan,
  node: SearchNode,
  queries: SemanticQueries,
): ClickHouseStatement | undefined => {
  const params = new QueryParams()
  const rest = filterOf(
    contextOf(database, params),
    entity,
    { ...plan, filter: filterWithout(plan.filter, node) },
    sources,
  )
  const nearest = nearestWorksStatement(rest.context, node, rest.where, queries)
  return nearest === undefined ? undefined : statement(`${rest.with}${nearest}`, params)
}

/** ClickHouse's words for a sort over the entity table `e`; a key by a link table's extreme joins it. */
const sortKeyDialect = (context: FilterContext, joins: string[]): SortKeyDialect => ({
  ...clickHouseSqlDialect(context),
  codecs: CODECS,
  // A letter id orders by its number (the tables' `id_num`), then its text, as DuckDB's catalogs of format 8
  // do; a cursor's id gives the number as ingest does.
  idKey: (entity, direction) => {
    const letter = catalogEntityInfo(entity)!.idKind === 'letter'
    return {
      expr: 'e.`id`',
      direction,
      type: 'text',
      ...(letter
        ? {
            terms: [
              {
                expr: `e.\`${ID_NUMBER_COLUMN}\``,
                of: (id: SqlFragment) => sql`toInt64OrNull(substring(${id}, 2))`,
              },
              { expr: 'e.`id`', of: (id: SqlFragment) => id },
            ],
          }
        : {}),
    }
  },
  noScore: 'CAST(NULL AS Nullable(Float64))',
  listExtreme: (list, typed, extreme) =>
    `if(empty(${list.expr}), NULL, array${extreme === 'min' ? 'Min' : 'Max'}(${typed}))`,
  linkExtreme: (link, extreme, _key, index) => {
    joins.push(
      ` LEFT JOIN (SELECT work_id, ${extreme}(key) AS __v FROM ${tableOf(context, link.view)} GROUP BY work_id) AS __s${index} ON __s${index}.work_id = e.\`id\``,
    )
    return `__s${index}.__v`
  },
  toText: (expr) => `toString(${expr})`,
})

/** A sort-key value of a cursor, as a parameter of the key's type. */
const keyValue = (params: QueryParams, key: CompiledSortKey, value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  if (key.type === 'number') return `toFloat64OrNull(${params.add(text, 'String')})`
  if (key.type === 'date') return `toDate32OrNull(${params.add(text, 'String')})`
  if (key.type === 'timestamp')
    return `parseDateTime64BestEffortOrNull(${params.add(text, 'String')}, 6, 'UTC')`
  if (key.type === 'boolean') return params.add(value === true || value === 'true', 'Bool')
  return params.add(text, 'String')
}

/** The records of some ids, as stored (`id, record`, by RowBinary), in any order. */
export const compileRecords = (
  database: string,
  entity: CatalogEntity,
  ids: readonly string[],
): ClickHouseStatement => {
  const params = new QueryParams()
  const list = params.add(ids, 'Array(String)')
  return statement(
    `SELECT id, record FROM ${tableOf(contextOf(database, params), recordsTableName(entity))} WHERE id IN ${list}`,
    params,
  )
}

/**
 * A compiled plan without `groupBy`: the page (`__id`, `__score`, sort keys `__k0…`; one row more than a page,
 * so a next page shows) and the count of every matching row.
 */
export interface CompiledRows {
  readonly count: ClickHouseStatement
  readonly page: ClickHouseStatement
  readonly perPage: number
  /** How many sort-key columns (`__k0`, `__k1`, …) each row carries; 0 for a sample, which has no cursor. */
  readonly sortKeyCount: number
  /** Whether rows carry a relevance (the query searched). */
  readonly scored: boolean
  /**
   * Whether each page row carries the count (`__n`), so that `count` runs only when the page has no rows
   * (past the last one): each statement costs a server round trip and its planning.
   */
  readonly countInPage: boolean
}

/** What a served version's tables hold beyond the catalog's files (`clickhouse-schema.ts`). */
export interface VersionLayout {
  /** Whether the link tables carry their works' `is_xpac` (`work_is_xpac`). */
  readonly linksCarryCorpus: boolean
  /** The works' columns the link tables copy beside each row (`LINK_SORT_COLUMNS`, `work_<name>`). */
  readonly linkSortColumns: ReadonlySet<string>
  /** The entities with a type-ahead index (`clickhouse-autocomplete-index.ts`). */
  readonly autocompleteIndexes: ReadonlySet<CatalogEntity>
}

/** A version of the first layout: link tables of `(key, work_id)` alone, no type-ahead index. */
export const PLAIN_LAYOUT: VersionLayout = {
  linksCarryCorpus: false,
  linkSortColumns: new Set(),
  autocompleteIndexes: new Set(),
}

/** The link leaf a works filter is (`authorships.author.id:A1|A2`), with its keys as the codec reads them. */
const loneLinkLeaf = (
  entity: CatalogEntity,
  plan: QueryPlan,
): { readonly source: LinkSource; readonly keys: readonly (string | number | boolean)[] } | undefined => {
  const { filter } = plan
  if (entity !== 'works' || filter === null) return undefined
  if (filter.kind !== 'in-list' && (filter.kind !== 'comparison' || comparisonOperatorOf(filter) !== '='))
    return undefined
  const source = filterSourceOf(MAP, entity, filter.column)
  if (source.kind !== 'link') return undefined
  const keys = codecInputs(source.codec, filter.kind === 'in-list' ? filter.values : [filter.value])
  return keys.length === 0 ? undefined : { source, keys }
}

/** The corpus condition over a link table's rows (`__l`), by its copy of each work's `is_xpac`. */
const linkCorpus = (corpus: QueryPlan['corpus']): string =>
  corpus === 'all'
    ? 'true'
    : corpus === 'core'
      ? `NOT __l.${WORK_IS_XPAC_COLUMN}`
      : `__l.${WORK_IS_XPAC_COLUMN}`

/**
 * The count and page of a filter that is one link leaf, sorted by keys the link table copies (the work's id,
 * `LINK_SORT_COLUMNS`), from the link table's range of the leaf's keys alone: the same rows, count and order as
 * the works' table read by id (whose keys are the same values), with none of its reads. Several keys may link
 * a work more than once: its rows, alike but for the key, become one. Undefined for any other plan.
 */
const linkRowsOf = (
  context: FilterContext,
  entity: CatalogEntity,
  plan: QueryPlan,
  layout: VersionLayout,
  keys: readonly CompiledSortKey[],
): { readonly rows: string; readonly count: string; readonly keys: CompiledSortKey[] } | undefined => {
  if (!layout.linksCarryCorpus) return undefined
  const linked = loneLinkLeaf(entity, plan)
  if (linked === undefined) return undefined
  // A works column's sort key is its quoted name (the column map's scalar), the id key `e.id` (ordered by
  // its number `e.id_num`, then itself).
  const exprs = new Map<string, string>([
    ['e.`id`', '__l.`work_id`'],
    [`e.\`${ID_NUMBER_COLUMN}\``, letterIdNumberSql('__l.`work_id`')],
  ])
  for (const name of layout.linkSortColumns)
    exprs.set(quoteIdentifier(name), `__l.${quoteIdentifier(linkSortColumn(name))}`)
  const linkKeys: CompiledSortKey[] = []
  for (const key of keys) {
    const expr = exprs.get(key.expr)
    const terms = key.terms?.map((term) => ({ ...term, expr: exprs.get(term.expr) }))
    if (expr === undefined || terms?.some((term) => term.expr === undefined)) return undefined
    linkKeys.push({
      ...key,
      expr,
      ...(terms === undefined ? {} : { terms: terms.map((term) => ({ ...term, expr: term.expr! })) }),
    })
  }
  const table = tableOf(context, linked.source.view)
  const where = `__l.key IN (${boundList(clickHouseSqlDialect(context), linked.source.codec, linked.keys).sql}) AND ${linkCorpus(plan.corpus)}`
  if (linked.keys.length === 1)
    return {
      rows: `${table} AS __l WHERE ${where}`,
      count: `SELECT count() FROM ${table} AS __l WHERE ${where}`,
      keys: linkKeys,
    }
  const columns = ['work_id', ...[...layout.linkSortColumns].map(linkSortColumn)]
    .map((name) => `__l.${quoteIdentifier(name)} AS ${quoteIdentifier(name)}`)
    .join(', ')
  return {
    rows: `(SELECT DISTINCT ${columns} FROM ${table} AS __l WHERE ${where}) AS __l WHERE true`,
    count: `SELECT uniqExact(__l.work_id) FROM ${table} AS __l WHERE ${where}`,
    keys: linkKeys,
  }
}

export const compileRows = (
  database: string,
  sources: SearchSources,
  entity: CatalogEntity,
  plan: QueryPlan,
  layout: VersionLayout = PLAIN_LAYOUT,
): CompiledRows => {
  const params = new QueryParams()
  const context = contextOf(database, params)
  const table = `${tableOf(context, entityTableName(entity))} AS e`
  const counted = filterOf(context, entity, plan, sources)
  const count = statement(`${counted.with}SELECT count() AS n FROM ${table} WHERE ${counted.where}`, params)
  const perPage = plan.page.perPage
  const pageParams = new QueryParams()
  const filtered = filterOf({ ...context, params: pageParams }, entity, plan, sources, true)
  const scored = filtered.score !== null
  if (plan.sample !== null) {
    const seed = plan.sample.seed ?? `${Math.random()}`
    const offset = pageOffset(plan.page)
    const limit = Math.max(0, Math.min(perPage, plan.sample.size - offset))
    const page = statement(
      `${filtered.with}SELECT e.\`id\` AS __id, ${filtered.score ?? 'NULL'} AS __score FROM ${table}${filtered.scoreJoins} WHERE ${filtered.where} ORDER BY cityHash64(concat(e.\`id\`, '/', ${pageParams.add(seed, 'String')})), e.\`id\` LIMIT ${pageParams.add(limit, 'UInt64')} OFFSET ${pageParams.add(offset, 'UInt64')}`,
      pageParams,
    )
    return { count, page, perPage, sortKeyCount: 0, scored, countInPage: false }
  }
  const joins: string[] = []
  const dialect = sortKeyDialect(filtered.context, joins)
  const compiledKeys = plan.sort.map((key, index) =>
    compileSortKey(dialect, entity, key, index, filtered.score),
  )
  // Without searches (their relations are the statement's WITH clause) the count is the page's scalar
  // subquery, which ClickHouse runs once, before the page: one statement where there were two.
  const countInPage = filtered.with === ''
  const link = countInPage ? linkRowsOf(filtered.context, entity, plan, layout, compiledKeys) : undefined
  const keys = link?.keys ?? compiledKeys
  const after =
    plan.page.kind === 'cursor' && plan.page.after !== null
      ? keysetAfter(dialect, keys, plan.page.after, (key, value) => raw(keyValue(pageParams, key, value))).sql
      : null
  const offset = pageOffset(plan.page)
  const outputs = keys.map((key, index) => `${sortKeyOutput(dialect, key)} AS __k${index}`).join(', ')
  const order = sortKeysOrder(keys)
  const inPage = countInPage
    ? `, (${link?.count ?? `SELECT count() FROM ${table} WHERE ${filtered.where}`}) AS __n`
    : ''
  const rows =
    link === undefined ? `${table}${filtered.scoreJoins}${joins.join('')} WHERE ${filtered.where}` : link.rows
  const id = link === undefined ? 'e.`id`' : '__l.`work_id`'
  const page = statement(
    `${filtered.with}SELECT ${id} AS __id, ${filtered.score ?? 'NULL'} AS __score${outputs === '' ? '' : `, ${outputs}`}${inPage} FROM ${rows}${after === null ? '' : ` AND ${after}`} ORDER BY ${order === '' ? id : order} LIMIT ${pageParams.add(perPage + 1, 'UInt64')} OFFSET ${pageParams.add(offset, 'UInt64')}`,
    pageParams,
  )
  return { count, page, perPage, sortKeyCount: keys.length, scored, countInPage }
}

/** A compiled plan with `groupBy`: a page of buckets (`__g0…`, `__n`), the number of buckets, the row count. */
export interface CompiledGroups {
  readonly page: ClickHouseStatement
  readonly groupsCount: ClickHouseStatement
  readonly count: ClickHouseStatement
  /**
   * Whether each page row carries the number of buckets (`__groups`) and the row count (`__total`), so that
   * `groupsCount` and `count` run only when the page has no bucket: each statement costs a round trip and
   * its planning, and a server that runs statements one at a time (the chdb stand-in) pays them in turn.
   */
  readonly countsInPage: boolean
  /** One per dimension, in order: how its key `__g<n>` is returned. */
  readonly keyFormats: readonly GroupKeyFormat[]
}

/**
 * The page of buckets, with the number of buckets and the row count as scalar subqueries (which ClickHouse
 * runs once, before the page) when the statement has no WITH clause of its own (a search's relations) for
 * them to share.
 */
const groupPage = (
  withClause: string,
  buckets: string,
  counted: string,
  order: string,
  limits: string,
  params: QueryParams,
): { readonly page: ClickHouseStatement; readonly countsInPage: boolean } => {
  const countsInPage = withClause === ''
  const sql = countsInPage
    ? `SELECT *, (SELECT count() FROM (${buckets})) AS __groups, (${counted}) AS __total FROM (${buckets}) ORDER BY ${order} ${limits}`
    : `${withClause}${buckets} ORDER BY ${order} ${limits}`
  return { page: statement(sql, params), countsInPage }
}

export const compileGroups = (
  database: string,
  sources: SearchSources,
  entity: CatalogEntity,
  plan: QueryPlan,
  /** Whether the version's link tables carry their works' `is_xpac` (`clickhouse-schema.ts`). */
  linksCarryCorpus = false,
): CompiledGroups => {
  const params = new QueryParams()
  const filtered = filterOf(contextOf(database, params), entity, plan, sources)
  const { context, where } = filtered
  const table = `${tableOf(context, entityTableName(entity))} AS e`
  const counted = linksCarryCorpus ? linkCountsOf(context, entity, plan) : undefined
  const rowCount = `SELECT count() AS n FROM ${table} WHERE ${where}`
  if (counted !== undefined) {
    const limits = `LIMIT ${params.add(plan.page.perPage, 'UInt64')} OFFSET ${params.add(pageOffset(plan.page), 'UInt64')}`
    return {
      ...groupPage('', counted, rowCount, bucketOrder(plan, ['__g0']), limits, params),
      groupsCount: statement(`SELECT count() AS n FROM (${counted})`, params),
      count: statement(rowCount, params),
      keyFormats: [groupedValuesOf(MAP.columnSourceOf, entity, plan.groupBy[0]!).format],
    }
  }
  const columns: string[] = []
  const joins: string[] = []
  const known: string[] = []
  const keyFormats: GroupKeyFormat[] = []
  const kinds: string[] = []
  plan.groupBy.forEach((dimension, index) => {
    const grouped = groupedValuesOf(MAP.columnSourceOf, entity, dimension)
    const key = `__g${index}`
    keyFormats.push(grouped.format)
    kinds.push(grouped.kind)
    switch (grouped.kind) {
      case 'value':
        columns.push(`${grouped.expr} AS ${key}`)
        break
      case 'link':
        joins.push(
          ` LEFT JOIN ${tableOf(context, grouped.source.view)} AS __l${index} ON __l${index}.work_id = e.\`id\``,
        )
        columns.push(`__l${index}.key AS ${key}`)
        break
      case 'list': {
        const { source } = grouped
        const values = `arrayDistinct(arrayFilter(${LAMBDA} -> ${LAMBDA} IS NOT NULL, arrayMap(${LAMBDA} -> ${source.groupElement(LAMBDA)}, ${source.expr})))`
        // A row without values counts once in the unknown bucket, as a NULL key.
        columns.push(`arrayJoin(if(empty(${values}), [NULL], ${values})) AS ${key}`)
        break
      }
    }
    if (!dimension.includeUnknown) known.push(`${key} IS NOT NULL`)
  })
  const names = plan.groupBy.map((_, index) => `__g${index}`)
  const rowsOf = `(SELECT ${columns.join(', ')} FROM ${table}${joins.join('')} WHERE ${where})`
  const knownOnly = known.length > 0 ? ` WHERE ${known.join(' AND ')}` : ''
  const buckets = `SELECT ${names.join(', ')}, count() AS __n FROM ${rowsOf}${knownOnly} GROUP BY ${names.join(', ')}`
  const order = bucketOrder(plan, names)
  const perPage = plan.page.perPage
  const offset = pageOffset(plan.page)
  const limits = `LIMIT ${params.add(perPage, 'UInt64')} OFFSET ${params.add(offset, 'UInt64')}`
  // Dimensions of one value per row put every row in exactly one bucket (the unknown one included): one pass
  // groups them all, and window totals over those buckets, taken before the unknown ones are dropped, are the
  // row count and the number of buckets shown (group_by=type at 1M works: 13-17 ms of the engine's time,
  // against 30 ms for the buckets grouped twice and the rows counted apart).
  if (filtered.with === '' && kinds.every((kind) => kind === 'value')) {
    const everyBucket = `SELECT ${names.join(', ')}, count() AS __n FROM ${rowsOf} GROUP BY ${names.join(', ')}`
    const shown = known.length > 0 ? known.join(' AND ') : 'true'
    return {
      page: statement(
        `SELECT * FROM (SELECT *, countIf(${shown}) OVER () AS __groups, sum(__n) OVER () AS __total FROM (${everyBucket}))${knownOnly} ORDER BY ${order} ${limits}`,
        params,
      ),
      countsInPage: true,
      groupsCount: statement(`SELECT count() AS n FROM (${buckets})`, params),
      count: statement(rowCount, params),
      keyFormats,
    }
  }
  return {
    ...groupPage(filtered.with, buckets, rowCount, order, limits, params),
    groupsCount: statement(`${filtered.with}SELECT count() AS n FROM (${buckets})`, params),
    count: statement(`${filtered.with}${rowCount}`, params),
    keyFormats,
  }
}

/**
 * The buckets of a group-by of one link's keys over a whole corpus (no other filter, no unknown bucket),
 * counted from the link table alone: each link row is one work's key, and its work's corpus is beside it
 * (`work_is_xpac`), so the counts come from the table's projection of counts by corpus and key rather than
 * from a join of every work to its link rows. The same buckets as the join: a work with no link row gives no
 * key, and the unknown bucket is not asked for. Undefined for any other plan.
 */
const linkCountsOf = (context: FilterContext, entity: CatalogEntity, plan: QueryPlan): string | undefined => {
  const [dimension] = plan.groupBy
  if (entity !== 'works' || plan.groupBy.length !== 1 || dimension === undefined) return undefined
  if (plan.filter !== null || dimension.includeUnknown) return undefined
  const grouped = groupedValuesOf(MAP.columnSourceOf, entity, dimension)
  if (grouped.kind !== 'link') return undefined
  const corpus =
    plan.corpus === 'core'
      ? ` WHERE NOT ${WORK_IS_XPAC_COLUMN}`
      : plan.corpus === 'expansion'
        ? ` WHERE ${WORK_IS_XPAC_COLUMN}`
        : ''
  return `SELECT key AS __g0, count() AS __n FROM ${tableOf(context, grouped.source.view)}${corpus} GROUP BY __g0`
}

/** The totals of a plan's sums (`__sum0…`) over its rows. */
export const compileSums = (
  database: string,
  sources: SearchSources,
  entity: CatalogEntity,
  plan: QueryPlan,
): { readonly statement: ClickHouseStatement; readonly sumCount: number } => {
  const params = new QueryParams()
  const filtered = filterOf(contextOf(database, params), entity, plan, sources)
  const totals = (plan.sums ?? []).map((sum, index) => {
    const source = sourceOf(entity, sum.column)
    if (source.kind !== 'scalar' || source.codec !== CODECS.number)
      throw new UnsupportedPlanError(
        'column',
        `${sum.column.id} is not one number per row; it cannot be totalled`,
      )
    return `toFloat64(coalesce(sum(${source.expr}), 0)) AS __sum${index}`
  })
  if (totals.length === 0) throw new UnsupportedPlanError('column', 'The plan asks for no totals')
  return {
    statement: statement(
      `${filtered.with}SELECT ${totals.join(', ')} FROM ${tableOf(filtered.context, entityTableName(entity))} AS e WHERE ${filtered.where}`,
      params,
    ),
    sumCount: totals.length,
  }
}

/**
 * Type-ahead, as DuckDB's adapter answers it: the names normalised as `normalizeAutocompleteText` writes the
 * text (lower case, accents dropped, each run of other characters one space), a word of which starts with the
 * text (`text`, normalised so); the same name first, then names starting with it, then the rest, each by
 * citations (works) or works, then id. From the entity's index when the version has one, the request no filter
 * and the text fits its prefixes (`clickhouse-autocomplete-index.ts`); otherwise by a scan of the names.
 * Rows: `__id`.
 */
/** `ORDER BY` terms of id order over the id `expr` of `entity`: a letter id by its number, then its text. */
const idOrderOf = (entity: CatalogEntity, expr: string): string =>
  catalogEntityInfo(entity)!.idKind === 'letter' ? letterIdOrderSql(expr) : expr

export const compileAutocomplete = (
  database: string,
  entity: CatalogEntity,
  request: AutocompleteRequest,
  text: string,
  layout: VersionLayout = PLAIN_LAYOUT,
): ClickHouseStatement => {
  const params = new QueryParams()
  const context = contextOf(database, params)
  const typed = params.add(text, 'String')
  if (request.filter === null && layout.autocompleteIndexes.has(entity) && fitsAutocompleteIndex(text)) {
    // A name can start several word starts of the range: its best tier counts. Its first word starting the
    // text is the name's start (2), and the name itself when nothing follows (3); any other word, 1.
    const tier = `max(multiIf(word = 1 AND rest = lengthUTF8(${typed}), 3, word = 1, 2, 1))`
    return statement(
      `SELECT id AS __id FROM ${tableOf(context, autocompleteTableName(entity))} WHERE startsWith(prefix, ${typed}) GROUP BY id ORDER BY ${tier} DESC, any(popularity) DESC, ${idOrderOf(entity, 'id')} LIMIT ${params.add(request.limit, 'UInt64')}`,
      params,
    )
  }
  const filter = compileClickHouseFilter(context, entity, request.filter)
  const popularity = autocompletePopularitySql(entity, 'e')
  const name = normalizedNameSql('e.`display_name`')
  return statement(
    `SELECT e.\`id\` AS __id, ${name} AS __name FROM ${tableOf(context, entityTableName(entity))} AS e WHERE ${filter} AND position(concat(' ', __name), concat(' ', ${typed})) > 0 ORDER BY multiIf(__name = ${typed}, 3, startsWith(__name, ${typed}), 2, 1) DESC, ${popularity} DESC, ${idOrderOf(entity, 'e.`id`')} LIMIT ${params.add(request.limit, 'UInt64')}`,
    params,
  )
}
