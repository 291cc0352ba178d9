// What a semantic search may be part of. It answers the works nearest in meaning to a passage: a short list
// (at most `SEMANTIC_SEARCH_LIMITS.maxResults`) that the query's other filters narrow first. That is a set
// to intersect with, not a condition a row can fail or pass on its own, so it cannot be negated, sit in an OR,
// or appear twice; and its relevance (a cosine) is not on the scale of a full-text score, so the two kinds of
// search are not combined in one query (the API says the same: search.semantic stands alone).
import type { EntityType } from '@oqlkit/oqo-schema/registry'
import { SEMANTIC_SEARCH_LIMITS } from '../embedding/semantic-search-limits.ts'
import { searchNodesOf } from '../plan/filter-leaves.ts'
import type { FilterNode, SearchNode } from '../plan/filter-node.ts'
import type { PlanDiagnostic } from './plan-diagnostic.ts'

interface SearchPlace {
  readonly node: SearchNode
  /** Under a NOT or an OR: not one of the top-level conditions every row must meet. */
  readonly nested: boolean
}

const searchesOf = (filter: FilterNode | null): SearchPlace[] =>
  searchNodesOf(filter).map((leaf) => ({ node: leaf.node, nested: leaf.belowNot || leaf.belowOr }))

const codePoints = (text: string): number => {
  let count = 0
  for (const _ of text) count++
  return count
}

const problem = (
  code: PlanDiagnostic['code'],
  message: string,
  data: Partial<PlanDiagnostic> = {},
): PlanDiagnostic => ({
  code,
  message,
  parameter: 'search.semantic',
  ...data,
})

/** The top-level semantic search node of a filter, when it has one. */
export const semanticSearchOf = (filter: FilterNode | null): SearchNode | undefined =>
  searchesOf(filter).find((place) => place.node.mode === 'semantic' && !place.nested)?.node

/** Problems of the semantic searches in a planned filter (none when it has none). */
export const checkSemanticSearch = (entity: EntityType, filter: FilterNode | null): PlanDiagnostic[] => {
  const searches = searchesOf(filter)
  const semantic = searches.filter((place) => place.node.mode === 'semantic')
  if (semantic.length === 0) return []
  const errors: PlanDiagnostic[] = []
  if (entity !== 'works')
    errors.push(
      problem(
        'invalid_semantic_search',
        `Semantic search is only supported for works (the catalog has vectors of works alone); this query searches ${entity}. Use a full-text search of ${entity}.`,
        { rule: 'semantic_on_works_only', field: 'search.semantic', expected: 'works', actual: entity },
      ),
    )
  if (semantic.length > 1)
    errors.push(
      problem(
        'invalid_semantic_search',
        `A query takes one semantic search (this one has ${semantic.length}); put the passages into one text.`,
      ),
    )
  if (semantic.some((place) => place.nested))
    errors.push(
      problem(
        'invalid_semantic_search',
        'A semantic search cannot be negated or be a branch of an OR: it picks the works nearest in meaning, which the other filters (joined by AND) then narrow. Move it to the top level.',
      ),
    )
  if (searches.some((place) => place.node.mode !== 'semantic'))
    errors.push(
      problem(
        'invalid_semantic_search',
        'A semantic search cannot be combined with a full-text search: their relevance scores are not comparable. Use one of them, with filters.',
        { rule: 'semantic_with_full_text', field: 'search.semantic' },
      ),
    )
  for (const { node } of semantic) {
    const length = codePoints(node.text)
    if (node.text.trim() === '')
      errors.push(
        problem(
          'invalid_semantic_search',
          'The semantic search text is empty: give a passage to find works similar to.',
          { rule: 'semantic_text_empty', field: 'search.semantic' },
        ),
      )
    else if (length > SEMANTIC_SEARCH_LIMITS.maxQueryLength)
      errors.push(
        problem(
          'semantic_query_too_long',
          `The semantic search text has ${length} characters; at most ${SEMANTIC_SEARCH_LIMITS.maxQueryLength} are allowed. Shorten it (the first paragraph of an abstract is usually enough).`,
        ),
      )
  }
  return errors
}
