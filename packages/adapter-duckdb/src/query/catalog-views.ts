// The views the adapter opens over a catalog's tables (its Parquet files, or its serving database where it keeps
// them there alone), and their names. Queries read the catalog only through these names; where the tables lie
// appears once, in the CREATE VIEW statements (catalog-table-relations.ts).
import type { CatalogManifest } from '@oqlkit/catalog'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  type CatalogEntityInfo,
  catalogEntityInfo,
  constantLiteral,
  LINK_TABLES,
  linkExtremeColumnsOf,
  linkViewOf,
  narrowLinkKeyLetter,
  narrowLinkTableOf,
  PLAIN_LETTER_ID_PATTERN,
  quoteIdentifier,
  searchIndexOf,
} from '@oqlkit/catalog'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'

export const EXTERNAL_IDS_VIEW = 'external_ids'
export const MERGED_IDS_VIEW = 'merged_ids'
export const DELETED_IDS_VIEW = 'deleted_ids'

/** The quoted view name of an entity table (`"works"`, `"work_types"`). */
export const entityView = (entity: CatalogEntity): string => quoteIdentifier(catalogEntityInfo(entity)!.table)

/**
 * How the catalog is opened: `views` read its tables (Parquet files, or the serving database) on every
 * query (memory stays low, whatever the catalog's size); `tables` load them into DuckDB's memory at open (a copy of the catalog in RAM, and no
 * Parquet decompression per query); `narrow` keeps the views and attaches the catalog's serving database
 * (`catalog.duckdb`, built at ingest by `servingDatabaseStatements`), read-only: each entity table, which
 * answers every statement (filters, sorts, counts and groups on derived and
 * record-path columns, autocomplete), the link tables by work row, and the external ids.
 * Nothing is copied at open: DuckDB's buffer manager reads the file's blocks as queries need them, within
 * its memory limit, and several processes may attach the same file. A narrow table keeps the file's order,
 * which is id order, and numbers its rows in it (`NARROW_ROW_COLUMN`): the number sorts as the ids do, and
 * link tables, row locations and the autocomplete lists refer to rows by it.
 */
export type CatalogLoadMode = 'views' | 'narrow' | 'tables'

/**
 * The column of a narrow table holding its row's number, from 0 in id order as the table was built. It is a
 * column and not DuckDB's `rowid` so that a table changed in place keeps its references: a checkpoint that
 * vacuums deleted rows renumbers the `rowid` of every row after them (DuckDB 1.5.6: 60% of a million rows
 * deleted, every remaining row's `rowid` moved), which would silently point every link row at another work.
 * At 1M works the query shapes cost 0.91-1.15x what they did by `rowid` (median 1.05; BENCHMARKS.md, bo).
 */
export const NARROW_ROW_COLUMN = '__row_number'

/** The serving database's copy of an entity table (`"works__narrow"`). */
export const narrowEntityTable = (entity: CatalogEntity): string =>
  quoteIdentifier(`${catalogEntityInfo(entity)!.table}__narrow`)

/**
 * The number of a letter id (SQL of its text), as the narrow tables hold it: link keys, `SEARCH_DOC_COLUMN`, and
 * the works a search finds when they join on it. NULL for text that is not a letter and digits a UBIGINT holds.
 */
export const letterIdNumberSql = (idText: string): string => `TRY_CAST(substr(${idText}, 2) AS UBIGINT)`

/**
 * The serving database's table of an entity's row numbers (`row`, the narrow table's `rowid`) with the id and record
 * location of each (`"works__locations"`), indexed on `row`, in `narrow` mode. A page chosen on the narrow
 * table by row number finds the ids and record locations of its 25 rows here in about 1.5 ms; DuckDB does not push a
 * `rowid IN (…)` into a scan (it read every row, 17 ms at 1M works).
 */
export const rowLocationTable = (entity: CatalogEntity): string =>
  quoteIdentifier(`${catalogEntityInfo(entity)!.table}__locations`)

/**
 * The column of a narrow table holding the number the search index gives the row's record (the number in its
 * id), for entities whose index numbers records by id: searches join on it as integers.
 */
export const SEARCH_DOC_COLUMN = '__search_doc'

/**
 * The entities whose narrow tables hold `SEARCH_DOC_COLUMN`: those the catalog's search index numbers by id
 * (the index checked at build that every id is a letter and a number).
 */
export const searchDocEntities = (manifest: CatalogManifest): ReadonlySet<CatalogEntity> =>
  new Set(
    Object.entries(searchIndexOf(manifest)?.entities ?? {})
      .filter(([, index]) => (index?.idPrefix ?? null) !== null)
      .map(([entity]) => entity as CatalogEntity),
  )

