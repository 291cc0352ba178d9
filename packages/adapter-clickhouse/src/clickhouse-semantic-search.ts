// Semantic search on ClickHouse: the works nearest in meaning to a passage, among the works the rest of the
// query keeps, scored by the cosine between the passage's vector and each work's stored vector, as the DuckDB
// adapter scores them (`WorkVectorMatrix.nearest`: the int8 row's dot product with the unit query, divided by
// the row's norm; ties by id). The passage is embedded here, and its nearest works found by a statement of
// their own, once per request, before the request's statements are compiled; in those the matches are a
// relation `(id, score)` of constants bound as parameters, which the adapter joins as it joins a full-text
// search's matches: its relevance is the cosine as it is. Found once, not in each statement: the scan is the
// costly part, and on a cluster a top-level ORDER BY … LIMIT is the cluster's top (each shard's best merged),
// where the same inside a statement's subquery would run on each shard alone and keep each shard's top.
//
// An exact scan: every candidate's vector is scored and the best `SEMANTIC_SEARCH_LIMITS.maxResults` kept
// (ClickHouse's `ORDER BY … LIMIT` keeps a bounded heap). The
// DuckDB adapter reads an IVF list index instead when the catalog has one, whose calibrated recall is below 1:
// this one finds the true nearest, so the two agree on whatever the index reaches (always the top hits on the
// sample catalog, which is searched exactly there too).
import type { ClickHouseClient } from '@clickhouse/client'
import type { CatalogEntity, VectorIndexManifest } from '@oqlkit/catalog'
import {
  type Embedder,
  embeddersMatch,
  type QueryPlan,
  SEMANTIC_SEARCH_LIMITS,
  type SearchNode,
  searchNodesOf,
  UnsupportedPlanError,
  unitVector,
  writeEmbedderMismatchMessage,
} from '@oqlkit/engine'
import { readClickHouseCatalogModels } from './clickhouse-catalog-models.ts'
import { type FilterContext, tableOf } from './clickhouse-filter-compiler.ts'
import { letterIdOrderSql } from './clickhouse-id-order.ts'
import { WORK_VECTORS_TABLE } from './clickhouse-model-tables.ts'
import { entityTableName } from './clickhouse-schema.ts'

/** The unit query vector of each semantic search text of a plan; undefined for a text with no direction. */
export type SemanticQueries = ReadonlyMap<string, Float32Array | undefined>

const NO_QUERIES: SemanticQueries = new Map()

/** What a served version searches with, or why it cannot. */
type VersionSearch =
  | { readonly ok: true; readonly embedder: Embedder; readonly vectors: VectorIndexManifest }
  | { readonly ok: false; readonly message: string }

/** Versions whose search is kept: the one served and the one before, which queries may still read. */
const KEPT_VERSIONS = 2

/**
 * What embeds the texts of semantic searches, per served version: the embedder given (an embeddings server's
 * client, for vectors made by one), else the catalog's own LSA model read from the version's files. A version
 * whose vectors another model made is refused, as a DuckDB server refuses such a catalog at open.
 */
export class ClickHouseSemanticSearch {
  readonly #client: ClickHouseClient
  readonly #embedder: Embedder | undefined
  readonly #versions = new Map<string, Promise<VersionSearch>>()

  constructor(client: ClickHouseClient, embedder?: Embedder) {
    this.#client = client
    this.#embedder = embedder
  }

