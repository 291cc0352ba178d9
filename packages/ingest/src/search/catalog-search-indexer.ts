// `indexCatalogSearch`: builds the search index of a catalog that has none (an ingest run without it) or an
// outdated one, in place (`buildCatalogExtension`: a failure before the swap leaves the catalog as it was).
import { resolve } from 'node:path'
import type { CatalogEntity, SearchIndexManifest } from '@oqlkit/catalog'
import { SEARCH_DIR, withSearchIndex } from '@oqlkit/catalog'
import { buildCatalogExtension } from '../texts/catalog-extension-builder.ts'
import { buildSearchIndex, type SearchBuildProgress } from './search-index-builder.ts'

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

export { CatalogIndexError } from '../texts/catalog-extension-builder.ts'

/** DuckDB's memory limit of `oqlkit index` unless it is told one. */
export const DEFAULT_INDEX_MEMORY_LIMIT = '2GB'

export async function indexCatalogSearch(
  options: IndexCatalogSearchOptions,
): Promise<IndexCatalogSearchResult> {
  const started = Date.now()
  const catalogDir = resolve(options.catalogDir)
  const index = await buildCatalogExtension(catalogDir, {
    folder: SEARCH_DIR,
    workPrefix: '.search-build-',
    duckDb: {
      memoryLimit: options.memoryLimit ?? DEFAULT_INDEX_MEMORY_LIMIT,
      preserveInsertionOrder: false,
      threads: options.threads,
    },
    build: ({ connection, outDir, workDir }) =>
      buildSearchIndex({
        connection,
        catalogDir,
        outDir,
        workDir,
        ...(options.entities === undefined ? {} : { entities: options.entities }),
        ...(options.segmentDocs === undefined ? {} : { segmentDocs: options.segmentDocs }),
        ...(options.bucketRows === undefined ? {} : { bucketRows: options.bucketRows }),
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      }),
    record: withSearchIndex,
  })
  return {
    catalogDir,
    index,
    bytes: index.files.reduce((sum, file) => sum + file.bytes, 0),
    durationMs: Date.now() - started,
  }
}
