// The searches of a plan's filter as relations `(id, score)` of one statement (the searches of one OR on one
// column share one, `searchGroupsOf`): each defined once in the statement's WITH clause, a filter leaf
// `id IN (SELECT id FROM <relation>)`, and, for the searches that give relevance (those not negated), a LEFT
// JOIN of their scores and the API's relevance expression over them, as the DuckDB adapter's plan compiler
// computes it.
import type { ClickHouseClient } from '@clickhouse/client'
import {
  type CatalogEntity,
  type CatalogManifest,
  catalogSearchQuery,
  invalidAnySearchError,
  type SearchIndexManifest,
  searchGroupsOf,
  searchIndexOf,
  unindexedSearchPath,
} from '@oqlkit/catalog'
import { type FilterNode, type SearchNode, searchNodesOf, UnsupportedPlanError } from '@oqlkit/engine'
import { exactTokens } from '@oqlkit/text-models'
import { selectRows, tableExists } from './clickhouse-driver.ts'
import { type FilterContext, tableOf } from './clickhouse-filter-compiler.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { CATALOG_FILES_TABLE, CATALOG_MANIFEST_PATH } from './clickhouse-model-tables.ts'
import { entityTableName } from './clickhouse-schema.ts'
import { compileClickHouseSearch } from './clickhouse-search-compiler.ts'

/** A semantic search's relation: `SELECT id, score …` with its parameters added to the statement's. */
export type SemanticRelation = (node: SearchNode, context: FilterContext) => string

export interface StatementSearches {
  /** `WITH …, ` before the statement's SELECT, or '' without searches. */
  readonly with: string
  /** The statement's filter context, with each search's relation. */
  readonly context: FilterContext
  /** LEFT JOINs of the scoring searches' scores onto the entity table `e` (the `joinedInner` search's INNER). */
  readonly scoreJoins: string
  /**
   * The search asked to be joined INNER, when it could be (it scores, and its relation is its alone): its
   * join keeps only the rows it matches, so the statement's WHERE must leave its `id IN (…)` leaf out.
   */
  readonly joinedInner?: SearchNode
  /** The API's `relevance_score` of a row; null when nothing gives relevance. */
  readonly score: string | null
}

export interface SearchSources {
  /** The served version's search index, when it has one. */
  readonly index: SearchIndexManifest | undefined
  /** Semantic search, when the server has vectors and an embedder. */
  readonly semantic?: SemanticRelation
}

/**
 * The relations of every search of `filter`, for one statement (their parameters go into the context's),
 * with the relevance expression of the rows of `e`. `inner`, a search the whole filter requires (see
 * `requiredSearchOf`), has its scores joined INNER when its relation is its own: ClickHouse inlines a WITH
 * relation at each use, so a page with the search's `id IN (…)` leaf beside its score join evaluated the
 * search twice, and once with the join alone.
 */
export const statementSearches = (
  context: FilterContext,
  entity: CatalogEntity,
  filter: FilterNode | null,
  sources: SearchSources,
  inner?: SearchNode,
): StatementSearches => {
  const leaves = searchNodesOf(filter)
  if (leaves.length === 0) return { with: '', context, scoreJoins: '', score: null }
  const relations = new Map<SearchNode, string>()
  const semanticRelations = new Set<string>()
  const clauses: string[] = []
  // The searches of one OR on one column are one relation, one aggregate over all their postings.
  const groups = searchGroupsOf(
    filter,
    (node) =>
      sources.index !== undefined &&
      node.mode !== 'semantic' &&
      node.field !== 'semantic' &&
      unindexedSearchPath(entity, node) === undefined,
  )
  for (const [i, group] of groups.entries()) {
    const node = group[0]!
    const name = `__r${i}`
    for (const member of group) relations.set(member, name)
    if (node.mode === 'semantic' || node.field === 'semantic') {
      if (sources.semantic === undefined)
        throw new UnsupportedPlanError(
          'semantic_search',
          `Semantic search (${node.column.id}) is not available: the catalog has no vectors or nothing to embed the text with`,
        )
      semanticRelations.add(name)
      clauses.push(`${name} AS (${sources.semantic(node, context)})`)
      continue
    }
    const scanned = unindexedSearchPath(entity, node)
    if (scanned !== undefined) {
      clauses.push(`${name} AS (${unindexedScan(context, entity, node, scanned)})`)
      continue
    }
    if (sources.index === undefined)
      throw new UnsupportedPlanError(
        'full_text_search',
        `Full-text search (${node.column.id}) needs the catalog's search index, which this catalog was loaded without (build it with oqlkit index, then load again)`,
      )
    const searches = group.map((member) => catalogSearchQuery(sources.index!, entity, member))
    const compiled = compileClickHouseSearch(
      searches.map((search) => search.query),
      { context, index: searches[0]!.index, prefix: `${name}s` },
    )
    if (!compiled.ok) throw invalidAnySearchError(group, compiled.problems)
    clauses.push(...compiled.ctes)
    // One row per record: a search's select may give a record several rows (one per stored field).
    clauses.push(`${name} AS (SELECT id, sum(score) AS score FROM (${compiled.select}) GROUP BY id)`)
  }
  const scoring = [
    ...new Set(leaves.filter((leaf) => !leaf.negated).map((leaf) => relations.get(leaf.node)!)),
  ]
  const innerRelation = inner === undefined ? undefined : relations.get(inner)
  const joinedInner =
    innerRelation !== undefined &&
    scoring.includes(innerRelation) &&
    [...relations.values()].filter((name) => name === innerRelation).length === 1
      ? inner
      : undefined
  const scoreJoins = scoring
    .map(
      (name) =>
        ` ${joinedInner !== undefined && name === innerRelation ? 'INNER' : 'LEFT'} JOIN (SELECT id AS __sid, score AS __sscore FROM ${name}) AS ${name}j ON ${name}j.__sid = e.\`id\``,
    )
    .join('')
  const sum = scoring.map((name) => `coalesce(${name}j.__sscore, 0)`).join(' + ')
  // The API's relevance carries a citation boost, the text score times 1 + √cited_by_count, rounded so that a
  // sum in another order gives the same cursor value; a semantic search's is its cosine as it is.
  const score =
    scoring.length === 0
      ? null
      : scoring.every((name) => semanticRelations.has(name))
        ? `round(${sum}, 9)`
        : `round((${sum}) * (1 + sqrt(greatest(coalesce(e.\`cited_by_count\`, 0), 0))), 9)`
  return {
    with: `WITH ${clauses.join(', ')} `,
    context: { ...context, searches: relations },
    scoreJoins,
    ...(joinedInner === undefined ? {} : { joinedInner }),
    score,
  }
}

