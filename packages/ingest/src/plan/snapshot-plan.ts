// What an ingest is going to read, worked out (and checked against the manifests) before any record is
// read: the part files per entity in the order that makes later partitions win, and the id lists.
import type { CatalogEntityInfo, SnapshotLayout } from '@oqlkit/catalog'

export interface SnapshotPart {
  readonly entity: CatalogEntityInfo
  /** Absolute path. */
  readonly path: string
  /** Path relative to the layout root, with `/` separators, as the manifest names it. */
  readonly relativePath: string
  readonly format: 'jsonl' | 'parquet'
  /** The `updated_date=YYYY-MM-DD` partition, or null for a file outside partitions. */
  readonly partitionDate: string | null
  readonly bytes: number
  /** The manifest's record_count for the file, when it states one. */
  readonly expectedRecords: number | null
  readonly manifestPath: string
  /** The line of the manifest entry, when it can be found. */
  readonly manifestLine: number | undefined
}

export interface SnapshotIdFile {
  readonly kind: 'merged' | 'deleted'
  readonly entity: CatalogEntityInfo
  readonly path: string
  readonly bytes: number
  /** The date in the file name (`merged_ids/authors/2023-04-13.csv`), used when rows carry none. */
  readonly fileDate: string | null
}

export interface SnapshotPlan {
  readonly layout: SnapshotLayout
  readonly snapshotDir: string
  /** The folder that holds the entity folders. */
  readonly root: string
  /** Sorted by entity (catalog order), then partition date, then path: later files win ties. */
  readonly parts: readonly SnapshotPart[]
  readonly idFiles: readonly SnapshotIdFile[]
  /** Things skipped on purpose (unknown folders), for the summary. */
  readonly warnings: readonly string[]
}
