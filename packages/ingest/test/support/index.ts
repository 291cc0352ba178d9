// @oqlkit/ingest's test fixtures, for the tests of other packages (`@oqlkit/ingest/test-support`, an export
// of the source condition only: it is never published). The sample catalog ingested once per run, the
// committed sample snapshot's records, snapshots written from records, a reader of a catalog's files, and a
// catalog whose search index carries a delta; a core catalog of a test's own records.
export { builtWorkspace } from './built-workspace.ts'
export { CatalogInspector } from './catalog-inspector.ts'
export { keepTablesAsFiles } from './catalog-table-files.ts'
export { ingestCoreFixture } from './core-catalog-fixture.ts'
export { isProcessRunning, type OncePerTestRun, oncePerTestRun } from './once-per-test-run.ts'
export { sampleSnapshotLines } from './sample-snapshot-lines.ts'
export {
  readSampleMergedAuthors,
  readSampleRecords,
  SAMPLE_SNAPSHOT_DIR,
  sampleConformanceFixture,
} from './sample-snapshot-records.ts'
export { giveWorksSearchDelta } from './search-delta-fixture.ts'
export { copyOfSampleCatalog, sharedSampleCatalog } from './shared-sample-catalog.ts'
export { author, type FixtureRecord, partsOf, work, writeLegacySnapshot } from './snapshot-fixtures.ts'
