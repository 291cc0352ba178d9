// The serving database's type-ahead index: what lets `/autocomplete` answer from a few row groups instead of
// comparing typed text with every display name (a scan: about 1 s at 10M works).
//
// Per entity, two tables, built at ingest from the narrow table's normalised name:
//
// - `<table>__autocomplete`: one row per word start of the name (`prefix`: the name from that word on, cut
//   to `prefix_chars` characters), with the narrow row it belongs to, the row's popularity, which word it
//   starts at (1 for the name's start) and the length of the rest of the name from there (capped one above
//   `prefix_chars`, enough to tell that the name ends at the typed text). Sorted by `prefix`, so that the
//   word starts beginning with typed text are a range that DuckDB finds through its zone maps.
// - `<table>__autocomplete_lists`: the answer itself (its first `list_rows` rows, best first) for each
//   prefix so common that its range would be a long read (`a`, `th`, `introduction`): a range of millions
//   of word starts ranked is a fraction of a second, a lookup of one row is a millisecond.
//
// And one `autocomplete_layout` row per indexed entity, naming the cut and list length it was built with: an
// entity without one (too small to need it, or a serving database older than the index) is scanned as before.
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  catalogEntityInfo,
  constantLiteral,
  quoteIdentifier,
  sqlInteger,
} from '@oqlkit/catalog'
import { AUTOCOMPLETE_NAME_COLUMN, NARROW_ROW_COLUMN, narrowEntityTable } from './catalog-views.ts'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'

/** What an entity's index was built with, as the layout table states it. */
export interface AutocompleteIndexLayout {
  /** Characters of each word start kept in `prefix`. */
  readonly prefixChars: number
  /** Rows each list holds: a request for more than this many reads the range instead. */
  readonly listRows: number
}

/** How the index is built; every field has a default fit for a full catalog. */
export interface AutocompleteIndexOptions {
  /** Characters of each word start kept (default 16): longer text is matched piece by piece. */
  readonly prefixChars?: number
  /** Rows of each list (default 20; the API asks for 10). */
  readonly listRows?: number
  /**
   * Estimated word starts above which a prefix gets a list (default 8,192). Below it a range read costs the
   * row groups it touches more than its rows (at 10M works, 3,000 word starts took 16 ms, 17,000 took 26).
   */
  readonly listAbove?: number
  /** Rows counted as popular when the lists are made, at least (default 65,536; see below). */
  readonly popularRows?: number
  /**
   * Rows an entity must have to be indexed (default 50,000). Below that the scan is as quick: at 20k works
   * both took 12 ms a query (the index answers in three statements, the scan in one), and a filtered request
   * was quicker scanned; and the two tables of each of the 23 entities cost a few blocks even when tiny.
   */
  readonly minRows?: number
}

/** The version of the index's shape; a layout row of another version is ignored (the lookup scans). */
export const AUTOCOMPLETE_INDEX_VERSION = 1

export const AUTOCOMPLETE_LAYOUT_TABLE = 'autocomplete_layout'

/** The entity's table of word starts (`"works__autocomplete"`). */
export const autocompletePrefixTable = (entity: CatalogEntity): string =>
  quoteIdentifier(`${catalogEntityInfo(entity)!.table}__autocomplete`)

/** The entity's table of precomputed answers for common prefixes (`"works__autocomplete_lists"`). */
export const autocompleteListTable = (entity: CatalogEntity): string =>
  quoteIdentifier(`${catalogEntityInfo(entity)!.table}__autocomplete_lists`)

/** What autocomplete ranks by after the tier: citations for works, works for every other entity. */
export const autocompletePopularityColumn = (entity: CatalogEntity): string =>
  entity === 'works' ? '"cited_by_count"' : '"works_count"'

const DEFAULTS: Required<AutocompleteIndexOptions> = {
  prefixChars: 16,
  listRows: 20,
  listAbove: 8_192,
  popularRows: 65_536,
  minRows: 50_000,
}

/** Candidates each list keeps before repeated rows are dropped (a row is in a range once per word start). */
const LIST_SLACK = 4

