// `indexCatalogSearch`: builds the search index of a catalog that has none (an ingest run without it) or an
// outdated one, in place. The index is built in a work folder inside the catalog, with a DuckDB of its own
// whose memory is capped and which spills to that folder; then the new `search/` folder is renamed into place
// and `catalog.json` is rewritten (to a temporary file, then renamed over the old one). A failure before the
// swap leaves the catalog as it was.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import { CATALOG_MANIFEST_FILE, SEARCH_DIR } from '../catalog/catalog-layout.ts'
import { readCatalogManifest } from '../catalog/catalog-manifest-reader.ts'
import { buildSearchIndex, type SearchBuildProgress } from './search-index-builder.ts'
import type { SearchIndexManifest } from './search-index-layout.ts'
import { withSearchIndex } from './search-index-manifest.ts'

export interface IndexCatalogSearchOptions {
  /** A catalog folder written by ingest. */
  readonly catalogDir: string
  /** DuckDB `memory_limit` of the build (default `2GB`); past it, DuckDB spills to the work folder. */
  readonly memoryLimit?: string
  /** DuckDB worker threads (default: DuckDB's, the number of cores). */
  readonly threads?: number
  /** Documents per index segment (default: `buildSearchIndex`'s, by the size of each entity file). */
  readonly segmentDocs?: number
  /** Postings per bucket file (default: `buildSearchIndex`'s). */
  readonly bucketRows?: number
  /** The entities to index (default: every entity). */
  readonly entities?: readonly CatalogEntity[]
  readonly onProgress?: (progress: SearchBuildProgress) => void
}

export interface IndexCatalogSearchResult {
  readonly catalogDir: string
  readonly index: SearchIndexManifest
  /** Bytes of the index files. */
  readonly bytes: number
  readonly durationMs: number
}

export class CatalogIndexError extends Error {
  override readonly name = 'CatalogIndexError'
  constructor(
    readonly catalogDir: string,
    message: string,
  ) {
    super(`Cannot index the catalog in ${catalogDir}: ${message}`)
  }
}

const DEFAULT_MEMORY_LIMIT = '2GB'
const WORK_PREFIX = '.search-build-'

export async function indexCatalogSearch(
  options: IndexCatalogSearchOptions,
): Promise<IndexCatalogSearchResult> {
  const started = Date.now()
  const catalogDir = resolve(options.catalogDir)
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new CatalogIndexError(catalogDir, read.message)
  // The lock ingest holds beside the catalog while it builds a replacement (`ingest/catalog-swap.ts`): an
  // index written now would be swapped away with the old catalog.
  if (existsSync(join(dirname(catalogDir), `.${basename(catalogDir)}.ingest-lock`)))
    throw new CatalogIndexError(catalogDir, 'an ingest into it is running')

  const work = await mkdtemp(join(catalogDir, WORK_PREFIX))
  try {
    const tempDir = join(work, 'duckdb-tmp')
    await mkdir(tempDir, { recursive: true })
    const config: Record<string, string> = {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      temp_directory: tempDir,
      memory_limit: options.memoryLimit ?? DEFAULT_MEMORY_LIMIT,
      preserve_insertion_order: 'false',
    }
    if (options.threads !== undefined) config.threads = String(options.threads)
    const instance = await DuckDBInstance.create(':memory:', config)
    let index: SearchIndexManifest
    try {
      const connection = await instance.connect()
      try {
        index = await buildSearchIndex({
          connection,
          catalogDir,
          outDir: join(work, 'out'),
          workDir: join(work, 'parts'),
          ...(options.entities === undefined ? {} : { entities: options.entities }),
          ...(options.segmentDocs === undefined ? {} : { segmentDocs: options.segmentDocs }),
          ...(options.bucketRows === undefined ? {} : { bucketRows: options.bucketRows }),
          ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
        })
      } finally {
        connection.closeSync()
      }
    } finally {
      instance.closeSync()
    }

    // Read again just before the swap, so nothing recorded since the start is lost.
    const current = await readCatalogManifest(catalogDir)
    if (!current.ok) throw new CatalogIndexError(catalogDir, current.message)
    const searchDir = join(catalogDir, SEARCH_DIR)
    if (existsSync(searchDir)) await rename(searchDir, join(work, 'replaced'))
    await rename(join(work, 'out', SEARCH_DIR), searchDir)
    const manifestPath = join(catalogDir, CATALOG_MANIFEST_FILE)
    const temporary = join(work, CATALOG_MANIFEST_FILE)
    await writeFile(temporary, `${JSON.stringify(withSearchIndex(current.manifest, index), null, 2)}\n`)
    await rename(temporary, manifestPath)
    return {
      catalogDir,
      index,
      bytes: index.files.reduce((sum, file) => sum + file.bytes, 0),
      durationMs: Date.now() - started,
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
