// `DuckDbPlanCompiler`: a query plan → statements over the catalog views. No database is needed to compile
// (the compile-only path of the tests); the adapter runs what this returns.
//
// Rows:   [WITH searches] SELECT record location (or, on a narrow table, the row number), score, sort keys
//         [, count(*) OVER ()] FROM <entity> [JOIN required searches] [LEFT JOIN other scoring searches]
//         WHERE corpus AND filter [AND keyset] ORDER BY keys NULLS LAST, id LIMIT perPage + 1 [OFFSET n]
// Groups: WITH base (dimension values) → keys (one row per row and key combination, lists unnested, link
//         tables joined) → buckets (count per key combination), ordered by count desc, then key; one link
//         dimension over a whole corpus reads its narrow link table alone.

import type {
  CatalogEntity,
  CatalogIdOrder,
  CompiledGroupsQuery,
  CompiledQuery,
  CompiledRowsQuery,
  GroupKeyFormat,
  RowLocator,
  SqlParam,
  SqlStatement,
} from '@oqlkit/catalog'
import {
  bucketOrder,
  type ColumnSource,
  type CompiledSortKey,
  catalogEntityInfo,
  catalogEntityOf,
  compileSortKey,
  constantLiteral,
  groupedValuesOf,
  idOrderColumns,
  joinSql,
  keysetAfter,
  onlySearchesOf,
  pageOffset,
  param,
  paramList,
  quoteIdentifier,
  raw,
  type SortKeyDialect,
  type SqlFragment,
  searchGroupsOf,
  sortKeyOutput,
  sortKeysOrder,
  sql,
  toStatement,
} from '@oqlkit/catalog'
import {
  type ColumnRef,
  type FilterNode,
  filterWithout,
  type QueryPlan,
  type SearchNode,
  type SortKey,
  searchNodesOf,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import {
  entityView,
  LINK_SORT_COLUMNS,
  letterIdNumberSql,
  linkSortColumn,
  NARROW_ROW_COLUMN,
  narrowEntityTable,
  rowLocationTable,
  SEARCH_DOC_COLUMN,
  WORK_IS_XPAC_COLUMN,
} from './catalog-views.ts'
import { columnSourceOf, DUCKDB_CODECS } from './duckdb-column-map.ts'
import type {
  DuckDbPlanCompilerOptions,
  SearchCompilerLike,
  SemanticInputs,
  SemanticMatch,
  SemanticSearchTask,
} from './duckdb-compiler-options.ts'
import {
  compileFilter,
  DUCKDB_SQL,
  type FilterTarget,
  type SearchRelation,
  singleLinkLeaf,
} from './filter-compiler.ts'
import { RECORD_LOCATION_COLUMNS } from './record-fetcher.ts'
import { unindexedSearch } from './unindexed-search.ts'

export type {
  DuckDbPlanCompilerOptions,
  SearchCompilerLike,
  SearchDocs,
  SemanticInputs,
  SemanticMatch,
  SemanticSearchTask,
} from './duckdb-compiler-options.ts'

/** The works found as a relation (doc, score): by id, or (`numbered`) by the number in the id, as `numberedDoc`. */
const matchesRelation = (matches: readonly SemanticMatch[], numbered: boolean): SqlFragment => {
  // An id that is not a plain number (none is, in a catalog found numbered) has no number: it matches no row.
  const doc = numbered ? letterIdNumberSql('CAST(doc AS VARCHAR)') : 'CAST(doc AS VARCHAR)'
  return matches.length === 0
    ? raw(
        `SELECT CAST(NULL AS ${numbered ? 'UBIGINT' : 'VARCHAR'}) AS doc, CAST(NULL AS DOUBLE) AS score WHERE FALSE`,
      )
    : sql`SELECT ${raw(doc)} AS doc, max(CAST(score AS DOUBLE)) AS score FROM (VALUES ${joinSql(
        matches.map((match) => sql`(${param(match.doc)}, ${param(match.score)})`),
        ', ',
      )}) AS __m(doc, score) GROUP BY 1`
}

const LAMBDA = '__x'
const ROW = 'e'

/** Dates and timestamps leave as text (JSON-safe cursor values) and come back through a cast. */
const KEY_TEXT = { toText: (expr: string) => `CAST(${expr} AS VARCHAR)` }
const keyOutput = (key: CompiledSortKey): string => sortKeyOutput(KEY_TEXT, key)

const keyValue = (key: CompiledSortKey, value: unknown): SqlFragment => {
  const bound: SqlParam =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : String(value)
  if (key.type === 'date') return sql`TRY_CAST(${param(bound)} AS DATE)`
  if (key.type === 'timestamp') return sql`TRY_CAST(${param(bound)} AS TIMESTAMP)`
  if (key.type === 'number') return sql`TRY_CAST(${param(bound)} AS DOUBLE)`
  return param(bound)
}

/** Search nodes that give relevance: the ones not negated. */
const scoringSearches = (filter: FilterNode | null): SearchNode[] =>
  searchNodesOf(filter)
    .filter((leaf) => !leaf.negated)
    .map((leaf) => leaf.node)

const allSearches = (filter: FilterNode | null): SearchNode[] =>
  searchNodesOf(filter).map((leaf) => leaf.node)

interface Context {
  readonly entity: CatalogEntity
  /** WITH clauses of the searches, named `__s0`, `__s1`, … */
  readonly searches: readonly SqlFragment[]
  /** The filter over the entity view. */
  readonly where: SqlFragment
  /** The same filter over the narrow table, in `narrow` mode. */
  readonly narrowWhere: SqlFragment | undefined
  /** Inner joins of the searches every row must match, over the narrow table or the view. */
  readonly joins: (narrow: boolean) => string
  /** Left joins of the other searches that give relevance. */
  readonly scoreJoins: (narrow: boolean) => string
  readonly scoreExpr: string
  readonly scored: boolean
  /** Some search is joined: the rows are its matches, few enough to count in the page statement. */
  readonly joinsSearch: boolean
}

/** The relation a statement reads an entity's rows from, and its filter written for that relation. */
interface Relation {
  /** The entity's table as `e`, with the required searches joined. */
  readonly from: string
  readonly where: SqlFragment
  /** The entity's narrow table: its row number (`narrowRowNumber`) is in id order. */
  readonly narrow: boolean
}

/** The search nodes every row must match: the filter itself, or conjuncts of its top AND. */
const requiredSearches = (node: FilterNode | null): SearchNode[] =>
  node === null
    ? []
    : node.kind === 'search'
      ? [node]
      : node.kind === 'and'
        ? node.children.filter((child): child is SearchNode => child.kind === 'search')
        : []

/** The corpus condition over a narrow link table `__l`, by its copy of each work's `is_xpac`. */
const linkCorpus = (corpus: QueryPlan['corpus']): string => {
  const flag = `coalesce(__l.${WORK_IS_XPAC_COLUMN}, FALSE)`
  return corpus === 'all' ? 'TRUE' : corpus === 'core' ? `NOT ${flag}` : flag
}

const idDoc = (target: FilterTarget): string => `${target.narrowRow ?? ROW}."id"`

/**
 * The number in the row's id, as a search index numbered by id holds it: a narrow table's column, or (on the
 * view) computed from the id.
 */
const numberedDoc = (target: FilterTarget): string =>
  target.narrowRow === undefined
    ? letterIdNumberSql(`${ROW}."id"`)
    : `${target.narrowRow}.${quoteIdentifier(SEARCH_DOC_COLUMN)}`

const NO_INPUTS: SemanticInputs = {}

const withClause = (clauses: readonly SqlFragment[]): SqlFragment =>
  clauses.length === 0 ? raw('') : sql`WITH ${joinSql(clauses, ', ')} `

export class DuckDbPlanCompiler {
  readonly #search: SearchCompilerLike | undefined
  readonly #newSampleSeed: () => string
  /** Statements that do not read records run on the in-memory narrow tables (`narrow` catalog mode). */
  readonly narrowTables: boolean
  /** The SQL of a narrow table's row number (see `DuckDbPlanCompilerOptions.narrowRowNumber`). */
  readonly narrowRowNumber: string
  /** See `DuckDbPlanCompilerOptions.locatedExternalIds` (singleton-lookup.ts reads it). */
  readonly locatedExternalIds: boolean
  /** See `DuckDbPlanCompilerOptions.idOrder`. */
  readonly idOrder: CatalogIdOrder
  readonly #semantic: { readonly dimensions: number } | undefined
  readonly #semanticUnavailable: string | undefined
  readonly #searchUnavailable: string | undefined
  readonly #searchDocEntities: ReadonlySet<CatalogEntity>
  readonly #linkExtremes: ReadonlySet<string>

  constructor(options: DuckDbPlanCompilerOptions = {}) {
    this.#search = options.search
    this.#semantic = options.semantic
    this.#semanticUnavailable = options.semanticUnavailable
    this.#searchUnavailable = options.searchUnavailable
    this.#newSampleSeed = options.newSampleSeed ?? (() => Math.random().toString(36).slice(2))
    this.narrowTables = options.narrowTables ?? false
    this.narrowRowNumber = options.narrowRowNumber ?? quoteIdentifier(NARROW_ROW_COLUMN)
    this.locatedExternalIds = options.locatedExternalIds ?? false
    this.idOrder = options.idOrder ?? 'by-number'
    this.#searchDocEntities = options.searchDocEntities ?? new Set()
    this.#linkExtremes = options.linkExtremes ?? new Set()
  }

  /** A filter over the narrow table `e`. */
  get #narrowTarget(): FilterTarget {
    return { narrowRow: ROW, narrowRowNumber: this.narrowRowNumber }
  }

  /**
   * Where a statement reads the entity's rows: the narrow table in `narrow` mode, the view otherwise; with
   * the filter written for that relation.
   */
  #relation(context: Context): Relation {
    const narrow = context.narrowWhere !== undefined
    const table = narrow ? narrowEntityTable(context.entity) : entityView(context.entity)
    return {
      from: `${table} AS ${ROW}${context.joins(narrow)}`,
      where: narrow ? context.narrowWhere! : context.where,
      narrow,
    }
  }

  compile(plan: QueryPlan, semantic: SemanticInputs = NO_INPUTS): CompiledQuery {
    return plan.groupBy.length > 0 ? this.compileGroups(plan, semantic) : this.compileRows(plan, semantic)
  }

  /** Each semantic search of a plan, once per text, with the statement of its candidates. */
  semanticSearches(plan: QueryPlan): SemanticSearchTask[] {
    const entity = catalogEntityOf(plan.entity)
    if (entity === undefined)
      throw new UnsupportedPlanError('entity', `The DuckDB catalog has no ${plan.entity} table`)
    const seen = new Set<string>()
    return allSearches(plan.filter)
      .filter((node) => node.mode === 'semantic' && !seen.has(node.text) && seen.add(node.text))
      .map((node) => {
        this.#requireSemantic(entity, node)
        const candidates = this.#semanticCandidates(plan, node)
        return { text: node.text, candidates: candidates === null ? null : toStatement(candidates) }
      })
  }

  #requireSemantic(entity: CatalogEntity, node: SearchNode): void {
    if (this.#semantic === undefined || entity !== 'works')
      throw new UnsupportedPlanError(
        'semantic_search',
        `Semantic search (${node.column.id}) is not available: ${this.#semanticUnavailable ?? `this catalog has no vectors of ${entity} (ingest builds them unless told not to)`}`,
      )
  }

  /** The works a semantic search found, as a relation, from the matches the adapter passed in. */
  #semanticMatches(
    entity: CatalogEntity,
    node: SearchNode,
    inputs: SemanticInputs,
    numbered: boolean,
  ): SqlFragment {
    this.#requireSemantic(entity, node)
    const found = inputs.matches?.get(node.text)
    if (found === undefined)
      throw new UnsupportedPlanError(
        'semantic_search',
        `The works nearest to ${node.column.id} were not looked up: run the semantic search before compiling`,
      )
    return matchesRelation(found, numbered)
  }

  /**
   * The works a semantic search picks its nearest among: those the rest of the query keeps (the planner puts
   * a semantic search at the top level, so the rest is an AND of the other conditions), in id order; null
   * when that is every work.
   */
  #semanticCandidates(plan: QueryPlan, node: SearchNode): SqlFragment | null {
    const rest = filterWithout(plan.filter, node)
    if (rest === null && plan.corpus === 'all') return null
    const context = this.#context({ ...plan, filter: rest, groupBy: [] }, NO_INPUTS)
    const rows = this.#relation(context)
    const order = rows.narrow
      ? `${ROW}.${this.narrowRowNumber}`
      : idOrderColumns(catalogEntityInfo(context.entity)!, `${ROW}.`, this.idOrder).join(', ')
    return sql`${withClause(context.searches)}SELECT ${raw(ROW)}."id" AS id FROM ${raw(rows.from)} WHERE ${rows.where} ORDER BY ${raw(order)}`
  }

  #context(plan: QueryPlan, semantic: SemanticInputs): Context {
    const entity = catalogEntityOf(plan.entity)
    if (entity === undefined)
      throw new UnsupportedPlanError('entity', `The DuckDB catalog has no ${plan.entity} table`)
    const required = new Set(requiredSearches(plan.filter))
    const conjuncts =
      plan.filter === null ? [] : plan.filter.kind === 'and' ? plan.filter.children : [plan.filter]
    const relations = new Map<SearchNode, SearchRelation>()
    const clauses: SqlFragment[] = []
    const semanticNames = new Set<string>()
    // The searches of one OR on one column are one relation, one aggregate over all their postings.
    const groups = searchGroupsOf(
      plan.filter,
      (node) =>
        this.#search !== undefined &&
        node.mode !== 'semantic' &&
        node.field !== 'semantic' &&
        unindexedSearch(entity, node) === undefined,
    )
    for (const group of groups) {
      const node = group[0]!
      const name = `__s${clauses.length}`
      // A relation every row must match is joined: a required search, or an OR of this relation's searches alone.
      const joined =
        group.some((member) => required.has(member)) ||
        conjuncts.some((conjunct) => onlySearchesOf(conjunct, group))
      if (node.mode === 'semantic') {
        // Over the narrow tables, works with plain numbered ids join on the number, as a search's matches do.
        const numbered = semantic.numberedIds === true && this.narrowTables
        relations.set(node, { name, doc: numbered ? numberedDoc : idDoc, joined })
        semanticNames.add(name)
        clauses.push(
          sql`${raw(quoteIdentifier(name))}(doc, score) AS (${this.#semanticMatches(entity, node, semantic, numbered)})`,
        )
        continue
      }
      const scan = unindexedSearch(entity, node)
      if (scan === undefined && this.#search === undefined)
        throw new UnsupportedPlanError(
          'full_text_search',
          `Full-text search (${node.column.id}) needs the catalog's search index: ${this.#searchUnavailable ?? 'this catalog has none (build it with `oqlkit index <catalog>`)'}`,
        )
      // Over the narrow tables, matches stay the numbers the index gives them: the rows join on integers.
      const numbered =
        scan === undefined &&
        this.narrowTables &&
        this.#searchDocEntities.has(entity) &&
        this.#search!.numbersById?.(entity) === true
      const relation: SearchRelation = { name, doc: numbered ? numberedDoc : idDoc, joined }
      for (const member of group) relations.set(member, relation)
      const matches = scan ?? this.#search!.compileSearch(entity, group, numbered ? 'number' : 'id')
      clauses.push(
        sql`${raw(quoteIdentifier(name))}(doc, score) AS (SELECT doc, sum(score) FROM (${matches}) GROUP BY doc)`,
      )
    }
    const corpus =
      entity !== 'works' || plan.corpus === 'all'
        ? null
        : raw(plan.corpus === 'core' ? 'NOT coalesce("is_xpac", FALSE)' : 'coalesce("is_xpac", FALSE)')
    const whereOver = (target: FilterTarget): SqlFragment => {
      const filter = compileFilter(entity, plan.filter, (node) => relations.get(node)!, target)
      return corpus === null ? filter : sql`${corpus} AND ${filter}`
    }
    const where = whereOver({})
    const scoringRelations = [...new Set(scoringSearches(plan.filter).map((node) => relations.get(node)!))]
    const scoring = [...new Set(scoringRelations.map((relation) => relation.name))]
    const joinsOf =
      (kind: 'JOIN' | 'LEFT JOIN', chosen: readonly SearchRelation[]) =>
      (narrow: boolean): string =>
        chosen
          .map(
            (relation) =>
              ` ${kind} ${relation.name} ON ${relation.name}.doc = ${relation.doc(narrow ? this.#narrowTarget : {})}`,
          )
          .join('')
    const joinedRelations = [...new Set(relations.values())].filter((relation) => relation.joined)
    return {
      entity,
      searches: clauses,
      where,
      narrowWhere: this.narrowTables ? whereOver(this.#narrowTarget) : undefined,
      joins: joinsOf('JOIN', joinedRelations),
      scoreJoins: joinsOf(
        'LEFT JOIN',
        scoringRelations.filter((relation) => !relation.joined),
      ),
      // The API's relevance carries a citation boost: the text score times 1 + √cited_by_count. Rounded, so
      // a parallel sum that differs in its last bits still gives the same cursor value on the next page.
      // A semantic search's relevance is its cosine as it is (the planner never combines it with text search).
      scoreExpr:
        scoring.length === 0
          ? 'NULL'
          : scoring.every((name) => semanticNames.has(name))
            ? `round(${scoring.map((name) => `coalesce(${name}.score, 0)`).join(' + ')}, 9)`
            : `round((${scoring.map((name) => `coalesce(${name}.score, 0)`).join(' + ')}) * (1 + sqrt(greatest(coalesce(${ROW}."cited_by_count", 0), 0))), 9)`,
      scored: scoring.length > 0,
      joinsSearch: joinedRelations.length > 0,
    }
  }

  #countStatement(context: Context, plan: QueryPlan): SqlFragment {
    const linked = this.#loneLinkLeaf(plan, context)
    // A filter that is one link leaf counts its works in the link table alone (a range of its sorted keys,
    // with the corpus flag copied beside them): probing a million narrow rows cost a link filter's count 10 ms.
    if (linked !== undefined)
      return sql`SELECT ${raw(linked.keyCount === 1 ? 'count(*)' : 'count(DISTINCT __l.work_row)')} AS __count FROM ${raw(quoteIdentifier(linked.source.narrowTable))} AS __l WHERE __l.key IN (${linked.keys}) AND ${raw(linkCorpus(plan.corpus))}`
    const rows = this.#relation(context)
    return sql`${withClause(context.searches)}SELECT count(*) AS __count FROM ${raw(rows.from)} WHERE ${rows.where}`
  }

  /** The link leaf a works filter is, when its narrow link table alone can answer (no search to join). */
  #loneLinkLeaf(plan: QueryPlan, context: Context): ReturnType<typeof singleLinkLeaf> {
    if (!this.narrowTables || context.entity !== 'works' || context.searches.length > 0) return undefined
    return singleLinkLeaf(context.entity, plan.filter)
  }

  #source(entity: CatalogEntity, key: ColumnRef): ColumnSource {
    const source = columnSourceOf(entity, key)
    if (source.kind === 'unsupported') throw new UnsupportedPlanError('column', source.message)
    return source
  }

  #sortKey(context: Context, key: SortKey): CompiledSortKey {
    return compileSortKey(this.#sortKeyDialect, context.entity, key, 0, context.scoreExpr)
  }

  /** DuckDB's words for a sort over the entity's row `e`. */
  readonly #sortKeyDialect: SortKeyDialect = {
    ...DUCKDB_SQL,
    codecs: DUCKDB_CODECS,
    // A letter id orders by its number, then its text; a cursor's id gives the number as ingest does.
    idKey: (entity, direction) => {
      const [number, text] = idOrderColumns(catalogEntityInfo(entity)!, `${ROW}.`, this.idOrder)
      return {
        expr: `${ROW}."id"`,
        direction,
        type: 'text',
        narrowOrder: `${ROW}.${this.narrowRowNumber}`,
        ...(text === undefined
          ? {}
          : {
              terms: [
                { expr: number!, of: (id: SqlFragment) => sql`TRY_CAST(substr(${id}, 2) AS BIGINT)` },
                { expr: text, of: (id: SqlFragment) => id },
              ],
            }),
      }
    },
    noScore: 'NULL',
    listExtreme: (_list, typed, extreme) => `list_${extreme}(${typed})`,
    // A link table's keys of the row by id (the views exist in every load mode), or by the extremes the
    // narrow table holds of them.
    linkExtreme: (own, extreme, key) => {
      if (this.narrowTables && this.#linkExtremes.has(own.view)) {
        const held = `${ROW}.${quoteIdentifier(key.direction === 'asc' ? own.extremeColumns.lo : own.extremeColumns.hi)}`
        return own.narrowKeyLetter === null
          ? held
          : `${constantLiteral(own.narrowKeyLetter)} || CAST(${held} AS VARCHAR)`
      }
      return `(SELECT ${extreme}(__s.key) FROM ${quoteIdentifier(own.view)} AS __s WHERE __s.work_id = ${ROW}."id")`
    },
    ...KEY_TEXT,
  }

  /** Rows strictly after `after` in the order of `keys` (nulls last in both directions). */
  #keyset(keys: readonly CompiledSortKey[], after: readonly unknown[]): SqlFragment {
    return keysetAfter(DUCKDB_SQL, keys, after, keyValue)
  }

  #rowLocator(entity: CatalogEntity, keys: readonly CompiledSortKey[]): RowLocator {
    const idKeyIndex = keys.findIndex((key) => key.narrowOrder !== undefined)
    const table = raw(rowLocationTable(entity))
    return {
      statementFor: (rows) =>
        toStatement(
          sql`SELECT "row" AS __row, "id" AS __id, record_offset AS __ro, record_bytes AS __rb FROM ${table} WHERE "row" IN (${paramList(rows)})`,
        ),
      idKeyIndex: idKeyIndex < 0 ? null : idKeyIndex,
    }
  }

  compileRows(plan: QueryPlan, semantic: SemanticInputs = NO_INPUTS): CompiledRowsQuery {
    const context = this.#context(plan, semantic)
    const perPage = plan.page.perPage
    const from = (rows: Relation): SqlFragment => raw(`${rows.from}${context.scoreJoins(rows.narrow)}`)
    // The page is chosen from narrow columns only; its records are read afterwards by id (`records`), so a
    // sort or a filter never drags the wide JSON column through DuckDB's operators.
    const select = raw(`${RECORD_LOCATION_COLUMNS(ROW)}, ${context.scoreExpr} AS __score`)
    const head = withClause(context.searches)

    if (plan.sample !== null) {
      const seed = plan.sample.seed ?? this.#newSampleSeed()
      const offset = pageOffset(plan.page)
      const limit = Math.max(0, Math.min(perPage, plan.sample.size - offset))
      const rows = this.#relation(context)
      const statement = sql`${head}SELECT ${select} FROM ${from(rows)} WHERE ${rows.where} ORDER BY hash(${raw(ROW)}."id" || '/' || ${param(seed)}), ${raw(ROW)}."id" LIMIT ${param(limit)} OFFSET ${param(offset)}`
      return {
        kind: 'rows',
        entity: context.entity,
        ...toStatement(statement),
        count: toStatement(this.#countStatement(context, plan)),
        perPage,
        sortKeyCount: 0,
        select: plan.select,
        scored: context.scored,
      }
    }

    const keys = plan.sort.map((key) => this.#sortKey(context, key))
    const keyColumns = keys.map((key, index) => `${keyOutput(key)} AS __k${index}`).join(', ')
    const keyset =
      plan.page.kind === 'cursor' && plan.page.after !== null ? this.#keyset(keys, plan.page.after) : null
    const offset = pageOffset(plan.page)
    const rows = this.#relation(context)
    const where = keyset === null ? rows.where : sql`${rows.where} AND ${keyset}`
    const order = sortKeysOrder(keys, rows.narrow)
    const limit = sql`LIMIT ${param(perPage + 1)}${offset > 0 ? sql` OFFSET ${param(offset)}` : raw('')}`
    // A lone link filter's page may come from its link table alone (`#linkPage`). Otherwise, on the narrow
    // table, the page is chosen by row number and narrow keys alone (the id key too leaves as the row number).
    // Either way `locate` then adds the id and record location of the page's rows.
    const linkPage = keyset === null ? this.#linkPage(plan, context, keys, limit) : undefined
    const located = linkPage !== undefined || rows.narrow ? this.#rowLocator(context.entity, keys) : undefined
    // Not past a cursor: the window would count only the rows after it.
    const countInPage = linkPage === undefined && context.joinsSearch && keyset === null
    const counted = raw(countInPage ? ', count(*) OVER () AS __count' : '')
    const statement =
      linkPage ??
      (located === undefined
        ? sql`${head}SELECT ${select}${counted}, ${raw(keyColumns)} FROM ${from(rows)} WHERE ${where} ORDER BY ${raw(order)} ${limit}`
        : sql`${head}SELECT ${raw(`${ROW}.${this.narrowRowNumber} AS __row, ${context.scoreExpr} AS __score`)}${counted}, ${raw(
            keys.map((key, index) => `${key.narrowOrder ?? keyOutput(key)} AS __k${index}`).join(', '),
          )} FROM ${from(rows)} WHERE ${where} ORDER BY ${raw(order)} ${limit}`)
    return {
      ...(located === undefined ? {} : { locate: located }),
      ...(countInPage ? { countInPage: { firstPage: offset === 0 } } : {}),
      kind: 'rows',
      entity: context.entity,
      ...toStatement(statement),
      count: toStatement(this.#countStatement(context, plan)),
      perPage,
      sortKeyCount: keys.length,
      select: plan.select,
      scored: context.scored,
    }
  }

  /**
   * The page of a filter that is one link leaf, sorted by keys its narrow link table copies (the work's row
   * for the id, `LINK_SORT_COLUMNS`): a range of the link table's sorted keys, where joining the matches back
   * to the works probed every narrow row (17 ms for an institution's works at 1M). Undefined for any other
   * page, and past a cursor, whose values name the id by its text.
   */
  #linkPage(
    plan: QueryPlan,
    context: Context,
    keys: readonly CompiledSortKey[],
    limit: SqlFragment,
  ): SqlFragment | undefined {
    const linked = this.#loneLinkLeaf(plan, context)
    if (linked === undefined) return undefined
    const copied = new Map(
      LINK_SORT_COLUMNS.map((column) => [
        quoteIdentifier(column.name),
        `__l.${quoteIdentifier(linkSortColumn(column.name))}`,
      ]),
    )
    const linkKeys: CompiledSortKey[] = []
    for (const key of keys) {
      const expr = key.narrowOrder !== undefined ? '__l.work_row' : copied.get(key.expr)
      if (expr === undefined) return undefined
      // The work's row is in id order: the id key orders by it alone.
      linkKeys.push({ expr, direction: key.direction, type: key.type })
    }
    const table = quoteIdentifier(linked.source.narrowTable)
    const corpus = raw(linkCorpus(plan.corpus))
    // Several keys can link one work more than once: its rows, all alike, become one.
    const rows =
      linked.keyCount === 1
        ? sql`${raw(table)} AS __l WHERE __l.key IN (${linked.keys}) AND ${corpus}`
        : sql`(SELECT DISTINCT * EXCLUDE (key) FROM ${raw(table)} AS __l WHERE __l.key IN (${linked.keys}) AND ${corpus}) AS __l`
    const columns = linkKeys.map((key, index) => `${keyOutput(key)} AS __k${index}`).join(', ')
    const order = sortKeysOrder(linkKeys)
    return sql`SELECT __l.work_row AS __row, NULL AS __score, ${raw(columns)} FROM ${rows} ORDER BY ${raw(order)} ${limit}`
  }

  /**
   * The totals of a plan (`plan.sums`): one row, `__sum0`, `__sum1`, … in that order, each the sum of a
   * numeric column over every row the filter and corpus keep (its page, sample and grouping do not matter).
   * Only the column expressions, the filter's parameters and the search relations go into the SQL.
   */
  compileSums(plan: QueryPlan, semantic: SemanticInputs = NO_INPUTS): SqlStatement {
    const context = this.#context({ ...plan, groupBy: [] }, semantic)
    const totals = (plan.sums ?? []).map((sum, index) => {
      const source = this.#source(context.entity, sum.column)
      if (source.kind !== 'scalar' || source.codec !== DUCKDB_CODECS.number)
        throw new UnsupportedPlanError(
          'column',
          `${sum.column.id} is not one number per row; it cannot be totalled`,
        )
      // As a DOUBLE: the sum of integers is a HUGEINT, which the driver returns as a bigint.
      return `CAST(coalesce(sum(${source.expr}), 0) AS DOUBLE) AS __sum${index}`
    })
    if (totals.length === 0) throw new UnsupportedPlanError('column', 'The plan asks for no totals')
    const columns = raw(totals.join(', '))
    const rows = this.#relation(context)
    return toStatement(
      sql`${withClause(context.searches)}SELECT ${columns} FROM ${raw(rows.from)} WHERE ${rows.where}`,
    )
  }

  /**
   * The keys of a group-by of one link dimension over a whole corpus, without its unknown bucket, read from
   * the narrow link table alone (it copies each work's corpus flag): no join of every work to its links.
   * Undefined for any other group-by.
   */
  #linkTableKeys(plan: QueryPlan, context: Context): string | undefined {
    const [dimension, ...others] = plan.groupBy
    if (!this.narrowTables || dimension === undefined || others.length > 0) return undefined
    if (plan.filter !== null || dimension.includeUnknown || context.entity !== 'works') return undefined
    const source = this.#source(context.entity, dimension.column)
    if (source.kind !== 'link') return undefined
    return `__keys AS (SELECT __l.key AS __g0 FROM ${quoteIdentifier(source.narrowTable)} AS __l WHERE ${linkCorpus(plan.corpus)})`
  }

  compileGroups(plan: QueryPlan, semantic: SemanticInputs = NO_INPUTS): CompiledGroupsQuery {
    const context = this.#context(plan, semantic)
    if (plan.page.kind === 'cursor' && plan.page.after !== null)
      throw new UnsupportedPlanError('group_cursor', 'Group buckets are paged by number, not by cursor')
    const linkKeys = this.#linkTableKeys(plan, context)
    // Only the key columns are carried, and the row's id or number when a link table joins by it: the
    // buckets count rows, and a work's id text dragged through the grouping cost time for nothing.
    const baseColumns: string[] = []
    // Link tables join by the work's id, or by its row when the rows come from the narrow table, which is
    // decided once the columns are known.
    const joins: ((narrow: boolean) => string)[] = []
    let joinsLinkTable = false
    const keyColumns: string[] = []
    const known: string[] = []
    const formats: GroupKeyFormat[] = []
    // The letter of link keys that a narrow link table holds as numbers: buckets count them as numbers and
    // name them afterwards (`I` || 123), a string made per bucket, not per link row.
    const keyLetters: (string | null)[] = []
    plan.groupBy.forEach((dimension, index) => {
      const grouped = groupedValuesOf(columnSourceOf, context.entity, dimension)
      keyLetters.push(grouped.kind === 'link' ? grouped.source.narrowKeyLetter : null)
      formats.push(grouped.format)
      const value = `__d${index}`
      const key = `__g${index}`
      switch (grouped.kind) {
        case 'value':
          baseColumns.push(`${grouped.expr} AS ${value}`)
          keyColumns.push(`__base.${value} AS ${key}`)
          break
        case 'link': {
          const { source } = grouped
          joinsLinkTable = true
          joins.push((narrow) =>
            narrow
              ? ` LEFT JOIN ${quoteIdentifier(source.narrowTable)} AS __l${index} ON __l${index}.work_row = __base.__row`
              : ` LEFT JOIN ${quoteIdentifier(source.view)} AS __l${index} ON __l${index}.work_id = __base.__id`,
          )
          keyColumns.push(`__l${index}.key AS ${key}`)
          break
        }
        case 'list': {
          const { source } = grouped
          const element = source.groupElement(LAMBDA)
          const values = `list_distinct(list_filter(list_transform(${source.expr}, lambda ${LAMBDA}: ${element}), lambda ${LAMBDA}: ${LAMBDA} IS NOT NULL))`
          baseColumns.push(`${values} AS ${value}`)
          joins.push(
            () =>
              `, unnest(CASE WHEN len(__base.${value}) = 0 THEN [NULL] ELSE __base.${value} END) AS __u${index}(${key})`,
          )
          keyColumns.push(key)
          break
        }
      }
      if (!dimension.includeUnknown) known.push(`${key} IS NOT NULL`)
    })
    const keyNames = plan.groupBy.map((_, index) => `__g${index}`)
    const rows = this.#relation(context)
    if (joinsLinkTable)
      baseColumns.push(rows.narrow ? `${ROW}.${this.narrowRowNumber} AS __row` : `${ROW}."id" AS __id`)
    const base = sql`__base AS (SELECT ${raw(baseColumns.join(', '))} FROM ${raw(rows.from)} WHERE ${rows.where})`
    const keysClause = raw(
      // No DISTINCT: each row is already one (id, key combination) — a scalar has one value per id, lists are
      // list_distinct'ed, and link tables hold distinct (key, work_id) pairs — and at 1M works a DISTINCT
      // over the joined rows cost more than the grouping itself.
      `__keys AS (SELECT ${keyColumns.join(', ')} FROM __base${joins.map((join) => join(rows.narrow)).join('')})`,
    )
    const buckets = raw(
      `__buckets AS (SELECT ${keyNames.join(', ')}, count(*) AS __n FROM __keys${known.length > 0 ? ` WHERE ${known.join(' AND ')}` : ''} GROUP BY ALL)`,
    )
    const numbered = rows.narrow && keyLetters.some((letter) => letter !== null)
    const named = raw(
      `__named AS (SELECT ${keyNames
        .map((name, index) => {
          const letter = keyLetters[index] ?? null
          return letter === null
            ? name
            : `CASE WHEN ${name} IS NULL THEN NULL ELSE ${constantLiteral(letter)} || CAST(${name} AS VARCHAR) END AS ${name}`
        })
        .join(', ')}, __n FROM __buckets)`,
    )
    const bucketClauses = numbered ? [buckets, named] : [buckets]
    const bucketsName = numbered ? '__named' : '__buckets'
    const clauses = withClause(
      linkKeys === undefined
        ? [...context.searches, base, keysClause, ...bucketClauses]
        : [raw(linkKeys), ...bucketClauses],
    )
    const order = bucketOrder(plan, keyNames)
    const perPage = plan.page.perPage
    const offset = pageOffset(plan.page)
    const statement = sql`${clauses}SELECT ${raw(keyNames.join(', '))}, __n, count(*) OVER () AS __groups FROM ${raw(bucketsName)} ORDER BY ${raw(order)} LIMIT ${param(perPage)} OFFSET ${param(offset)}`
    const groupsCount = sql`${clauses}SELECT count(*) AS __groups FROM __buckets`
    return {
      kind: 'groups',
      ...toStatement(statement),
      count: toStatement(this.#countStatement(context, plan)),
      keyFormats: formats,
      groupsCount: toStatement(groupsCount),
    }
  }
}
