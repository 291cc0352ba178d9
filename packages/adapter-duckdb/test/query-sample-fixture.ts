// The bundled sample snapshot for the query tests: its records read straight from the part files (not through
// the code under test), and a catalog ingested from it for each test file, in a temporary folder of its own.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { readCatalogManifest } from '@oqlkit/catalog'
import type { EntityRecord } from '@oqlkit/engine'
import { afterAll, beforeAll } from 'vitest'
import { copyOfSampleCatalog } from '../../ingest/test/support/shared-sample-catalog.ts'
import { catalogViewStatements } from '../src/query/catalog-views.ts'
import { createDuckDbAdapter, type DuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../src/query/duckdb-driver.ts'

export const SAMPLE_SNAPSHOT_DIR = fileURLToPath(new URL('../../../data/sample-snapshot/', import.meta.url))

/** Every record of an entity folder of the sample, as ingest stores it (without `relevance_score`), by id. */
export function readSampleRecords(entity: string): EntityRecord[] {
  const entityDir = join(SAMPLE_SNAPSHOT_DIR, entity)
  if (!existsSync(entityDir)) return []
  const byId = new Map<string, Record<string, unknown>>()
  for (const partition of readdirSync(entityDir)
    .filter((name) => name.startsWith('updated_date='))
    .sort()) {
    for (const part of readdirSync(join(entityDir, partition)).sort()) {
      const text = gunzipSync(readFileSync(join(entityDir, partition, part))).toString('utf8')
      for (const line of text.split('\n')) {
        if (line === '') continue
        const { relevance_score: _dropped, ...record } = JSON.parse(line) as Record<string, unknown>
        byId.set(String(record.id), record)
      }
    }
  }
  return [...byId.values()]
}

/** The merged author ids of the sample (`merge_date,id,merge_into_id`), chains followed to the survivor. */
export function readSampleMergedAuthors(): { oldId: string; newId: string }[] {
  const dir = join(SAMPLE_SNAPSHOT_DIR, 'merged_ids', 'authors')
  const into = new Map<string, string>()
  for (const name of readdirSync(dir).filter((file) => statSync(join(dir, file)).isFile()))
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n').slice(1)) {
      const [, id, target] = line.trim().split(',')
      if (id !== undefined && target !== undefined && id !== '') into.set(id, target)
    }
  return [...into.keys()].map((oldId) => {
    let newId = into.get(oldId)!
    while (into.has(newId)) newId = into.get(newId)!
    return { oldId, newId }
  })
}

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
    opened.adapter = await createDuckDbAdapter({ catalogDir: catalog.catalogDir })
    const manifest = await readCatalogManifest(catalog.catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    opened.db = await openDuckDbDatabase({ threads: 1, connections: 1 })
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
