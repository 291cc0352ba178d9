// The public API of @oqlkit/oqo-schema: the OQO types and validators, canonicalisation, the
// properties registry and the value vocabularies. Pure: no `node:` imports, so it runs anywhere. The
// registry half (everything but validation) is also `@oqlkit/oqo-schema/registry`, which loads no arktype.

export { MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json.ts'
export { type CanonicalizeOptions, canonicalizeOqo, sortCanonicalOqo } from './canonicalize-oqo.ts'
export {
  type DiagnosticSeverity,
  formatPath,
  type OqoDiagnostic,
  VALIDATION_CODES,
  type ValidationCode,
} from './diagnostic.ts'
export { buildDiagnosticsRegistry, type DiagnosticsRegistryEntry } from './diagnostics-registry.ts'
export { buildOqoJsonSchema, OQO_SCHEMA_ID } from './oqo-json-schema.ts'
export {
  branchFilterValidator,
  CORPORA,
  type Corpus,
  groupByValidator,
  JOINS,
  LEGACY_VIEW_KEYS,
  leafFilterValidator,
  MAX_SAMPLE,
  oqoInputValidator,
  oqoValidator,
} from './oqo-validators.ts'
export { type EmbeddedView, type ReadOqoResult, readOqo } from './read-oqo.ts'
export * from './registry/index.ts'
export { MAX_FILTER_DEPTH, type OqoValidation, type ValidateOqoOptions, validateOqo } from './validate-oqo.ts'
