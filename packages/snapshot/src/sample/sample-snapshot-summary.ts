// What a sample snapshot build reports: per entity, the records by origin, the files and bytes, and what the
// closure could not resolve. The builder produces it and the README renderer reads it; neither imports the other.
import type { SnapshotEntity } from './openalex-id-classifier.ts'

export interface EntitySummary {
  readonly entity: SnapshotEntity
  /** Real records that a work (or a derived record) references. */
  readonly realReferenced: number
  /** Real records kept although no work references them. */
  readonly realUnreferenced: number
  /** Records derived from embedded objects. */
  readonly derived: number
  /** Records built from the vocabulary lists. */
  readonly vocabulary: number
  readonly total: number
  readonly parts: number
  readonly bytes: number
}

export interface SampleSnapshotSummary {
  readonly asOf: string
  readonly recordsPerPart: number
  readonly entities: readonly EntitySummary[]
  readonly totalRecords: number
  readonly totalBytes: number
  readonly mergedIdsFiles: readonly string[]
  /** Derived records whose display_name no embedded object states, by entity. */
  readonly derivedWithoutName: Readonly<Partial<Record<SnapshotEntity, number>>>
  /** Ids that real non-work records reference and the snapshot has no record for, by entity. */
  readonly danglingFromRealRecords: Readonly<Partial<Record<SnapshotEntity, number>>>
  /** Values the works use anywhere that the vocabularies do not list, with the number of works using each. */
  readonly outOfVocabulary: ReadonlyArray<{ readonly id: string; readonly works: number }>
  /** Vocabulary records left without a parent link because no topic object states it. */
  readonly subfieldsWithoutField: number
  readonly fieldsWithoutDomain: number
  readonly hierarchyConflicts: number
}
