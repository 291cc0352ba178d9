// Opens a catalog's vectors for semantic search: the ids and norms through DuckDB (their Parquet file, in
// its id order), the int8 matrix read from its file as it is, and the list index when the catalog has one
// (checked through: `decodeIvfIndex`). The adapter reads them on the first semantic search;
// `checkWorkVectorFiles` is what it checks at open, cheaply (the files' sizes), so that a broken catalog still
// fails then. A catalog from before the list index has no `listIndex` entry and is searched exactly.
import { statSync } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogIdOrder, IvfVectorIndex, VectorIndexManifest } from '@oqlkit/catalog'
import {
  allocateMatrixValues,
  catalogIdOrder,
  constantLiteral,
  decodeIvfIndex,
  isCatalogRelativePath,
  ivfIndexFileBytes,
  loadCatalogEmbedder,
  readCatalogManifest,
  vectorIndexOf,
  WorkVectorMatrix,
  WorkVectorSearcher,
} from '@oqlkit/catalog'
import type { Embedder } from '@oqlkit/engine'
import { type DuckDbConnectionLike, openDuckDbDatabase } from './duckdb-driver.ts'

/** Throws, saying what is wrong, unless the vectors' files are where catalog.json says, of the size it says. */
export function checkWorkVectorFiles(catalogDir: string, vectors: VectorIndexManifest): void {
  const matrix = vectorFilePath(catalogDir, vectors.matrixFile)
  vectorFilePath(catalogDir, vectors.file)
  const dimensions = Number(vectors.dimensions)
  if (!Number.isSafeInteger(dimensions) || dimensions < 1)
    throw new Error(`catalog.json gives the vectors ${vectors.dimensions} dimensions`)
  const expected = Number(vectors.count) * dimensions
  const size = statSync(matrix, { throwIfNoEntry: false })?.size
  if (size !== expected)
    throw new Error(
      `the vector matrix ${vectors.matrixFile} ${size === undefined ? 'is missing' : `holds ${size} bytes`} where catalog.json says ${vectors.count} works of ${dimensions} dimensions (${expected} bytes); build the vectors again (oqlkit ingest)`,
    )
  const listIndex = vectors.listIndex
  if (listIndex === undefined) return
  const lists = Number(listIndex.lists)
  if (!Number.isSafeInteger(lists) || lists < 1)
    throw new Error(`catalog.json gives the vectors' list index ${listIndex.lists} lists`)
  const indexBytes = ivfIndexFileBytes(Number(vectors.count), dimensions, lists)
  const indexSize = statSync(vectorFilePath(catalogDir, listIndex.file), { throwIfNoEntry: false })?.size
  if (indexSize !== indexBytes)
    throw new Error(
      `the vectors' list index ${listIndex.file} ${indexSize === undefined ? 'is missing' : `holds ${indexSize} bytes`} where catalog.json says ${lists} lists over ${vectors.count} works of ${dimensions} dimensions (${indexBytes} bytes); build the vectors again (oqlkit ingest), or remove extensions.vectors.listIndex from catalog.json to search without it`,
    )
}

const vectorFilePath = (catalogDir: string, file: unknown): string => {
  if (typeof file !== 'string' || !isCatalogRelativePath(file))
    throw new Error(`catalog.json names a vector file outside the catalog: ${String(file)}`)
  return join(catalogDir, ...file.split('/'))
}

export async function loadWorkVectorMatrix(
  db: DuckDbConnectionLike,
  catalogDir: string,
  vectors: VectorIndexManifest,
  order: CatalogIdOrder,
): Promise<WorkVectorMatrix> {
  checkWorkVectorFiles(catalogDir, vectors)
  const dimensions = Number(vectors.dimensions)
  // Read where the scans read them (the vector kernel's memory), so no second copy of the matrix is made.
  const values = allocateMatrixValues(Number(vectors.count), dimensions)
  const [rows] = await Promise.all([
    db.all(`SELECT id, norm FROM read_parquet(${constantLiteral(vectorFilePath(catalogDir, vectors.file))})`),
    readWhole(vectorFilePath(catalogDir, vectors.matrixFile), values),
  ])
  const ids = rows.map((row) => String(row.id))
  const norms = Float32Array.from(rows, (row) => Number(row.norm))
  return new WorkVectorMatrix(ids, values, norms, dimensions, order)
}

/** Fills `into` with the file's bytes (its size was checked against it). */
async function readWhole(path: string, into: Int8Array): Promise<void> {
  const file = await open(path, 'r')
  try {
    const bytes = new Uint8Array(into.buffer, into.byteOffset, into.length)
    for (let done = 0; done < bytes.length; ) {
      const { bytesRead } = await file.read(bytes, done, bytes.length - done, done)
      if (bytesRead === 0) throw new Error(`the vector matrix ${path} ended at byte ${done}`)
      done += bytesRead
    }
  } finally {
    await file.close()
  }
}

/** The matrix and, when the catalog has one, its list index: what a semantic search reads. */
export async function loadWorkVectors(
  db: DuckDbConnectionLike,
  catalogDir: string,
  vectors: VectorIndexManifest,
  order: CatalogIdOrder,
): Promise<WorkVectorSearcher> {
  const listIndex = vectors.listIndex
  const [matrix, index] = await Promise.all([
    loadWorkVectorMatrix(db, catalogDir, vectors, order),
    listIndex === undefined
      ? Promise.resolve<IvfVectorIndex | undefined>(undefined)
      : readFile(vectorFilePath(catalogDir, listIndex.file)).then((bytes) =>
          decodeIvfIndex(bytes, {
            file: listIndex.file,
            rows: Number(vectors.count),
            dimensions: Number(vectors.dimensions),
            lists: Number(listIndex.lists),
            scanRows: Number(listIndex.scanRows),
          }),
        ),
  ])
  return new WorkVectorSearcher(matrix, index)
}

export interface CatalogWorkVectors {
  readonly vectors: VectorIndexManifest
  readonly searcher: WorkVectorSearcher
  /** The catalog's own model, when its vectors were made by one (LSA). */
  readonly embedder: Embedder | undefined
}

/**
 * A catalog's vectors, list index and model read on their own, without an adapter (benchmarks and tools that
 * compare the index with the exact scan); undefined when the catalog has no vectors this version reads.
 */
export async function readCatalogWorkVectors(catalogDir: string): Promise<CatalogWorkVectors | undefined> {
  const manifest = await readCatalogManifest(catalogDir)
  if (!manifest.ok) throw new Error(manifest.message)
  const vectors = vectorIndexOf(manifest.manifest)
  if (vectors === undefined) return undefined
  const db = await openDuckDbDatabase({ threads: 1, connections: 1 })
  try {
    const [searcher, embedder] = await Promise.all([
      loadWorkVectors(db, catalogDir, vectors, catalogIdOrder(manifest.manifest)),
      loadCatalogEmbedder(catalogDir, vectors),
    ])
    return { vectors, searcher, embedder }
  } finally {
    await db.close()
  }
}
