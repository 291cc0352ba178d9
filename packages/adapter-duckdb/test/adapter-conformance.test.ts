// The DuckDB adapter against the StorageAdapter conformance suite, on a catalog ingested from the bundled
// sample snapshot; the suite's expected answers come from the sample's records read directly.
import { describeAdapterConformance } from '@oqlkit/engine/testing'
import { afterAll } from 'vitest'
import { createDuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { ingestSampleCatalog, readSampleMergedAuthors, readSampleRecords } from './query-sample-fixture.ts'

const catalog = ingestSampleCatalog()
afterAll(async () => (await catalog).dispose())

const fixture = {
  records: {
    works: readSampleRecords('works'),
    authors: readSampleRecords('authors'),
    sources: readSampleRecords('sources'),
    institutions: readSampleRecords('institutions'),
  },
  mergedIds: readSampleMergedAuthors().map((merged) => ({ entity: 'authors' as const, ...merged })),
}

// Every way of opening a catalog: tables loaded at open (what small catalogs get), views over Parquet, and
// views plus the serving database attached read-only (what large catalogs get).
for (const load of ['tables', 'views', 'narrow'] as const)
  describeAdapterConformance(
    `DuckDB over the sample catalog (${load})`,
    async () => createDuckDbAdapter({ catalogDir: (await catalog).catalogDir, threads: 2, load }),
    fixture,
  )
