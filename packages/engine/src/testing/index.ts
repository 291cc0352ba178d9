// Test helpers for storage adapters: the conformance suite every adapter must pass, and the reference
// evaluator it checks answers with. Import from `@oqlkit/engine/testing`; it needs vitest and fast-check,
// which are dev dependencies.
export { describeAdapterConformance } from './adapter-conformance.ts'
export { type CollectionStoreHarness, describeCollectionStoreContract } from './collection-store-contract.ts'
export {
  type ConformanceFixture,
  leaf as leafFilter,
  not as notFilter,
  or as orFilter,
  planOf,
} from './conformance-suite.ts'
export { describeKeyStoreConformance, type KeyStoreUnderTest } from './key-store-conformance.ts'
export { describeMeterStoreConformance, type MeterStoreUnderTest } from './meter-store-conformance.ts'
export {
  idKey,
  lastSegment,
  matchesFilter,
  type ReferenceContext,
  ReferenceEvaluatorError,
  referenceGroupKey,
  referenceGroups,
  referenceOrder,
  referenceRows,
  shortIdOf,
  valuesAt,
} from './reference-evaluator.ts'
