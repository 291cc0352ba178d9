// The models of a loaded catalog version, read back from its `catalog_files` table: what its vectors are
// (catalog.json's vectors entry), the LSA model that embeds semantic queries into their space, and the text
// tagger. Built from the same bytes, with the same checks, as a server of the catalog folder builds them
// (`loadCatalogEmbedder`, `loadCatalogTagger` of @oqlkit/catalog), so both answer alike.
import type { ClickHouseClient } from '@clickhouse/client'
import {
  type CatalogManifest,
  type CatalogVersion,
  catalogVersionOf,
  textTaggerOf,
  useLiteEmbedderFor,
  type VectorIndexManifest,
  vectorIndexOf,
} from '@oqlkit/catalog'
import type { Embedder, Tagger } from '@oqlkit/engine'
import { createModelTagger, lsaEmbedder, lsaModelFromBytes, TextTagModel } from '@oqlkit/text-models'
import { selectStringRows, tableExists } from './clickhouse-driver.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { CATALOG_FILES_TABLE, CATALOG_MANIFEST_PATH } from './clickhouse-model-tables.ts'

export interface ClickHouseCatalogModels {
  /** The works' vectors the version holds, as catalog.json records them; undefined when it has none. */
  readonly vectors: VectorIndexManifest | undefined
  /** The catalog's own query embedder, when its vectors were made by one (LSA); an embeddings server's are not. */
  readonly embedder: Embedder | undefined
  /** The text tagger, when the catalog has a model. */
  readonly tagger: Tagger | undefined
  /** The version of the catalog's data (`catalogVersionOf` its catalog.json); undefined without the file. */
  readonly dataVersion: CatalogVersion | undefined
}

const NONE: ClickHouseCatalogModels = {
  vectors: undefined,
  embedder: undefined,
  tagger: undefined,
  dataVersion: undefined,
}

/** Every file of a version's `catalog_files`, by path; none for a version loaded before the table existed. */
const readCatalogFiles = async (
  client: ClickHouseClient,
  database: string,
): Promise<ReadonlyMap<string, Uint8Array>> => {
  if (!(await tableExists(client, database, CATALOG_FILES_TABLE))) return new Map()
  // RowBinary: the model files are binary, which a text format would escape.
  const rows = await selectStringRows(
    client,
    `SELECT path, content FROM ${quoteIdentifier(database)}.${quoteIdentifier(CATALOG_FILES_TABLE)}`,
    2,
  )
  const decoder = new TextDecoder()
  return new Map(rows.map(([path, content]) => [decoder.decode(path), content!]))
}

const fileOf = (files: ReadonlyMap<string, Uint8Array>, path: string, what: string): Uint8Array => {
  const bytes = files.get(path)
  if (bytes === undefined)
    throw new Error(
      `the loaded catalog lacks ${path} (${what}) in its ${CATALOG_FILES_TABLE} table; load the catalog again (oqlkit load)`,
    )
  return bytes
}

/**
 * The LSA embedder of the vectors, checked as `loadCatalogEmbedder` checks it: the files must hash to the model
 * id the vectors were made by, or queries would be embedded into another space.
 */
const lsaEmbedderOf = (
  files: ReadonlyMap<string, Uint8Array>,
  vectors: VectorIndexManifest,
): Embedder | undefined => {
  if (vectors.embedder.kind !== 'lsa' || vectors.lsa === undefined) return undefined
  const { vocabularyFile, projectionFile } = vectors.lsa
  const { model, modelId } = lsaModelFromBytes(
    {
      vocabulary: fileOf(files, vocabularyFile, "the LSA model's vocabulary"),
      projection: fileOf(files, projectionFile, "the LSA model's projection"),
    },
    vectors.dimensions,
    projectionFile,
  )
  if (modelId !== vectors.embedder.modelId)
    throw new Error(
      `the LSA model files hash to ${modelId}, but the catalog's vectors were made by ${vectors.embedder.modelId}; rebuild the vectors`,
    )
  return lsaEmbedder(model, modelId)
}

/** The vectors, embedder and tagger of a loaded version (`database`); none of them for a catalog without. */
export const readClickHouseCatalogModels = async (
  client: ClickHouseClient,
  database: string,
): Promise<ClickHouseCatalogModels> => {
  const files = await readCatalogFiles(client, database)
  const manifestBytes = files.get(CATALOG_MANIFEST_PATH)
  if (manifestBytes === undefined) return NONE
  // Checked when it was loaded; only its extensions are read here.
  const manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as CatalogManifest
  const vectors = vectorIndexOf(manifest)
  const tagged = textTaggerOf(manifest)
  return {
    vectors,
    dataVersion: catalogVersionOf(manifest),
    embedder:
      vectors === undefined
        ? undefined
        : vectors.embedder.kind === 'use-lite'
          ? await useLiteEmbedderFor(vectors)
          : lsaEmbedderOf(files, vectors),
    tagger:
      tagged === undefined
        ? undefined
        : createModelTagger(TextTagModel.deserialize(fileOf(files, tagged.file, "the text tagger's model"))),
  }
}
