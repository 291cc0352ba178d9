// What a search node asks of a catalog's search index, for every adapter that reads the index: the index
// query of an engine search node, and the API's refusals of a search the index cannot run, so that DuckDB and
// ClickHouse refuse alike.
import type { SearchNode } from '@oqlkit/engine'
import { UnsupportedPlanError } from '@oqlkit/engine'
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import { defaultSearchField, weightedFieldsOf } from './search-fields.ts'
import type { SearchEntityIndex, SearchIndexManifest } from './search-index-layout.ts'
import type { SearchProblem, SearchQuery } from './search-query.ts'
import { searchMatchOfText } from './search-text-parser.ts'

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
