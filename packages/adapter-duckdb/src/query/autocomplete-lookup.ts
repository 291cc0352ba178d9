// Type-ahead (`/autocomplete`): records whose display name matches typed text as a phrase prefix, ranked in
// tiers (the same name, then a name that starts with the text, then a word that does), most works first
// (citations for works), then by id. Names are compared as `normalizeAutocompleteText` writes them: lower
// case, accents dropped, each run of other characters one space; the SQL below normalises the stored names
// the same way.
//
// Two ways to the same answer. The scan compares the text with every name (about 1 s at 10M works). With the
// serving database's autocomplete index (`autocomplete-index.ts`) the matches are read from the word starts
// that begin with the text, a range of the sorted index, or for a very common prefix from its stored answer.

import type { CatalogEntity } from '@oqlkit/catalog'
import {
  catalogEntityInfo,
  catalogEntityOf,
  idOrderSql,
  joinSql,
  param,
  paramList,
  raw,
  type SqlFragment,
  sql,
} from '@oqlkit/catalog'
import {
  type AutocompleteRequest,
  type EntityRecord,
  normalizeAutocompleteText,
  UnsupportedPlanError,
} from '@oqlkit/engine'
import {
  type AutocompleteIndexLayout,
  autocompleteListTable,
  autocompletePopularityColumn,
  autocompletePrefixTable,
} from './autocomplete-index.ts'
import {
  AUTOCOMPLETE_NAME_COLUMN,
  entityView,
  narrowEntityTable,
  normalizedNameSql,
  rowLocationTable,
} from './catalog-views.ts'
import type { DuckDbConnectionLike, DuckDbRow } from './duckdb-driver.ts'
import { compileFilter, type FilterTarget } from './filter-compiler.ts'
import { parseJsonBytes, RECORD_LOCATION_COLUMNS, type RecordFetcher } from './record-fetcher.ts'

/** The index of each entity that has one, as the catalog's serving database states it. */
export type AutocompleteIndexes = ReadonlyMap<CatalogEntity, AutocompleteIndexLayout>

/**
 * The records of the best matches of `request.text`, best first. With `narrowRowNumber` (a catalog opened
 * in `narrow` mode: the SQL of its narrow tables' row number, `readNarrowRowNumber`) the names were
 * normalised once at ingest, and an entity in `indexes` is read through its autocomplete index; otherwise
 * every query normalises every name, which costs seconds at 1M works.
 */
export async function autocompleteLookup(
  db: DuckDbConnectionLike,
  fetchRecords: RecordFetcher,
  request: AutocompleteRequest,
  narrowRowNumber?: string,
  indexes: AutocompleteIndexes = new Map(),
): Promise<readonly EntityRecord[]> {
  const entity = catalogEntityOf(request.entity)
  if (entity === undefined) return []
  const rows = await rankAutocompleteMatches(db, request, narrowRowNumber, indexes.get(entity))
  if (rows.length === 0) return []
  const records = await fetchRecords(entity, rows)
  return records.map((record) => parseJsonBytes(record) as EntityRecord)
}

/**
 * The id and record location (`__id`, `__ro`, `__rb`) of the best matches, best first: through `index` when
 * it is given (narrow mode only) and the text and filter allow, else by the scan. Exported for the
 * benchmark and the test that compares the two; `filteredCandidates` (default `FILTERED_CANDIDATES`) lets
 * that test reach the scan a filtered common prefix falls back to on a catalog too small to have 50,000.
 */
