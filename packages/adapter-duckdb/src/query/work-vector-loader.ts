// Opens a catalog's vectors for semantic search: the ids and norms through DuckDB (their Parquet file, in
// its id order), the int8 matrix read from its file as it is.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isCatalogRelativePath } from '../catalog/catalog-manifest-reader.ts'
import { constantLiteral } from '../sql/sql-text.ts'
import type { VectorIndexManifest } from '../vectors/vector-index-layout.ts'
import { WorkVectorMatrix } from '../vectors/work-vector-matrix.ts'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'

export async function loadWorkVectorMatrix(
  db: DuckDbConnectionLike,
  catalogDir: string,
  vectors: VectorIndexManifest,
): Promise<WorkVectorMatrix> {
  for (const file of [vectors.file, vectors.matrixFile])
    if (typeof file !== 'string' || !isCatalogRelativePath(file))
      throw new Error(`catalog.json names a vector file outside the catalog: ${String(file)}`)
  const dimensions = Number(vectors.dimensions)
  if (!Number.isSafeInteger(dimensions) || dimensions < 1)
    throw new Error(`catalog.json gives the vectors ${vectors.dimensions} dimensions`)
  const path = (file: string) => join(catalogDir, ...file.split('/'))
  const [rows, bytes] = await Promise.all([
    db.all(`SELECT id, norm FROM read_parquet(${constantLiteral(path(vectors.file))})`),
    readFile(path(vectors.matrixFile)),
  ])
  const ids = rows.map((row) => String(row.id))
  const norms = Float32Array.from(rows, (row) => Number(row.norm))
  const values = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length)
  return new WorkVectorMatrix(ids, values, norms, dimensions)
}
