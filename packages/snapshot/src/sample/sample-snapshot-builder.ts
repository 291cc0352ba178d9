// Builds the bundled sample snapshot: every real work, a record for everything the works reference (the real
// record where the sample has one, otherwise one derived from the embedded objects), all real records of
// the other entities, and the vocabulary entities. Writes it in the legacy snapshot layout with a README.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildDerivedRecord } from './derived-record-builder.ts'
import { collectReferencedIds, ObservationIndex } from './embedded-observation-collector.ts'
import { type SnapshotLine, type WrittenEntity, writeEntity } from './legacy-snapshot-writer.ts'
import {
  classifyOpenAlexId,
  compareOpenAlexIds,
  type DerivableEntity,
  isDerivable,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  NATIVE_ENTITIES,
  type SnapshotEntity,
  VOCABULARY_ENTITIES,
  vocabularyUrl,
} from './openalex-id-classifier.ts'
import { SampleCounts } from './sample-count-calculator.ts'
import { renderSampleSnapshotReadme } from './sample-snapshot-readme-renderer.ts'
import type { EntitySummary, SampleSnapshotSummary } from './sample-snapshot-summary.ts'
import { type RealRecord, readSampleSource, type SampleSource } from './sample-source-reader.ts'
import { buildVocabularyRecords, TopicHierarchy } from './vocabulary-record-builder.ts'
import { vocabularyIdsUsedBy } from './vocabulary-usage-scanner.ts'

export interface BuildSampleSnapshotOptions {
  /** The shared sample directory holding `records/`, `vocabularies/` and `merged_ids/`. */
  readonly sourceDir: string
  /** Where the snapshot goes; replaced as a whole (it must be empty, absent or an earlier snapshot). */
  readonly outDir: string
  readonly recordsPerPart?: number
}

export const DEFAULT_RECORDS_PER_PART = 1000

export function buildSampleSnapshot(options: BuildSampleSnapshotOptions): SampleSnapshotSummary {
  const source = readSampleSource(options.sourceDir)
  const recordsPerPart = options.recordsPerPart ?? DEFAULT_RECORDS_PER_PART
  const model = assembleSnapshot(source)

  prepareOutDir(options.outDir)
  const written = new Map<SnapshotEntity, WrittenEntity>()
  for (const entity of [...NATIVE_ENTITIES, ...VOCABULARY_ENTITIES]) {
    written.set(
      entity,
      writeEntity(options.outDir, entity, model.lines.get(entity) ?? [], { recordsPerPart }),
    )
  }
  for (const file of source.mergedIds) {
    const target = join(options.outDir, 'merged_ids', ...file.path.split('/'))
    mkdirSync(join(target, '..'), { recursive: true })
    writeFileSync(target, file.content)
  }

  const entities = [...written.values()].map((entry): EntitySummary => {
    const kinds = model.kinds.get(entry.entity as SnapshotEntity) ?? emptyKinds()
    return {
      entity: entry.entity as SnapshotEntity,
      ...kinds,
      total: entry.recordCount,
      parts: entry.parts.length,
      bytes: entry.contentLength,
    }
  })
  const summary: SampleSnapshotSummary = {
    asOf: model.asOf,
    recordsPerPart,
    entities,
    totalRecords: entities.reduce((sum, entity) => sum + entity.total, 0),
    totalBytes: entities.reduce((sum, entity) => sum + entity.bytes, 0),
    mergedIdsFiles: source.mergedIds.map((file) => `merged_ids/${file.path}`),
    derivedWithoutName: model.derivedWithoutName,
    danglingFromRealRecords: model.dangling,
    outOfVocabulary: model.outOfVocabulary,
    subfieldsWithoutField: model.subfieldsWithoutField,
    fieldsWithoutDomain: model.fieldsWithoutDomain,
    hierarchyConflicts: model.hierarchyConflicts,
  }
  writeFileSync(join(options.outDir, 'README.md'), renderSampleSnapshotReadme(summary))
  return summary
}