export async function rankAutocompleteMatches(
  db: DuckDbConnectionLike,
  request: AutocompleteRequest,
  narrowRowNumber: string | undefined,
  index: AutocompleteIndexLayout | undefined,
  filteredCandidates: number = FILTERED_CANDIDATES,
): Promise<readonly DuckDbRow[]> {
  const entity = catalogEntityOf(request.entity)
  const text = normalizeAutocompleteText(request.text)
  if (entity === undefined || text === '' || request.limit < 1) return []
  // The filter is compiled (and refused when it searches) before either way is chosen.
  const filter = filterOf(entity, request, narrowRowNumber)
  const pieces = index === undefined ? undefined : textPieces(text, index.prefixChars)
  if (narrowRowNumber === undefined || pieces === undefined)
    return scanMatches(db, entity, text, filter, request.limit, narrowRowNumber)
  const single = pieces.length === 1
  // A prefix common enough to have a stored answer has a range of up to millions of word starts.
  const listed =
    single && (request.filter !== null || request.limit <= index!.listRows)
      ? await storedAnswer(db, entity, text)
      : undefined
  if (request.filter === null)
    return locateRows(
      db,
      entity,
      listed?.slice(0, request.limit) ?? (await bestMatches(db, entity, pieces, request.limit)),
    )
  // A filter keeps some of the matches. Of a common prefix's, the stored answer's that pass are the best
  // that pass (every other match ranks after them), if there are enough; else it is scanned (the filter's own
  // columns first). Any other prefix is matched in the index, and its matches filtered by row.
  if (listed !== undefined) {
    const passing = await passingRows(db, entity, narrowRowNumber, listed, filter, request.limit)
    return passing.length >= request.limit
      ? locateRows(db, entity, passing)
      : scanMatches(db, entity, text, filter, request.limit, narrowRowNumber)
  }
  const ranked = await allRows(
    db,
    sql`${rankedMatches(entity, pieces)} LIMIT ${param(filteredCandidates + 1)}`,
  )
  if (ranked.length > filteredCandidates)
    return scanMatches(db, entity, text, filter, request.limit, narrowRowNumber)
  const candidates = ranked.map((row) => Number(row.__row))
  return locateRows(
    db,
    entity,
    await passingRows(db, entity, narrowRowNumber, candidates, filter, request.limit),
  )
}

/**
 * Matches above which a filtered request is scanned instead: each is one row of the hash table the narrow
 * table is joined with, and the join reads the filter's columns of every row of the narrow table either way.
 */
const FILTERED_CANDIDATES = 50_000

/**
 * The first `limit` of `candidates` (narrow rows, best first) that pass the filter. The candidates are a
 * constant list joined with the narrow table, so that the join's hash table holds them, not the rows that
 * pass: at 10M works, 3,000 candidates took 120 ms this way (20 took 25 ms) and 900 ms joined with the
 * filtered narrow table (DuckDB built its hash table on the 6.4M works cited more than 10 times).
 */
const passingRows = async (
  db: DuckDbConnectionLike,
  entity: CatalogEntity,
  rowNumber: string,
  candidates: readonly number[],
  filter: SqlFragment,
  limit: number,
): Promise<readonly number[]> => {
  if (candidates.length === 0) return []
  const passing = await allRows(
    db,
    sql`SELECT c.__row FROM (SELECT unnest(CAST(CAST(${param(JSON.stringify(candidates))} AS JSON) AS UINTEGER[])) AS __row) AS c JOIN ${raw(narrowEntityTable(entity))} AS e ON e.${raw(rowNumber)} = c.__row WHERE ${filter}`,
  )
  const passed = new Set(passing.map((row) => Number(row.__row)))
  return candidates.filter((row) => passed.has(row)).slice(0, limit)
}

const allRows = (db: DuckDbConnectionLike, fragment: SqlFragment): Promise<readonly DuckDbRow[]> =>
  db.all(fragment.sql, fragment.params)

