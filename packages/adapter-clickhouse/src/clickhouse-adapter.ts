// The engine's StorageAdapter on ClickHouse: a plan's rows, groups and totals over the served version of a
// loaded catalog, with the DuckDB adapter's semantics (the conformance suite pins them). The plan compiler
// (`clickhouse-plan-compiler.ts`) writes the statements, the driver (`clickhouse-driver.ts`) runs them; here
// they are put in order and their rows made into the engine's results. A page is chosen from the entity
// table's narrow columns, then its records are read from the records table by id, as RowBinary bytes passed
// on as they are.
import type { ClickHouseClient } from '@clickhouse/client'
import { CATALOG_ENTITIES, type CatalogEntity, catalogEntityInfo, selectRecordFields } from '@oqlkit/catalog'
import {
  type AutocompleteRequest,
  type Embedder,
  type EntityRecord,
  type GroupBucket,
  type GroupsResult,
  normalizeAutocompleteText,
  type QueryOptions,
  type QueryPlan,
  type RowsResult,
  type SearchNode,
  type StorageAdapter,
  searchNodesOf,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import { entityPath } from '@oqlkit/oqo-schema/registry'
import { autocompleteTableName } from './clickhouse-autocomplete-index.ts'
import { ClickHouseDriver, selectRows } from './clickhouse-driver.ts'
import {
  compileAutocomplete,
  compileGroups,
  compileNearestWorks,
  compileRecords,
  compileRows,
  compileSums,
  entityOf,
  type VersionLayout,
} from './clickhouse-plan-compiler.ts'
import { LINK_SORT_COLUMNS, linkSortColumn, linkTableName, WORK_IS_XPAC_COLUMN } from './clickhouse-schema.ts'
import { SearchIndexCache, type SearchSources } from './clickhouse-search-relations.ts'
import {
  ClickHouseSemanticSearch,
  type SemanticMatch,
  semanticMatchesRelation,
} from './clickhouse-semantic-search.ts'
import {
  findEntities,
  findEntityByExternalId,
  findEntityById,
  findRandomEntity,
} from './clickhouse-singletons.ts'
import { ServedVersionCache } from './served-version-cache.ts'

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
  /**
   * One loaded version to read (its database, `listVersions`), whatever is loaded after it: a server of
   * pinned data versions (`oqlkit serve --clickhouse` names each). Default: the newest, asked again at most
   * once a second, so that a load switches every later query.
   */
  readonly version?: string
}

type PageRow = { __id: string; __score?: number | null; [key: string]: unknown }

/**
 * What a version holds beyond the catalog's files, from the columns of one link table (every link table has
 * the same) and the names of the type-ahead indexes.
 */
const versionLayoutOf = async (client: ClickHouseClient, database: string): Promise<VersionLayout> => {
  const rows = await selectRows<{ table: string; name: string }>(
    client,
    "SELECT table, name FROM system.columns WHERE database = {database:String} AND (table = {links:String} OR endsWith(table, '__autocomplete'))",
    { params: { database, links: linkTableName('works-authors') } },
  )
  const columns = new Set(rows.flatMap((row) => (row.table.endsWith('__autocomplete') ? [] : [row.name])))
  const indexes = new Set(rows.map((row) => row.table))
  return {
    linksCarryCorpus: columns.has(WORK_IS_XPAC_COLUMN),
    linkSortColumns: new Set(LINK_SORT_COLUMNS.filter((name) => columns.has(linkSortColumn(name)))),
    autocompleteIndexes: new Set(
      CATALOG_ENTITIES.flatMap((info) =>
        indexes.has(autocompleteTableName(info.entity)) ? [info.entity] : [],
      ),
    ),
  }
}

