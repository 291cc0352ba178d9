// Type-ahead (`/autocomplete`): records whose display name matches typed text as a phrase prefix, ranked in
// tiers (the same name, then a name that starts with the text, then a word that does), most works first
// (citations for works). Names are compared as `normalizeAutocompleteText` writes them: lower case, accents
// dropped, each run of other characters one space; the SQL below normalises the stored names the same way.
import {
  type AutocompleteRequest,
  type EntityRecord,
  normalizeAutocompleteText,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import {
  AUTOCOMPLETE_NAME_COLUMN,
  entityView,
  narrowEntityTable,
  normalizedNameSql,
} from './catalog-views.ts'
import { catalogEntityOf } from './column-sources.ts'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'
import { compileFilter, type FilterTarget } from './filter-compiler.ts'
import { parseJsonBytes, RECORD_LOCATION_COLUMNS, type RecordFetcher } from './record-fetcher.ts'
import { param, raw, sql, toStatement } from './sql-fragment.ts'

/**
 * The records of the best matches of `request.text`, best first. With `narrowTables` (a catalog opened in
 * `narrow` mode) the names were normalised once at open; otherwise every query normalises every name, which
 * costs seconds at 1M works.
 */
export async function autocompleteLookup(
  db: DuckDbConnectionLike,
  fetchRecords: RecordFetcher,
  request: AutocompleteRequest,
  narrowTables = false,
): Promise<readonly EntityRecord[]> {
  const entity = catalogEntityOf(request.entity)
  const text = normalizeAutocompleteText(request.text)
  if (entity === undefined || text === '' || request.limit < 1) return []
  const filterOver = (target: FilterTarget) =>
    compileFilter(
      entity,
      request.filter,
      (node) => {
        throw new UnsupportedPlanError(
          'invalid_search',
          `Autocomplete filters cannot search (${node.column.id})`,
        )
      },
      target,
    )
  const popularity = entity === 'works' ? '"cited_by_count"' : '"works_count"'
  const narrow = narrowTables
  const filter = filterOver(narrow ? { narrowRow: 'e' } : {})
  const view = raw(narrow ? narrowEntityTable(entity) : entityView(entity))
  const name = raw(narrow ? `e."${AUTOCOMPLETE_NAME_COLUMN}"` : normalizedNameSql('e'))
  // The winners are chosen from narrow columns; only their records are read.
  const ranked = toStatement(
    sql`SELECT ${raw(RECORD_LOCATION_COLUMNS('e'))} FROM ${view} AS e WHERE ${filter} AND contains(' ' || ${name}, ' ' || ${param(text)}) ORDER BY CASE WHEN ${name} = ${param(text)} THEN 3 WHEN starts_with(${name}, ${param(text)}) THEN 2 ELSE 1 END DESC, coalesce(e.${raw(popularity)}, 0) DESC, e."id" LIMIT ${param(request.limit)}`,
  )
  const rows = await db.all(ranked.sql, ranked.params)
  if (rows.length === 0) return []
  const records = await fetchRecords(entity, rows)
  return records.map((record) => parseJsonBytes(record) as EntityRecord)
}
