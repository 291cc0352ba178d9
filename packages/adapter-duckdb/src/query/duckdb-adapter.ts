// `createDuckDbAdapter`: the StorageAdapter over a catalog folder, as a factory of parts (kysely's dialect
// pattern): the plan compiler (pure, `compile`), the driver (a DuckDB with views over the catalog's tables and
// its serving database attached read-only), and the capabilities. Nothing is loaded at open: the
// tables stay on disk, so the serving process holds only what a query touches (DuckDB's buffer cache), and
// opening is instant.

import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type {
  CompiledQuery,
  CompiledRowsQuery,
  RecordParts,
  SqlStatement,
  VectorCandidates,
  WorkVectorSearcher,
} from '@oqlkit/catalog'
import {
  catalogIdOrder,
  hasUnreadableSearchIndex,
  hasUnreadableVectors,
  loadCatalogEmbedder,
  RecordStoreReader,
  readCatalogManifest,
  SEARCH_INDEX_FORMAT_VERSION,
  SERVING_DATABASE_FILE,
  searchIndexOf,
  VECTOR_INDEX_FORMAT_VERSION,
  vectorIndexOf,
} from '@oqlkit/catalog'
import {
  type AdapterCapabilities,
  type CitationDirection,
  type Embedder,
  type ExternalIdScheme,
  embeddersMatch,
  type GroupsResult,
  type LookupKey,
  type LookupOptions,
  type LookupResult,
  type QueryOptions,
  type QueryPlan,
  type RowsResult,
  SEMANTIC_SEARCH_LIMITS,
  type StorageAdapter,
  throwIfInterrupted,
  UnsupportedPlanError,
  unitVector,
  writeEmbedderMismatchMessage,
} from '@oqlkit/engine'
import { expansionLimitOf } from '../search/search-compiler.ts'
import { readAutocompleteLayouts } from './autocomplete-index.ts'
import { type AutocompleteIndexes, autocompleteLookup } from './autocomplete-lookup.ts'
import { catalogSearchCompiler } from './catalog-search.ts'
import { tablesInServingDatabase } from './catalog-table-relations.ts'
import { catalogViewStatements } from './catalog-view-statements.ts'
import {
  type CatalogLoadMode,
  catalogBytes,
  readExternalIdLocations,
  readLinkExtremeColumns,
  readNarrowRowNumber,
  readWorksIdsNumbered,
  SERVING_DATABASE_NAME,
  searchDocEntities,
} from './catalog-views.ts'
import { findCitations, findHeldWorks } from './citation-lookup.ts'
import { type DuckDbConnectionLike, type DuckDbRow, openDuckDbDatabase, withSignal } from './duckdb-driver.ts'
import {
  DuckDbPlanCompiler,
  type SearchCompilerLike,
  type SemanticInputs,
  type SemanticMatch,
} from './duckdb-plan-compiler.ts'
import { locatePageRows } from './page-row-locator.ts'
import { type RecordFetcher, sqlRecordFetcher, storeRecordFetcher } from './record-fetcher.ts'
import { pageOf, readGroups, readRows } from './result-readers.ts'
import {
  findEntities,
  findEntityByExternalId,
  findEntityById,
  findRandomEntity,
  type SingletonSource,
} from './singleton-lookup.ts'
import { checkWorkVectorFiles, loadWorkVectors } from './work-vector-loader.ts'

const DEFAULT_TABLES_UP_TO_BYTES = 64 * 1024 * 1024

type EntityType = Parameters<StorageAdapter['findById']>[0]

export interface DuckDbAdapterOptions {
  /** A folder written by `ingestSnapshot` (holds `catalog.json`). */
  readonly catalogDir: string
  /** DuckDB worker threads (default: the number of cores). */
  readonly threads?: number
  /** DuckDB memory limit, e.g. `2GB` (default: DuckDB's, 80% of RAM). */
  readonly memoryLimit?: string
  /** Statements that may run at once (default 2). */
  readonly connections?: number
  /**
   * `views` over the catalog's tables, `narrow` (views, plus the serving database's own tables, attached
   * read-only) or `tables` loaded into memory at open. A catalog of format 9 keeps its tables in the serving
   * database alone, which every mode then attaches; one of format 8 or before is read from its Parquet files.
   * Default `auto`: narrow for a catalog with a serving database, whatever its size; one without (an old
   * format) is loaded as tables when at most `tablesUpToBytes` on disk (64 MB).
   */
  readonly load?: CatalogLoadMode | 'auto'
  readonly tablesUpToBytes?: number
  /**
   * Full-text search. Default: the catalog's own search index when `catalog.json` records one; with none,
   * plans that search are unsupported.
   */
  readonly search?: SearchCompilerLike
  /** The seed of samples that have none (default: a new random seed per query). */
  readonly newSampleSeed?: () => string
  /**
   * What embeds the text of a semantic search. Default: the model the catalog's vectors were made with when
   * the catalog holds it (the built-in LSA model); a catalog whose vectors came from an embeddings server
   * needs a client of that server here. One that does not match the catalog's vectors is refused at open.
   */
  readonly embedder?: Embedder
}

