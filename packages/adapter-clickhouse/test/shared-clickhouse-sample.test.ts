// The shared chdb stand-in and the sample in it (test/support), loaded once per test run and copied into each
// vitest worker's stand-in: a server of a file's own at another data directory takes the process's chdb (it
// binds one directory per process), and the shared one comes back afterwards at its own directory with the
// sample still there, neither loaded nor copied again.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { readCatalogManifest } from '@oqlkit/catalog'
import { afterAll, describe, expect, it } from 'vitest'
import { servedVersion } from '../src/catalog-versions.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { startChdbHttpServer } from './support/chdb-http-server.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-shared-chdb-test-'))
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

/** The served version's database and its works, counted, through a client of its own. */
const servedWorks = async (url: string, catalog: string) => {
  const client = createClient({ url })
  try {
    const version = await servedVersion(client, catalog)
    if (version === undefined) return undefined
    const result = await client.query({
      query: `SELECT count() AS n FROM \`${version.database}\`.works`,
      format: 'JSONEachRow',
    })
    const [{ n }] = (await result.json()) as [{ n: string }]
    return { database: version.database, works: Number(n) }
  } finally {
    await client.close()
  }
}

onChdb('the sample in the shared chdb stand-in (test support)', () => {
  it('is loaded once, and is still there after a server of its own took chdb in between', async () => {
    const first = await sharedClickHouseSample()
    const read = await readCatalogManifest(first.catalogDir)
    if (!read.ok) throw new Error(read.message)
    const works = read.manifest.entities.works.rowCount
    expect(await servedWorks(first.url, first.catalog)).toEqual({ database: first.database, works })
    // The same load for every caller of the process, and of the run: the catalog it was loaded from is the
    // run's, in a folder named after the run (the vitest main process and the run's id).
    expect(await sharedClickHouseSample()).toEqual(first)
    expect(first.catalogDir).toBe(
      join(tmpdir(), `oqlkit-clickhouse-sample-${process.ppid}-${process.env.OQLKIT_TEST_RUN}`, 'catalog'),
    )

    const own = await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
    try {
      // A fresh engine at its own directory: nothing of the shared one is there.
      expect(await servedWorks(own.url, first.catalog)).toBeUndefined()
      // The shared server gave way to it (the refused connection is the point: not logged).
      const gone = createClient({ url: first.url, log: { level: ClickHouseLogLevel.OFF } })
      expect(await gone.ping()).toMatchObject({ success: false })
      await gone.close()
    } finally {
      await own.close()
    }

    const again = await sharedClickHouseSample()
    expect(again.url).not.toBe(first.url)
    expect({ ...again, url: first.url }).toEqual(first)
    expect(await servedWorks(again.url, again.catalog)).toEqual({ database: first.database, works })
  }, 240_000)
})
