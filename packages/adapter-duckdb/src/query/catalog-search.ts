// Full-text search for the plan compiler, over the catalog's search index (`src/search`): an engine search
// node → a `SearchQuery` → the index compiler's SQL, rewritten to the `?` placeholders the rest of the
// statement uses and returned as a `(doc, score)` relation.

import type { CatalogEntity, SearchIndexManifest, SqlFragment, SqlParam } from '@oqlkit/catalog'
import { catalogSearchQuery, invalidAnySearchError } from '@oqlkit/catalog'
import type { SearchNode } from '@oqlkit/engine'
import { UnsupportedPlanError } from '@oqlkit/engine'
import { compileSearch } from '../search/search-compiler.ts'
import type { SearchCompilerLike, SearchDocs } from './duckdb-plan-compiler.ts'

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