export interface DuckDbAdapter extends StorageAdapter {
  /**
   * The statements a plan compiles to, without running them. A plan that searches by meaning needs the works
   * its searches find (`semanticInputs`): they are bound as the statements' parameters.
   */
  compile(plan: QueryPlan, semantic?: SemanticInputs): CompiledQuery
  /**
   * What a plan's semantic searches find, as a query of the plan finds them before its statements run: each
   * text embedded, then its nearest works among the plan's candidates. Nothing for a plan without one.
   */
  semanticInputs(plan: QueryPlan, options?: QueryOptions): Promise<SemanticInputs>
}

/** What semantic search needs at query time: the embedder of query texts and the works' vectors. */
interface SemanticSearcher {
  readonly embedder: Embedder
  /**
   * The works' vectors and their list index, read on the first semantic search rather than at open: a catalog
   * opens at once, and a server that is never asked for semantic search never holds them (256 MB at 1M works).
   */
  readonly vectors: () => Promise<WorkVectorSearcher>
  /** Whether the works found join on the numbers in their ids (`SemanticInputs.numberedIds`), asked once. */
  readonly numberedIds: () => Promise<boolean>
  /** Candidates already listed, by statement: the catalog does not change while it is served. */
  readonly candidateMasks: Map<string, VectorCandidates>
}

/**
 * Candidate masks kept: every search with the default corpus has the same candidates (the core works, about a
 * million ids to list at 1M works: 1.4 s), so the mask is listed once; a few others are kept beside it.
 */
const MAX_CANDIDATE_MASKS = 16

const candidateMask = async (
  db: DuckDbConnectionLike,
  semantic: SemanticSearcher,
  statement: SqlStatement,
): Promise<VectorCandidates> => {
  const key = `${statement.sql}\u0000${JSON.stringify(statement.params)}`
  const known = semantic.candidateMasks.get(key)
  if (known !== undefined) return known
  const ids = (await db.all(statement.sql, statement.params)).map((row) => String(row.id))
  const mask = (await semantic.vectors()).candidatesOf(ids)
  if (semantic.candidateMasks.size >= MAX_CANDIDATE_MASKS)
    semantic.candidateMasks.delete(semantic.candidateMasks.keys().next().value!)
  semantic.candidateMasks.set(key, mask)
  return mask
}

/**
 * The works each semantic search of a plan finds: its texts embedded in one batch, then for each the nearest
 * among its candidates (listed by DuckDB when other filters narrow them). Run before the count and the page,
 * which both read the result instead of searching again.
 */
const findSemanticMatches = async (
  db: DuckDbConnectionLike,
  compiler: DuckDbPlanCompiler,
  plan: QueryPlan,
  semantic: SemanticSearcher | undefined,
  signal?: AbortSignal,
): Promise<SemanticInputs> => {
  const searches = compiler.semanticSearches(plan)
  if (searches.length === 0 || semantic === undefined) return {}
  const { embedder } = semantic
  const [embedded, vectors, numberedIds] = await Promise.all([
    embedder.embed(searches.map((search) => search.text)),
    semantic.vectors(),
    semantic.numberedIds(),
  ])
  const matches = new Map<string, readonly SemanticMatch[]>()
  for (const [index, search] of searches.entries()) {
    // The embedding may have taken the request's time; the scan of the vectors below cannot be interrupted.
    throwIfInterrupted(signal)
    const query = unitVector(embedded[index] ?? new Float32Array(embedder.dimensions))
    // A text with no word the model knows has no direction: nothing is near it.
    if (!query.some((value) => value !== 0)) {
      matches.set(search.text, [])
      continue
    }
    const keep = search.candidates === null ? undefined : await candidateMask(db, semantic, search.candidates)
    matches.set(
      search.text,
      vectors
        .nearest(query, SEMANTIC_SEARCH_LIMITS.maxResults, keep)
        .map((match) => ({ doc: match.id, score: match.score })),
    )
  }
  return { matches, numberedIds }
}

/**
 * The statements of one call: they carry the call's signal, and a search whose wildcard matched too many index
 * terms fails as the invalid search it is (a 400), not as a fault of the database.
 */
