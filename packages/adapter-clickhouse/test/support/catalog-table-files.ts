// A catalog loaded into ClickHouse as `oqlkit load` loads it, for tests, scripts and benches: a catalog of
// format 9 keeps its entity, link and id tables in its serving database alone, which ClickHouse cannot read,
// so they are first exported as the catalog layout's Parquet files (`exportCatalogTables` of
// @oqlkit/adapter-duckdb, a devDependency: the package's source never imports another adapter) into a
// temporary folder, which the load is given (`tableFiles`) and which is removed afterwards. A catalog whose
// tables list their files (format 8) is loaded as it is.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportCatalogTables, tablesInServingDatabase } from '@oqlkit/adapter-duckdb'
import { readCatalogManifest } from '@oqlkit/catalog'
import { type LoadOptions, type LoadSummary, loadCatalogIntoClickHouse } from '../../src/catalog-loader.ts'

/**
 * Runs `work` with the folder of the catalog's tables exported as Parquet (`undefined` for a catalog that
 * lists its own table files, or a folder that holds no catalog), and removes the folder afterwards.
 */
export async function withCatalogTableFiles<T>(
  catalogDir: string,
  work: (tableFiles: string | undefined) => Promise<T>,
): Promise<T> {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok || !tablesInServingDatabase(read.manifest)) return work(undefined)
  const tableFiles = await mkdtemp(join(tmpdir(), 'oqlkit-catalog-tables-'))
  try {
    await exportCatalogTables(catalogDir, read.manifest, tableFiles)
    return await work(tableFiles)
  } finally {
    await rm(tableFiles, { recursive: true, force: true })
  }
}

/** `loadCatalogIntoClickHouse`, the catalog's tables exported from its serving database first when it keeps them there alone. */
export const loadCatalogExportingTables = (options: Omit<LoadOptions, 'tableFiles'>): Promise<LoadSummary> =>
  withCatalogTableFiles(options.catalogDir, (tableFiles) =>
    loadCatalogIntoClickHouse({ ...options, ...(tableFiles === undefined ? {} : { tableFiles }) }),
  )
