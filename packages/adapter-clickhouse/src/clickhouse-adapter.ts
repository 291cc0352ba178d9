// The engine's StorageAdapter on ClickHouse: a plan's rows, groups and totals compiled to ClickHouse SQL over
// the served version of a loaded catalog, with the DuckDB adapter's semantics (the conformance suite pins
// them). A page is chosen from the entity table's narrow columns, then its records are read from the records
// table by id, as RowBinary bytes passed on as they are. Every value is a query parameter.
import type { ClickHouseClient } from '@clickhouse/client'
import {
  type CatalogEntity,
  type ColumnSource,
  catalogEntityInfo,
  createColumnMap,
  formatGroupKey,
  ownValuesOf,
  selectRecordFields,
  type ValueCodec,
  valueCodecsFor,
} from '@oqlkit/catalog'
import {
  type AutocompleteRequest,
  type Embedder,
  type EntityRecord,
  filterWithout,
  type GroupBucket,
  type GroupsResult,
  normalizeAutocompleteText,
  type QueryOptions,
  type QueryPlan,
  type RowsResult,
  type SearchNode,
  type SortKey,
  type StorageAdapter,
  searchNodesOf,
  throwIfInterrupted,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import { entityPath } from '@oqlkit/oqo-schema'
import { CLICKHOUSE_COLUMN_DIALECT } from './clickhouse-column-dialect.ts'
import {
  compileClickHouseFilter,
  type FilterContext,
  QueryParams,
  tableOf,
} from './clickhouse-filter-compiler.ts'
import { entityTableName, recordsTableName } from './clickhouse-schema.ts'
import { expansionLimitOfClickHouse } from './clickhouse-search-compiler.ts'
import {
  SearchIndexCache,
  type SearchSources,
  type StatementSearches,
  statementSearches,
} from './clickhouse-search-relations.ts'
import {
  ClickHouseSemanticSearch,
  nearestWorksStatement,
  type SemanticMatch,
  semanticMatchesRelation,
} from './clickhouse-semantic-search.ts'
import { findEntityByExternalId, findEntityById, findRandomEntity } from './clickhouse-singletons.ts'
import { decodeStringRows } from './row-binary-strings.ts'
import { ServedVersionCache } from './served-version-cache.ts'

const MAP = createColumnMap(CLICKHOUSE_COLUMN_DIALECT)
const CODECS = valueCodecsFor(CLICKHOUSE_COLUMN_DIALECT)
const LAMBDA = '__x'

type KeyType = 'number' | 'date' | 'timestamp' | 'boolean' | 'text'

const keyTypeOf = (codec: ValueCodec): KeyType =>
  codec === CODECS.number
    ? 'number'
    : codec === CODECS.date
      ? 'date'
      : codec === CODECS.timestamp
        ? 'timestamp'
        : codec === CODECS.boolean
          ? 'boolean'
          : 'text'

interface CompiledKey {
  readonly expr: string
  readonly direction: 'asc' | 'desc'
  readonly type: KeyType
}

/**
 * Statement settings every query gets: a LEFT JOIN without a match gives NULL, as in SQL, not a default; and,
 * on a cluster, a subquery or join over a Distributed table inside a query over another runs on each shard
 * against that shard's own tables, which the layout makes exact (a work's links, record, vectors and
 * postings share its shard; what every shard needs whole is on every node). No effect on one server.
 */
const SETTINGS = {
  join_use_nulls: 1,
  distributed_product_mode: 'local',
  // A statement whose request was aborted (its deadline, the client gone, a shutdown) stops on the server too,
  // instead of running to its end for nobody and holding a core the next requests need.
  cancel_http_readonly_queries_on_client_close: 1,
} as const

export interface ClickHouseAdapterOptions {
  readonly client: ClickHouseClient
  /** The catalog's name (`readClickHouseTarget`); its served version is asked at most once a second. */
  readonly catalog: string
  /** Longest a statement may run on the server, in seconds (default 60). */
  readonly maxExecutionSeconds?: number
  /**
   * What embeds the texts of semantic searches: an embeddings server's client, for vectors made by one.
   * Default: the catalog's own LSA model, read from the served version's files.
   */
  readonly embedder?: Embedder
}

const entityOf = (plan: QueryPlan): CatalogEntity => {
  const info = catalogEntityInfo(entityPath(plan.entity))
  if (info === undefined) throw new UnsupportedPlanError('entity', `${plan.entity} has no table in a catalog`)
  return info.entity
}

export const createClickHouseAdapter = (options: ClickHouseAdapterOptions): StorageAdapter => {
  const { client } = options
  const versions = new ServedVersionCache(client, options.catalog)
  const searchIndexes = new SearchIndexCache(client)
  const semantic = new ClickHouseSemanticSearch(client, options.embedder)
  const settings = { ...SETTINGS, max_execution_time: options.maxExecutionSeconds ?? 60 }

  const rowsOf = async <T>(query: string, params: QueryParams, signal?: AbortSignal): Promise<T[]> => {
    throwIfInterrupted(signal)
    try {
      const result = await client.query({
        query,
        query_params: params.values,
        format: 'JSONEachRow',
        clickhouse_settings: settings,
        ...(signal === undefined ? {} : { abort_signal: signal }),
      })
      return (await result.json()) as T[]
    } catch (error) {
      throwIfInterrupted(signal)
      // A wildcard that matched too many index terms is the caller's invalid search (a 400), not a fault.
      const limit = expansionLimitOfClickHouse(error)
      throw limit === undefined ? error : new UnsupportedPlanError('invalid_search', limit)
    }
  }

  const contextOf = async (params: QueryParams): Promise<FilterContext> => ({
    database: await versions.database(),
    map: MAP,
    params,
  })

  const sourceOf = (entity: CatalogEntity, column: SortKey['column'] & object): ColumnSource => {
    const source = MAP.columnSourceOf(entity, column)
    if (source.kind === 'unsupported') throw new UnsupportedPlanError('column', source.message)
    return source
  }

  /**
   * What a plan's searches read: the served version's search index, and its semantic searches' texts
   * embedded (`clickhouse-semantic-search.ts`).
   */
  const searchSourcesOf = async (
    database: string,
    entity: CatalogEntity,
    plan: QueryPlan,
    signal?: AbortSignal,
  ): Promise<SearchSources> => {
    // A semantic search's text is embedded, and its nearest works found, once per request, before the
    // request's statements are written (`clickhouse-semantic-search.ts` says why).
    const [index, queries] = await Promise.all([
      searchIndexes.indexOf(database),
      semantic.embed(database, entity, plan),
    ])
    if (queries.size === 0) return { index }
    const found = new Map<SearchNode, readonly SemanticMatch[]>()
    for (const { node } of searchNodesOf(plan.filter)) {
      if (node.mode !== 'semantic' || found.has(node)) continue
      // Its candidates: the works the rest of the plan (corpus, other filters, full-text searches) keeps.
      const params = new QueryParams()
      const rest = filterOf(
        { database, map: MAP, params },
        entity,
        { ...plan, filter: filterWithout(plan.filter, node) },
        { index },
      )
      const nearest = nearestWorksStatement(rest.context, node, rest.where, queries)
      found.set(
        node,
        nearest === undefined ? [] : await rowsOf<SemanticMatch>(`${rest.with}${nearest}`, params, signal),
      )
    }
    return { index, semantic: (node, context) => semanticMatchesRelation(context, found.get(node) ?? []) }
  }

  /** One statement's searches (its WITH clause, their relations and the relevance) and its WHERE. */
  const filterOf = (
    context: FilterContext,
    entity: CatalogEntity,
    plan: QueryPlan,
    sources: SearchSources,
  ): StatementSearches & { readonly where: string } => {
    const searches = statementSearches(context, entity, plan.filter, sources)
    return { ...searches, where: whereOf(searches.context, entity, plan) }
  }

  /** One statement's filter over the version served now, its searches found first (groups and totals). */
  const servedFilterOf = async (
    params: QueryParams,
    entity: CatalogEntity,
    plan: QueryPlan,
    signal?: AbortSignal,
  ): Promise<StatementSearches & { readonly where: string }> => {
    const base = await contextOf(params)
    return filterOf(base, entity, plan, await searchSourcesOf(base.database, entity, plan, signal))
  }

  /** WHERE of a plan: its corpus (works) and its filter. */
  const whereOf = (context: FilterContext, entity: CatalogEntity, plan: QueryPlan): string => {
    const filter = compileClickHouseFilter(context, entity, plan.filter)
    if (entity !== 'works' || plan.corpus === 'all') return filter
    const corpus = plan.corpus === 'core' ? 'NOT coalesce(`is_xpac`, false)' : 'coalesce(`is_xpac`, false)'
    return `${corpus} AND ${filter}`
  }

  /** A sort key's expression, and any join of link extremes it needs. */
  const sortKey = (
    context: FilterContext,
    entity: CatalogEntity,
    key: SortKey,
    index: number,
    joins: string[],
    score: string | null,
  ): CompiledKey => {
    if (key.column === 'id') return { expr: 'e.`id`', direction: key.direction, type: 'text' }
    // Without a search there is no relevance: every row's is null, as on DuckDB.
    if (key.column === 'relevance_score')
      return { expr: score ?? 'CAST(NULL AS Nullable(Float64))', direction: key.direction, type: 'number' }
    const source = sourceOf(entity, key.column)
    switch (source.kind) {
      case 'scalar':
        return { expr: source.expr, direction: key.direction, type: keyTypeOf(source.codec) }
      case 'external-id':
      case 'choice':
      case 'prefix':
        return { expr: source.scalar.expr, direction: key.direction, type: keyTypeOf(source.scalar.codec) }
      case 'unsupported':
        throw new UnsupportedPlanError('column', source.message)
      default: {
        // A list sorts by its smallest element ascending and its largest descending, as the API's sort does;
        // a link table's keys of the row the same way. No elements: no key (sorted last).
        const own = ownValuesOf(source)
        const extreme = key.direction === 'asc' ? 'min' : 'max'
        if (own.kind === 'link') {
          joins.push(
            ` LEFT JOIN (SELECT work_id, ${extreme}(key) AS __v FROM ${tableOf(context, own.view)} GROUP BY work_id) AS __s${index} ON __s${index}.work_id = e.\`id\``,
          )
          return { expr: `__s${index}.__v`, direction: key.direction, type: keyTypeOf(own.codec) }
        }
        const element = own.element(LAMBDA)
        const typed = element === LAMBDA ? own.expr : `arrayMap(${LAMBDA} -> ${element}, ${own.expr})`
        return {
          expr: `if(empty(${own.expr}), NULL, array${extreme === 'min' ? 'Min' : 'Max'}(${typed}))`,
          direction: key.direction,
          type: keyTypeOf(own.codec),
        }
      }
    }
  }

  /** A sort-key value of a cursor, as a parameter of the key's type. */
  const keyValue = (params: QueryParams, key: CompiledKey, value: unknown): string => {
    const text = typeof value === 'string' ? value : JSON.stringify(value)
    if (key.type === 'number') return `toFloat64OrNull(${params.add(text, 'String')})`
    if (key.type === 'date') return `toDate32OrNull(${params.add(text, 'String')})`
    if (key.type === 'timestamp')
      return `parseDateTime64BestEffortOrNull(${params.add(text, 'String')}, 6, 'UTC')`
    if (key.type === 'boolean') return params.add(value === true || value === 'true', 'Bool')
    return params.add(text, 'String')
  }

  /** Rows strictly after `after` in the order of `keys` (nulls last in both directions). */
  const keyset = (params: QueryParams, keys: readonly CompiledKey[], after: readonly unknown[]): string => {
    if (after.length !== keys.length)
      throw new UnsupportedPlanError(
        'invalid_cursor',
        `The cursor holds ${after.length} sort values; this sort has ${keys.length}`,
      )
    const alternatives: string[] = []
    keys.forEach((key, index) => {
      const value = after[index]
      if (value === null || value === undefined) return // nothing sorts after a null (nulls are last)
      const equalBefore = keys.slice(0, index).map((previous, position) => {
        const previousValue = after[position]
        return previousValue === null || previousValue === undefined
          ? `${previous.expr} IS NULL`
          : `coalesce(${previous.expr} = ${keyValue(params, previous, previousValue)}, false)`
      })
      const beyond = `(${key.expr} ${key.direction === 'asc' ? '>' : '<'} ${keyValue(params, key, value)} OR ${key.expr} IS NULL)`
      alternatives.push(`(${[...equalBefore, beyond].join(' AND ')})`)
    })
    return alternatives.length === 0 ? 'false' : `(${alternatives.join(' OR ')})`
  }

  /** The records of some ids, as stored, in the order of the ids. */
  const recordsOf = async (
    context: FilterContext,
    entity: CatalogEntity,
    ids: readonly string[],
    signal?: AbortSignal,
  ): Promise<Uint8Array[]> => {
    if (ids.length === 0) return []
    throwIfInterrupted(signal)
    const params = new QueryParams()
    const list = params.add(ids, 'Array(String)')
    const chunks: Buffer[] = []
    try {
      const { stream } = await client.exec({
        query: `SELECT id, record FROM ${tableOf(context, recordsTableName(entity))} WHERE id IN ${list} FORMAT RowBinary`,
        query_params: params.values,
        clickhouse_settings: settings,
        ...(signal === undefined ? {} : { abort_signal: signal }),
      })
      for await (const chunk of stream) chunks.push(chunk as Buffer)
    } catch (error) {
      // A deadline or shutdown that fires while the records are read is the request's interruption (a 503),
      // not the client's bare abort error (a 500), as it is for the statements before it.
      throwIfInterrupted(signal)
      throw error
    }
    const decoder = new TextDecoder()
    const byId = new Map(
      decodeStringRows(Buffer.concat(chunks), 2).map(([id, record]) => [decoder.decode(id), record!]),
    )
    return ids.map((id) => {
      const record = byId.get(id)
      if (record === undefined) throw new Error(`The catalog has no record for ${id}`)
      return record
    })
  }

  const queryRows = async (plan: QueryPlan, queryOptions?: QueryOptions): Promise<RowsResult> => {
    const signal = queryOptions?.signal
    const entity = entityOf(plan)
    const params = new QueryParams()
    const context = await contextOf(params)
    const sources = await searchSourcesOf(context.database, entity, plan, signal)
    const table = `${tableOf(context, entityTableName(entity))} AS e`
    const counted = filterOf(context, entity, plan, sources)
    const perPage = plan.page.perPage
    type PageRow = { __id: string; __score?: number | null; [key: string]: unknown }
    const readPage = async (): Promise<{ page: PageRow[]; keys: CompiledKey[]; scored: boolean }> => {
      let page: PageRow[]
      let keys: CompiledKey[] = []
      let scored = false
      if (plan.sample !== null) {
        const seed = plan.sample.seed ?? `${Math.random()}`
        const offset = plan.page.kind === 'offset' ? (plan.page.page - 1) * perPage : 0
        const limit = Math.max(0, Math.min(perPage, plan.sample.size - offset))
        const sampleParams = new QueryParams()
        const sampled = filterOf({ ...context, params: sampleParams }, entity, plan, sources)
        scored = sampled.score !== null
        page = await rowsOf(
          `${sampled.with}SELECT e.\`id\` AS __id, ${sampled.score ?? 'NULL'} AS __score FROM ${table}${sampled.scoreJoins} WHERE ${sampled.where} ORDER BY cityHash64(concat(e.\`id\`, '/', ${sampleParams.add(seed, 'String')})), e.\`id\` LIMIT ${sampleParams.add(limit, 'UInt64')} OFFSET ${sampleParams.add(offset, 'UInt64')}`,
          sampleParams,
          signal,
        )
      } else {
        const pageParams = new QueryParams()
        const paged = filterOf({ ...context, params: pageParams }, entity, plan, sources)
        const pageContext = paged.context
        scored = paged.score !== null
        const joins: string[] = []
        keys = plan.sort.map((key, index) => sortKey(pageContext, entity, key, index, joins, paged.score))
        const after =
          plan.page.kind === 'cursor' && plan.page.after !== null
            ? keyset(pageParams, keys, plan.page.after)
            : null
        const offset = plan.page.kind === 'offset' ? (plan.page.page - 1) * perPage : 0
        const outputs = keys
          .map(
            (key, index) =>
              `${key.type === 'date' || key.type === 'timestamp' ? `toString(${key.expr})` : key.expr} AS __k${index}`,
          )
          .join(', ')
        const order = keys.map((key) => `${key.expr} ${key.direction.toUpperCase()} NULLS LAST`).join(', ')
        page = await rowsOf(
          `${paged.with}SELECT e.\`id\` AS __id, ${paged.score ?? 'NULL'} AS __score${outputs === '' ? '' : `, ${outputs}`} FROM ${table}${paged.scoreJoins}${joins.join('')} WHERE ${paged.where}${after === null ? '' : ` AND ${after}`} ORDER BY ${order === '' ? 'e.`id`' : order} LIMIT ${pageParams.add(perPage + 1, 'UInt64')} OFFSET ${pageParams.add(offset, 'UInt64')}`,
          pageParams,
          signal,
        )
      }
      return { page, keys, scored }
    }
    // The count and the page run at once, and Promise.all handles both: a count started on its own and awaited
    // after the page had no handler when the page failed first (a deadline), and its rejection ended the server.
    const [[total], { page, keys, scored }] = await Promise.all([
      rowsOf<{ n: number | string }>(
        `${counted.with}SELECT count() AS n FROM ${table} WHERE ${counted.where}`,
        params,
        signal,
      ),
      readPage(),
    ])
    const shown = page.slice(0, perPage)
    const bytes = await recordsOf(
      context,
      entity,
      shown.map((row) => row.__id),
      signal,
    )
    const decoder = new TextDecoder()
    const rows: EntityRecord[] = bytes.map((record, index) => {
      const parsed = JSON.parse(decoder.decode(record)) as Record<string, unknown>
      const picked = plan.select === null ? parsed : selectRecordFields(parsed, plan.select)
      return scored ? { ...picked, relevance_score: Number(shown[index]?.__score ?? 0) } : picked
    })
    const last = shown.at(-1)
    const nextAfter =
      plan.sample === null && page.length > perPage && last !== undefined
        ? keys.map((_, index) => last[`__k${index}`] ?? null)
        : null
    return {
      count: Number(total?.n ?? 0),
      rows,
      ...(plan.select === null && !scored ? { rowsJsonBytes: bytes } : {}),
      nextAfter,
    }
  }

  const queryGroups = async (plan: QueryPlan, queryOptions?: QueryOptions): Promise<GroupsResult> => {
    const signal = queryOptions?.signal
    const entity = entityOf(plan)
    if (plan.page.kind === 'cursor' && plan.page.after !== null)
      throw new UnsupportedPlanError('group_cursor', 'Group buckets are paged by number, not by cursor')
    const params = new QueryParams()
    const filtered = await servedFilterOf(params, entity, plan, queryOptions?.signal)
    const context = filtered.context
    const { where } = filtered
    const table = `${tableOf(context, entityTableName(entity))} AS e`
    const columns: string[] = []
    const joins: string[] = []
    const known: string[] = []
    const formats: ((value: unknown) => string | number | boolean | null)[] = []
    plan.groupBy.forEach((dimension, index) => {
      const source = sourceOf(entity, dimension.column)
      const key = `__g${index}`
      switch (source.kind) {
        case 'scalar':
        case 'external-id':
        case 'choice':
        case 'prefix': {
          const scalar = source.kind === 'scalar' ? source : source.scalar
          columns.push(`${scalar.groupExpr} AS ${key}`)
          formats.push(formatGroupKey(scalar.groupKey))
          break
        }
        case 'link':
          joins.push(
            ` LEFT JOIN ${tableOf(context, source.view)} AS __l${index} ON __l${index}.work_id = e.\`id\``,
          )
          columns.push(`__l${index}.key AS ${key}`)
          formats.push(formatGroupKey(source.groupKey))
          break
        case 'list': {
          const values = `arrayDistinct(arrayFilter(${LAMBDA} -> ${LAMBDA} IS NOT NULL, arrayMap(${LAMBDA} -> ${source.groupElement(LAMBDA)}, ${source.expr})))`
          // A row without values counts once in the unknown bucket, as a NULL key.
          columns.push(`arrayJoin(if(empty(${values}), [NULL], ${values})) AS ${key}`)
          formats.push(formatGroupKey(source.groupKey))
          break
        }
        default:
          throw new UnsupportedPlanError('column', `${dimension.column.id} cannot be grouped by`)
      }
      if (!dimension.includeUnknown) known.push(`${key} IS NOT NULL`)
    })
    const names = plan.groupBy.map((_, index) => `__g${index}`)
    const buckets = `SELECT ${names.join(', ')}, count() AS __n FROM (SELECT ${columns.join(', ')} FROM ${table}${joins.join('')} WHERE ${where})${known.length > 0 ? ` WHERE ${known.join(' AND ')}` : ''} GROUP BY ${names.join(', ')}`
    const direction = plan.groupOrder.direction === 'asc' ? 'ASC' : 'DESC'
    const keysAscending = names.map((name) => `${name} ASC NULLS LAST`).join(', ')
    const order =
      plan.groupOrder.by === 'count'
        ? `__n ${direction}, ${keysAscending}`
        : `${names.map((name) => `${name} ${direction} NULLS LAST`).join(', ')}, __n DESC`
    const perPage = plan.page.perPage
    const offset = plan.page.kind === 'offset' ? (plan.page.page - 1) * perPage : 0
    const [page, [groups], [counted]] = await Promise.all([
      rowsOf<Record<string, unknown>>(
        `${filtered.with}${buckets} ORDER BY ${order} LIMIT ${params.add(perPage, 'UInt64')} OFFSET ${params.add(offset, 'UInt64')}`,
        params,
        signal,
      ),
      rowsOf<{ n: number | string }>(`${filtered.with}SELECT count() AS n FROM (${buckets})`, params, signal),
      rowsOf<{ n: number | string }>(
        `${filtered.with}SELECT count() AS n FROM ${table} WHERE ${where}`,
        params,
        signal,
      ),
    ])
    const bucketsOf: GroupBucket[] = page.map((row) => ({
      keys: names.map((name, index) => formats[index]!(row[name])),
      count: Number(row.__n),
    }))
    return { count: Number(counted?.n ?? 0), groupsCount: Number(groups?.n ?? 0), groups: bucketsOf }
  }

  const sumColumns = async (plan: QueryPlan, queryOptions?: QueryOptions): Promise<readonly number[]> => {
    const entity = entityOf(plan)
    const params = new QueryParams()
    const filtered = await servedFilterOf(params, entity, plan, queryOptions?.signal)
    const context = filtered.context
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
    const [row] = await rowsOf<Record<string, number>>(
      `${filtered.with}SELECT ${totals.join(', ')} FROM ${tableOf(context, entityTableName(entity))} AS e WHERE ${filtered.where}`,
      params,
      queryOptions?.signal,
    )
    return totals.map((_, index) => Number(row?.[`__sum${index}`] ?? 0))
  }

  /**
   * Type-ahead by a scan of the names, as DuckDB's adapter answers without its index: names normalised as
   * `normalizeAutocompleteText` writes the text (lower case, accents dropped, each run of other characters
   * one space), a word of which starts with the text; the same name first, then names starting with it,
   * then the rest, each by citations (works) or works, then id.
   */
  const autocomplete = async (request: AutocompleteRequest, queryOptions?: QueryOptions) => {
    const info = catalogEntityInfo(entityPath(request.entity))
    const text = normalizeAutocompleteText(request.text)
    if (info === undefined || text === '' || request.limit < 1) return []
    const entity = info.entity
    const params = new QueryParams()
    const context = await contextOf(params)
    const filter = compileClickHouseFilter(context, entity, request.filter)
    const typed = params.add(text, 'String')
    const popularity = entity === 'works' ? '`cited_by_count`' : '`works_count`'
    const name =
      "trimBoth(replaceRegexpAll(replaceRegexpAll(lowerUTF8(normalizeUTF8NFD(coalesce(e.`display_name`, ''))), '\\\\pM+', ''), '[^\\\\pL\\\\pN]+', ' '))"
    const page = await rowsOf<{ __id: string }>(
      `SELECT e.\`id\` AS __id, ${name} AS __name FROM ${tableOf(context, entityTableName(entity))} AS e WHERE ${filter} AND position(concat(' ', __name), concat(' ', ${typed})) > 0 ORDER BY multiIf(__name = ${typed}, 3, startsWith(__name, ${typed}), 2, 1) DESC, coalesce(${popularity}, 0) DESC, e.\`id\` LIMIT ${params.add(request.limit, 'UInt64')}`,
      params,
      queryOptions?.signal,
    )
    const decoder = new TextDecoder()
    const records = await recordsOf(
      context,
      entity,
      page.map((row) => row.__id),
      queryOptions?.signal,
    )
    return records.map((record) => JSON.parse(decoder.decode(record)) as EntityRecord)
  }

  const source = async () => ({ client, database: await versions.database() })

  return {
    // Full-text search runs on a version loaded with the catalog's search index; one without refuses it.
    capabilities: { multiDimensionGroupBy: true, groupOrder: true, fullTextSearch: true },
    queryRows,
    queryGroups,
    sumColumns,
    autocomplete,
    findById: async (entity, id, queryOptions) => findEntityById(await source(), entity, id, queryOptions),
    findByExternalId: async (entity, scheme, value, queryOptions) =>
      findEntityByExternalId(await source(), entity, scheme, value, queryOptions),
    findRandom: async (entity, queryOptions) => findRandomEntity(await source(), entity, queryOptions),
    // The client is its owner's: it may serve a loader or another adapter.
    close: async () => {},
  }
}
