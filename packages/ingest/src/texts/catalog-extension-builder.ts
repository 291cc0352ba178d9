// Builds one extension of an existing catalog in place (the search index, the works' vectors): in a work
// folder inside the catalog, with a DuckDB of its own whose memory is capped and which spills to that folder;
// then the extension's new folder is renamed into place and `catalog.json` is rewritten (to a temporary
// file, then renamed over the old one). A failure before the swap leaves the catalog as it was.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { createDuckDbInstance, type DuckDbInstanceOptions } from '@oqlkit/adapter-duckdb'
import { CATALOG_MANIFEST_FILE, type CatalogManifest, readCatalogManifest } from '@oqlkit/catalog'

export class CatalogIndexError extends Error {
  override readonly name = 'CatalogIndexError'
  constructor(
    readonly catalogDir: string,
    message: string,
  ) {
    super(`Cannot index the catalog in ${catalogDir}: ${message}`)
  }
}

/** Where a build writes: the extension's folder goes under `outDir`; `workDir` is scratch space. */
export interface ExtensionBuildContext {
  readonly connection: DuckDBConnection
  readonly outDir: string
  readonly workDir: string
}

export interface CatalogExtensionBuild<T> {
  /** The catalog folder the extension lives in (`search`, `vectors`), written by `build` under `outDir`. */
  readonly folder: string
  /** The prefix of the work folder inside the catalog (`.search-build-`). */
  readonly workPrefix: string
  /** DuckDB settings of the build beyond the defaults (memory limit, threads, …); it spills to the work folder. */
  readonly duckDb: Omit<DuckDbInstanceOptions, 'tempDirectory'>
  build(context: ExtensionBuildContext): Promise<T>
  /** The manifest with the built extension recorded in it. */
  record(manifest: CatalogManifest, built: T): CatalogManifest
}

/** `catalogDir` must be resolved. Returns what `build` returned, once swapped in. */
export async function buildCatalogExtension<T>(
  catalogDir: string,
  spec: CatalogExtensionBuild<T>,
): Promise<T> {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new CatalogIndexError(catalogDir, read.message)
  // The lock ingest holds beside the catalog while it builds a replacement (`ingest/catalog-swap.ts`): an
  // extension written now would be swapped away with the old catalog.
  if (existsSync(join(dirname(catalogDir), `.${basename(catalogDir)}.ingest-lock`)))
    throw new CatalogIndexError(catalogDir, 'an ingest into it is running')
  const work = await mkdtemp(join(catalogDir, spec.workPrefix))
  try {
    const tempDir = join(work, 'duckdb-tmp')
    await mkdir(tempDir, { recursive: true })
    const instance = await createDuckDbInstance(':memory:', { ...spec.duckDb, tempDirectory: tempDir })
    let built: T
    try {
      const connection = await instance.connect()
      try {
        built = await spec.build({ connection, outDir: join(work, 'out'), workDir: join(work, 'parts') })
      } finally {
        connection.closeSync()
      }
    } finally {
      instance.closeSync()
    }
    // Read again just before the swap, so nothing recorded since the start is lost.
    const current = await readCatalogManifest(catalogDir)
    if (!current.ok) throw new CatalogIndexError(catalogDir, current.message)
    const target = join(catalogDir, spec.folder)
    if (existsSync(target)) await rename(target, join(work, 'replaced'))
    await rename(join(work, 'out', spec.folder), target)
    const temporary = join(work, CATALOG_MANIFEST_FILE)
    await writeFile(temporary, `${JSON.stringify(spec.record(current.manifest, built), null, 2)}\n`)
    await rename(temporary, join(catalogDir, CATALOG_MANIFEST_FILE))
    return built
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
