// The DuckDB adapter against the StorageAdapter conformance suite, on a catalog ingested from the bundled
// sample snapshot; the suite's expected answers come from the sample's records read directly.
import { describeAdapterConformance } from '@oqlkit/engine/testing'
import { sampleConformanceFixture } from '@oqlkit/ingest/test-support'
import { afterAll } from 'vitest'
import { createDuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

const catalog = ingestSampleCatalog()
afterAll(async () => (await catalog).dispose())

const fixture = sampleConformanceFixture()

// Both ways a catalog is opened: views over the serving database attached read-only, with its narrow tables
// (what `auto` opens), and tables copied into memory at open (asked for by name, and what `auto` gives a small
// catalog of a format from before the serving database). The third mode,
// plain views, is only ever asked for by name and reads the same serving database as `narrow` without its
// narrow tables (query-narrow-links.test.ts checks those against plain views); the whole suite a third time
// cost 9 s of CPU and tested no path of its own.
for (const load of ['tables', 'narrow'] as const)
  describeAdapterConformance(
    `DuckDB over the sample catalog (${load})`,
    async () => createDuckDbAdapter({ catalogDir: (await catalog).catalogDir, threads: 2, load }),
    fixture,
  )