const statementsOf = (
  shared: DuckDbConnectionLike,
  signal: AbortSignal | undefined,
): DuckDbConnectionLike => {
  const db = withSignal(shared, signal)
  return {
    all: async (sql, params, own) => {
      try {
        return await db.all(sql, params, own)
      } catch (error) {
        const limit = expansionLimitOf(error)
        throw limit === undefined ? error : new UnsupportedPlanError('invalid_search', limit)
      }
    },
    close: () => db.close(),
  }
}

/** The page, and the count from its first row (the count statement only when the page is empty). */
/** The count and page rows of a query whose page carries its count (`countInPage`). */
export async function pageThenCount(
  db: DuckDbConnectionLike,
  query: CompiledRowsQuery,
): Promise<[readonly DuckDbRow[], readonly DuckDbRow[]]> {
  const page = await db.all(query.sql, query.params)
  if (page.length > 0) return [page.slice(0, 1), page]
  if (query.countInPage?.firstPage === true) return [[{ __count: 0 }], page]
  return [await db.all(query.count.sql, query.count.params), page]
}

/** `read` run once, on the first call, its answer shared; after a failure the next call tries again. */
const readOnce = <T>(read: () => Promise<T>): (() => Promise<T>) => {
  let reading: Promise<T> | undefined
  return () => {
    reading ??= read().catch((error: unknown) => {
      reading = undefined
      throw error
    })
    return reading
  }
}

export class CatalogOpenError extends Error {
  override readonly name = 'CatalogOpenError'
  constructor(
    readonly catalogDir: string,
    message: string,
  ) {
    super(`Cannot open the catalog in ${catalogDir}: ${message}`)
  }
}

/** What a page's records are read without: a selection that leaves out a work's abstract. */
const NO_ABSTRACT: RecordParts = { abstract: false }

/**
 * An adapter over a driver that is already open on the catalog views (what tests with a fake use). Records
 * are read with `fetchRecords`: by default by id from the views' `record` column.
 */
export function duckDbAdapterOver(
  shared: DuckDbConnectionLike,
  compiler: DuckDbPlanCompiler,
  capabilities: AdapterCapabilities,
  fetchRecords: RecordFetcher = sqlRecordFetcher(shared),
  onClose: () => Promise<void> = async () => {},
  semantic?: SemanticSearcher,
  autocompleteIndexes: AutocompleteIndexes = new Map(),
): DuckDbAdapter {
  // Singletons are looked up as the compiler reads the catalog: narrow tables, located external ids.
  const singletonSource = (options?: QueryOptions): SingletonSource => ({
    db: withSignal(shared, options?.signal),
    fetchRecords,
    narrowTables: compiler.narrowTables,
    locatedExternalIds: compiler.locatedExternalIds,
  })
  return {
    capabilities,
    compile: (plan, semantic) => compiler.compile(plan, semantic),
    semanticInputs: (plan, options) =>
      findSemanticMatches(statementsOf(shared, options?.signal), compiler, plan, semantic, options?.signal),
    async queryRows(plan: QueryPlan, options?: QueryOptions): Promise<RowsResult> {
      const db = statementsOf(shared, options?.signal)
      const query = compiler.compileRows(
        plan,
        await findSemanticMatches(db, compiler, plan, semantic, options?.signal),
      )
      const [countRows, chosenRows] = query.countInPage
        ? await pageThenCount(db, query)
        : await Promise.all([db.all(query.count.sql, query.count.params), db.all(query.sql, query.params)])
      // The row after the page only tells that another page follows: it needs no location.
      const pageRows =
        query.locate === undefined
          ? chosenRows
          : [
              ...(await locatePageRows(db, query.locate, pageOf(query, chosenRows))),
              ...chosenRows.slice(query.perPage),
            ]
      // A work's abstract is unpacked only for rows that keep it: a `select` without it drops it anyway.
      const wanted =
        query.select === null || query.select.includes('abstract_inverted_index') ? undefined : NO_ABSTRACT
      const records = await fetchRecords(query.entity, pageOf(query, pageRows), wanted)
      return readRows(query, countRows, pageRows, records)
    },
    async queryGroups(plan: QueryPlan, options?: QueryOptions): Promise<GroupsResult> {
      const db = statementsOf(shared, options?.signal)
      const query = compiler.compileGroups(
        plan,
        await findSemanticMatches(db, compiler, plan, semantic, options?.signal),
      )
      const [countRows, bucketRows] = await Promise.all([
        db.all(query.count.sql, query.count.params),
        db.all(query.sql, query.params),
      ])
      // An empty page past the last bucket still reports how many buckets there are.
      const groupsCountRows =
        bucketRows.length === 0 ? await db.all(query.groupsCount.sql, query.groupsCount.params) : null
      return readGroups(query, countRows, bucketRows, groupsCountRows)
    },
    async sumColumns(plan: QueryPlan, options?: QueryOptions): Promise<readonly number[]> {
      const db = statementsOf(shared, options?.signal)
      const statement = compiler.compileSums(
        plan,
        await findSemanticMatches(db, compiler, plan, semantic, options?.signal),
      )
      const [row] = await db.all(statement.sql, statement.params)
      return (plan.sums ?? []).map((_, index) => Number(row?.[`__sum${index}`] ?? 0))
    },
    findById: (entity: EntityType, id: string, options?: QueryOptions): Promise<LookupResult> =>
      findEntityById(singletonSource(options), entity, id),
    findByExternalId: (
      entity: EntityType,
      scheme: ExternalIdScheme,
      value: string,
      options?: QueryOptions,
    ): Promise<LookupResult> => findEntityByExternalId(singletonSource(options), entity, scheme, value),
    findMany: (entity: EntityType, keys: readonly LookupKey[], options?: LookupOptions) =>
      findEntities(singletonSource(options), entity, keys, options),
    findRandom: (entity: EntityType, options?: QueryOptions): Promise<LookupResult> =>
      findRandomEntity(singletonSource(options), entity),
    // Read from the narrow link table, which only `narrow` mode has: without it a snowball reads records.
    ...(compiler.narrowTables
      ? {
          findCitations: (ids: readonly string[], direction: CitationDirection, options?: QueryOptions) =>
            findCitations(withSignal(shared, options?.signal), compiler.narrowRowNumber, ids, direction),
          findHeldWorks: (ids: readonly string[], options?: QueryOptions) =>
            findHeldWorks(withSignal(shared, options?.signal), ids),
        }
      : {}),
    autocomplete: (request, options?: QueryOptions) =>
      autocompleteLookup(
        withSignal(shared, options?.signal),
        fetchRecords,
        request,
        compiler.narrowTables ? compiler.narrowRowNumber : undefined,
        autocompleteIndexes,
      ),
    close: async () => {
      await onClose()
      await shared.close()
    },
  }
}

