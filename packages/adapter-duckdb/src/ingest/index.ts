// Snapshot ingest: `ingestSnapshot` and what it reports.
export * from './ingest-error.ts'
export type * from './ingest-progress.ts'
export { type IngestOptions, ingestSnapshot } from './ingest-snapshot.ts'
export { DROPPED_RECORD_KEYS } from './snapshot-line-parser.ts'
