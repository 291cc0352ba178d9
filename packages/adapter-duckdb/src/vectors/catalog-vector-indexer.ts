// `indexCatalogVectors`: (re)builds the vectors of a catalog in place — another model, another seed, a
// held-out share for measuring, or vectors from an embeddings server. Built in a work folder inside the
// catalog with a DuckDB of its own; then the new `vectors/` folder is renamed into place and `catalog.json`
// rewritten through a temporary file. A failure before the swap leaves the catalog as it was.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { CATALOG_MANIFEST_FILE } from '../catalog/catalog-layout.ts'
import { readCatalogManifest } from '../catalog/catalog-manifest-reader.ts'
import { CatalogIndexError } from '../search/catalog-search-indexer.ts'
import { VECTORS_DIR, type VectorIndexManifest } from './vector-index-layout.ts'
import { withVectorIndex } from './vector-index-manifest.ts'
import { buildWorkVectors, type VectorsChoice } from './work-vector-builder.ts'

export interface IndexCatalogVectorsOptions {
  readonly catalogDir: string
  readonly vectors: VectorsChoice
  /** DuckDB `memory_limit` of the build (default `2GB`). */
  readonly memoryLimit?: string
  readonly threads?: number
  readonly onProgress?: (done: number, total: number, step: 'training' | 'embedding') => void
}

export interface IndexCatalogVectorsResult {
  readonly catalogDir: string
  readonly vectors: VectorIndexManifest
  readonly durationMs: number
}

const WORK_PREFIX = '.vector-build-'

export async function indexCatalogVectors(
  options: IndexCatalogVectorsOptions,
): Promise<IndexCatalogVectorsResult> {
  const started = Date.now()
  const catalogDir = resolve(options.catalogDir)
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new CatalogIndexError(catalogDir, read.message)
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
      memory_limit: options.memoryLimit ?? '2GB',
    }
    if (options.threads !== undefined) config.threads = String(options.threads)
    const instance = await DuckDBInstance.create(':memory:', config)
    let vectors: VectorIndexManifest
    try {
      const connection = await instance.connect()
      try {
        vectors = await buildWorkVectors({
          session: {
            run: async (sql, params = []) => (await connection.run(sql, [...params])).rowsChanged,
            rows: async (sql, params = []) =>
              (await connection.runAndReadAll(sql, [...params])).getRowObjectsJson(),
            appender: (table) => connection.createAppender(table),
          },
          catalogDir,
          outDir: join(work, 'out'),
          vectors: options.vectors,
          ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
        })
      } finally {
        connection.closeSync()
      }
    } finally {
      instance.closeSync()
    }
    const current = await readCatalogManifest(catalogDir)
    if (!current.ok) throw new CatalogIndexError(catalogDir, current.message)
    const vectorsDir = join(catalogDir, VECTORS_DIR)
    if (existsSync(vectorsDir)) await rename(vectorsDir, join(work, 'replaced'))
    await rename(join(work, 'out', VECTORS_DIR), vectorsDir)
    const temporary = join(work, CATALOG_MANIFEST_FILE)
    await writeFile(temporary, `${JSON.stringify(withVectorIndex(current.manifest, vectors), null, 2)}\n`)
    await rename(temporary, join(catalogDir, CATALOG_MANIFEST_FILE))
    return { catalogDir, vectors, durationMs: Date.now() - started }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
