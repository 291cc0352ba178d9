// A catalog's tables as Parquet files in its own folder, listed in its catalog.json, as catalogs up to format 8
// kept them beside the serving database: the tests that change a table by rewriting its file, or build a
// serving database from the files, run on a copy of the sample made so.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { exportCatalogTables } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_MANIFEST_FILE,
  type CatalogManifest,
  DELETED_IDS_FILE,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  linkFilePath,
  MERGED_IDS_FILE,
  readCatalogManifest,
} from '@oqlkit/catalog'

/** Writes the tables of the catalog at `catalogDir` into it at their layout paths, lists them, returns the manifest. */
export async function keepTablesAsFiles(catalogDir: string): Promise<CatalogManifest> {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  const manifest = read.manifest
  const files = await exportCatalogTables(catalogDir, manifest, catalogDir)
  const listed = <T extends object>(table: T, path: string): T => ({ ...table, files: [path] })
  const withFiles: CatalogManifest = {
    ...manifest,
    entities: Object.fromEntries(
      Object.entries(manifest.entities).map(([entity, table]) => [
        entity,
        listed(table, entityFilePath(entity as never)),
      ]),
    ) as CatalogManifest['entities'],
    links: Object.fromEntries(
      Object.entries(manifest.links).map(([name, table]) => [name, listed(table, linkFilePath(name))]),
    ),
    externalIds: listed(manifest.externalIds, EXTERNAL_IDS_FILE),
    mergedIds: listed(manifest.mergedIds, MERGED_IDS_FILE),
    deletedIds: listed(manifest.deletedIds, DELETED_IDS_FILE),
    files: [...manifest.files, ...files],
  }
  await writeFile(join(catalogDir, CATALOG_MANIFEST_FILE), `${JSON.stringify(withFiles, null, 2)}\n`)
  return withFiles
}