/** The column of a narrow table holding its display name as autocomplete compares it (computed at ingest). */
export const AUTOCOMPLETE_NAME_COLUMN = '__autocomplete_name'

/**
 * SQL of an entity's display name as `normalizeAutocompleteText` writes typed text: lower case, accents
 * dropped, each run of other characters one space.
 */
export const normalizedNameSql = (alias: string): string =>
  `trim(regexp_replace(strip_accents(lower(coalesce(${alias}."display_name", ''))), '[^\\pL\\pN]+', ' ', 'g'))`

/** The name the serving database is attached under, at ingest (to build it) and at serve (read-only). */
export const SERVING_DATABASE_NAME = 'oqlkit_catalog'
const SERVING_DATABASE = quoteIdentifier(SERVING_DATABASE_NAME)

/** `name` (quoted) in the serving database, as the statements that build it name its tables. */
export const served = (name: string): string => `${SERVING_DATABASE}.${name}`

/**
 * In the serving database, after the narrow entity tables (`servingDatabaseStatements`): the `(key, work_row, work_is_xpac, work_<sort
 * key>…)` copy of each link table, with the work's sort keys of `LINK_SORT_COLUMNS` beside each row: the works
 * of one author, sorted by citations, are then a range of the copy's keys, with no probe of the works.
 * A link filter finds its works' rows in the narrow table by row number, not by id: a join on integers, and
 * keys in order so that a key's zone maps skip every other row group. The files are in (key, work_id) order,
 * which is (key, work_row) since narrow rows are in id order. A link table several times the size of the
 * works is the side the join reads rather than hashes, and on one thread (`runOnOneThread`) the join has
 * been seen to emit its rows in the order it reads them (DuckDB does not promise it; only the zone maps'
 * pruning depends on it, never an answer): no sort (an ORDER BY held the 33M references of 1M works in a sort,
 * the peak of the opening's memory; two threads interleave two ordered runs). A smaller one is sorted.
 */
const narrowLinkTableStatements = (manifest: CatalogManifest): ServingDatabaseStep[] =>
  LINK_TABLES.map((spec) => {
    const rows = manifest.links[spec.name]?.rowCount ?? 0
    const inFileOrder = rows > LINK_ROWS_READ_IN_ORDER * manifest.entities.works.rowCount
    return {
      statement: `CREATE TABLE ${served(quoteIdentifier(narrowLinkTableOf(spec.name)))} AS ${narrowLinkRowsSql(spec)}${inFileOrder ? '' : ' ORDER BY 1, work_row'}`,
      threadBound: true,
      empty: rows === 0,
    }
  })

/** The relation a link table's rows are read from: its view of the catalog's file. */
const linkViewRows = (spec: (typeof LINK_TABLES)[number]): string => quoteIdentifier(linkViewOf(spec.name))

/**
 * The rows of a narrow link table, from `from` (its link rows, `key` and `work_id`: the link table's view
 * unless given), each work found in `works__narrow` by id.
 */
export const narrowLinkRowsSql = (
  spec: (typeof LINK_TABLES)[number],
  from: string = linkViewRows(spec),
): string => {
  const sortKeys = LINK_SORT_COLUMNS.map(
    (column) =>
      `, CAST(w.${quoteIdentifier(column.name)} AS ${column.type}) AS ${quoteIdentifier(linkSortColumn(column.name))}`,
  ).join('')
  // An id's number; the ingest wrote every key as the letter and digits, and no id has more digits than a
  // UBIGINT holds (one that had would never match a filter here).
  const key = narrowLinkKeyLetter(spec) === null ? 'l.key' : `${letterIdNumberSql('l.key')} AS key`
  return `SELECT ${key}, w.${quoteIdentifier(NARROW_ROW_COLUMN)} AS work_row, w."is_xpac" AS ${WORK_IS_XPAC_COLUMN}${sortKeys} FROM ${from} AS l JOIN ${served(narrowEntityTable('works'))} AS w ON w."id" = l.work_id`
}

/** The serving database's build-time table of the works' link extremes, in the works' file order. */
const WORK_LINK_EXTREMES = quoteIdentifier('__work_link_extremes')

/**
 * Each work's smallest and largest key of every link table, by the keys' text (what a sort by the link's
 * column orders by: `authorships.author.id:asc` sorts works by their smallest author id), one row per work in
 * the works file's order, which `works__narrow` takes beside its own columns by position. A sort reads them
 * as columns of the row: taking each work's extreme from the link rows at query time cost 0.54 s a page at
 * 100k works, and joining a table of them by row 174-219 ms at 1M (it grew with the works). The keys are held
 * as the narrow link tables hold them: the number of a letter id (compared as text, so `W10` comes before `W9`
 * as the ids' text does), else the text. Built from the link files (key, work_id): only the small extremes
 * are sorted, back into the works' order, never the wide rows.
 */
