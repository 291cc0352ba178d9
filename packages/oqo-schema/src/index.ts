// The public API of @oqlkit/oqo-schema: the OQO types and validators, canonicalisation, the
// properties registry and the value vocabularies. Pure: no `node:` imports, so it runs anywhere.

export { MAX_JSON_DEPTH, parseBoundedJson } from './bounded-json.ts'
export { type CanonicalizeOptions, canonicalizeOqo, isBranch } from './canonicalize-oqo.ts'
export {
  type DiagnosticSeverity,
  formatPath,
  type OqoDiagnostic,
  VALIDATION_CODES,
  type ValidationCode,
} from './diagnostic.ts'
export { buildDiagnosticsRegistry, type DiagnosticsRegistryEntry } from './diagnostics-registry.ts'
export { compareEntityIds, compareLetterIds } from './entity-id-order.ts'
export {
  COLLECTION_ENTITY_TYPES,
  ENTITY_TYPE_ALIASES,
  ENTITY_TYPES,
  type EntityPath,
  type EntityType,
  type EntityTypeAlias,
  entityPath,
  idPathSegment,
  isEntityType,
  NATIVE_ID_PREFIXES,
  type NativeEntityType,
  resolveEntityType,
  SERVED_ENTITY_TYPES,
} from './entity-types.ts'
export type {
  BranchFilter,
  EntityTypeName,
  Filter,
  GroupBy,
  LeafFilter,
  Operator,
  Oqo,
} from './oqo.generated.ts'
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
export { decodePercentEscapes } from './percent-decoding.ts'
export type { QueryView, SortDirection, SortTerm } from './query-view.ts'
export { type EmbeddedView, type ReadOqoResult, readOqo } from './read-oqo.ts'
export {
  type Column,
  type ColumnAction,
  columnAllows,
  columnCan,
  OPERATORS,
  type OperatorBucket,
  VALUE_KINDS,
  type ValueCasing,
  type ValueKind,
} from './registry/column.ts'
export {
  buildPropertiesPayload,
  type PropertiesPayload,
  type PropertyPayload,
} from './registry/properties-payload.ts'
export {
  columnsOf,
  findColumnsByWord,
  PropertiesRegistry,
  propertiesRegistry,
  type RegistryMeta,
  resolveColumn,
  suggestColumns,
} from './registry/properties-registry.ts'
export { closestMatches, similarity } from './string-similarity.ts'
export { MAX_FILTER_DEPTH, type OqoValidation, type ValidateOqoOptions, validateOqo } from './validate-oqo.ts'
export { COLLECTION_ID, parseNativeId } from './value-checks.ts'
export {
  bareVocabularyCode,
  findVocabularyEntry,
  isVocabularyEntityType,
  suggestVocabularyCode,
  VOCABULARY_ENTITY_TYPES,
  type VocabularyEntityType,
  type VocabularyEntry,
  vocabularyOf,
} from './vocabularies/vocabulary.ts'
