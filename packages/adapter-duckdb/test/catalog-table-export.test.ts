// The serving database holds every table of the catalog: the Parquet files written from it alone
// (`exportCatalogTables`) equal the files the build made it of (kept by `tableFilesDir`), row for row and in
// order, for every entity, link and id table of the sample, merges and deletions included.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type CatalogManifest,
  constantLiteral,
  DELETED_IDS_FILE,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  LINK_TABLES,
  linkFilePath,
  MERGED_IDS_FILE,
  readCatalogManifest,
} from '@oqlkit/catalog'
import { ingestSnapshot } from '@oqlkit/ingest'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../src/query/duckdb-driver.ts'
import { exportCatalogTables } from '../src/serving/catalog-table-exporter.ts'

let catalogDir: string
let dispose: () => void
let manifest: CatalogManifest
let exportDir: string
let db: DuckDbConnectionLike
const progress: string[] = []
let exported: readonly { path: string; rows: number }[]
let builtFiles: string
beforeAll(async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-export-catalog-'))
  dispose = () => rmSync(scratch, { recursive: true, force: true })
  catalogDir = join(scratch, 'catalog')
  builtFiles = join(scratch, 'tables')
  // The tables are the same whatever the extensions: a core build.
  await ingestSnapshot({
    snapshotDir: SAMPLE_SNAPSHOT_DIR,
    outDir: catalogDir,
    tableFilesDir: builtFiles,
    searchIndex: false,
    vectors: false,
    textTagger: false,
  })
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  manifest = read.manifest
  exportDir = mkdtempSync(join(tmpdir(), 'oqlkit-export-'))
  exported = await exportCatalogTables(catalogDir, manifest, exportDir, {
    onFile: (path) => progress.push(path),
  })
  db = await openDuckDbDatabase({ threads: 1, connections: 1 })
}, 240_000)
afterAll(async () => {
  await db?.close()
  if (exportDir !== undefined) rmSync(exportDir, { recursive: true, force: true })
  dispose?.()
})

/** The rows of a Parquet file, in file order, each as its JSON text (every column, in order). */
const rowsOf = async (path: string): Promise<string[]> =>
  (
    await db.all(`SELECT CAST(to_json(t) AS VARCHAR) AS row FROM read_parquet(${constantLiteral(path)}) AS t`)
  ).map((row) => String(row.row))

const paths = (): string[] => [
  ...Object.keys(manifest.entities).map((entity) => entityFilePath(entity as never)),
  ...LINK_TABLES.map((spec) => linkFilePath(spec.name)),
  EXTERNAL_IDS_FILE,
  MERGED_IDS_FILE,
  DELETED_IDS_FILE,
]

describe('the catalog tables written from the serving database', () => {
  it('are every file of the layout, each announced before it is written', () => {
    expect(progress.filter((path) => path !== '').sort()).toEqual(paths().sort())
  })

  it('are listed with the rows the manifest gives each table', () => {
    const rows = new Map(exported.map((file) => [file.path, file.rows]))
    expect(rows.get(entityFilePath('works'))).toBe(manifest.entities.works.rowCount)
    expect(rows.get(linkFilePath('works-authors'))).toBe(manifest.links['works-authors']?.rowCount)
    expect(rows.get(MERGED_IDS_FILE)).toBe(manifest.mergedIds.rowCount)
  })

  it('equal the files ingest wrote, row for row and in order', async () => {
    let compared = 0
    for (const path of paths()) {
      const written = await rowsOf(join(builtFiles, ...path.split('/')))
      const exported = await rowsOf(join(exportDir, ...path.split('/')))
      // External ids tie on (scheme, value) where two records share one: their file order is not defined.
      if (path === EXTERNAL_IDS_FILE) expect(exported.sort()).toEqual(written.sort())
      else expect({ path, rows: exported }).toEqual({ path, rows: written })
      compared += written.length
    }
    // The sample has works, links, external ids and merged ids: nothing compared empty by accident.
    expect(compared).toBeGreaterThan(10_000)
    expect((await rowsOf(join(exportDir, MERGED_IDS_FILE))).length).toBeGreaterThan(0)
    expect((await rowsOf(join(exportDir, linkFilePath('works-referenced-works')))).length).toBeGreaterThan(0)
  })
})
