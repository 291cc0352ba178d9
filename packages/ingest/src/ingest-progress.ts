// What ingest reports while it works (for the CLI's progress bar) and when it is done.
import type { CatalogEntity, SnapshotLayout } from '@oqlkit/catalog'

/** `scan` manifests checked; `read` part files streamed; `build` catalog files written; `commit` swapped in. */
export type IngestPhase = 'scan' | 'read' | 'build' | 'commit' | 'done'

export interface IngestProgress {
  readonly phase: IngestPhase
  /** Snapshot files (parts and id lists) read so far, of all. */
  readonly filesDone: number
  readonly filesTotal: number
  /** On-disk (compressed) bytes of the files read so far, of all: the steadiest measure for a bar. */
  readonly bytesDone: number
  readonly bytesTotal: number
  readonly recordsRead: number
  /** The records the snapshot's manifests state, or null when a part's count is not stated. */
  readonly recordsTotal: number | null
  /**
   * While parsing: the records this run parses a second (from its start, after the first seconds), and the
   * seconds the parse has left at that rate (null without `recordsTotal`). The build after it is not counted:
   * at 1M works it took about as long as the parse again (BENCHMARKS.md).
   */
  readonly recordsPerSecond: number | null
  readonly parseSecondsLeft: number | null
  /**
   * Part files whose parse is staged for good (in one transaction with a checkpoint): what a run stopped now
   * would not read again. `partsResumed` of them were parsed by a stopped run this one resumed.
   */
  readonly partsStaged: number
  readonly partsResumed: number
  readonly entity: CatalogEntity | null
  /** The file being read (absolute path), during `read`. */
  readonly file: string | null
  /** The catalog file being written (catalog-relative), during `build`. */
  readonly step: string | null
  readonly stepsDone: number
  readonly stepsTotal: number
}

export type IngestProgressListener = (event: IngestProgress) => void

export interface EntityIngestCounts {
  /** Records read from the snapshot. */
  readonly recordsRead: number
  /** Records that came from the catalog being updated. */
  readonly previousRecords: number
  /** Versions dropped because a newer version of the same id was kept. */
  readonly superseded: number
  /** Ids removed by a deletion. */
  readonly deleted: number
  /** Ids removed because they were merged into another id. */
  readonly merged: number
  /** Records in the catalog now. */
  readonly recordsWritten: number
}

export interface IngestSummary {
  readonly catalogDir: string
  readonly snapshotDir: string
  readonly layout: SnapshotLayout
  /** `created` a new catalog, `updated` an existing one with newer records, `replaced` one from scratch. */
  readonly mode: 'created' | 'updated' | 'replaced'
  readonly filesRead: number
  readonly bytesRead: number
  readonly recordsRead: number
  readonly recordsWritten: number
  /** Records whose `relevance_score` (a search-result property) was dropped. */
  readonly relevanceScoresDropped: number
  readonly entities: Readonly<Record<CatalogEntity, EntityIngestCounts>>
  readonly linkRows: number
  readonly externalIds: number
  readonly mergedIds: number
  readonly deletedIds: number
  /** The catalog folder's size on disk, every file in it (the search index and serving database too). */
  readonly catalogBytes: number
  readonly durationMs: number
  /** Part files a stopped run of the same ingest had parsed, which this run resumed from instead of reading. */
  readonly partsResumed: number
  /**
   * The trained models an update kept from the catalog rather than training again, each with the works
   * changed since it was trained (`texts/model-reuse-policy.ts`); empty when every model was trained here.
   */
  readonly modelsKept: { readonly lsa?: number; readonly textTagger?: number }
  readonly warnings: readonly string[]
}
