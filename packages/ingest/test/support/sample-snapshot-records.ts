// The committed sample snapshot's records, read straight from its part files (not through any code under
// test): what the tests of ingest, the catalog and both adapters compare their answers with.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { EntityRecord } from '@oqlkit/engine'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'

export { SAMPLE_SNAPSHOT_DIR }

/** Every record of an entity folder of the sample, as ingest stores it (without `relevance_score`), by id. */
export function readSampleRecords(entity: string): EntityRecord[] {
  const entityDir = join(SAMPLE_SNAPSHOT_DIR, entity)
  if (!existsSync(entityDir)) return []
  const byId = new Map<string, Record<string, unknown>>()
  for (const partition of readdirSync(entityDir)
    .filter((name) => name.startsWith('updated_date='))
    .sort()) {
    for (const part of readdirSync(join(entityDir, partition)).sort()) {
      const text = gunzipSync(readFileSync(join(entityDir, partition, part))).toString('utf8')
      for (const line of text.split('\n')) {
        if (line === '') continue
        const { relevance_score: _dropped, ...record } = JSON.parse(line) as Record<string, unknown>
        byId.set(String(record.id), record)
      }
    }
  }
  return [...byId.values()]
}

/** The merged author ids of the sample (`merge_date,id,merge_into_id`), chains followed to the survivor. */
export function readSampleMergedAuthors(): { oldId: string; newId: string }[] {
  const dir = join(SAMPLE_SNAPSHOT_DIR, 'merged_ids', 'authors')
  const into = new Map<string, string>()
  for (const name of readdirSync(dir).filter((file) => statSync(join(dir, file)).isFile()))
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n').slice(1)) {
      const [, id, target] = line.trim().split(',')
      if (id !== undefined && target !== undefined && id !== '') into.set(id, target)
    }
  return [...into.keys()].map((oldId) => {
    let newId = into.get(oldId)!
    while (into.has(newId)) newId = into.get(newId)!
    return { oldId, newId }
  })
}

/**
 * The adapter conformance suite's fixture for the sample catalog (`describeAdapterConformance` of
 * @oqlkit/engine/testing): the records its expected answers come from, and the merged author ids.
 */
export const sampleConformanceFixture = () => ({
  records: {
    works: readSampleRecords('works'),
    authors: readSampleRecords('authors'),
    sources: readSampleRecords('sources'),
    institutions: readSampleRecords('institutions'),
  },
  mergedIds: readSampleMergedAuthors().map((merged) => ({ entity: 'authors' as const, ...merged })),
})