/** Opens a catalog folder: reads `catalog.json`, starts an in-process DuckDB and creates the views. */
export async function createDuckDbAdapter(options: DuckDbAdapterOptions): Promise<DuckDbAdapter> {
  const manifest = await readCatalogManifest(options.catalogDir)
  if (!manifest.ok) throw new CatalogOpenError(options.catalogDir, manifest.message)
  const servingDatabase = join(options.catalogDir, SERVING_DATABASE_FILE)
  // `auto` serves every catalog with a serving database as the large ones are served: the sample opens in
  // 0.18 s so, against 0.62-0.72 s copying its tables into memory (for lists 2-3 ms faster), and small
  // catalogs, the tests' among them, take the path the large ones take. A catalog from before the serving
  // database is copied into memory when small.
  const load =
    options.load === undefined || options.load === 'auto'
      ? existsSync(servingDatabase) ||
        catalogBytes(manifest.manifest) > (options.tablesUpToBytes ?? DEFAULT_TABLES_UP_TO_BYTES)
        ? 'narrow'
        : 'tables'
      : options.load
  // Format 9 keeps its tables in the serving database alone: every mode reads them from there.
  const attach = load === 'narrow' || tablesInServingDatabase(manifest.manifest)
  if (attach && !existsSync(servingDatabase))
    throw new CatalogOpenError(
      options.catalogDir,
      `it has no serving database (${SERVING_DATABASE_FILE}); ingest the snapshot again to build it`,
    )
  const db = await openDuckDbDatabase({
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
    ...(options.connections === undefined ? {} : { connections: options.connections }),
    ...(attach ? { attach: { path: servingDatabase, name: SERVING_DATABASE_NAME } } : {}),
  })
  const vectors = vectorIndexOf(manifest.manifest)
  const idOrder = catalogIdOrder(manifest.manifest)
  let embedder: Embedder | undefined
  let autocompleteIndexes: AutocompleteIndexes = new Map()
  let linkExtremes: ReadonlySet<string> = new Set()
  let locatedExternalIds = false
  let narrowRowNumber: string | undefined
  try {
    // Parquet footers are read once, not on every query of a view.
    await db.all('SET parquet_metadata_cache = true')
    // In `tables` mode each table is compressed (a checkpoint) as soon as it is made: made all at once and
    // compressed at the end, every table's uncompressed copy was held together, the opening's peak.
    for (const statement of catalogViewStatements(options.catalogDir, manifest.manifest, load)) {
      await db.all(statement)
      if (statement.startsWith('CREATE TABLE')) await db.all('CHECKPOINT')
    }
    if (vectors !== undefined) {
      embedder = options.embedder ?? (await loadCatalogEmbedder(options.catalogDir, vectors))
      if (embedder !== undefined && !embeddersMatch(vectors.embedder, embedder))
        throw new CatalogOpenError(
          options.catalogDir,
          writeEmbedderMismatchMessage(vectors.embedder, embedder),
        )
      if (embedder !== undefined) {
        try {
          checkWorkVectorFiles(options.catalogDir, vectors)
        } catch (error) {
          throw new CatalogOpenError(
            options.catalogDir,
            error instanceof Error ? error.message : String(error),
          )
        }
      }
    }
    // In `tables` mode, a checkpoint compresses what was made since the last one (the external ids' index).
    if (load === 'tables') await db.all('CHECKPOINT')
    // A serving database built before the autocomplete index has none: its lookups scan.
    if (load === 'narrow') autocompleteIndexes = await readAutocompleteLayouts(db, SERVING_DATABASE_NAME)
    // One built before the link extremes has none: its sorts by a link's column read the link rows.
    if (load === 'narrow') linkExtremes = await readLinkExtremeColumns(db, SERVING_DATABASE_NAME)
    // One built before the external ids carried their record's location looks the id up again.
    if (load === 'narrow') locatedExternalIds = await readExternalIdLocations(db, SERVING_DATABASE_NAME)
    // One built before its rows were numbered in a column numbers them by `rowid`.
    if (load === 'narrow') narrowRowNumber = await readNarrowRowNumber(db, SERVING_DATABASE_NAME)
  } catch (error) {
    await db.close()
    throw error
  }
  const index = searchIndexOf(manifest.manifest)
  const search =
    options.search ?? (index === undefined ? undefined : catalogSearchCompiler(options.catalogDir, index))
  const compiler = new DuckDbPlanCompiler({
    ...(search === undefined ? {} : { search }),
    ...(options.newSampleSeed === undefined ? {} : { newSampleSeed: options.newSampleSeed }),
    narrowTables: load === 'narrow',
    idOrder,
    ...(narrowRowNumber === undefined ? {} : { narrowRowNumber }),
    linkExtremes,
    locatedExternalIds,
    searchDocEntities: searchDocEntities(manifest.manifest),
    ...(vectors === undefined || embedder === undefined
      ? {}
      : { semantic: { dimensions: vectors.dimensions } }),
    ...(vectors !== undefined && embedder === undefined
      ? {
          semanticUnavailable: `this catalog's vectors were made by ${vectors.embedder.modelId}${vectors.embedder.kind === 'openai-compatible' ? ' on an embeddings server' : ''}, and the server was started without an embedder for queries (oqlkit serve --embeddings-url URL --embeddings-model ${vectors.embedder.model ?? 'MODEL'})`,
        }
      : {}),
    ...(hasUnreadableSearchIndex(manifest.manifest)
      ? {
          searchUnavailable: `this catalog's search index is of an older format than this oqlkit reads (version ${SEARCH_INDEX_FORMAT_VERSION}); build it again with \`oqlkit index <catalog>\``,
        }
      : {}),
    ...(hasUnreadableVectors(manifest.manifest)
      ? {
          semanticUnavailable: `this catalog's vectors are of an older format than this oqlkit reads (version ${VECTOR_INDEX_FORMAT_VERSION}); ingest the snapshot again to rebuild them`,
        }
      : {}),
  })
  const records = new RecordStoreReader(options.catalogDir, manifest.manifest)
  return duckDbAdapterOver(
    db,
    compiler,
    {
      fullTextSearch: search !== undefined,
      semanticSearch: embedder !== undefined,
      multiDimensionGroupBy: true,
      groupOrder: true,
    },
    storeRecordFetcher(records),
    () => records.close(),
    embedder === undefined || vectors === undefined
      ? undefined
      : {
          embedder,
          vectors: readOnce(() => loadWorkVectors(db, options.catalogDir, vectors, idOrder)),
          // Should the check fail, the works found join on the ids' text: slower at scale, the same answers.
          numberedIds: readOnce(() =>
            load === 'narrow'
              ? readWorksIdsNumbered(db, SERVING_DATABASE_NAME).catch(() => false)
              : Promise.resolve(false),
          ),
          candidateMasks: new Map(),
        },
    autocompleteIndexes,
  )
}
