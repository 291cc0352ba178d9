// A few records served: a legacy snapshot of them written into `<dir>/snapshot` and ingested, core only (no search
// index, vectors or tag model: a second of work, not the several a full ingest of them takes), into
// `<dir>/catalog`. For the tests that need a catalog of their own records rather than the shared sample.
import { join } from 'node:path'
import { ingestSnapshot } from '../../src/ingest-snapshot.ts'
import { type FixturePart, writeLegacySnapshot } from './snapshot-fixtures.ts'

/** The folder of the core catalog of `parts` (and the merged ids' files, by entity and file name) under `dir`. */
export async function ingestCoreFixture(
  dir: string,
  parts: readonly FixturePart[],
  mergedIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
): Promise<string> {
  const snapshotDir = join(dir, 'snapshot')
  writeLegacySnapshot(snapshotDir, parts, mergedIds)
  const catalogDir = join(dir, 'catalog')
  await ingestSnapshot({
    snapshotDir,
    outDir: catalogDir,
    searchIndex: false,
    vectors: false,
    textTagger: false,
  })
  return catalogDir
}
