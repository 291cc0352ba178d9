// Search on text the index does not hold: the raw affiliation strings of works' authorships. Rather than
// refusing a registry search filter (a 501 for a valid query), such a search scans the field's record-path
// column (the strings ingest extracted from each record): every word of the query must occur among the
// field's exact tokens, and each match scores 1. A scan that tokenises every row, so it is slow on big
// catalogs; the answer is right and the index can take the field over later.

import type { CatalogEntity } from '@oqlkit/catalog'
import { joinSql, param, raw, type SqlFragment, sql, unindexedSearchPath } from '@oqlkit/catalog'
import type { SearchNode } from '@oqlkit/engine'
import { exactTokens } from '@oqlkit/text-models'
import { exactTokensSql } from '../search/search-tokenizer-sql.ts'
import { entityView } from './catalog-views.ts'
import { recordListColumn } from './duckdb-column-map.ts'

/** The `(doc, score)` relation of a search on an unindexed field, or undefined when the field is indexed. */
export const unindexedSearch = (entity: CatalogEntity, node: SearchNode): SqlFragment | undefined => {
  const path = unindexedSearchPath(entity, node)
  if (path === undefined) return undefined
  const words = exactTokens(node.text)
  const tokens = exactTokensSql(`array_to_string(e.${recordListColumn(entity, path)}, ' ')`)
  const condition =
    words.length === 0
      ? raw('FALSE')
      : joinSql(
          words.map((word) => sql`list_contains(${raw(tokens)}, ${param(word)})`),
          ' AND ',
        )
  return sql`SELECT e."id" AS doc, 1.0 AS score FROM ${raw(entityView(entity))} AS e WHERE ${condition}`
}
