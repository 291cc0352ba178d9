// A catalog whose works index carries a delta, without an ingest: its last works by record offset are taken as
// an update's (`updateSearchIndex` with the works' kept offset set before them), so they are tokenized again
// into the delta and masked in the buckets. Their records are the same, so every search must answer as over the
// index before: what the readers of a delta (DuckDB's, ClickHouse's loader) are checked against.
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_MANIFEST_FILE,
  type CatalogEntity,
  readCatalogManifest,
  SEARCH_DIR,
  type SearchEntityIndex,
  searchIndexOf,
  withSearchIndex,
} from '@oqlkit/catalog'
import { updateSearchIndex } from '../../src/search/search-index-updater.ts'
import { connectionSession } from '../../src/texts/build-session.ts'
import { openCatalogEntityRows } from '../../src/texts/catalog-entity-rows.ts'
import { RecordTextsFiles } from '../../src/texts/record-texts-file.ts'

/**
 * Gives the catalog's works index a delta of the works whose records are the last `share` of the works'
 * record store; returns the number of works it holds.
 */
export async function giveWorksSearchDelta(catalogDir: string, share: number): Promise<number> {
  const delta = (await updateWorksSearchIndex(catalogDir, share)).delta
  if (delta === undefined) throw new Error('the works index was built whole, not given a delta')
  return delta.docs
}

/**
 * Updates the catalog's search index as an update that wrote the works whose records are the last `share` of
 * the works' record store would; returns the works' index as it then is (with a delta, or built whole past
 * the merge share).
 */
export async function updateWorksSearchIndex(
  catalogDir: string,
  share: number,
  /** The build folder (default `.delta-build` in the catalog); what is in it is overwritten. */
  outDir = join(catalogDir, '.delta-build'),
): Promise<SearchEntityIndex> {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  const index = searchIndexOf(read.manifest)
  if (index === undefined) throw new Error(`${catalogDir} has no search index`)
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  try {
    const session = connectionSession(connection)
    const works = (await openCatalogEntityRows(session, catalogDir, read.manifest)).of('works')
    const [cut] = await session.rows(`SELECT quantile_disc(record_offset, $1) AS offset FROM ${works}`, [
      1 - share,
    ])
    const keptBelow = new Map<CatalogEntity, number>()
    for (const [entity, table] of Object.entries(read.manifest.entities) as [
      CatalogEntity,
      (typeof read.manifest.entities)[CatalogEntity],
    ][])
      keptBelow.set(entity, (await stat(join(catalogDir, ...table.recordStore.file.split('/')))).size)
    keptBelow.set('works', Number(cut?.offset))
    await mkdir(outDir, { recursive: true })
    const updated = await updateSearchIndex({
      connection,
      catalogDir,
      outDir,
      texts: await RecordTextsFiles.ofCatalog(session, catalogDir, join(outDir, 'texts')),
      previous: { catalogDir, index },
      keptBelow,
    })
    await rm(join(catalogDir, SEARCH_DIR), { recursive: true, force: true })
    await rename(join(outDir, SEARCH_DIR), join(catalogDir, SEARCH_DIR))
    const manifest = withSearchIndex(read.manifest, updated)
    await writeFile(join(catalogDir, CATALOG_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
    const worksIndex = updated.entities.works
    if (worksIndex === undefined) throw new Error('the update left the works without an index')
    return worksIndex
  } finally {
    connection.closeSync()
    instance.closeSync()
    await rm(outDir, { recursive: true, force: true })
  }
}