/**
 * The statements that build the index into the serving database, after its narrow tables; `served` names a
 * table there, `rowCountOf` tells an entity's rows (the manifest's count). The layout table first, then each
 * indexed entity's tables and its layout row.
 *
 * The lists are chosen and filled from a subset of the word starts: every name's start, and every word start
 * of the popular rows (the first `popularRows`, at least a sixteenth of the entity, in the order autocomplete
 * ranks by). That is exact for any prefix the subset matches at least `listRows` distinct rows of: a row left
 * out matches only by a word other than its first (the lowest tier) and ranks after every popular row, so it
 * ranks after every row the subset found. A prefix matched by fewer gets no list and is read as a range. How
 * common a prefix is, which decides only where a list pays, is estimated from the popular rows alone. At 1M
 * works this took the lists from 24 s (every word start, level by level) to 4 s.
 */
export const autocompleteIndexStatements = (
  served: (name: string) => string,
  rowCountOf: (entity: CatalogEntity) => number,
  options: AutocompleteIndexOptions = {},
  /** Only these entities' indexes, made again in a database that has the index (an update in place). */
  only?: ReadonlySet<CatalogEntity>,
): string[] => {
  const { prefixChars, listRows, listAbove, popularRows, minRows } = { ...DEFAULTS, ...options }
  const chars = sqlInteger(prefixChars)
  const layout = served(quoteIdentifier(AUTOCOMPLETE_LAYOUT_TABLE))
  const statements =
    only === undefined
      ? [`CREATE TABLE ${layout} (entity VARCHAR, version INTEGER, prefix_chars INTEGER, list_rows INTEGER)`]
      : []
  for (const info of CATALOG_ENTITIES) {
    if (only !== undefined && !only.has(info.entity)) continue
    const narrow = served(narrowEntityTable(info.entity))
    const prefixes = served(autocompletePrefixTable(info.entity))
    const lists = served(autocompleteListTable(info.entity))
    // Made again: what the entity had goes first (its rows may have crossed `minRows` either way).
    if (only !== undefined)
      statements.push(
        `DROP TABLE IF EXISTS ${prefixes}`,
        `DROP TABLE IF EXISTS ${lists}`,
        `DELETE FROM ${layout} WHERE entity = ${constantLiteral(info.entity)}`,
      )
    if (rowCountOf(info.entity) < minRows) continue
    const popularity = `CAST(coalesce(e.${autocompletePopularityColumn(info.entity)}, 0) AS BIGINT)`
    const name = `coalesce(e.${quoteIdentifier(AUTOCOMPLETE_NAME_COLUMN)}, '')`
    const popular = '(p.popularity > c.popularity OR (p.popularity = c.popularity AND p."row" <= c."row"))'
    // `o` is where each word starts in the name (the lengths of the words before it and their spaces), `k`
    // which word it is. Names hold single spaces (normalizedNameSql); a word start that is a space or the
    // name's end could match no typed text, which starts with a letter or digit.
    statements.push(
      `CREATE TABLE ${prefixes} AS SELECT substr(n, o + 1, ${chars}) AS prefix, CAST("row" AS UINTEGER) AS "row", popularity, CAST(k AS UINTEGER) AS word, CAST(least(length(n) - o, ${chars} + 1) AS UTINYINT) AS suffix_len FROM (SELECT n, "row", popularity, CAST(unnest(list_transform(range(len(lens)), i -> i + coalesce(list_sum(list_slice(lens, 1, i)), 0))) AS BIGINT) AS o, unnest(range(1, len(lens) + 1)) AS k FROM (SELECT ${name} AS n, e.${quoteIdentifier(NARROW_ROW_COLUMN)} AS "row", ${popularity} AS popularity, list_transform(string_split(${name}, ' '), w -> length(w)) AS lens FROM ${narrow} AS e)) WHERE o < length(n) AND substr(n, o + 1, 1) <> ' ' ORDER BY prefix, "row", word`,
      // The last popular row, in autocomplete's order (popularity, then row, which is id order).
      `CREATE TEMP TABLE __ac_cut AS SELECT popularity, "row", CAST(total AS DOUBLE) / popular_rows AS scale FROM (SELECT popularity, "row", total, greatest(least(total, ${sqlInteger(popularRows)}), total // 16) AS popular_rows, row_number() OVER (ORDER BY popularity DESC, "row") AS position FROM (SELECT ${popularity} AS popularity, e.${quoteIdentifier(NARROW_ROW_COLUMN)} AS "row", count(*) OVER () AS total FROM ${narrow} AS e)) WHERE position = popular_rows`,
      // Popularity descending, then row, in one number that sorts ascending.
      `CREATE TEMP TABLE __ac_subset AS SELECT p.prefix, p."row", p.word, p.suffix_len, ${popular} AS popular, c.scale, ((CAST(9223372036854775807 AS HUGEINT) + 1 - p.popularity) << 32) | CAST(p."row" AS HUGEINT) AS order_key FROM ${prefixes} AS p, __ac_cut AS c WHERE p.word = 1 OR ${popular}`,
      'CREATE TEMP TABLE __ac_common (head VARCHAR, level INTEGER, candidates UINTEGER[])',
    )
    // Level by level: a prefix is only as common as the shorter prefix it extends, so only those extend.
    for (let level = 1; level <= prefixChars; level++) {
      const k = sqlInteger(level)
      const extending =
        level === 1
          ? ''
          : ` AND left(prefix, ${sqlInteger(level - 1)}) IN (SELECT head FROM __ac_common WHERE level = ${sqlInteger(level - 1)})`
      // The tier as a number that sorts first for the best: 0 the same name, 1 the name's start, 2 a word's.
      statements.push(
        `INSERT INTO __ac_common SELECT left(prefix, ${k}) AS head, ${k}, arg_min("row", ((CAST(CASE WHEN word <> 1 THEN 2 WHEN suffix_len = ${k} THEN 0 ELSE 1 END AS HUGEINT) << 100) | order_key), ${sqlInteger(listRows * LIST_SLACK)}) FROM __ac_subset WHERE length(prefix) >= ${k}${extending} GROUP BY head HAVING count(*) FILTER (WHERE popular) * any_value(scale) > ${sqlInteger(listAbove)}`,
      )
    }
    statements.push(
      // A row repeated (a word start of it after its first) keeps its first, best place.
      `CREATE TABLE ${lists} AS SELECT head AS prefix, list_slice(distinct_rows, 1, ${sqlInteger(listRows)}) AS "rows" FROM (SELECT head, list_filter(candidates, (x, i) -> list_position(candidates, x) = i) AS distinct_rows FROM __ac_common) WHERE len(distinct_rows) >= ${sqlInteger(listRows)} ORDER BY prefix`,
      'DROP TABLE __ac_common',
      'DROP TABLE __ac_subset',
      'DROP TABLE __ac_cut',
      `INSERT INTO ${layout} VALUES (${constantLiteral(info.entity)}, ${sqlInteger(AUTOCOMPLETE_INDEX_VERSION)}, ${chars}, ${sqlInteger(listRows)})`,
    )
  }
  return statements
}

