// A singleton by an external id (a DOI, an ORCID) in `narrow` mode reads the record's location beside the
// external id in the serving database: one statement, where it took a second lookup by id; a serving
// database built before the locations is looked up by id as before. The real sample catalog and DuckDB.

import { join } from 'node:path'
import { RecordStoreReader, readCatalogManifest, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import type { LookupResult } from '@oqlkit/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogViewStatements } from '../src/query/catalog-view-statements.ts'
import { readExternalIdLocations, SERVING_DATABASE_NAME } from '../src/query/catalog-views.ts'
import { createDuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../src/query/duckdb-driver.ts'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { storeRecordFetcher } from '../src/query/record-fetcher.ts'
import { findEntityByExternalId } from '../src/query/singleton-lookup.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

const LOOKUPS = [
  { entity: 'works', scheme: 'doi', value: '10.7717/peerj.4375' },
  { entity: 'works', scheme: 'doi', value: 'https://doi.org/10.7717/PEERJ.4375' },
  { entity: 'works', scheme: 'doi', value: '10.0000/not-in-this-catalog' },
] as const

let catalog: { catalogDir: string; dispose: () => void }
let older: { catalogDir: string; dispose: () => void }

beforeAll(async () => {
  catalog = await ingestSampleCatalog()
  older = await ingestSampleCatalog()
  // As a serving database built before the locations: its external ids without them.
  const instance = await createDuckDbInstance(join(older.catalogDir, SERVING_DATABASE_FILE))
  const connection = await instance.connect()
  await connection.run(
    'CREATE TABLE external_ids_older AS SELECT * EXCLUDE (record_offset, record_bytes) FROM external_ids',
  )
  await connection.run('DROP TABLE external_ids')
  await connection.run('ALTER TABLE external_ids_older RENAME TO external_ids')
  await connection.run('CREATE INDEX external_ids_value ON external_ids ("value")')
  connection.closeSync()
  instance.closeSync()
}, 240_000)

afterAll(() => {
  catalog?.dispose()
  older?.dispose()
})

const found = (result: LookupResult) => (result.status === 'found' ? result.record.id : result.status)

describe('singletons by an external id in narrow mode', () => {
  it('read the record from the location beside the external id, in one statement', async () => {
    const manifest = await readCatalogManifest(catalog.catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    const db = await openDuckDbDatabase({
      threads: 1,
      attach: { path: join(catalog.catalogDir, SERVING_DATABASE_FILE), name: SERVING_DATABASE_NAME },
    })
    const reader = new RecordStoreReader(catalog.catalogDir, manifest.manifest)
    try {
      for (const statement of catalogViewStatements(catalog.catalogDir, manifest.manifest, 'narrow'))
        await db.all(statement)
      expect(await readExternalIdLocations(db, SERVING_DATABASE_NAME)).toBe(true)
      // The real connection, each statement it is given written down.
      const statements: string[] = []
      const recorded: DuckDbConnectionLike = {
        all: (sql, params) => {
          statements.push(sql)
          return db.all(sql, params)
        },
        close: () => db.close(),
      }
      const result = await findEntityByExternalId(
        {
          db: recorded,
          fetchRecords: storeRecordFetcher(reader),
          narrowTables: true,
          locatedExternalIds: true,
        },
        'works',
        'doi',
        '10.7717/peerj.4375',
      )
      expect(found(result)).toBe('https://openalex.org/W2741809807')
      expect(statements).toHaveLength(1)
    } finally {
      await reader.close()
      await db.close()
    }
  })

  it('answer as the in-memory tables do, with and without the locations', async () => {
    const tables = await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'tables', threads: 1 })
    const narrow = await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'narrow', threads: 1 })
    const before = await createDuckDbAdapter({ catalogDir: older.catalogDir, load: 'narrow', threads: 1 })
    try {
      for (const { entity, scheme, value } of LOOKUPS) {
        const expected = found(await tables.findByExternalId(entity, scheme, value))
        expect(found(await narrow.findByExternalId(entity, scheme, value)), value).toBe(expected)
        expect(found(await before.findByExternalId(entity, scheme, value)), value).toBe(expected)
      }
    } finally {
      await tables.close()
      await narrow.close()
      await before.close()
    }
  })
})
