// The bundled sample for the query tests: its records read straight from the part files (@oqlkit/ingest's
// fixtures, not the code under test), and a catalog ingested from it for each test file, in a temporary folder
// of its own, opened through the adapter and as a raw DuckDB connection.
import { join } from 'node:path'
import { readCatalogManifest, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { copyOfSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll } from 'vitest'
import { tablesInServingDatabase } from '../src/query/catalog-table-relations.ts'
import { catalogViewStatements } from '../src/query/catalog-view-statements.ts'
import { SERVING_DATABASE_NAME } from '../src/query/catalog-views.ts'
import { createDuckDbAdapter, type DuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../src/query/duckdb-driver.ts'

export { readSampleMergedAuthors, readSampleRecords } from '@oqlkit/ingest/test-support'

/**
 * The sample ingested, in a fresh temporary folder of the calling file's own (a copy of the catalog the run
 * ingests once); `dispose` removes it.
 */
export const ingestSampleCatalog = copyOfSampleCatalog

/**
 * The sample catalog opened two ways for one test file: through the adapter, and as a raw DuckDB
 * connection over the same tables, for tests that compare the adapter with SQL of their own. The
 * hooks are registered for the calling file; the fields are set once `beforeAll` has run.
 */
export function useSampleCatalogConnections(): {
  readonly adapter: DuckDbAdapter
  readonly db: DuckDbConnectionLike
} {
  const opened = {} as { adapter: DuckDbAdapter; db: DuckDbConnectionLike; dispose: () => void }
  beforeAll(async () => {
    const catalog = await ingestSampleCatalog()
    opened.dispose = catalog.dispose
    // In memory, as the raw connection's tables are: the tests run the page statements the adapter compiles
    // on that connection, and a page of the narrow tables names rows by number, not by id.
    opened.adapter = await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'tables' })
    const manifest = await readCatalogManifest(catalog.catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    // A catalog that keeps its tables in its serving database is read from it.
    opened.db = await openDuckDbDatabase({
      threads: 1,
      connections: 1,
      ...(tablesInServingDatabase(manifest.manifest)
        ? { attach: { path: join(catalog.catalogDir, SERVING_DATABASE_FILE), name: SERVING_DATABASE_NAME } }
        : {}),
    })
    for (const statement of catalogViewStatements(catalog.catalogDir, manifest.manifest, 'tables'))
      await opened.db.all(statement)
  })
  afterAll(async () => {
    await opened.adapter?.close()
    await opened.db?.close()
    opened.dispose?.()
  })
  return opened
}
