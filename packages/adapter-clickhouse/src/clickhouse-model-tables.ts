// The tables of semantic search and text tagging in a loaded catalog: the works' vectors, and the small files a
// server reads at start to embed queries and tag texts as a server of the catalog folder does.
import { type CatalogManifest, catalogIdOrder, textTaggerOf, vectorIndexOf } from '@oqlkit/catalog'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import type { ClickHouseTable } from './clickhouse-table.ts'

/** The works' vectors of semantic search: `(id, vector Array(Int8), norm Float32)`. */
export const WORK_VECTORS_TABLE = 'work_vectors'

/** catalog.json and the model files a server reads at start: `(path, content)`. */
export const CATALOG_FILES_TABLE = 'catalog_files'

/** The manifest's own path among the catalog files. */
export const CATALOG_MANIFEST_PATH = 'catalog.json'

/**
 * The works' vectors, as the catalog stores them: int8 components and the norm of each row, so a score
 * (`dotProduct(vector, query) / norm`, the query a unit vector) is the very cosine the DuckDB adapter computes
 * from the same bytes, at a quarter of the disk of Float32 components. Sharded by id, like the works. A
 * catalog without vectors (or with ones of a format this oqlkit does not read) gets the table empty.
 */
export const workVectorsTable = (manifest: CatalogManifest): ClickHouseTable => {
  const vectors = vectorIndexOf(manifest)
  return {
    name: WORK_VECTORS_TABLE,
    columns: [
      { name: 'id', type: 'String' },
      { name: 'vector', type: 'Array(Int8)' },
      { name: 'norm', type: 'Float32' },
    ],
    orderBy: ['id'],
    shardBy: quoteIdentifier('id'),
    source:
      vectors === undefined
        ? { kind: 'files', files: [], rows: 0 }
        : {
            kind: 'vectors',
            idsFile: vectors.file,
            matrixFile: vectors.matrixFile,
            dimensions: Number(vectors.dimensions),
            rows: Number(vectors.count),
            order: catalogIdOrder(manifest),
          },
  }
}

/**
 * catalog.json and the model files a server needs at start: the LSA vocabulary and projection when the
 * vectors were made by the catalog's own model (an embeddings server's vectors need none), and the text
 * tagger's model when the catalog has one. Whole on every node of a cluster.
 */
export const catalogFilesTable = (manifest: CatalogManifest): ClickHouseTable => {
  const vectors = vectorIndexOf(manifest)
  const tagger = textTaggerOf(manifest)
  const files = [
    CATALOG_MANIFEST_PATH,
    ...(vectors?.embedder.kind === 'lsa' && vectors.lsa !== undefined
      ? [vectors.lsa.vocabularyFile, vectors.lsa.projectionFile]
      : []),
    ...(tagger === undefined ? [] : [tagger.file]),
  ]
  return {
    name: CATALOG_FILES_TABLE,
    columns: [
      { name: 'path', type: 'String' },
      { name: 'content', type: 'String', codec: 'ZSTD(3)' },
    ],
    orderBy: ['path'],
    shardBy: quoteIdentifier('path'),
    wholeOnEveryNode: true,
    source: { kind: 'files', files, rows: files.length },
  }
}
