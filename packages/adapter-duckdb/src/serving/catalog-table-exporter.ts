// Writes a catalog's tables as Parquet files from its serving database (or, for a catalog of format 8 or
// before, from the files it lists): the entity, link and id files of the catalog layout (`entities/`, `links/`, `ids/` under `outDir`), with their columns, row order and row group
// sizes. For readers that want plain files (another engine, a ClickHouse load, DuckDB users' own SQL) rather
// than the serving database.
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  CATALOG_ENTITIES,
  type CatalogFile,
  type CatalogManifest,
  constantLiteral,
  DELETED_IDS_FILE,
  ENTITIES_DIR,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  IDS_DIR,
  LINK_TABLES,
  LINKS_DIR,
  linkFilePath,
  MERGED_IDS_FILE,
  SERVING_DATABASE_FILE,
  sqlInteger,
} from '@oqlkit/catalog'
import { catalogTableRelations } from '../query/catalog-table-relations.ts'
import { SERVING_DATABASE_NAME } from '../query/catalog-views.ts'
import { openDuckDbDatabase } from '../query/duckdb-driver.ts'

export interface CatalogTableExportOptions {
  /**
   * DuckDB `memory_limit` while writing, e.g. `2GB` (the link tables are sorted by key); past it DuckDB spills
   * to a folder beside the files. Default `DEFAULT_EXPORT_MEMORY_LIMIT`.
   */
  readonly memoryLimit?: string
  /** Called before each file, with its catalog-relative path, how many are written and how many there are. */
  readonly onFile?: (path: string, done: number, total: number) => void
}

/**
 * What the export holds at most when not told. Without a limit DuckDB takes up to 80% of the machine's memory:
 * the export of a 1M-work core catalog (what `oqlkit load` runs before a ClickHouse load) peaked at 11.7 GB of
 * RSS in 44 s; under 1 GiB, 2.0 GB in 108 s (2 GiB: 3.1 GB, 96 s), within the 4 GB a build keeps to.
 */
export const DEFAULT_EXPORT_MEMORY_LIMIT = '1GiB'

/** Row group size of the id and link files, as ingest writes them. */
const ID_AND_LINK_ROW_GROUP = 122_880

/**
 * Writes every table of the catalog at `catalogDir` (its `catalog.json` is `manifest`) into `outDir` as the
 * catalog layout's Parquet files, and returns them (catalog-relative paths under `outDir`).
 */
export async function exportCatalogTables(
  catalogDir: string,
  manifest: CatalogManifest,
  outDir: string,
  options: CatalogTableExportOptions = {},
): Promise<CatalogFile[]> {
  // Where the catalog lists files (format 8 and before) they are copied; otherwise the serving database is read.
  const relations = catalogTableRelations(catalogDir, manifest)
  const outputs: { path: string; relation: string; rowGroup: number }[] = [
    ...CATALOG_ENTITIES.map((info) => ({
      path: entityFilePath(info.entity),
      relation: relations.entity(info.entity),
      rowGroup: info.rowGroupSize,
    })),
    ...LINK_TABLES.map((spec) => ({
      path: linkFilePath(spec.name),
      relation: relations.link(spec),
      rowGroup: ID_AND_LINK_ROW_GROUP,
    })),
    { path: EXTERNAL_IDS_FILE, relation: relations.externalIds, rowGroup: ID_AND_LINK_ROW_GROUP },
    { path: MERGED_IDS_FILE, relation: relations.mergedIds, rowGroup: ID_AND_LINK_ROW_GROUP },
    { path: DELETED_IDS_FILE, relation: relations.deletedIds, rowGroup: ID_AND_LINK_ROW_GROUP },
  ]
  for (const dir of [ENTITIES_DIR, LINKS_DIR, IDS_DIR]) await mkdir(join(outDir, dir), { recursive: true })
  const spill = join(outDir, '.export-spill')
  const db = await openDuckDbDatabase({
    connections: 1,
    tempDirectory: spill,
    memoryLimit: options.memoryLimit ?? DEFAULT_EXPORT_MEMORY_LIMIT,
    attach: { path: join(catalogDir, SERVING_DATABASE_FILE), name: SERVING_DATABASE_NAME },
  })
  const files: CatalogFile[] = []
  try {
    // Each file in its rows' order: an ordered copy keeps it only while insertion order is preserved.
    await db.all('SET preserve_insertion_order = true')
    for (const [done, { path, relation, rowGroup }] of outputs.entries()) {
      options.onFile?.(path, done, outputs.length)
      const file = join(outDir, ...path.split('/'))
      const [written] = await db.all(
        `COPY (SELECT * FROM ${relation}) TO ${constantLiteral(file)} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${sqlInteger(rowGroup)})`,
      )
      files.push({ path, bytes: (await stat(file)).size, rows: Number(written?.Count ?? 0) })
    }
    options.onFile?.('', outputs.length, outputs.length)
  } finally {
    await db.close()
    await rm(spill, { recursive: true, force: true })
  }
  return files
}