/**
 * The search a filter requires of every row, if any: the filter itself, or a child of its top-level AND
 * (the first). A row it does not match is not in the answer, so its relation may drive a join.
 */
export const requiredSearchOf = (filter: FilterNode | null): SearchNode | undefined => {
  if (filter?.kind === 'search') return filter
  if (filter?.kind === 'and')
    return filter.children.find((child): child is SearchNode => child.kind === 'search')
  return undefined
}

/**
 * The tokens of a text as the index's tokenizer makes them (`exactTokens` of @oqlkit/text-models, and the
 * DuckDB adapter's SQL of it): apostrophes deleted, lower case, accents folded, split on every run of
 * characters that are neither letters nor digits. `text` is an expression of this package's columns.
 */
const exactTokensSql = (text: string): string =>
  `arrayFilter(__t -> __t != '', splitByRegexp('[^\\\\p{L}\\\\p{N}]+', replaceRegexpAll(normalizeUTF8NFD(lowerUTF8(replaceRegexpAll(${text}, '[\\'\u2019\u02bc]', ''))), '\\\\p{Mn}+', '')))`

/**
 * A search of text the index does not hold (works' raw affiliation strings), as the DuckDB adapter answers
 * it: a scan of the field's record-path column, every word of the query among the row's tokens, score 1.
 */
const unindexedScan = (
  context: FilterContext,
  entity: CatalogEntity,
  node: SearchNode,
  path: string,
): string => {
  const words = exactTokens(node.text)
  const tokens = exactTokensSql(`arrayStringConcat(e.${context.map.recordListColumn(entity, path)}, ' ')`)
  const condition =
    words.length === 0
      ? 'false'
      : words.map((word) => `has(${tokens}, ${context.params.add(word, 'String')})`).join(' AND ')
  return `SELECT e.\`id\` AS id, toFloat64(1) AS score FROM ${tableOf(context, entityTableName(entity))} AS e WHERE ${condition}`
}

/**
 * The search index of each served version, read from its `catalog.json` once: a server's versions change
 * only when a load publishes a new one.
 */
export class SearchIndexCache {
  readonly #client: ClickHouseClient
  readonly #known = new Map<string, Promise<SearchIndexManifest | undefined>>()

  constructor(client: ClickHouseClient) {
    this.#client = client
  }

  indexOf(database: string): Promise<SearchIndexManifest | undefined> {
    let known = this.#known.get(database)
    if (known === undefined) {
      known = this.#read(database)
      // Versions are few; an old one's entry goes once a newer is asked for.
      if (this.#known.size >= 4) this.#known.delete(this.#known.keys().next().value!)
      this.#known.set(database, known)
      known.catch(() => this.#known.delete(database))
    }
    return known
  }

  async #read(database: string): Promise<SearchIndexManifest | undefined> {
    // A version loaded before its files were kept has no index to read.
    if (!(await tableExists(this.#client, database, CATALOG_FILES_TABLE))) return undefined
    const [row] = await selectRows<{ content: string }>(
      this.#client,
      `SELECT content FROM ${quoteIdentifier(database)}.${quoteIdentifier(CATALOG_FILES_TABLE)} WHERE path = {path:String}`,
      { params: { path: CATALOG_MANIFEST_PATH } },
    )
    return row === undefined ? undefined : searchIndexOf(JSON.parse(row.content) as CatalogManifest)
  }
}