const workLinkExtremesStatement = (): string => {
  const { columns, joins } = linkExtremesSql('w')
  return `CREATE TEMP TABLE ${WORK_LINK_EXTREMES} AS SELECT ${columns} FROM (SELECT "id", row_number() OVER () AS __position FROM ${entityView('works')}) AS w ${joins} ORDER BY w.__position`
}

/**
 * The works' link extremes (see `workLinkExtremesStatement`) as columns, and the joins that give them to the
 * works under `alias` by id, from each link table's rows in `rowsOf(spec)` (its view unless given).
 */
export const linkExtremesSql = (
  alias: string,
  rowsOf: (spec: (typeof LINK_TABLES)[number]) => string = linkViewRows,
): { columns: string; joins: string } => {
  const parts = LINK_TABLES.map((spec, index) => {
    const { lo, hi } = linkExtremeColumnsOf(spec.name)
    const held = (text: string) => (narrowLinkKeyLetter(spec) === null ? text : letterIdNumberSql(text))
    return {
      columns: `x${index}.lo AS ${quoteIdentifier(lo)}, x${index}.hi AS ${quoteIdentifier(hi)}`,
      join: `LEFT JOIN (SELECT work_id, ${held('min(key)')} AS lo, ${held('max(key)')} AS hi FROM ${rowsOf(spec)} GROUP BY work_id) AS x${index} ON x${index}.work_id = ${alias}."id"`,
    }
  })
  return {
    columns: parts.map(({ columns }) => columns).join(', '),
    joins: parts.map(({ join }) => join).join(' '),
  }
}

/**
 * The column of a narrow link table that copies its work's `is_xpac`: a group-by of a link dimension over the
 * whole corpus counts the link table alone, without joining a million works back.
 */
export const WORK_IS_XPAC_COLUMN = 'work_is_xpac'

/**
 * The link tables (by view name) whose extremes the attached serving database's `works__narrow` holds: all
 * of them since they were added, none in one built before (its sorts by a link's column read the link rows,
 * as a catalog's views do).
 */
export async function readLinkExtremeColumns(
  db: DuckDbConnectionLike,
  servingDatabase: string,
): Promise<ReadonlySet<string>> {
  const names = await servingTableColumns(db, servingDatabase, `${catalogEntityInfo('works')!.table}__narrow`)
  return new Set(
    LINK_TABLES.filter((spec) => {
      const { lo, hi } = linkExtremeColumnsOf(spec.name)
      return names.has(lo) && names.has(hi)
    }).map((spec) => linkViewOf(spec.name)),
  )
}

/**
 * How the attached serving database's narrow tables number their rows, as SQL over a table alias: the
 * quoted `NARROW_ROW_COLUMN`, or `rowid` in one built before the column (never changed in place since, and
 * so still numbered by position).
 */
export async function readNarrowRowNumber(
  db: DuckDbConnectionLike,
  servingDatabase: string,
): Promise<string> {
  const names = await servingTableColumns(db, servingDatabase, `${catalogEntityInfo('works')!.table}__narrow`)
  return names.has(NARROW_ROW_COLUMN) ? quoteIdentifier(NARROW_ROW_COLUMN) : 'rowid'
}

/**
 * Whether every work's id is a plain numbered letter id (`PLAIN_LETTER_ID_PATTERN`) of one letter and the
 * works' narrow table holds the number (`SEARCH_DOC_COLUMN`; one built before it has none): then a relation of
 * works may join the rows on the number. A pass over the works' ids: asked once, on a catalog's first semantic
 * search.
 */
export async function readWorksIdsNumbered(
  db: DuckDbConnectionLike,
  servingDatabase: string,
): Promise<boolean> {
  const table = `${catalogEntityInfo('works')!.table}__narrow`
  if (!(await servingTableColumns(db, servingDatabase, table)).has(SEARCH_DOC_COLUMN)) return false
  const [row] = await db.all(
    `SELECT count(*) FILTER (WHERE NOT regexp_full_match(id, ${constantLiteral(PLAIN_LETTER_ID_PATTERN)})) AS irregular,
      count(DISTINCT id[1]) AS letters FROM ${quoteIdentifier(servingDatabase)}.main.${quoteIdentifier(table)}`,
  )
  // One letter too: the number drops it, and W5 and X5 would join each other's rows.
  return Number(row?.irregular ?? 1) === 0 && Number(row?.letters ?? 0) <= 1
}

