// The public API of @oqlkit/snapshot: OpenAlex snapshots written without a database. The scale generator
// (synthetic snapshots of any size, `oqlkit generate`), the bundled sample snapshot and its builder, and the
// writer of the legacy layout (gzip part files and manifests) both use.
export type {
  GeneratedEntitySummary,
  GeneratePhase,
  GenerateProgress,
  GenerateProgressListener,
  GenerateSummary,
} from './generate/generate-progress.ts'
export {
  GENERATE_MANIFEST_FILE,
  GENERATED_VOCABULARIES,
  type GeneratedVocabulary,
  GenerateError,
  type GenerateErrorCode,
  type GenerateOptions,
  generateSnapshot,
  MAX_GENERATED_WORKS,
  THREADED_WORKS,
} from './generate/generate-snapshot.ts'
export { OPENALEX_TOTALS, type PoolSizes, poolSizes } from './generate/generation-plan.ts'
export { REAL_SAMPLE_SNAPSHOT_DIR, SAMPLE_SNAPSHOT_DIR } from './sample/bundled-sample-location.ts'
export {
  gzipDeterministic,
  renderManifest,
  SNAPSHOT_URL_PREFIX,
  type SnapshotLine,
  type WriteOptions,
  type WrittenEntity,
  type WrittenPart,
  writeEntity,
} from './sample/legacy-snapshot-writer.ts'
export { type BuildRealSampleOptions, buildRealSampleSnapshot } from './sample/real-sample-builder.ts'
export {
  type BuildSampleSnapshotOptions,
  buildSampleSnapshot,
  DEFAULT_RECORDS_PER_PART,
} from './sample/sample-snapshot-builder.ts'
export type { EntitySummary, SampleSnapshotSummary } from './sample/sample-snapshot-summary.ts'