export const createClickHouseAdapter = (options: ClickHouseAdapterOptions): StorageAdapter => {
  const { client } = options
  const driver = new ClickHouseDriver(client, options.maxExecutionSeconds ?? 60)
  const { version } = options
  const versions =
    version === undefined
      ? new ServedVersionCache(client, options.catalog)
      : { database: () => Promise.resolve(version) }
  const searchIndexes = new SearchIndexCache(client)
  const semantic = new ClickHouseSemanticSearch(client, options.embedder)

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
      const nearest = compileNearestWorks(database, { index }, entity, plan, node, queries)
      found.set(node, nearest === undefined ? [] : await driver.rows<SemanticMatch>(nearest, signal))
    }
    return { index, semantic: (node, context) => semanticMatchesRelation(context, found.get(node) ?? []) }
  }

  /**
   * What a version's link tables carry beside `(key, work_id)` (`VersionLayout`): loads since they did; an older
   * version's link filters and group-bys read the works, as they did. Asked once per version.
   */
  const layouts = new Map<string, Promise<VersionLayout>>()
  const layoutOf = (database: string): Promise<VersionLayout> => {
    let known = layouts.get(database)
    if (known === undefined) {
      known = versionLayoutOf(client, database)
      if (layouts.size >= 4) layouts.delete(layouts.keys().next().value!)
      layouts.set(database, known)
      known.catch(() => layouts.delete(database))
    }
    return known
  }

  /** The version served now, and what the plan's searches read in it. */
  const servedSources = async (entity: CatalogEntity, plan: QueryPlan, signal?: AbortSignal) => {
    const database = await versions.database()
    return { database, sources: await searchSourcesOf(database, entity, plan, signal) }
  }

  /** The records of some ids, as stored, in the order of the ids. */
  const recordsOf = async (
    database: string,
    entity: CatalogEntity,
    ids: readonly string[],
    signal?: AbortSignal,
  ): Promise<Uint8Array[]> => {
    if (ids.length === 0) return []
    const decoder = new TextDecoder()
    const rows = await driver.stringRows(compileRecords(database, entity, ids), 2, signal)
    const byId = new Map(rows.map(([id, record]) => [decoder.decode(id), record!]))
    return ids.map((id) => {
      const record = byId.get(id)
      if (record === undefined) throw new Error(`The catalog has no record for ${id}`)
      return record
    })
  }

  const queryRows = async (plan: QueryPlan, queryOptions?: QueryOptions): Promise<RowsResult> => {
    const signal = queryOptions?.signal
    const entity = entityOf(plan)
    const { database, sources } = await servedSources(entity, plan, signal)
    const compiled = compileRows(database, sources, entity, plan, await layoutOf(database))
    const { perPage, scored } = compiled
    // The count and the page run at once, and Promise.all handles both: a count started on its own and awaited
    // after the page had no handler when the page failed first (a deadline), and its rejection ended the server.
    // A page that carries the count asks it apart only when it has no row to carry it (past the last one).
    const [[total], page] = compiled.countInPage
      ? await driver.rows<PageRow>(compiled.page, signal).then(async (rows) => {
          const first = rows[0]
          if (first !== undefined) return [[{ n: first.__n as number | string }], rows] as const
          return [await driver.rows<{ n: number | string }>(compiled.count, signal), rows] as const
        })
      : await Promise.all([
          driver.rows<{ n: number | string }>(compiled.count, signal),
          driver.rows<PageRow>(compiled.page, signal),
        ])
    const shown = page.slice(0, perPage)
    const bytes = await recordsOf(
      database,
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
        ? Array.from({ length: compiled.sortKeyCount }, (_, index) => last[`__k${index}`] ?? null)
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
    const { database, sources } = await servedSources(entity, plan, signal)
    const compiled = compileGroups(
      database,
      sources,
      entity,
      plan,
      (await layoutOf(database)).linksCarryCorpus,
    )
    // Counts carried by the page's rows are asked apart only when it has none (past the last bucket).
    const counts = () =>
      Promise.all([
        driver.rows<{ n: number | string }>(compiled.groupsCount, signal),
        driver.rows<{ n: number | string }>(compiled.count, signal),
      ])
    const [page, [groups], [counted]] = compiled.countsInPage
      ? await driver.rows<Record<string, unknown>>(compiled.page, signal).then(async (rows) => {
          const first = rows[0]
          if (first === undefined) return [rows, ...(await counts())] as const
          const carried = (name: string) => [{ n: first[name] as number | string }]
          return [rows, carried('__groups'), carried('__total')] as const
        })
      : await Promise.all([driver.rows<Record<string, unknown>>(compiled.page, signal), counts()]).then(
          ([rows, [groups, counted]]) => [rows, groups, counted] as const,
        )
    const buckets: GroupBucket[] = page.map((row) => ({
      keys: compiled.keyFormats.map((format, index) => format(row[`__g${index}`])),
      count: Number(row.__n),
    }))
    return { count: Number(counted?.n ?? 0), groupsCount: Number(groups?.n ?? 0), groups: buckets }
  }

  const sumColumns = async (plan: QueryPlan, queryOptions?: QueryOptions): Promise<readonly number[]> => {
    const entity = entityOf(plan)
    const { database, sources } = await servedSources(entity, plan, queryOptions?.signal)
    const { statement, sumCount } = compileSums(database, sources, entity, plan)
    const [row] = await driver.rows<Record<string, number>>(statement, queryOptions?.signal)
    return Array.from({ length: sumCount }, (_, index) => Number(row?.[`__sum${index}`] ?? 0))
  }

  /** Type-ahead from the entity's index or by a scan of the names (`compileAutocomplete`), records as stored. */
  const autocomplete = async (request: AutocompleteRequest, queryOptions?: QueryOptions) => {
    const info = catalogEntityInfo(entityPath(request.entity))
    const text = normalizeAutocompleteText(request.text)
    if (info === undefined || text === '' || request.limit < 1) return []
    const entity = info.entity
    const database = await versions.database()
    const page = await driver.rows<{ __id: string }>(
      compileAutocomplete(database, entity, request, text, await layoutOf(database)),
      queryOptions?.signal,
    )
    const decoder = new TextDecoder()
    const records = await recordsOf(
      database,
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
    findMany: async (entity, keys, queryOptions) => findEntities(await source(), entity, keys, queryOptions),
    findRandom: async (entity, queryOptions) => findRandomEntity(await source(), entity, queryOptions),
    // The client is its owner's: it may serve a loader or another adapter.
    close: async () => {},
  }
}
