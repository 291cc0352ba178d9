// Opens a catalog's vectors for semantic search: the ids and norms through DuckDB (their Parquet file, in
// its id order), the int8 matrix read from its file as it is. The adapter reads them on the first semantic
// search; `checkWorkVectorFiles` is what it checks at open, cheaply, so that a broken catalog still fails then.
import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isCatalogRelativePath } from '../catalog/catalog-manifest-reader.ts'
import { constantLiteral } from '../sql/sql-text.ts'
import type { VectorIndexManifest } from '../vectors/vector-index-layout.ts'
import { WorkVectorMatrix } from '../vectors/work-vector-matrix.ts'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'

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
): Promise<WorkVectorMatrix> {
  checkWorkVectorFiles(catalogDir, vectors)
  const [rows, bytes] = await Promise.all([
    db.all(`SELECT id, norm FROM read_parquet(${constantLiteral(vectorFilePath(catalogDir, vectors.file))})`),
    readFile(vectorFilePath(catalogDir, vectors.matrixFile)),
  ])
  const ids = rows.map((row) => String(row.id))
  const norms = Float32Array.from(rows, (row) => Number(row.norm))
  const values = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length)
  return new WorkVectorMatrix(ids, values, norms, Number(vectors.dimensions))
}
