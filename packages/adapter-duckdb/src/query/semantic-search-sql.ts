// Semantic search for the plan compiler: the works nearest in meaning to a query vector, by exact cosine over
// every stored vector (no approximate index: DuckDB's `vss` extension cannot be installed here, and a scan of
// int8 vectors is fast enough at the sizes measured, see README.md). The result is a `(doc, score)` relation
// of at most `SEMANTIC_SEARCH_LIMITS.maxResults` rows: the nearest among the works that pass the query's
// other filters, so a filter narrows the candidates before the top is taken, not after.

import { join } from 'node:path'
import { SEMANTIC_SEARCH_LIMITS } from '@oqlkit/engine'
import { isCatalogRelativePath } from '../catalog/catalog-manifest-reader.ts'
import type { VectorIndexManifest } from '../vectors/vector-index-layout.ts'
import { param, raw, type SqlFragment, sql } from './sql-fragment.ts'
import { constantLiteral, quoteIdentifier } from './sql-identifier.ts'

/** The table the vectors are loaded into when a catalog with vectors is opened. */
export const WORK_VECTORS_TABLE = 'work_vectors'

/**
 * The statement that loads the catalog's vectors into memory (int8: a quarter of float32's size, and no
 * Parquet decoding per query). Rows without a usable vector (norm 0) are left out: they match nothing.
 */
export const workVectorsTableStatement = (catalogDir: string, vectors: VectorIndexManifest): string => {
  if (!isCatalogRelativePath(vectors.file))
    throw new Error(`catalog.json names a vector file outside the catalog: ${vectors.file}`)
  const dimensions = Number(vectors.dimensions)
  if (!Number.isSafeInteger(dimensions) || dimensions < 1)
    throw new Error(`catalog.json gives the vectors ${vectors.dimensions} dimensions`)
  const path = constantLiteral(join(catalogDir, ...vectors.file.split('/')))
  return `CREATE TABLE ${quoteIdentifier(WORK_VECTORS_TABLE)} AS SELECT id, CAST(vector AS TINYINT[${dimensions}]) AS vector, norm FROM read_parquet(${path}) WHERE norm > 0 ORDER BY id`
}

/** A query vector as the text DuckDB casts to `FLOAT[d]`: bound as a parameter, never written into the SQL. */
export const vectorParameter = (vector: Float32Array): string => {
  const parts: string[] = new Array(vector.length)
  for (let i = 0; i < vector.length; i++) parts[i] = String(vector[i])
  return `[${parts.join(',')}]`
}

/**
 * The nearest works to `queryVector` (unit length, `dimensions` wide) among `candidates` (a SELECT of work
 * ids, or null for every work), best first, as `(doc, score)` with score the cosine.
 */
export const semanticMatchesSql = (
  dimensions: number,
  queryVector: Float32Array,
  candidates: SqlFragment | null,
): SqlFragment => {
  const width = raw(String(dimensions))
  const table = raw(quoteIdentifier(WORK_VECTORS_TABLE))
  // A query with no known word has no direction: nothing is near it.
  if (!queryVector.some((value) => value !== 0))
    return raw('SELECT CAST(NULL AS VARCHAR) AS doc, CAST(NULL AS DOUBLE) AS score WHERE FALSE')
  const within = candidates === null ? raw('') : sql` WHERE __v.id IN (${candidates})`
  // The stored vector is q·(int8), its norm stored beside it; the query vector is unit length: the inner
  // product over the norm is the cosine.
  return sql`SELECT __v.id AS doc, CAST(array_inner_product(CAST(__v.vector AS FLOAT[${width}]), __q.qv) / __v.norm AS DOUBLE) AS score FROM ${table} AS __v, (SELECT CAST(${param(vectorParameter(queryVector))} AS FLOAT[${width}]) AS qv) AS __q${within} ORDER BY score DESC, doc LIMIT ${param(SEMANTIC_SEARCH_LIMITS.maxResults)}`
}
