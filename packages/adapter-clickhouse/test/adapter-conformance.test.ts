// The ClickHouse adapter against the StorageAdapter conformance suite, unchanged, on the bundled sample
// catalog loaded into ClickHouse itself (chdb, the engine a server runs) behind the test stand-in for a
// server's HTTP interface; the suite's expected answers come from the sample's records read directly.
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { describeAdapterConformance } from '@oqlkit/engine/testing'
import { sampleConformanceFixture } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe } from 'vitest'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { type SharedClickHouseSample, sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

let sample: SharedClickHouseSample
let client: ClickHouseClient | undefined
// Here, not in the suite's own hook: the first file of a run waits for the sample catalog's ingest, then its
// load into chdb, which can outlast the minute the suite gives its adapter to open.
beforeAll(async () => {
  sample = await sharedClickHouseSample()
}, 240_000)
afterAll(async () => {
  await client?.close()
})

// Skipped, hooks and all, where chdb is not installed (`support/chdb-availability.ts`).
describe.skipIf(!chdbInstalled())('on chdb', () => {
  describeAdapterConformance(
    'ClickHouse over the sample catalog (chdb behind the test stand-in for its HTTP interface)',
    async () => {
      client = createClient({ url: sample.url })
      return createClickHouseAdapter({ client, catalog: sample.catalog })
    },
    sampleConformanceFixture(),
  )
})
