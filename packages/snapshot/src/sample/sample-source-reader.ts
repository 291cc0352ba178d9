// Reads the shared OpenAlex sample (`data/openalex-sample/` in the shared data): the real records, one JSON
// object per line, the lookup vocabularies and the real merged-ids files.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  compareOpenAlexIds,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  NATIVE_ENTITIES,
  type NativeEntity,
  VOCABULARY_ENTITIES,
  type VocabularyEntity,
} from './openalex-id-classifier.ts'

/** One real record: the line exactly as the records file holds it, and its parsed value. */
export interface RealRecord {
  readonly entity: NativeEntity
  readonly id: string
  readonly line: string
  readonly record: JsonObject
}

export interface VocabularyValue {
  readonly id: string
  readonly display_name: string
}

export interface MergedIdsFile {
  /** Path relative to the merged_ids directory, e.g. `authors/2023-04-13.csv`. */
  readonly path: string
  readonly content: Buffer
}

export interface SampleSource {
  readonly records: ReadonlyMap<NativeEntity, readonly RealRecord[]>
  readonly vocabularies: ReadonlyMap<VocabularyEntity, readonly VocabularyValue[]>
  readonly mergedIds: readonly MergedIdsFile[]
}

export function readSampleSource(sourceDir: string): SampleSource {
  const records = new Map<NativeEntity, RealRecord[]>()
  for (const entity of NATIVE_ENTITIES) {
    records.set(entity, readRecordsFile(join(sourceDir, 'records', `${entity}.jsonl`), entity))
  }
  const vocabularies = new Map<VocabularyEntity, VocabularyValue[]>()
  for (const entity of VOCABULARY_ENTITIES) {
    vocabularies.set(entity, readVocabularyFile(join(sourceDir, 'vocabularies', `${entity}.json`)))
  }
  return { records, vocabularies, mergedIds: readMergedIds(join(sourceDir, 'merged_ids')) }
}

function readRecordsFile(path: string, entity: NativeEntity): RealRecord[] {
  const out: RealRecord[] = []
  const lines = readFileSync(path, 'utf8').split('\n')
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue
    const record = JSON.parse(line) as JsonValue
    if (!isJsonObject(record) || typeof record.id !== 'string') {
      throw new Error(`${path}:${index + 1}: not a record with a string id`)
    }
    if (typeof record.updated_date !== 'string') {
      throw new Error(`${path}:${index + 1}: record ${record.id} has no updated_date`)
    }
    out.push({ entity, id: record.id, line, record })
  }
  return out.sort((a, b) => compareOpenAlexIds(a.id, b.id))
}

function readVocabularyFile(path: string): VocabularyValue[] {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as JsonValue
  if (!Array.isArray(parsed)) throw new Error(`${path}: expected a JSON array`)
  return parsed.map((value, index) => {
    if (!isJsonObject(value) || typeof value.id !== 'string' || typeof value.display_name !== 'string') {
      throw new Error(`${path}[${index}]: expected {"id", "display_name"}`)
    }
    return { id: value.id, display_name: value.display_name }
  })
}

function readMergedIds(dir: string): MergedIdsFile[] {
  const out: MergedIdsFile[] = []
  for (const entity of readdirSync(dir, { withFileTypes: true })) {
    if (!entity.isDirectory()) continue
    for (const file of readdirSync(join(dir, entity.name)).sort()) {
      if (!file.endsWith('.csv') && !file.endsWith('.csv.gz')) continue
      out.push({ path: `${entity.name}/${file}`, content: readFileSync(join(dir, entity.name, file)) })
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
