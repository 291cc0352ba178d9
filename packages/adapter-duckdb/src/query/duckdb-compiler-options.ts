// What `DuckDbPlanCompiler` is given: its options (full-text and semantic search, the serving database's
// narrow tables and what they hold), and the inputs and tasks of a plan's semantic searches, which the adapter
// runs before compiling. Types only, so the adapter, the search compiler and tests can name them without the
// compiler.
import type { CatalogEntity, CatalogIdOrder, SqlFragment, SqlStatement } from '@oqlkit/catalog'
import type { SearchNode } from '@oqlkit/engine'

/** How a search's rows name their records: by short id, or by the number in the id. */
export type SearchDocs = 'id' | 'number'

/**
 * Full-text search as the compiler needs it: the matches of one search node, or of any of the search nodes of
 * one OR on one column (`searchGroupsOf`), as a `(doc, score)` relation.
 */
export interface SearchCompilerLike {
  /**
   * SQL (with `?` placeholders) of the rows of `entity` that match any of `nodes`, as `doc` (the short id, or
   * with `number` the number in it) and `score` (DOUBLE, the sum of the nodes' scores; a record may have
   * several rows, their scores adding up).
   */
  compileSearch(entity: CatalogEntity, nodes: readonly SearchNode[], docs?: SearchDocs): SqlFragment
  /**
   * Whether matches of `entity` can be given as numbers: then the narrow table holds each row's number
   * (`SEARCH_DOC_COLUMN`) and a search joins the rows on integers, not on the id's text.
   */
  numbersById?(entity: CatalogEntity): boolean
}

export interface DuckDbPlanCompilerOptions {
  /** Full-text search; without it a plan with a search node is unsupported. */
  readonly search?: SearchCompilerLike
  /** The seed of a sample that has none (a new one per query by default; tests fix it). */
  readonly newSampleSeed?: () => string
  /**
   * The catalog was opened in `narrow` mode: statements run on the serving database's narrow tables (the
   * entity tables without their `record` column, which no statement reads) instead of the Parquet views.
   */
  readonly narrowTables?: boolean
  /**
   * The catalog's id order (`catalogIdOrder`): a sort's id tiebreak and the row numbers of the narrow tables
   * follow it. Default `by-number`; catalogs of format 7 and earlier are `by-text`.
   */
  readonly idOrder?: CatalogIdOrder
  /**
   * In `narrow` mode, the SQL of a narrow table's row number (`readNarrowRowNumber`; default the quoted
   * `NARROW_ROW_COLUMN`): `rowid` in a serving database built before the column.
   */
  readonly narrowRowNumber?: string
  /** The entities whose narrow tables hold the search index's number of each row (`searchDocEntities`). */
  readonly searchDocEntities?: ReadonlySet<CatalogEntity>
  /**
   * The link tables (by view name) whose extremes the serving database's `works__narrow` holds as columns
   * (`readLinkExtremeColumns`), which a sort by a link's column reads in `narrow` mode; without them, the
   * sort takes each work's extreme from the link rows.
   */
  readonly linkExtremes?: ReadonlySet<string>
  /**
   * The catalog's external ids carry each record's location (`readExternalIdLocations`): a singleton by an
   * external id reads its record at once instead of looking up the id again.
   */
  readonly locatedExternalIds?: boolean
  /**
   * Semantic search over the catalog's vectors (loaded as `work_vectors`), `dimensions` wide; without it a
   * plan with a semantic search node is unsupported.
   */
  readonly semantic?: { readonly dimensions: number }
  /** Why full-text search cannot run, when the catalog records an index this version cannot read. */
  readonly searchUnavailable?: string
  /** Why semantic search is unavailable, when the catalog has vectors but nothing to embed queries with. */
  readonly semanticUnavailable?: string
}

/** One of the works a semantic search found: its id and cosine. */
export interface SemanticMatch {
  readonly doc: string
  readonly score: number
}

/**
 * What a plan's semantic searches need to compile: the works each found, by its text. The adapter finds them
 * before compiling (embedding the text may wait on a server; the scan runs once per request, so the count
 * and the page do not both pay for it).
 */
export interface SemanticInputs {
  readonly matches?: ReadonlyMap<string, readonly SemanticMatch[]>
  /**
   * Every work's id is a plain numbered letter id of one letter (`PLAIN_LETTER_ID_PATTERN`), so the works found join the
   * narrow table's rows on the number in their id (`SEARCH_DOC_COLUMN`), an integer its zone maps find, rather
   * than on the id's text, which every row of the table is read for (24 against 94 ms a page at 10M rows).
   */
  readonly numberedIds?: boolean
}

/**
 * A semantic search of a plan as the adapter runs it: its text, and the statement listing the works the
 * rest of the query keeps, in id order (null when every work is a candidate).
 */
export interface SemanticSearchTask {
  readonly text: string
  readonly candidates: SqlStatement | null
}

/**
 * The works a semantic search found, as a relation of constants bound as parameters, one row per work (the
 * statement may join it: a work found twice must not become two rows).
 */