/**
 * The index layout of each entity in the attached serving database (`servingDatabase`, its name), empty when
 * it has none (built before the index existed): autocomplete then scans.
 */
export async function readAutocompleteLayouts(
  db: DuckDbConnectionLike,
  servingDatabase: string,
): Promise<ReadonlyMap<CatalogEntity, AutocompleteIndexLayout>> {
  const found = await db.all(
    'SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = ? AND schema_name = ? AND table_name = ?',
    [servingDatabase, 'main', AUTOCOMPLETE_LAYOUT_TABLE],
  )
  if (Number(found[0]?.n ?? 0) === 0) return new Map()
  const rows = await db.all(
    `SELECT entity, prefix_chars, list_rows FROM ${quoteIdentifier(servingDatabase)}.main.${quoteIdentifier(AUTOCOMPLETE_LAYOUT_TABLE)} WHERE version = ?`,
    [AUTOCOMPLETE_INDEX_VERSION],
  )
  const known = new Set<string>(CATALOG_ENTITIES.map((info) => info.entity))
  const layouts = new Map<CatalogEntity, AutocompleteIndexLayout>()
  for (const row of rows) {
    const entity = String(row.entity)
    const prefixChars = Number(row.prefix_chars)
    const listRows = Number(row.list_rows)
    if (!known.has(entity) || !Number.isSafeInteger(prefixChars) || prefixChars < 1) continue
    layouts.set(entity as CatalogEntity, {
      prefixChars,
      listRows: Number.isSafeInteger(listRows) ? listRows : 0,
    })
  }
  return layouts
}
