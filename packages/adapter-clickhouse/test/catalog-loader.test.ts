// Loading a catalog folder into ClickHouse: the bundled sample catalog, through @clickhouse/client over
// HTTP, into ClickHouse itself (chdb) behind the test stand-in for a server's HTTP interface. The catalogs are
// of format 9, whose entity, link and id tables are in the serving database alone: they are exported as
// Parquet files first (`exportCatalogTables`, as `oqlkit load` does) and the load is given their folder. The
// sample's load checked is the test run's own load of it (support/shared-clickhouse-sample.ts, which every
// ClickHouse test reads): the same step, 6-7 s of CPU, not run twice.
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { exportCatalogTables } from '@oqlkit/adapter-duckdb'
import { CATALOG_FORMAT_VERSION, type CatalogManifest, readCatalogManifest } from '@oqlkit/catalog'
import { ingestSnapshot } from '@oqlkit/ingest'
import { readSampleRecords, work, writeLegacySnapshot } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseLoadError, loadCatalogIntoClickHouse } from '../src/catalog-loader.ts'
import { listVersions, servedVersion } from '../src/catalog-versions.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { type ChdbHttpServer, startChdbHttpServer } from './support/chdb-http-server.ts'
import { sharedClickHouseSampleLoad } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-clickhouse-load-'))
let server: ChdbHttpServer | undefined
let client: ClickHouseClient
/**
 * A core catalog of twenty works, for the tests of versions and failed loads: a load of it takes 1.5 s where
 * the sample's takes 5.6 s, and what they check (which versions are kept, that a failure changes nothing
 * served) does not depend on what is loaded.
 */
let tinyDir: string
/** The tiny catalog's tables, exported as Parquet files in the catalog layout. */
let tinyTables: string
/** The run's load of the sample, which every ClickHouse test reads, and what it said. */
let sampleLoad: Awaited<ReturnType<typeof sharedClickHouseSampleLoad>>

const manifestOf = async (dir: string): Promise<CatalogManifest> => {
  const read = await readCatalogManifest(dir)
  if (!read.ok) throw new Error(read.message)
  return read.manifest
}

beforeAll(async () => {
  // The first file of a run waits here for the sample catalog's ingest, then its load into chdb.
  sampleLoad = await sharedClickHouseSampleLoad()
  const snapshotDir = join(scratch, 'tiny-snapshot')
  const works = Array.from({ length: 20 }, (_, at) => work(at + 1, '2025-01-01T00:00:00'))
  writeLegacySnapshot(snapshotDir, [{ entity: 'works', partition: '2025-01-01', content: works }])
  tinyDir = join(scratch, 'tiny')
  await ingestSnapshot({
    snapshotDir,
    outDir: tinyDir,
    searchIndex: false,
    vectors: false,
    textTagger: false,
  })
  tinyTables = join(scratch, 'tiny-tables')
  await exportCatalogTables(tinyDir, await manifestOf(tinyDir), tinyTables)
}, 240_000)

const clientOf = (url: string) =>
  createClient({ url, clickhouse_settings: { output_format_json_quote_64bit_integers: 1 } })

/**
 * Starts the file's own server, for the tests of versions and failed loads, once the sample's load has been
 * read from the shared one: chdb opens one data directory per process, and this one takes it.
 */
const ownServer = async () => {
  if (server !== undefined) return
  server = await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
  client = clientOf(server.url)
}

afterAll(async () => {
  await client?.close()
  await server?.close()
  rmSync(scratch, { recursive: true, force: true })
})

const rowsIn = async <T>(
  on: ClickHouseClient,
  query: string,
  query_params: Record<string, unknown> = {},
): Promise<T[]> => (await (await on.query({ query, query_params, format: 'JSONEachRow' })).json()) as T[]
const rowsOf = <T>(query: string, query_params: Record<string, unknown> = {}): Promise<T[]> =>
  rowsIn<T>(client, query, query_params)

