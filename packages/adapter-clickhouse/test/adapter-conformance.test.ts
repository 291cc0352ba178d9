// The ClickHouse adapter against the StorageAdapter conformance suite, unchanged, on the bundled sample
// catalog loaded into ClickHouse itself (chdb, the engine a server runs) behind the test stand-in for a
// server's HTTP interface; the suite's expected answers come from the sample's records read directly.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { describeAdapterConformance } from '@oqlkit/engine/testing'
import { readSampleMergedAuthors, readSampleRecords, sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll } from 'vitest'
import { loadCatalogIntoClickHouse } from '../src/catalog-loader.ts'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { type ChdbHttpServer, startChdbHttpServer } from './support/chdb-http-server.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-clickhouse-conformance-'))
let server: ChdbHttpServer | undefined
let client: ClickHouseClient | undefined
afterAll(async () => {
  await client?.close()
  await server?.close()
  rmSync(scratch, { recursive: true, force: true })
})

describeAdapterConformance(
  'ClickHouse over the sample catalog (chdb behind the test stand-in for its HTTP interface)',
  async () => {
    server = await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
    client = createClient({ url: server.url })
    await loadCatalogIntoClickHouse({ catalogDir: await sharedSampleCatalog(), client, catalog: 'sample' })
    return createClickHouseAdapter({ client, catalog: 'sample' })
  },
  {
    records: {
      works: readSampleRecords('works'),
      authors: readSampleRecords('authors'),
      sources: readSampleRecords('sources'),
      institutions: readSampleRecords('institutions'),
    },
    mergedIds: readSampleMergedAuthors().map((merged) => ({ entity: 'authors' as const, ...merged })),
  },
)