  #versionSearch(database: string): Promise<VersionSearch> {
    const known = this.#versions.get(database)
    if (known !== undefined) return known
    const reading = readClickHouseCatalogModels(this.#client, database).then(
      ({ vectors, embedder: own }): VersionSearch => {
        if (vectors === undefined)
          return {
            ok: false,
            message: 'this catalog has no vectors of works (ingest builds them unless told not to)',
          }
        const embedder = this.#embedder ?? own
        if (embedder === undefined)
          return {
            ok: false,
            message: `this catalog's vectors were made by ${vectors.embedder.modelId} on an embeddings server, and the server was started without an embedder for queries (oqlkit serve --embeddings-url URL --embeddings-model ${vectors.embedder.model ?? 'MODEL'})`,
          }
        if (!embeddersMatch(vectors.embedder, embedder))
          return { ok: false, message: writeEmbedderMismatchMessage(vectors.embedder, embedder) }
        return { ok: true, embedder, vectors }
      },
    )
    // A failed read is asked again by the next search rather than remembered.
    reading.catch(() => this.#versions.delete(database))
    this.#versions.set(database, reading)
    while (this.#versions.size > KEPT_VERSIONS) this.#versions.delete(this.#versions.keys().next().value!)
    return reading
  }

  /**
   * The query vectors of a plan's semantic searches on the version `database`, embedded in one batch; none
   * when the plan has no semantic search. Throws UnsupportedPlanError (501) when the version cannot search.
   */
  async embed(database: string, entity: CatalogEntity, plan: QueryPlan): Promise<SemanticQueries> {
    const texts = [
      ...new Set(
        searchNodesOf(plan.filter)
          .map((leaf) => leaf.node)
          .filter((node) => node.mode === 'semantic')
          .map((node) => node.text),
      ),
    ]
    if (texts.length === 0) return NO_QUERIES
    const search = entity === 'works' ? await this.#versionSearch(database) : undefined
    if (search === undefined || !search.ok)
      throw new UnsupportedPlanError(
        'semantic_search',
        `Semantic search is not available: ${search?.message ?? `this catalog has no vectors of ${entity}`}`,
      )
    const embedded = await search.embedder.embed(texts)
    return new Map(
      texts.map((text, index) => {
        const query = unitVector(embedded[index] ?? new Float32Array(search.embedder.dimensions))
        // A text with no word the model knows has no direction: nothing is near it.
        return [text, query.some((value) => value !== 0) ? query : undefined]
      }),
    )
  }
}

/** One of the works a semantic search found: its id and cosine. */
export interface SemanticMatch {
  readonly id: string
  readonly score: number
}

/**
 * The statement that finds a semantic search's works, `(id, score)`: the nearest to its text among those
 * `candidates` keeps (a predicate over the works table `e`, written with `context.params`; `true` for every
 * work), at most `SEMANTIC_SEARCH_LIMITS.maxResults`, best first, ties by id. Every value is a parameter.
 * Undefined when the text has no direction (no word the model knows): nothing is near it.
 */
export const nearestWorksStatement = (
  context: FilterContext,
  node: SearchNode,
  candidates: string,
  queries: SemanticQueries,
): string | undefined => {
  if (!queries.has(node.text))
    throw new UnsupportedPlanError(
      'semantic_search',
      `The text of ${node.column.id} was not embedded: embed the plan's semantic searches before compiling`,
    )
  const query = queries.get(node.text)
  if (query === undefined) return undefined
  // The query's float32 components, as float64 numbers: the dot product runs in float64, as DuckDB's does.
  const vector = context.params.add(Array.from(query), 'Array(Float64)')
  const limit = context.params.add(SEMANTIC_SEARCH_LIMITS.maxResults, 'UInt64')
  const kept =
    candidates === 'true'
      ? ''
      : ` WHERE __v.\`id\` IN (SELECT e.\`id\` FROM ${tableOf(context, entityTableName('works'))} AS e WHERE ${candidates})`
  return `SELECT __v.\`id\` AS id, dotProduct(__v.\`vector\`, ${vector}) / __v.\`norm\` AS score FROM ${tableOf(context, WORK_VECTORS_TABLE)} AS __v${kept} ORDER BY score DESC, ${letterIdOrderSql('id')} LIMIT ${limit}`
}

/** The works a semantic search found as a relation `(id String, score Float64)` of bound constants. */
export const semanticMatchesRelation = (
  context: FilterContext,
  matches: readonly SemanticMatch[],
): string => {
  if (matches.length === 0) return "SELECT '' AS id, toFloat64(0) AS score WHERE false"
  const ids = context.params.add(
    matches.map((match) => match.id),
    'Array(String)',
  )
  const scores = context.params.add(
    matches.map((match) => match.score),
    'Array(Float64)',
  )
  return `SELECT tupleElement(__m, 1) AS id, tupleElement(__m, 2) AS score FROM (SELECT arrayJoin(arrayZip(${ids}, ${scores})) AS __m)`
}