onChdb('loading a catalog into ClickHouse (chdb behind the test stand-in for its HTTP interface)', () => {
  it('loads every table with the manifest row counts, records byte for byte, and serves the new version', async () => {
    // The run's load (`loadCatalogIntoClickHouse` given the tables `exportCatalogTables` wrote, and an
    // onProgress that kept every event) into a fresh chdb, copied into the shared stand-in read here.
    const { url, catalogDir, summary, progress } = sampleLoad
    const shared = clientOf(url)
    const rowsOf = <T>(query: string, query_params: Record<string, unknown> = {}) =>
      rowsIn<T>(shared, query, query_params)
    try {
      const manifest = await manifestOf(catalogDir)
      // Format 9: the tables' rows came from the exported files, the catalog lists none.
      expect(manifest.entities.works.files).toEqual([])
      expect(manifest.links['works-authors']!.files).toEqual([])
      expect(summary.database).toMatch(/^sample__v\d{8}_\d{6}_[0-9a-z]{4}$/)
      expect(summary.droppedVersions).toEqual([])
      const served = await servedVersion(shared, 'sample')
      expect(served?.database).toBe(summary.database)
      expect(served?.catalogCreatedAt).toBe(manifest.createdAt)
      expect(served?.entityRows.works).toBe(manifest.entities.works.rowCount)
      expect(served?.entityRows['work-types']).toBe(manifest.entities['work-types'].rowCount)
      const db = `\`${summary.database}\``
      const [works] = await rowsOf<{ n: string }>(`SELECT count() AS n FROM ${db}.works`)
      expect(Number(works!.n)).toBe(manifest.entities.works.rowCount)
      const [links] = await rowsOf<{ n: string }>(`SELECT count() AS n FROM ${db}.link_works_authors`)
      expect(Number(links!.n)).toBe(manifest.links['works-authors']!.rowCount)
      // Each record is the sample's record, and each entity row carries its derived columns.
      const expected = readSampleRecords('works')
      const stored = await rowsOf<{ id: string; record: string }>(
        `SELECT id, record FROM ${db}.works__records ORDER BY id`,
      )
      expect(stored).toHaveLength(expected.length)
      const byId = new Map(
        expected.map((record) => [String(record.id).replace('https://openalex.org/', ''), record]),
      )
      for (const row of stored) expect(JSON.parse(row.record)).toEqual(byId.get(row.id))
      const [first] = stored
      const [derived] = await rowsOf<{ publication_year: number; display_name: string }>(
        `SELECT publication_year, display_name FROM ${db}.works WHERE id = {id:String}`,
        { id: first!.id },
      )
      const record = byId.get(first!.id) as { publication_year: number; display_name: string }
      expect(derived).toEqual({
        publication_year: record.publication_year,
        display_name: record.display_name,
      })
      // Progress: every table reported, the last report of each its whole count.
      const tables = new Set(progress.map((event) => event.table))
      expect(tables.size).toBe(summary.tables)
      const lastOfWorks = progress.filter((event) => event.table === 'works__records').at(-1)
      expect(lastOfWorks?.rowsLoaded).toBe(manifest.entities.works.rowCount)
    } finally {
      await shared.close()
    }
  }, 180_000)

  it('keeps the version served before the newest and drops older ones', async () => {
    await ownServer()
    const tiny = { catalogDir: tinyDir, tableFiles: tinyTables, client, catalog: 'tiny' }
    const first = await loadCatalogIntoClickHouse(tiny)
    const second = await loadCatalogIntoClickHouse(tiny)
    const third = await loadCatalogIntoClickHouse(tiny)
    const versions = await listVersions(client, 'tiny')
    expect(versions.map((version) => version.database)).toEqual([third.database, second.database])
    expect(third.droppedVersions).toEqual([first.database])
    const databases = await rowsOf<{ name: string }>(
      "SELECT name FROM system.databases WHERE startsWith(name, 'tiny__v') ORDER BY name",
    )
    expect(databases.map((row) => row.name).sort()).toEqual([second.database, third.database].sort())
  }, 300_000)

  it('changes nothing served when the catalog is damaged, and drops what it loaded', async () => {
    await ownServer()
    const before = await servedVersion(client, 'tiny')
    expect(before).toBeDefined()
    const damaged = join(scratch, 'damaged-tables')
    cpSync(tinyTables, damaged, { recursive: true })
    truncateSync(join(damaged, 'links', 'works-authors.parquet'), 100)
    const failure = await loadCatalogIntoClickHouse({
      catalogDir: tinyDir,
      tableFiles: damaged,
      client,
      catalog: 'tiny',
    }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ClickHouseLoadError)
    expect((failure as ClickHouseLoadError).code).toBe('load_failed')
    expect((failure as Error).message).toContain('nothing served changed')
    expect(await servedVersion(client, 'tiny')).toEqual(before)
    const databases = await rowsOf<{ name: string }>(
      "SELECT name FROM system.databases WHERE startsWith(name, 'tiny__v')",
    )
    expect(databases).toHaveLength(2)
  }, 180_000)

  it('refuses a catalog whose tables are in its serving database alone (format 9 on) without its exported tables, saying what to pass, before it creates anything', async () => {
    await ownServer()
    const before = await servedVersion(client, 'tiny')
    const databases = async () =>
      (await rowsOf<{ name: string }>("SELECT name FROM system.databases WHERE startsWith(name, 'tiny__v')"))
        .length
    const count = await databases()
    const failure = await loadCatalogIntoClickHouse({ catalogDir: tinyDir, client, catalog: 'tiny' }).catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ClickHouseLoadError)
    expect(failure).toMatchObject({
      code: 'catalog_invalid',
      message: expect.stringMatching(
        new RegExp(
          `format ${CATALOG_FORMAT_VERSION}.*serving database.*exportCatalogTables.*tableFiles.*oqlkit load`,
        ),
      ),
    })
    // A folder that lacks one of the tables' files is refused the same way, naming it.
    const partial = join(scratch, 'partial-tables')
    cpSync(tinyTables, partial, { recursive: true })
    rmSync(join(partial, 'ids', 'merged-ids.parquet'))
    await expect(
      loadCatalogIntoClickHouse({ catalogDir: tinyDir, tableFiles: partial, client, catalog: 'tiny' }),
    ).rejects.toMatchObject({
      code: 'catalog_invalid',
      message: expect.stringContaining('holds no ids/merged-ids.parquet'),
    })
    expect(await servedVersion(client, 'tiny')).toEqual(before)
    expect(await databases()).toBe(count)
  })

  it('loads a format-8 catalog, which lists its tables’ files, from its own folder', async () => {
    await ownServer()
    // The tiny catalog as format 8 had it: each table's file in the catalog folder, listed in catalog.json.
    const format8 = join(scratch, 'format-8')
    cpSync(tinyDir, format8, { recursive: true })
    cpSync(tinyTables, format8, { recursive: true })
    const manifest = JSON.parse(readFileSync(join(format8, 'catalog.json'), 'utf8'))
    manifest.formatVersion = 8
    for (const [entity, table] of Object.entries<{ files: string[] }>(manifest.entities))
      table.files = [`entities/${entity}.parquet`]
    for (const [name, table] of Object.entries<{ files: string[] }>(manifest.links))
      table.files = [`links/${name}.parquet`]
    manifest.externalIds.files = ['ids/external-ids.parquet']
    manifest.mergedIds.files = ['ids/merged-ids.parquet']
    manifest.deletedIds.files = ['ids/deleted-ids.parquet']
    writeFileSync(join(format8, 'catalog.json'), JSON.stringify(manifest))
    // The folder of exported tables is not needed, nor read when given: an empty one changes nothing.
    const summary = await loadCatalogIntoClickHouse({
      catalogDir: format8,
      tableFiles: join(scratch, 'nothing-here'),
      client,
      catalog: 'format_8',
    })
    const [works] = await rowsOf<{ n: string }>(`SELECT count() AS n FROM \`${summary.database}\`.works`)
    expect(Number(works!.n)).toBe(20)
    expect((await servedVersion(client, 'format_8'))?.database).toBe(summary.database)
  }, 120_000)

  it('refuses a folder without a catalog, saying how to make one', async () => {
    await ownServer()
    await expect(
      loadCatalogIntoClickHouse({ catalogDir: join(scratch, 'nothing-here'), client, catalog: 'sample' }),
    ).rejects.toMatchObject({ code: 'catalog_invalid', message: expect.stringContaining('oqlkit ingest') })
  })
})