/**
 * Whether the attached serving database's external ids carry each record's location (`record_offset`,
 * `record_bytes`): yes since they were added; one built before is looked up by id after the external id.
 */
export async function readExternalIdLocations(
  db: DuckDbConnectionLike,
  servingDatabase: string,
): Promise<boolean> {
  const names = await servingTableColumns(db, servingDatabase, EXTERNAL_IDS_VIEW)
  return names.has('record_offset') && names.has('record_bytes')
}

/**
 * The columns of a table of the attached serving database: what a database built by an older oqlkit lacks
 * tells the adapter which of its later additions to do without.
 */
export async function servingTableColumns(
  db: DuckDbConnectionLike,
  servingDatabase: string,
  table: string,
): Promise<ReadonlySet<string>> {
  const rows = await db.all(
    'SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND schema_name = ? AND table_name = ?',
    [servingDatabase, 'main', table],
  )
  return new Set(rows.map((row) => String(row.column_name)))
}

/** Whether the attached serving database has the table (one built by an older oqlkit may not). */
export async function servingTableExists(
  db: DuckDbConnectionLike,
  servingDatabase: string,
  table: string,
): Promise<boolean> {
  const [found] = await db.all(
    'SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = ? AND schema_name = ? AND table_name = ?',
    [servingDatabase, 'main', table],
  )
  return Number(found?.n ?? 0) > 0
}

/**
 * The works' sort keys each narrow link table copies, in the smallest type that holds them (the copies cost
 * every link row their bytes: 76M rows at 1M works). `work_row` is a UINTEGER for the same reason.
 */
export const LINK_SORT_COLUMNS: readonly { readonly name: string; readonly type: string }[] = [
  { name: 'cited_by_count', type: 'INTEGER' },
  { name: 'publication_date', type: 'DATE' },
  { name: 'publication_year', type: 'SMALLINT' },
]

/** The narrow link table's copy of the work's sort key `name`. */
export const linkSortColumn = (name: string): string => `work_${name}`

/** Link rows per work above which a link table is copied in its file's order, without a sort. */
const LINK_ROWS_READ_IN_ORDER = 4

/** The catalog's bytes on disk (entity, link and id files), what `tables` would hold in memory, compressed. */
export const catalogBytes = (manifest: CatalogManifest): number =>
  manifest.files.filter((file) => !file.path.startsWith('search/')).reduce((sum, file) => sum + file.bytes, 0)

/**
 * The columns of an entity's narrow row, over its row `e` of the entity's view: every column, the name as
 * autocomplete compares it, and for letter ids the search index's number; not the works' link extremes
 * (`linkExtremesSql`) or the row number.
 */
export const narrowRowColumnsSql = (info: CatalogEntityInfo): string => {
  // Every letter id's number, whether or not a search index exists yet (`oqlkit index` may add one later):
  // searches use the column only for entities whose index checked that every id is a letter and a number.
  const searchDoc =
    info.idKind === 'letter'
      ? `, ${letterIdNumberSql('e."id"')} AS ${quoteIdentifier(SEARCH_DOC_COLUMN)}`
      : ''
  return `e.*, ${normalizedNameSql('e')} AS ${quoteIdentifier(AUTOCOMPLETE_NAME_COLUMN)}${searchDoc}`
}

/**
 * An entity's external ids with the location of each one's record: every one, or (`onlyIds`, SQL of a
 * relation with an `id` column) only those of these ids.
 */
export const locatedExternalIdsSql = (entity: CatalogEntity, onlyIds?: string): string =>
  `SELECT x.*, n.record_offset, n.record_bytes FROM memory.main.${quoteIdentifier(EXTERNAL_IDS_VIEW)} AS x LEFT JOIN ${served(narrowEntityTable(entity))} AS n ON n."id" = x."id" WHERE x.entity = ${constantLiteral(entity)}${onlyIds === undefined ? '' : ` AND x."id" IN (SELECT "id" FROM ${onlyIds})`}`

/**
 * The merged and deleted ids, copied whole into the serving database (small: cumulative logs of ids), so that
 * it holds every table of the catalog; an update in place copies them whole again.
 */
export const idListStatements = (): string[] =>
  [MERGED_IDS_VIEW, DELETED_IDS_VIEW].map(
    (view) =>
      `CREATE OR REPLACE TABLE ${served(quoteIdentifier(view))} AS SELECT * FROM ${quoteIdentifier(view)}`,
  )

