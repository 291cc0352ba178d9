// The on-disk layout of a catalog, as TypeScript types. The prose version, with the reasons, is README.md
// next to this file. A catalog is a folder:
//
//   catalog.json                         CatalogManifest (below)
//   catalog.duckdb                       the serving database, the only table store (format 9): narrow entity
//                                        tables, link tables by work row, external, merged and deleted ids,
//                                        with their indexes (query/catalog-views.ts)
//   records/<entity>.records             each record compressed alone, at the offset its row states
//   records/<entity>.dict                the preset dictionary the records of that entity were compressed with
//   search/                              the full-text search index (search/search-index-layout.ts)
//   vectors/, text-tagger/               the works' vectors and the tagging model
//
// Until format 8 the tables were also Parquet files, whose paths remain the layout's names for them (what
// `exportCatalogTables` and `oqlkit ingest --table-files` write):
//
//   entities/<entity>.parquet            one row per record: ids, derived columns, where its record is
//   links/works-<relation>.parquet       (key, work_id), sorted by key
//   ids/external-ids.parquet             (entity, scheme, value, id), sorted by scheme, value
//   ids/merged-ids.parquet               (entity, old_id, new_id, merge_date), sorted by entity, old_id
//   ids/deleted-ids.parquet              (entity, id, deleted_date), sorted by entity, id

import type { CatalogEntity } from './catalog-entities.ts'
import type { CatalogColumnType } from './entity-columns.ts'

export const CATALOG_FORMAT = 'oqlkit-catalog'
/** Bumped whenever a file, column or rule changes meaning; readers refuse other versions. */
export const CATALOG_FORMAT_VERSION = 10
/**
 * The versions this one reads and updates: 10, whose new record stores keep a work's abstract as its words
 * (codec `zstd+dictionary+abstract-words`; 10 exists so that an older oqlkit refuses such a catalog when it
 * opens it, not at its first record read); 9, whose tables are kept in the serving database alone (their
 * manifest entries list no file); 8, which also wrote them as Parquet files, and whose files and serving rows
 * are in id order with letter ids by number (`entity-id-order.ts`); 7, in the ids' text order, whose record
 * stores name their codec (zstd or deflate); and 6, whose stores are all deflate and otherwise 7. 7 exists so
 * that an oqlkit that knows only deflate refuses a catalog of zstd stores instead of appending deflated
 * records to one. An update writes 10, keeping each record store's codec.
 */
export const READABLE_CATALOG_FORMAT_VERSIONS = [6, 7, 8, 9, CATALOG_FORMAT_VERSION] as const
export type CatalogFormatVersion = (typeof READABLE_CATALOG_FORMAT_VERSIONS)[number]
export const CATALOG_MANIFEST_FILE = 'catalog.json'
/** The serving database: what `serve` attaches read-only instead of copying tables into memory. */
export const SERVING_DATABASE_FILE = 'catalog.duckdb'

export const ENTITIES_DIR = 'entities'
export const LINKS_DIR = 'links'
export const IDS_DIR = 'ids'
export const RECORDS_DIR = 'records'
/** Reserved for the search index; ingest never writes here and drops it on re-ingest (it must be rebuilt). */
export const SEARCH_DIR = 'search'

export const entityFilePath = (entity: CatalogEntity): string => `${ENTITIES_DIR}/${entity}.parquet`
export const recordStorePath = (entity: CatalogEntity): string => `${RECORDS_DIR}/${entity}.records`
export const recordDictionaryPath = (entity: CatalogEntity): string => `${RECORDS_DIR}/${entity}.dict`
export const linkFilePath = (name: string): string => `${LINKS_DIR}/${name}.parquet`
export const EXTERNAL_IDS_FILE = `${IDS_DIR}/external-ids.parquet`
export const MERGED_IDS_FILE = `${IDS_DIR}/merged-ids.parquet`
export const DELETED_IDS_FILE = `${IDS_DIR}/deleted-ids.parquet`

/** The layouts ingest reads: the pre-2026 flat JSON Lines layout, and the 2026 `jsonl/` and `parquet/` ones. */
export type SnapshotLayout = 'legacy' | 'jsonl' | 'parquet'

export interface CatalogColumn {
  readonly name: string
  readonly type: CatalogColumnType
  readonly description: string
}

/** One table of the catalog. */
export interface CatalogTable {
  /**
   * Its Parquet files, catalog-relative paths with `/` separators (format 8 and before), or none: since format
   * 9 every table is kept in the serving database alone (`exportCatalogTables` writes the files from it).
   */
  readonly files: readonly string[]
  readonly rowCount: number
  /** The columns the rows are sorted by, in order (what zone maps prune on). */
  readonly sortedBy: readonly string[]
  readonly columns: readonly CatalogColumn[]
}

/**
 * The records of one entity for random access: the API reads a page of 25 records by their offsets. It is the
 * only copy of the records (format 5; format 4 also kept them in a Parquet `record` column).
 */
export interface CatalogRecordStore {
  readonly file: string
  readonly dictionary: string
  readonly codec: string
}

