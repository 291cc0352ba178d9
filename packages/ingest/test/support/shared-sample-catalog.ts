// The bundled sample catalog, ingested once per test run and shared by every test file that reads it: the
// first file to need it builds it under a lock in a folder named after the vitest main process, the others
// wait for it. A file that changes a catalog (writes an index, swaps a folder) takes a copy of its own.
// Ingesting the sample costs 10-20 s on this 2-core machine; twenty files ingesting it again was most of
// the suite's time.
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import type { IngestProgress, IngestSummary } from '../../src/ingest-progress.ts'
import { ingestSnapshot } from '../../src/ingest-snapshot.ts'
import { oncePerTestRun } from './once-per-test-run.ts'

const PREFIX = 'oqlkit-sample-catalog-'
/** How long a file waits for another to finish building the catalog. */
const BUILD_WAIT_MS = 240_000

/** What the ingest that built the shared catalog said: its summary and every progress event, in order. */
export interface SampleIngestRecord {
  readonly summary: IngestSummary
  readonly events: readonly IngestProgress[]
}

const ingestRecordOf = (root: string): string => join(root, 'ingest.json')

/**
 * The shared catalog with what its ingest said, for the file that tests that ingest: the build is the same
 * one, so it is not run twice. (`summary.catalogDir` names the folder it was built in, before it was moved.)
 */
export async function sharedSampleIngest(): Promise<SampleIngestRecord & { readonly catalogDir: string }> {
  const catalogDir = await sharedSampleCatalog()
  const record = JSON.parse(
    readFileSync(ingestRecordOf(join(catalogDir, '..')), 'utf8'),
  ) as SampleIngestRecord
  return { ...record, catalogDir }
}

/** The folder of this run's sample catalog, built on first use. Read it; never change it. */
export async function sharedSampleCatalog(): Promise<string> {
  const root = await oncePerTestRun({
    prefix: PREFIX,
    doneFile: 'catalog/catalog.json',
    waitMs: BUILD_WAIT_MS,
    what: 'the shared sample catalog',
    work: async (root) => {
      const staging = join(root, `staging-${process.pid}`)
      rmSync(staging, { recursive: true, force: true })
      const events: IngestProgress[] = []
      const summary = await ingestSnapshot({
        snapshotDir: SAMPLE_SNAPSHOT_DIR,
        outDir: staging,
        mode: 'replace',
        onProgress: (event) => events.push(event),
      })
      writeFileSync(ingestRecordOf(root), JSON.stringify({ summary, events } satisfies SampleIngestRecord))
      // Last: the catalog's catalog.json is what says it is done.
      renameSync(staging, join(root, 'catalog'))
    },
  })
  return join(root, 'catalog')
}

/** A copy of this run's sample catalog in a fresh temporary folder, for a file that changes it; `dispose` removes it. */
export async function copyOfSampleCatalog(): Promise<{ catalogDir: string; dispose: () => void }> {
  const shared = await sharedSampleCatalog()
  const root = mkdtempSync(join(tmpdir(), 'oqlkit-query-'))
  const catalogDir = join(root, 'catalog')
  cpSync(shared, catalogDir, { recursive: true })
  return { catalogDir, dispose: () => rmSync(root, { recursive: true, force: true }) }
}