interface Kinds {
  realReferenced: number
  realUnreferenced: number
  derived: number
  vocabulary: number
}

const emptyKinds = (): Kinds => ({ realReferenced: 0, realUnreferenced: 0, derived: 0, vocabulary: 0 })

interface SnapshotModel {
  readonly asOf: string
  readonly lines: Map<SnapshotEntity, SnapshotLine[]>
  readonly kinds: Map<SnapshotEntity, Kinds>
  readonly derivedWithoutName: Partial<Record<SnapshotEntity, number>>
  readonly dangling: Partial<Record<SnapshotEntity, number>>
  readonly outOfVocabulary: Array<{ id: string; works: number }>
  readonly subfieldsWithoutField: number
  readonly fieldsWithoutDomain: number
  readonly hierarchyConflicts: number
}

/** Decides which records the snapshot holds and builds the derived and vocabulary ones. */
function assembleSnapshot(source: SampleSource): SnapshotModel {
  const allReal: RealRecord[] = NATIVE_ENTITIES.flatMap((entity) => [...(source.records.get(entity) ?? [])])
  const realById = new Map<string, RealRecord>()
  for (const real of allReal) {
    if (classifyOpenAlexId(real.id) !== real.entity)
      throw new Error(`${real.id} is not an id of ${real.entity}`)
    if (realById.has(real.id)) throw new Error(`duplicate real record ${real.id}`)
    realById.set(real.id, real)
  }
  // Timestamps compare as text (ISO 8601); the newest one is the sample's as-of date.
  const asOf =
    allReal
      .map((real) => real.record.updated_date as string)
      .sort()
      .at(-1) ?? ''

  const works = source.records.get('works') ?? []
  const observations = new ObservationIndex()
  observations.collect(allReal)
  const counts = new SampleCounts(works.map((work) => work.record))
  const context = { observations, counts, asOf }

  // The closure: everything the works reference, then everything the derived records reference in turn.
  const queue: string[] = []
  for (const work of works) queue.push(...collectReferencedIds(work.record))
  const referencedReal = new Set<string>()
  const derived = new Map<string, { entity: DerivableEntity; record: JsonObject }>()
  const vocabularyIds = new Set(
    VOCABULARY_ENTITIES.flatMap((entity) =>
      (source.vocabularies.get(entity) ?? []).map((v) => vocabularyUrl(v.id)),
    ),
  )
  const missingVocabulary = new Set<string>()
  for (let index = 0; index < queue.length; index++) {
    const next = queue[index]!
    const entity = classifyOpenAlexId(next)
    if (entity === undefined || entity === 'works') continue
    if (!isDerivable(entity)) {
      if (!vocabularyIds.has(next)) missingVocabulary.add(next)
      continue
    }
    if (realById.has(next)) {
      referencedReal.add(next)
      continue
    }
    if (derived.has(next)) continue
    const record = buildDerivedRecord(entity, next, context)
    derived.set(next, { entity, record })
    queue.push(...collectReferencedIds(record))
  }
  if (missingVocabulary.size > 0) {
    throw new Error(
      `works reference vocabulary ids the lists lack: ${[...missingVocabulary].sort().join(', ')}`,
    )
  }

  const lines = new Map<SnapshotEntity, SnapshotLine[]>()
  const kinds = new Map<SnapshotEntity, Kinds>()
  const push = (entity: SnapshotEntity, line: SnapshotLine, kind: keyof Kinds): void => {
    const list = lines.get(entity)
    if (list) list.push(line)
    else lines.set(entity, [line])
    const tally = kinds.get(entity) ?? emptyKinds()
    tally[kind] += 1
    kinds.set(entity, tally)
  }
  for (const real of allReal) {
    const kind =
      real.entity === 'works' || referencedReal.has(real.id) ? 'realReferenced' : 'realUnreferenced'
    push(real.entity, { id: real.id, updatedDate: real.record.updated_date as string, line: real.line }, kind)
  }
  const derivedWithoutName: Partial<Record<SnapshotEntity, number>> = {}
  for (const [id, { entity, record }] of [...derived].sort(([a], [b]) => compareOpenAlexIds(a, b))) {
    push(entity, { id, updatedDate: asOf, line: JSON.stringify(record) }, 'derived')
    if (record.display_name === null) derivedWithoutName[entity] = (derivedWithoutName[entity] ?? 0) + 1
  }

  // The topic hierarchy, from every topic object in the real records (records in a fixed order).
  const hierarchy = new TopicHierarchy()
  for (const real of allReal) forEachObject(real.record, (object) => hierarchy.addTopic(object))
  const topics = [
    ...(source.records.get('topics') ?? []).map((real) => real.record),
    ...[...derived.values()].filter((entry) => entry.entity === 'topics').map((entry) => entry.record),
  ]
    .map((topic) => {
      const subfield = isJsonObject(topic.subfield) ? topic.subfield.id : undefined
      return {
        id: topic.id as string,
        display_name: topic.display_name ?? null,
        ...(typeof subfield === 'string' ? { subfield } : {}),
      }
    })
    .sort((a, b) => compareOpenAlexIds(a.id, b.id))
  const vocabularyContext = { vocabularies: source.vocabularies, counts, hierarchy, topics, asOf }
  let subfieldsWithoutField = 0
  let fieldsWithoutDomain = 0
  for (const entity of VOCABULARY_ENTITIES) {
    for (const record of buildVocabularyRecords(entity, vocabularyContext)) {
      push(entity, { id: record.id as string, updatedDate: asOf, line: JSON.stringify(record) }, 'vocabulary')
      if (entity === 'subfields' && record.field === undefined) subfieldsWithoutField += 1
      if (entity === 'fields' && record.domain === undefined) fieldsWithoutDomain += 1
    }
  }

  // Vocabulary values the works use that the lists lack (e.g. 2023 work types), and references from real
  // non-work records that the closure does not follow.
  const usage = new Map<string, number>()
  for (const work of works) {
    for (const id of vocabularyIdsUsedBy(work.record)) usage.set(id, (usage.get(id) ?? 0) + 1)
  }
  const outOfVocabulary = [...usage.keys()]
    .filter((id) => !vocabularyIds.has(id))
    .sort(compareOpenAlexIds)
    .map((id) => ({ id, works: usage.get(id)! }))
  const inSnapshot = new Set<string>([...realById.keys(), ...derived.keys(), ...vocabularyIds])
  const danglingIds = new Set<string>()
  for (const real of allReal) {
    if (real.entity === 'works') continue
    for (const id of collectReferencedIds(real.record)) {
      const entity = classifyOpenAlexId(id)
      if (entity !== undefined && entity !== 'works' && !inSnapshot.has(id)) danglingIds.add(id)
    }
  }
  const dangling: Partial<Record<SnapshotEntity, number>> = {}
  for (const id of danglingIds) {
    const entity = classifyOpenAlexId(id)!
    dangling[entity] = (dangling[entity] ?? 0) + 1
  }

  return {
    asOf,
    lines,
    kinds,
    derivedWithoutName,
    dangling,
    outOfVocabulary,
    subfieldsWithoutField,
    fieldsWithoutDomain,
    hierarchyConflicts: hierarchy.conflicts,
  }
}

function forEachObject(value: JsonValue, visit: (object: JsonObject) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) forEachObject(item, visit)
  } else if (isJsonObject(value)) {
    visit(value)
    for (const child of Object.values(value)) forEachObject(child, visit)
  }
}

/** Empties the output directory, refusing to touch a non-empty one that is not an earlier snapshot. */
function prepareOutDir(outDir: string): void {
  if (
    existsSync(outDir) &&
    readdirSync(outDir).length > 0 &&
    !existsSync(join(outDir, 'works', 'manifest'))
  ) {
    throw new Error(
      `${outDir} is not empty and does not hold a snapshot (no works/manifest); not replacing it`,
    )
  }
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
}