/** One statement that builds the serving database (`servingDatabaseStatements`). */
export interface ServingDatabaseStep {
  readonly statement: string
  /** It must run on one thread (`runOnOneThread`; see `narrowLinkTableStatements`). */
  readonly threadBound: boolean
  /**
   * It makes, fills or indexes a table of no rows (by the manifest's count): the builder runs such
   * statements together in one transaction (`buildServingDatabase`).
   */
  readonly empty: boolean
}

/**
 * The tables of the serving database (`catalog.duckdb`), built at ingest, attached as `SERVING_DATABASE_NAME`,
 * from the views of `catalogViewStatements(…, 'views')`: per entity its narrow table (indexed on `id`) and
 * row locations (indexed on `row`), the external ids (indexed on `value`), the merged and deleted ids, then
 * the narrow link tables and their extremes. The narrow link tables must be made on one thread (see `narrowLinkTableStatements`);
 * `threadBound` says which statements must. The builder
 * adds the autocomplete index after them (`autocompleteIndexStatements`, which reads the narrow tables).
 */
export const servingDatabaseStatements = (manifest: CatalogManifest): ServingDatabaseStep[] => {
  const steps: ServingDatabaseStep[] = []
  for (const info of CATALOG_ENTITIES) {
    const statements: string[] = []
    const narrow = served(narrowEntityTable(info.entity))
    const locations = served(rowLocationTable(info.entity))
    // The works take their link extremes beside them, row for row (both in the works file's order).
    const works = info.entity === 'works'
    if (works) statements.push(workLinkExtremesStatement())
    const row = quoteIdentifier(NARROW_ROW_COLUMN)
    const empty = (manifest.entities[info.entity]?.rowCount ?? 0) === 0
    const columns = `${narrowRowColumnsSql(info)}${works ? ', x.*' : ''}`
    statements.push(
      // A table of no rows has none to number: it takes the (last) column as it is made, the same column
      // the two statements after it add to a table of rows.
      `CREATE TABLE ${narrow} AS SELECT ${columns}${empty ? `, CAST(NULL AS UINTEGER) AS ${row}` : ''} FROM ${entityView(info.entity)} AS e${works ? ` POSITIONAL JOIN ${WORK_LINK_EXTREMES} AS x` : ''}`,
      ...(works ? [`DROP TABLE ${WORK_LINK_EXTREMES}`] : []),
      // Numbered once the table holds every row, before any index exists (an update of an indexed table
      // deletes and inserts its rows): the `rowid` of a table only ever inserted into is its position.
      ...(empty
        ? []
        : [
            `ALTER TABLE ${narrow} ADD COLUMN ${row} UINTEGER`,
            `UPDATE ${narrow} SET ${row} = CAST(rowid AS UINTEGER)`,
          ]),
      // Singletons find their row through an ART index: 0.45 ms instead of 1.3 ms at 100k works.
      `CREATE INDEX ${quoteIdentifier(`${info.table}__narrow_id`)} ON ${narrow} ("id")`,
      // A BIGINT, as the page's row numbers are bound: a UINTEGER column compared with them is cast, and its
      // index not used (a page of an author's works 5.0 -> 10.4 ms at 1M works).
      `CREATE TABLE ${locations} AS SELECT CAST(${row} AS BIGINT) AS "row", "id", record_offset, record_bytes FROM ${narrow}`,
      `CREATE INDEX ${quoteIdentifier(`${info.table}__locations_row`)} ON ${locations} ("row")`,
    )
    steps.push(...statements.map((statement) => ({ statement, threadBound: false, empty })))
  }
  // External ids are looked up with parameters, which do not prune Parquet row groups: a DOI read every
  // row group of the view (14 ms at 100k works). A table indexed on the value answers in about 1 ms, and
  // with the record's location beside the id a singleton by DOI reads its record without a second lookup by
  // id (1.2 ms and 2.1 ms cold at 1M works).
  const externalIds = served(quoteIdentifier(EXTERNAL_IDS_VIEW))
  const located = CATALOG_ENTITIES.map(({ entity }) => locatedExternalIdsSql(entity))
  const noExternalIds = manifest.externalIds.rowCount === 0
  steps.push(
    {
      statement: `CREATE TABLE ${externalIds} AS ${located.join(' UNION ALL ')}`,
      threadBound: false,
      empty: noExternalIds,
    },
    {
      statement: `CREATE INDEX "external_ids_value" ON ${externalIds} ("value")`,
      threadBound: false,
      empty: noExternalIds,
    },
    // Small tables, whatever their rows: in their own commits.
    ...idListStatements().map((statement) => ({ statement, threadBound: false, empty: false })),
  )
  return [...steps, ...narrowLinkTableStatements(manifest)]
}
