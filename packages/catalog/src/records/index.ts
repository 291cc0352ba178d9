// `@oqlkit/catalog/records`: what reading one snapshot record takes — the entities' id forms, external ids,
// JSON paths and the record codec — without the query side (SQL compilation, search, vectors, the engine).
// Ingest's parse workers import this alone: each thread pays for every module it loads when it starts, and
// the package's main entry (which re-exports all of this) brings some 170 modules a parse never uses.

export {
  CATALOG_ENTITIES,
  CATALOG_ENTITY_NAMES,
  type CatalogEntity,
  type CatalogEntityInfo,
  catalogEntityInfo,
} from '../layout/catalog-entities.ts'
export type { ValueSource } from '../layout/entity-columns.ts'
export {
  BARE_ISSN_PATTERN,
  EXTERNAL_ID_SCHEME_NAMES,
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  isExternalIdScheme,
  normalizeExternalId,
} from '../layout/external-id-schemes.ts'
export {
  anyLetterId,
  fullOpenAlexId,
  LETTER_ID_PATTERN,
  PATH_ID_TAIL_PATTERN,
  pathIdTail,
  shortOpenAlexId,
} from '../layout/openalex-id-normalizer.ts'
export type { RecordPathColumn, RecordPathForm } from '../layout/record-path-columns.ts'
export {
  compileJsonPath,
  type JsonPathStep,
  jsonText,
  type PathCollector,
  parseJsonPath,
  valueAtPath,
} from './json-path-values.ts'
export {
  buildRecordDictionary,
  checkRecordCodecId,
  RECORD_CODEC_ID,
  RECORD_CODEC_IDS,
  type RecordCodecId,
  type RecordParts,
  recordCodecOf,
} from './record-codec.ts'
