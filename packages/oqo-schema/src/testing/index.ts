// Test helpers for packages that build on OQO: fast-check arbitraries for valid queries.
// Import from `@oqlkit/oqo-schema/testing`; it needs fast-check, which is a dev dependency.
export {
  filterArbitrary,
  leafArbitrary,
  type OqoArbitraryOptions,
  oqoArbitrary,
  valueArbitrary,
} from './oqo-arbitrary.ts'
