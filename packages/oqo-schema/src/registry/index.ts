// `@oqlkit/oqo-schema/registry`: the OQO model without its validators — the query types, the entity types,
// the properties registry, the value vocabularies and the id forms. The planner, the catalog, the storage
// adapters and the generator only read queries that were validated elsewhere (or build none), and their
// worker threads start by importing this: arktype, which the validators are written in, costs 0.6-0.8 s of
// CPU to import, paid by every thread that loads it. The package's main entry re-exports all of this.

export { isBranch } from '../canonicalize-oqo.ts'
export { compareEntityIds, compareLetterIds } from '../entity-id-order.ts'
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
} from '../entity-types.ts'
export type {
  BranchFilter,
  EntityTypeName,
  Filter,
  GroupBy,
  LeafFilter,
  Operator,
  Oqo,
} from '../oqo.generated.ts'
export { decodePercentEscapes } from '../percent-decoding.ts'
export type { QueryView, SortDirection, SortTerm } from '../query-view.ts'
export { closestMatches, similarity } from '../string-similarity.ts'
export { COLLECTION_ID, parseNativeId } from '../value-checks.ts'
export {
  bareVocabularyCode,
  findVocabularyEntry,
  isVocabularyEntityType,
  suggestVocabularyCode,
  VOCABULARY_ENTITY_TYPES,
  type VocabularyEntityType,
  type VocabularyEntry,
  vocabularyOf,
} from '../vocabularies/vocabulary.ts'
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
} from './column.ts'
export { buildPropertiesPayload, type PropertiesPayload, type PropertyPayload } from './properties-payload.ts'
export {
  columnsOf,
  findColumnsByWord,
  PropertiesRegistry,
  propertiesRegistry,
  type RegistryMeta,
  resolveColumn,
  suggestColumns,
} from './properties-registry.ts'
