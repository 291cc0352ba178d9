// A generated snapshot is one ingest reads: `oqlkit generate` writes the legacy layout, and ingest turns it
// into a catalog holding every record it wrote, with no warning. The generator's own checks are in
// packages/snapshot/test/generate-snapshot.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { generateSnapshot } from '@oqlkit/snapshot'
import { afterAll, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'

// Less than one of the generator's 512-work batches: what ingest must read does not grow with the works (every
// entity and the legacy layout are there at any count), and the vocabularies the generator writes whole are
// most of the records. With 2,000 works this file cost 16-18 s of CPU, with 500 about 12 s.
const N = 500

let root: string | undefined

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

/** Records in an entity's part files, counted from the files (not from the generator's summary). */
function recordsOnDisk(dataDir: string, entity: string): number {
  let count = 0
  for (const entry of readdirSync(join(dataDir, entity), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.gz')) continue
    const text = gunzipSync(readFileSync(join(dataDir, entity, entry))).toString('utf8')
    count += text.split('\n').filter((line) => line !== '').length
  }
  return count
}

it('reads a generated snapshot into a catalog with N works and every entity record', async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-generated-ingest-'))
  const summary = await generateSnapshot({ works: N, outDir: join(root, 'snapshot'), seed: 7 })
  const ingested = await ingestSnapshot({
    snapshotDir: summary.outDir,
    outDir: join(root, 'catalog'),
    // One parse worker and one DuckDB thread: what is read does not depend on them (ingest-sort-ranges.test.ts
    // compares builds on one and two threads), and the second worker cost ~2 s of CPU to start.
    threads: 1,
    // What a generated snapshot must get through is the core: records, links, ids. The search index, vectors
    // and tagger read the catalog, not the snapshot, and have tests of their own; building them here doubled
    // this test's time and took it past its limit on a busy machine (126 s).
    searchIndex: false,
    vectors: false,
    textTagger: false,
  })
  expect(ingested.layout).toBe('legacy')
  expect(ingested.entities.works.recordsWritten).toBe(N)
  expect(ingested.entities.authors.recordsWritten).toBe(recordsOnDisk(summary.dataDir, 'authors'))
  expect(ingested.entities.topics.recordsWritten).toBe(recordsOnDisk(summary.dataDir, 'topics'))
  expect(ingested.warnings).toEqual([])
}, 120_000)