export interface CatalogEntityTable extends CatalogTable {
  /** The newest `updated_date=` partition any kept record came from (for incremental sync), or null. */
  readonly latestPartitionDate: string | null
  readonly recordStore: CatalogRecordStore
}

export interface CatalogLinkTable extends CatalogTable {
  /** The entity the key column holds ids of. */
  readonly keyEntity: CatalogEntity
  readonly description: string
}

export interface CatalogFile {
  readonly path: string
  readonly bytes: number
  readonly rows: number
}

/** One ingest run that went into the catalog, oldest first. */
export interface CatalogIngestRecord {
  readonly at: string
  readonly snapshotDir: string
  readonly layout: SnapshotLayout
  readonly filesRead: number
  readonly recordsRead: number
  /** Which data the ingest read, so that answers can name it (absent from catalogs built before it was kept). */
  readonly snapshot?: SnapshotVersionRecord
}

/** The data an ingest read: the snapshot's date and a fingerprint of its manifests. */
export interface SnapshotVersionRecord {
  /** The newest `updated_date=` partition read (`YYYY-MM-DD`), or null when no part was in one. */
  readonly date: string | null
  /**
   * SHA-256 (hex) of the manifests naming the parts read, each as its path from the layout's root, a NUL, its
   * bytes and a NUL, in path order: the same snapshot gives the same digest wherever it lies.
   */
  readonly manifestsDigest: string
}

export interface CatalogManifest {
  readonly format: typeof CATALOG_FORMAT
  readonly formatVersion: CatalogFormatVersion
  readonly createdAt: string
  /** The layout of the snapshot read last. */
  readonly sourceLayout: SnapshotLayout
  readonly ingests: readonly CatalogIngestRecord[]
  readonly entities: Readonly<Record<CatalogEntity, CatalogEntityTable>>
  readonly links: Readonly<Record<string, CatalogLinkTable>>
  readonly externalIds: CatalogTable
  readonly mergedIds: CatalogTable
  readonly deletedIds: CatalogTable
  /** Every file of the catalog except catalog.json itself. */
  readonly files: readonly CatalogFile[]
  /**
   * Parts built on top of the catalog by later steps (the search index, vectors), keyed by name. Ingest
   * writes `{}`: those parts describe the records they were built from and must be rebuilt after an ingest.
   */
  readonly extensions: Readonly<Record<string, unknown>>
}

/** The columns every entity table starts with, before the derived ones. */
export const ENTITY_ID_COLUMNS: readonly CatalogColumn[] = [
  {
    name: 'id',
    type: 'VARCHAR',
    description: 'short id: W123, or the last path segment of a vocabulary id (US)',
  },
  {
    name: 'id_num',
    type: 'BIGINT',
    description: 'the number in the short id (W123 gives 123), null if none',
  },
  { name: 'openalex_id', type: 'VARCHAR', description: 'the id as the record states it (full URL)' },
]

/** The columns every entity table ends with. */
export const ENTITY_TAIL_COLUMNS: readonly CatalogColumn[] = [
  {
    name: 'partition_date',
    type: 'DATE',
    description: 'the updated_date= partition the record was read from (null for unpartitioned files)',
  },
  { name: 'updated_date', type: 'TIMESTAMP', description: 'the record’s updated_date' },
  {
    name: 'record_offset',
    type: 'BIGINT',
    description: 'where the record starts in records/<entity>.records',
  },
  { name: 'record_bytes', type: 'INTEGER', description: 'its compressed length there' },
]

export const LINK_COLUMNS: readonly CatalogColumn[] = [
  { name: 'key', type: 'VARCHAR', description: 'short id of the linked entity' },
  { name: 'work_id', type: 'VARCHAR', description: 'short id of the work' },
]

export const EXTERNAL_ID_COLUMNS: readonly CatalogColumn[] = [
  { name: 'entity', type: 'VARCHAR', description: 'entity type of the record' },
  { name: 'scheme', type: 'VARCHAR', description: 'doi, orcid, ror, issn, pmid, pmcid, mag or wikidata' },
  { name: 'value', type: 'VARCHAR', description: 'normalised id (lower case, no URL prefix)' },
  { name: 'id', type: 'VARCHAR', description: 'short OpenAlex id of the record' },
]

export const MERGED_ID_COLUMNS: readonly CatalogColumn[] = [
  { name: 'entity', type: 'VARCHAR', description: 'entity type' },
  { name: 'old_id', type: 'VARCHAR', description: 'short id that was merged away' },
  { name: 'new_id', type: 'VARCHAR', description: 'short id of the surviving record (chains resolved)' },
  { name: 'merge_date', type: 'DATE', description: 'date of the merge, null if unknown' },
]

export const DELETED_ID_COLUMNS: readonly CatalogColumn[] = [
  { name: 'entity', type: 'VARCHAR', description: 'entity type' },
  { name: 'id', type: 'VARCHAR', description: 'short id of the deleted record' },
  { name: 'deleted_date', type: 'DATE', description: 'date of the deletion, null if unknown' },
]