const filterOf = (
  entity: CatalogEntity,
  request: AutocompleteRequest,
  narrowRowNumber: string | undefined,
): SqlFragment => {
  const target: FilterTarget = narrowRowNumber === undefined ? {} : { narrowRow: 'e', narrowRowNumber }
  return compileFilter(
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
}

/** Today's way, and the one for every case the index cannot answer: every name of the entity compared. */
const scanMatches = async (
  db: DuckDbConnectionLike,
  entity: CatalogEntity,
  text: string,
  filter: SqlFragment,
  limit: number,
  narrowRowNumber: string | undefined,
): Promise<readonly DuckDbRow[]> => {
  const narrowTables = narrowRowNumber !== undefined
  const popularity = autocompletePopularityColumn(entity)
  // Ties in id order, as the index ranks them: by row number, which is id order, on the narrow tables.
  const ties = narrowTables ? `e.${narrowRowNumber}` : idOrderSql(catalogEntityInfo(entity)!, 'e.')
  const view = raw(narrowTables ? narrowEntityTable(entity) : entityView(entity))
  const name = raw(narrowTables ? `e."${AUTOCOMPLETE_NAME_COLUMN}"` : normalizedNameSql('e'))
  // The winners are chosen from narrow columns; only their records are read.
  return allRows(
    db,
    sql`SELECT ${raw(RECORD_LOCATION_COLUMNS('e'))} FROM ${view} AS e WHERE ${filter} AND contains(' ' || ${name}, ' ' || ${param(text)}) ORDER BY CASE WHEN ${name} = ${param(text)} THEN 3 WHEN starts_with(${name}, ${param(text)}) THEN 2 ELSE 1 END DESC, coalesce(e.${raw(popularity)}, 0) DESC, ${raw(ties)} LIMIT ${param(limit)}`,
  )
}

/** A piece of typed text the index compares with one word start: `text` from its `word`-th word on. */
export interface TextPiece {
  readonly text: string
  /** Words of the typed text before the piece's first. */
  readonly word: number
}

/**
 * The typed text as pieces of at most `prefixChars` characters, each starting at one of its words, that
 * together cover it and overlap: the index holds each word start of a name cut to that length, and a name
 * matches when word starts of it that far apart begin with the pieces. Each piece reaches the space before
 * the next one's word, which pins the words between them (names and text hold single spaces), and the last
 * piece ends the text. They are chosen from the end, each starting as early as the next allows: the last
 * piece, the only one matched as a prefix rather than whole, is then as long (as selective) as it can be;
 * `three hence of vi` is read as `three hence of v` and `hence of vi`, not `of vi`. Undefined when a word
 * other than the last is too long for a piece to reach past it, or the last word alone is longer than a
 * piece: the index cannot tell, the scan does.
 */
export const textPieces = (text: string, prefixChars: number): readonly TextPiece[] | undefined => {
  const chars = Array.from(text)
  const starts: number[] = [0]
  chars.forEach((char, index) => {
    if (char === ' ') starts.push(index + 1)
  })
  const pieces: TextPiece[] = []
  // The first word start at or after `from`, with its word number.
  const startFrom = (from: number) => {
    const word = starts.findIndex((start) => start >= from)
    return word === -1 ? undefined : { start: starts[word]!, word }
  }
  let next = startFrom(chars.length - prefixChars)
  if (next === undefined || next.start >= chars.length) return undefined
  pieces.push({ text: chars.slice(next.start).join(''), word: next.word })
  while (next.start > 0) {
    const before = startFrom(next.start - prefixChars)
    if (before === undefined || before.start >= next.start) return undefined
    pieces.unshift({
      text: chars.slice(before.start, before.start + prefixChars).join(''),
      word: before.word,
    })
    next = before
  }
  return pieces
}

/** Above every character a name holds: text starting with a prefix sorts before the prefix followed by it. */
const ABOVE_EVERY_CHARACTER = '\u{10FFFF}'

/** Word starts read per row asked for, before falling back to ranking whole rows (see `bestMatches`). */
const WORD_START_SLACK = 4

/**
 * The word starts of one name that begin with each piece, as far apart as the pieces' words (`a0` the first
 * piece's), and the tier each match gives its row: 0 for the same name (the first piece at the name's start
 * and the last one at its end), 1 for the name's start, 2 for another word's.
 */
const matchesOf = (
  entity: CatalogEntity,
  pieces: readonly TextPiece[],
): { readonly from: SqlFragment; readonly tier: SqlFragment } => {
  const table = autocompletePrefixTable(entity)
  const last = pieces.length - 1
  const joins = pieces
    .slice(1)
    .map(
      (piece, index) =>
        sql` JOIN ${raw(table)} AS ${raw(`a${index + 1}`)} ON ${raw(`a${index + 1}`)}."row" = a0."row" AND ${raw(`a${index + 1}`)}.word = a0.word + CAST(${param(piece.word - pieces[0]!.word)} AS UINTEGER)`,
    )
  // Every piece but the last is a whole cut word start: equality. The last is a prefix of one: a range, which
  // DuckDB prunes by the zone maps of the sorted `prefix`, then the exact test.
  const conditions = pieces.map((piece, index) =>
    index < last
      ? sql`${raw(`a${index}`)}.prefix = ${param(piece.text)}`
      : sql`${raw(`a${index}`)}.prefix >= ${param(piece.text)} AND ${raw(`a${index}`)}.prefix < ${param(piece.text + ABOVE_EVERY_CHARACTER)} AND starts_with(${raw(`a${index}`)}.prefix, ${param(piece.text)})`,
  )
  const lastLength = Array.from(pieces[last]!.text).length
  return {
    from: sql`FROM ${raw(table)} AS a0${joinSql(joins, '')} WHERE ${joinSql(conditions, ' AND ')}`,
    tier: sql`CASE WHEN a0.word <> 1 THEN 2 WHEN ${raw(`a${last}`)}.suffix_len = ${param(lastLength)} THEN 0 ELSE 1 END`,
  }
}

/**
 * The rows of the best matches, best first, from the index alone. A row matches once per word start that
 * begins with the text, but its best match comes first in the order of matches (same popularity and row,
 * best tier), so the first `limit` distinct rows of the first matches are the answer: a top-N of a few
 * thousand matches, where grouping them by row first took 2 to 7 ms more at 10M works. Only if a few rows
 * matched so often that they filled the window are whole rows ranked instead.
 */
const bestMatches = async (
  db: DuckDbConnectionLike,
  entity: CatalogEntity,
  pieces: readonly TextPiece[],
  limit: number,
): Promise<readonly number[]> => {
  const window = limit * WORD_START_SLACK
  const { from, tier } = matchesOf(entity, pieces)
  const found = await allRows(
    db,
    sql`SELECT a0."row" AS __row ${from} ORDER BY ${tier}, a0.popularity DESC, a0."row" LIMIT ${param(window)}`,
  )
  const rows = [...new Set(found.map((row) => Number(row.__row)))]
  if (rows.length >= limit || found.length < window) return rows.slice(0, limit)
  const ranked = await allRows(db, sql`${rankedMatches(entity, pieces)} LIMIT ${param(limit)}`)
  return ranked.map((row) => Number(row.__row))
}

/**
 * The rows (`__row`) of every match, each once with its best tier, ordered best first: then by popularity,
 * then row (the narrow table is in id order).
 */
const rankedMatches = (entity: CatalogEntity, pieces: readonly TextPiece[]): SqlFragment => {
  const { from, tier } = matchesOf(entity, pieces)
  return sql`SELECT m.__row FROM (SELECT a0."row" AS __row, min(${tier}) AS __tier, any_value(a0.popularity) AS __popularity ${from} GROUP BY a0."row") AS m ORDER BY m.__tier, m.__popularity DESC, m.__row`
}

/** The stored answer (rows, best first) of a common prefix, or undefined when it has none. */
const storedAnswer = async (
  db: DuckDbConnectionLike,
  entity: CatalogEntity,
  prefix: string,
): Promise<readonly number[] | undefined> => {
  const [found] = await db.all(`SELECT "rows" FROM ${autocompleteListTable(entity)} WHERE prefix = ?`, [
    prefix,
  ])
  return found === undefined ? undefined : (found.rows as unknown[]).map(Number)
}

/** The id and record location of narrow rows, in the order given (the row locations' index finds them). */
const locateRows = async (
  db: DuckDbConnectionLike,
  entity: CatalogEntity,
  rows: readonly number[],
): Promise<readonly DuckDbRow[]> => {
  if (rows.length === 0) return []
  const located = await allRows(
    db,
    sql`SELECT "row" AS __row, "id" AS __id, record_offset AS __ro, record_bytes AS __rb FROM ${raw(rowLocationTable(entity))} WHERE "row" IN (${paramList(rows)})`,
  )
  const byRow = new Map(located.map((row) => [Number(row.__row), row]))
  return rows.flatMap((row) => {
    const found = byRow.get(row)
    return found === undefined ? [] : [found]
  })
}
