// Full-text search for the plan compiler, over the catalog's search index (`src/search`): an engine search
// node → a `SearchQuery` → the index compiler's SQL, rewritten to the `?` placeholders the rest of the
// statement uses and returned as a `(doc, score)` relation.
import type { SearchNode } from '@oqlkit/engine'
import { UnsupportedPlanError } from '@oqlkit/engine'
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import { compileSearch } from '../search/search-compiler.ts'
import { defaultSearchField, weightedFieldsOf } from '../search/search-fields.ts'
import type { SearchEntityIndex, SearchIndexManifest } from '../search/search-index-layout.ts'
import type { SearchProblem, SearchQuery } from '../search/search-query.ts'
import type { SqlParam } from './compiled-query.ts'
import type { SearchCompilerLike, SearchDocs } from './duckdb-plan-compiler.ts'
import { searchMatchOfText } from './search-text-parser.ts'
import type { SqlFragment } from './sql-fragment.ts'

/**
 * `$n` placeholders → `?` in order of appearance (a parameter used twice is bound twice). String literals and
 * quoted identifiers are copied as they are, so a `$1` inside one is left alone.
 */
export const positionalToAnonymous = (sql: string, params: readonly unknown[]): SqlFragment => {
  let text = ''
  const bound: SqlParam[] = []
  let index = 0
  while (index < sql.length) {
    const char = sql[index]!
    if (char === "'" || char === '"') {
      const close = sql.indexOf(char, index + 1)
      const end = close === -1 ? sql.length : close + 1
      text += sql.slice(index, end)
      index = end
      continue
    }
    const placeholder = /^\$(\d+)/.exec(sql.slice(index, index + 12))
    if (char === '$' && placeholder !== null) {
      const position = Number(placeholder[1]) - 1
      if (position < 0 || position >= params.length) throw new Error(`No parameter for $${placeholder[1]}`)
      bound.push(params[position] as SqlParam)
      text += '?'
      index += placeholder[0].length
      continue
    }
    text += char
    index++
  }
  return { sql: text, params: bound }
}

/** A search text as a message quotes it: its start, when it is long. */
const quoted = (text: string): string => (text.length <= 80 ? text : `${text.slice(0, 80)}…`)

// Engine search fields the index names differently: `default.search` is the entity's `?search=`.
const fieldOf = (entity: CatalogEntity, field: string): string =>
  field === 'default' ? defaultSearchField(entity) : field

/** What an engine search node asks of a catalog's search index: the index query, and the entity's index. */
export interface CatalogSearchQuery {
  readonly query: SearchQuery
  readonly index: SearchEntityIndex
}

/**
 * The index query of a full-text search node, with the API's refusals (an entity or field the index does not
 * cover, a value without words) as the errors the engine answers with; shared by every adapter that reads
 * the index, so they refuse alike.
 */
export const catalogSearchQuery = (
  index: SearchIndexManifest,
  entity: CatalogEntity,
  node: SearchNode,
): CatalogSearchQuery => {
  const entityIndex = index.entities[entity]
  if (entityIndex === undefined)
    throw new UnsupportedPlanError(
      'full_text_search',
      `The search index of this catalog does not cover ${entity}`,
    )
  const field = fieldOf(entity, node.field)
  if (weightedFieldsOf(entity, field) === undefined)
    throw new UnsupportedPlanError(
      'full_text_search',
      `${node.column.id} is not in the search index of ${entity}`,
    )
  const match = searchMatchOfText(node.text)
  if (match === undefined)
    throw new UnsupportedPlanError('invalid_search', `The search value of ${node.column.id} has no words`)
  return {
    query: { entity, field, mode: node.mode === 'exact' ? 'exact' : 'stemmed', match },
    index: entityIndex,
  }
}

/** The error of a search the index cannot run, listing what is wrong with it. */
export const invalidSearchError = (
  node: SearchNode,
  problems: readonly Pick<SearchProblem, 'message'>[],
): UnsupportedPlanError =>
  new UnsupportedPlanError(
    'invalid_search',
    `Cannot search ${node.column.id} for ${JSON.stringify(quoted(node.text))}: ${problems.map((problem) => problem.message).join('; ')}`,
  )

/**
 * The error of the index query of several search nodes (`compileSearch` of their queries, in order): the one of
 * the first node with a problem, as when each was compiled alone.
 */
export const invalidAnySearchError = (
  nodes: readonly SearchNode[],
  problems: readonly Pick<SearchProblem, 'message' | 'path'>[],
): UnsupportedPlanError => {
  if (nodes.length === 1) return invalidSearchError(nodes[0]!, problems)
  const at = problems[0]?.path[0] ?? 0
  return invalidSearchError(
    nodes[at]!,
    problems.filter((problem) => problem.path[0] === at),
  )
}

/** The search compiler over a catalog's index (`catalog.json` `extensions.search`). */
export const catalogSearchCompiler = (
  catalogDir: string,
  index: SearchIndexManifest,
): SearchCompilerLike => ({
  numbersById: (entity) => (index.entities[entity]?.idPrefix ?? null) !== null,
  compileSearch(entity: CatalogEntity, nodes: readonly SearchNode[], docs: SearchDocs = 'id'): SqlFragment {
    if (nodes.some((node) => node.mode === 'semantic' || node.field === 'semantic'))
      throw new UnsupportedPlanError(
        'semantic_search',
        'Semantic search is not available: there is no vector index',
      )
    const searches = nodes.map((node) => catalogSearchQuery(index, entity, node))
    const compiled = compileSearch(
      searches.map((search) => search.query),
      { catalogDir, index: searches[0]!.index, output: docs === 'number' ? 'doc' : 'id' },
    )
    if (!compiled.ok) throw invalidAnySearchError(nodes, compiled.problems)
    const relation = positionalToAnonymous(compiled.sql, compiled.params)
    return {
      sql: `SELECT ${docs === 'number' ? 'doc' : 'id AS doc'}, score FROM (${relation.sql})`,
      params: relation.params,
    }
  },
})
