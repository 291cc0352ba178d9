// Builds the vectors of a catalog's works: with the built-in model, first trains it (LSA over the titles and
// abstracts of the works not held out, at most `maxTrainingDocuments` of them) and stores it beside the
// vectors; with an embeddings server, sends the texts through its client. Then every work with a title or an
// abstract is embedded and quantised: its bytes appended to `vectors/works.i8`, its id and norm to
// `vectors/works.parquet`, in id order. Both passes read the works a batch at a time. Last, for a catalog
// large enough to need it, the list index of semantic search is built from the matrix just written
// (`ivf-index-builder.ts`: two reads of the file), so it lands in the catalog with the vectors it indexes. The
// same catalog and seeds give byte-identical files.
import { copyFile, type FileHandle, mkdir, open, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogFile, CatalogIdOrder } from '@oqlkit/catalog'
import {
  buildIvfIndex,
  encodeIvfIndex,
  type IvfBuildOptions,
  int8FileRowSource,
  isHeldOut,
  type LsaModelRecord,
  letterIdComparator,
  letterIdOrderSql,
  loadCatalogEmbedder,
  quantizeVector,
  VECTOR_INDEX_FORMAT,
  VECTOR_INDEX_FORMAT_VERSION,
  VECTOR_QUANTIZATION,
  VECTORS_DIR,
  type VectorEmbedderRecord,
  type VectorIndexManifest,
  type VectorListIndexDeclined,
  type VectorListIndexRecord,
  WORK_VECTOR_LIST_INDEX_FILE,
  WORK_VECTOR_MATRIX_FILE,
  WORK_VECTORS_FILE,
} from '@oqlkit/catalog'
import type { Embedder } from '@oqlkit/engine'
import {
  createUseLiteEmbedder,
  DEFAULT_LSA_DIMENSIONS,
  lsaEmbedder,
  seededIdFraction,
  textTerms,
  trainLsaModel,
  USE_LITE_MODEL_ID,
  writeLsaModel,
} from '@oqlkit/text-models'
import type { UnchangedWorks } from '../build/unchanged-works.ts'
import { type BuildSession, withSettings } from '../texts/build-session.ts'
import { modelReuse } from '../texts/model-reuse-policy.ts'
import { RecordTextsFiles } from '../texts/record-texts-file.ts'
import { pickTrainingSample } from '../texts/training-sample.ts'
import { defaultEmbeddingWorkers, LsaEmbeddingPool } from './lsa-embedding-pool.ts'
import { readWorkTexts, type WorkText } from './work-text-reader.ts'

/** What the build needs of a database (`../sql/build-session.ts`): ingest passes its staging database. */
export type VectorBuildSession = BuildSession

/** The built-in model, trained from the catalog. */
export interface LsaVectorsChoice {
  readonly kind: 'lsa'
  /**
   * Latent dimensions, at most (default 256). A small catalog gets fewer: a quarter of the works trained on
   * (at least 8), since a corpus cannot show more independent topics than it has documents to show them in,
   * and the extra dimensions would only cost training time.
   */
  readonly dimensions?: number
  /** Seed of the random projection and of the choice of held-out and training works (default 1). */
  readonly seed?: number
  /** Share of works never trained on, for measuring the model on unseen text (default 0). */
  readonly holdOutFraction?: number
  /**
   * The most works trained on (default 25,000); a larger catalog trains on those of lowest seeded key
   * (`../texts/training-sample.ts`), and still embeds every work.
   */
  readonly maxTrainingDocuments?: number
}

/** An embeddings server's model, through its client. */
export interface ServedVectorsChoice {
  readonly kind: 'openai-compatible'
  readonly embedder: Embedder
  /** The model's name as the server knows it. */
  readonly model: string
}

/** The sentence encoder built into @oqlkit/text-models (Universal Sentence Encoder lite): nothing trained here. */
export interface UseLiteVectorsChoice {
  readonly kind: 'use-lite'
}

export type VectorsChoice = LsaVectorsChoice | UseLiteVectorsChoice | ServedVectorsChoice

/** How the list index of semantic search is built (`ivf-index-builder.ts` has the defaults). */
export interface ListIndexChoice extends Omit<IvfBuildOptions, 'onProgress'> {
  /**
   * Fewest vectors that get an index (default 50,000). Below, the exact scan takes a few tens of milliseconds
   * and an index would only add a file and a build step.
   */
  readonly minRows?: number
}

export interface BuildWorkVectorsOptions {
  readonly session: VectorBuildSession
  /** The catalog folder the works file is read from. */
  readonly catalogDir: string
  /**
   * The entities' texts files (an ingest shares its own with the search index and the tagger). Default: the
   * works' written from the record store `catalog.json` names, into a work folder removed afterwards.
   */
  readonly texts?: RecordTextsFiles
  /** Where `vectors/` is written (default: the catalog folder). */
  readonly outDir?: string
  readonly vectors: VectorsChoice
  /**
   * The catalog's id order, which its texts files (and so the vectors) follow: `by-number` (the default, what
   * ingest writes) or `by-text` for a catalog of format 7 or earlier.
   */
  readonly idOrder?: CatalogIdOrder
  /**
   * Works read and embedded at a time (default 32,768: two row groups of the works file, whose records are
   * decompressed once per batch that touches them, so small batches read the file many times over).
   */
  readonly batchSize?: number
  /**
   * Worker threads that embed the works with the built-in LSA model (default: one per core from 20,000 works to
   * embed, none below; 0: the main thread embeds). The vectors are the same bytes either way.
   */
  readonly embeddingWorkers?: number
  /** The list index of semantic search (default: built for 50,000 vectors or more); `false`: none. */
  readonly listIndex?: ListIndexChoice | false
  /**
   * The catalog an ingest updates: the works it kept as they were keep their vectors, and its model embeds
   * the others, unless the model must be trained again (`../texts/model-reuse-policy.ts`) or another one is
   * asked for. Default: every work embedded by a model trained here.
   */
  readonly update?: VectorsUpdate
  /**
   * Works embedded so far, of all; the training pass counts as the first half when there is one. The list
   * index reports its own steps: vectors assigned to lists, of all.
   */
  readonly onProgress?: (done: number, total: number, step: VectorBuildStep) => void
}

export type VectorBuildStep = 'training' | 'embedding' | 'indexing'

/** What an update's vectors start from. */
export interface VectorsUpdate {
  /** The folder of the catalog being updated, and its vectors. */
  readonly catalogDir: string
  readonly vectors: VectorIndexManifest
  /** The works the update kept as they were (`stageUnchangedWorks`). */
  readonly unchanged: UnchangedWorks
  /** Train the built-in model again (and embed every work) whatever the share of works changed. */
  readonly retrain?: boolean
}

/** A batch read and its texts sent to the embedder (`works`: those with text and no kept vector), written once its vectors come. */
interface EmbeddingBatch {
  readonly batch: readonly WorkText[]
  readonly works: readonly WorkText[]
  readonly vectors: Promise<readonly Float32Array[]>
}

/** The model that embeds the works, as the manifest records it. */
interface VectorsModel {
  readonly embedder: Embedder
  readonly made: VectorEmbedderRecord
  readonly lsa?: LsaModelRecord
}

/**
 * Training costs about 1.5 ms of CPU a work at 100k (randomised SVD: its products and Gram–Schmidt run over
 * the training rows) and quality hardly moves past a few ten thousand works (BENCHMARKS.md, "Semantic search").
 */
const DEFAULT_MAX_TRAINING_DOCUMENTS = 25_000
const TRAINING_TABLE = 'vector_training_rows'
/** A work's place in the order training works are picked in: a seeded hash of its id, in [0, 1). */
const trainingKey = (id: string, seed: number): number => seededIdFraction(`train/${id}`, seed)
const DEFAULT_LIST_INDEX_MIN_ROWS = 50_000
const MIN_LSA_DIMENSIONS = 8
const BUILD_TABLE = 'vector_build'
/** The vectors an update keeps: `id`, `norm` and `row` in the updated catalog's matrix. */
const KEPT_TABLE = 'vector_kept'
/** Where the works' texts are written when no texts files are given (inside `outDir`; removed after). */
const TEXTS_WORK_DIR = '.vectors-texts'
/** An update's works in id order, the kept ones without texts (inside `vectors/` while it is built). */
const UPDATE_ORDER_FILE = `${VECTORS_DIR}/.update-order.parquet`

export async function buildWorkVectors(options: BuildWorkVectorsOptions): Promise<VectorIndexManifest> {
  if (options.batchSize !== undefined && (!Number.isSafeInteger(options.batchSize) || options.batchSize < 1))
    throw new Error(`batchSize must be a positive whole number of works, got ${options.batchSize}`)
  if (
    options.embeddingWorkers !== undefined &&
    (!Number.isSafeInteger(options.embeddingWorkers) || options.embeddingWorkers < 0)
  )
    throw new Error(
      `embeddingWorkers must be a whole number of threads (0: the main thread), got ${options.embeddingWorkers}`,
    )
  // An update that keeps the model embeds only the works it wrote: their texts alone are read, and the kept
  // works come from the old matrix (at 100k works, reading every work's texts took 7.6 s).
  const kept = options.update === undefined ? undefined : keptModel(options.update, options.vectors)
  if (options.texts !== undefined && kept !== undefined && options.update !== undefined)
    return buildVectorsFrom(options, {
      changed: await options.texts.changedOf('works', options.update.unchanged.keptBelow),
    })
  if (options.texts !== undefined) return buildVectorsFrom(options, await options.texts.of('works'))
  const workDir = join(options.outDir ?? options.catalogDir, TEXTS_WORK_DIR)
  try {
    const texts = await RecordTextsFiles.ofCatalog(options.session, options.catalogDir, workDir)
    return await buildVectorsFrom(options, await texts.of('works'))
  } finally {
    await rm(workDir, { recursive: true, force: true })
  }
}

/**
 * `texts`: the works' texts file, in id order; or, for an update that keeps the model, the texts of only the
 * works it wrote (`changed`), which the kept works join in id order.
 */
async function buildVectorsFrom(
  options: BuildWorkVectorsOptions,
  texts: string | { readonly changed: string },
): Promise<VectorIndexManifest> {
  const { session, catalogDir } = options
  const idOrder = options.idOrder ?? 'by-number'
  const compareIds = letterIdComparator(idOrder)
  const outDir = options.outDir ?? catalogDir
  const output = (path: string) => join(outDir, ...path.split('/'))
  const batchSize = options.batchSize ?? 32_768
  await mkdir(output(VECTORS_DIR), { recursive: true })
  const files: CatalogFile[] = []
  const record = async (path: string, rows: number) =>
    files.push({ path, bytes: (await stat(output(path))).size, rows })

  const kept = options.update === undefined ? undefined : keptModel(options.update, options.vectors)
  if (typeof texts !== 'string' && kept === undefined)
    throw new Error('Only an update that keeps the model embeds the changed works alone')
  const worksTexts = typeof texts === 'string' ? texts : output(UPDATE_ORDER_FILE)
  const [counted] = await session.rows('SELECT count(*) AS n FROM read_parquet($1)', [
    typeof texts === 'string' ? texts : texts.changed,
  ])
  // Works gone through: an update's order file, once written, holds the kept works too.
  let total = Number(counted?.n ?? 0)
  // Works embedded: an update that keeps the model embeds those it wrote alone.
  const toEmbed = total
  const model =
    kept === undefined
      ? await trainedModel(options, worksTexts, total, output, record)
      : await copiedModel(
          kept,
          output,
          record,
          options.vectors.kind === 'openai-compatible' ? options.vectors.embedder : undefined,
        )
  const { made, lsa } = model
  const workers = options.embeddingWorkers ?? defaultEmbeddingWorkers(toEmbed)
  if (kept !== undefined)
    await session.run(
      `CREATE OR REPLACE TEMP TABLE ${KEPT_TABLE} AS
       SELECT v.id, v.norm, v.file_row_number AS "row"
       FROM read_parquet($1, file_row_number = true) v SEMI JOIN ${kept.unchangedTable} u ON u.id = v.id`,
      [join(kept.catalogDir, ...kept.vectors.file.split('/'))],
    )
  // The works to go through in id order: those the update wrote, with their texts, and the kept ones.
  if (typeof texts !== 'string')
    total = await withSettings(session, { preserve_insertion_order: true }, () =>
      session.run(
        `COPY (SELECT * FROM (SELECT id, display_name, texts FROM read_parquet($1)
           UNION ALL SELECT id, NULL, NULL FROM ${KEPT_TABLE}) ORDER BY ${letterIdOrderSql('id', idOrder)}) TO $2 (FORMAT parquet, COMPRESSION lz4_raw)`,
        [texts.changed, worksTexts],
      ),
    )
  const offset = kept !== undefined || lsa === undefined ? 0 : total
  const span = kept !== undefined || lsa === undefined ? total : 2 * total
  await session.run(`CREATE OR REPLACE TEMP TABLE ${BUILD_TABLE} (id VARCHAR, norm FLOAT)`)
  let rows = 0
  // The built-in model embeds on worker threads that read it from the files just written; a served model or
  // the sentence encoder embeds as it does.
  const pool =
    lsa === undefined || workers === 0
      ? undefined
      : new LsaEmbeddingPool(
          { vocabulary: output(lsa.vocabularyFile), projection: output(lsa.projectionFile) },
          made,
          workers,
        )
  const embedder = pool ?? model.embedder
  try {
    const appender = await session.appender(BUILD_TABLE)
    const matrix = await open(output(WORK_VECTOR_MATRIX_FILE), 'w')
    const keptMatrix =
      kept === undefined
        ? undefined
        : await open(join(kept.catalogDir, ...kept.vectors.matrixFile.split('/')), 'r').catch(
            async (error: unknown) => {
              await matrix.close()
              throw error
            },
          )
    try {
      let done = 0
      let previousId: string | undefined
      const write = async ({ batch, works, vectors: embedding }: EmbeddingBatch): Promise<void> => {
        const bytes: Int8Array[] = []
        const embedded = new Map<string, { readonly values: Int8Array; readonly norm: number }>()
        const vectors = await embedding
        works.forEach((work, index) => {
          const vector = vectors[index]
          if (vector === undefined || vector.length !== embedder.dimensions)
            throw new Error(
              `The embedder returned ${vector === undefined ? 'no vector' : `a vector of ${vector.length} numbers`} for work ${work.id}; ${embedder.dimensions} were expected`,
            )
          embedded.set(work.id, quantizeVector(vector))
        })
        const keptRows =
          keptMatrix === undefined ? undefined : await readKeptRows(keptMatrix, batch, made.dimensions)
        for (const work of batch) {
          const vector =
            work.kept === undefined
              ? embedded.get(work.id)
              : { values: keptRows!(work.kept.row), norm: work.kept.norm }
          if (vector === undefined || vector.norm === 0) continue
          // The matrix's rows follow the ids' order with nothing to sort them by later: the works come in
          // id order, and this checks it.
          if (previousId !== undefined && !(compareIds(previousId, work.id) < 0))
            throw new Error(`The works came out of id order at ${work.id}; the vector matrix needs id order`)
          previousId = work.id
          appender.appendVarchar(work.id)
          appender.appendFloat(vector.norm)
          appender.endRow()
          bytes.push(vector.values)
          rows++
        }
        const block = new Uint8Array(bytes.reduce((sum, values) => sum + values.length, 0))
        let at = 0
        for (const values of bytes) {
          block.set(new Uint8Array(values.buffer, values.byteOffset, values.length), at)
          at += values.length
        }
        for (let written = 0; written < block.length; )
          written += (await matrix.write(block, written, block.length - written)).bytesWritten
        done += batch.length
        options.onProgress?.(offset + done, span, 'embedding')
      }
      // A batch's texts go to the embedder before the batch before it is written, and the next is read while
      // they are embedded: on worker threads the embedding overlaps the reading and writing around it.
      let pending: EmbeddingBatch | undefined
      for await (const batch of readWorkTexts(
        session,
        worksTexts,
        batchSize,
        undefined,
        kept === undefined ? undefined : KEPT_TABLE,
      )) {
        const works = batch.filter((work) => work.kept === undefined && work.text !== '')
        const vectors = embedder.embed(works.map((work) => work.text))
        // Awaited when its batch is written; a failure before then (the batch before failing to write) must
        // not go unhandled meanwhile.
        vectors.catch(() => {})
        if (pending !== undefined) await write(pending)
        pending = { batch, works, vectors }
      }
      if (pending !== undefined) await write(pending)
    } finally {
      appender.closeSync()
      await matrix.close()
      await keptMatrix?.close()
    }
    await session.run(
      `COPY (SELECT id, norm FROM ${BUILD_TABLE} ORDER BY ${letterIdOrderSql('id', idOrder)}) TO $1 (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384)`,
      [output(WORK_VECTORS_FILE)],
    )
  } finally {
    await pool?.close()
    await session.run(`DROP TABLE IF EXISTS ${BUILD_TABLE}`)
    await session.run(`DROP TABLE IF EXISTS ${KEPT_TABLE}`)
    if (typeof texts !== 'string') await rm(worksTexts, { force: true })
  }
  await record(WORK_VECTORS_FILE, rows)
  await record(WORK_VECTOR_MATRIX_FILE, rows)
  const minRows = Math.max(
    1,
    (options.listIndex === false ? undefined : options.listIndex?.minRows) ?? DEFAULT_LIST_INDEX_MIN_ROWS,
  )
  // A kept model whose vectors were judged and had no structure for lists to follow has none now: most
  // vectors are the same ones, made by the same model, until it is trained again (`modelReuse`). At 100k
  // generated works, judging again (a sample's k-means and its scan share) was 6.4 s of a 1% update's 30.
  const declinedBefore = kept?.vectors.listIndexDeclined
  const judged =
    options.listIndex === false || rows < minRows
      ? undefined
      : declinedBefore !== undefined
        ? { declined: declinedBefore }
        : await buildListIndex(output, rows, made.dimensions, options.listIndex ?? {}, options.onProgress)
  const listIndex = judged !== undefined && 'index' in judged ? judged.index : undefined
  const listIndexDeclined = judged !== undefined && 'declined' in judged ? judged.declined : undefined
  if (listIndex !== undefined) await record(listIndex.file, rows)
  return {
    format: VECTOR_INDEX_FORMAT,
    formatVersion: VECTOR_INDEX_FORMAT_VERSION,
    entity: 'works',
    file: WORK_VECTORS_FILE,
    matrixFile: WORK_VECTOR_MATRIX_FILE,
    count: rows,
    dimensions: made.dimensions,
    quantization: VECTOR_QUANTIZATION,
    embedder: made,
    ...(lsa === undefined ? {} : { lsa }),
    ...(listIndex === undefined ? {} : { listIndex }),
    ...(listIndexDeclined === undefined ? {} : { listIndexDeclined }),
    files,
  }
}

type RecordFile = (path: string, rows: number) => Promise<unknown>

/** The built-in model trained on the catalog's works, or the embeddings server's model: written, recorded. */
async function trainedModel(
  options: BuildWorkVectorsOptions,
  worksTexts: string,
  total: number,
  output: (path: string) => string,
  record: RecordFile,
): Promise<VectorsModel> {
  const { session } = options
  const batchSize = options.batchSize ?? 32_768
  if (options.vectors.kind === 'use-lite') {
    const embedder = await createUseLiteEmbedder()
    return {
      embedder,
      made: { modelId: embedder.modelId, dimensions: embedder.dimensions, kind: 'use-lite' },
    }
  }
  if (options.vectors.kind !== 'lsa') {
    const { embedder } = options.vectors
    return {
      embedder,
      made: {
        modelId: embedder.modelId,
        dimensions: embedder.dimensions,
        kind: 'openai-compatible',
        model: options.vectors.model,
      },
    }
  }
  const choice = options.vectors
  const seed = choice.seed ?? 1
  const holdOut = choice.holdOutFraction ?? 0
  const maxTraining = choice.maxTrainingDocuments ?? DEFAULT_MAX_TRAINING_DOCUMENTS
  // The works trained on, picked by id before any text is read: the `maxTraining` of lowest seeded key
  // among those not held out, the same works on every run.
  const sample = await pickTrainingSample(
    session,
    worksTexts,
    TRAINING_TABLE,
    (id) => (isHeldOut(id, seed, holdOut) ? Number.NaN : trainingKey(id, seed)),
    maxTraining,
  )
  const documents: string[][] = []
  try {
    let read = 0
    for await (const batch of readWorkTexts(session, worksTexts, batchSize, sample)) {
      for (const work of batch) if (work.text !== '') documents.push(textTerms(work.text))
      read = Math.min(total, read + batchSize)
      options.onProgress?.(read, 2 * total, 'training')
    }
  } finally {
    await session.run(`DROP TABLE IF EXISTS ${TRAINING_TABLE}`)
  }
  const dimensions = Math.min(
    choice.dimensions ?? DEFAULT_LSA_DIMENSIONS,
    Math.max(MIN_LSA_DIMENSIONS, Math.floor(documents.length / 4)),
  )
  const model = trainLsaModel(documents, { dimensions, seed })
  const paths = LSA_MODEL_FILES
  const written = await writeLsaModel(model, {
    vocabulary: output(paths.vocabulary),
    projection: output(paths.projection),
  })
  await record(paths.vocabulary, model.vectorizer.size)
  await record(paths.projection, model.vectorizer.size)
  return {
    embedder: lsaEmbedder(model, written.modelId),
    made: { modelId: written.modelId, dimensions, kind: 'lsa' },
    lsa: {
      vocabularyFile: paths.vocabulary,
      projectionFile: paths.projection,
      seed,
      terms: model.vectorizer.size,
      trainingDocuments: documents.length,
      holdOutFraction: holdOut,
    },
  }
}

const LSA_MODEL_FILES = {
  vocabulary: `${VECTORS_DIR}/lsa-vocabulary.bin`,
  projection: `${VECTORS_DIR}/lsa-projection.f32`,
} as const

/** The updated catalog's vectors and what its model keeps recording, when the update keeps them. */
interface KeptVectors {
  readonly catalogDir: string
  readonly vectors: VectorIndexManifest
  /** The table of the works whose vectors are kept (`UnchangedWorks`). */
  readonly unchangedTable: string
  readonly worksChangedSince: number
}

/**
 * Whether an update keeps the catalog's vectors: the same kind of model with the same settings (for LSA, the
 * seed, held-out share and any dimensions asked for; for a server, the same model id and dimensions), and for
 * LSA, few enough works changed since it was trained (`modelReuse`).
 */
function keptModel(update: VectorsUpdate, choice: VectorsChoice): KeptVectors | undefined {
  const previous = update.vectors
  const { changed, works } = update.unchanged
  if (choice.kind === 'lsa') {
    const lsa = previous.lsa
    if (previous.embedder.kind !== 'lsa' || lsa === undefined) return undefined
    if (lsa.seed !== (choice.seed ?? 1) || lsa.holdOutFraction !== (choice.holdOutFraction ?? 0))
      return undefined
    if (choice.dimensions !== undefined && choice.dimensions !== previous.dimensions) return undefined
    const reuse = modelReuse(lsa.worksChangedSince, changed, works, update.retrain === true)
    return reuse === undefined ? undefined : keptFrom(update, reuse.worksChangedSince)
  }
  if (choice.kind === 'use-lite')
    // The encoder is not trained here and its weights are named by its model id: the same id, the same vectors.
    return previous.embedder.kind === 'use-lite' &&
      previous.embedder.modelId === USE_LITE_MODEL_ID &&
      update.retrain !== true
      ? keptFrom(update, 0)
      : undefined
  const { embedder, model } = choice
  const same =
    previous.embedder.kind === 'openai-compatible' &&
    previous.embedder.modelId === embedder.modelId &&
    previous.embedder.model === model &&
    previous.dimensions === embedder.dimensions
  // A served model is not trained here, but `retrain` still re-embeds every work (the server's model may
  // have changed under the same name).
  return same && update.retrain !== true ? keptFrom(update, 0) : undefined
}

const keptFrom = (update: VectorsUpdate, worksChangedSince: number): KeptVectors => ({
  catalogDir: update.catalogDir,
  vectors: update.vectors,
  unchangedTable: update.unchanged.table,
  worksChangedSince,
})

/** The updated catalog's model, copied into the new catalog (LSA) or brought by the caller (a server's). */
async function copiedModel(
  kept: KeptVectors,
  output: (path: string) => string,
  record: RecordFile,
  served: Embedder | undefined,
): Promise<VectorsModel> {
  const { vectors, catalogDir } = kept
  if (vectors.embedder.kind === 'use-lite')
    return { embedder: await createUseLiteEmbedder(), made: vectors.embedder }
  if (vectors.lsa === undefined) return { embedder: served!, made: vectors.embedder }
  const embedder = await loadCatalogEmbedder(catalogDir, vectors)
  if (embedder === undefined) throw new Error('The LSA model of the catalog being updated could not be read')
  const paths = LSA_MODEL_FILES
  await copyFile(join(catalogDir, ...vectors.lsa.vocabularyFile.split('/')), output(paths.vocabulary))
  await copyFile(join(catalogDir, ...vectors.lsa.projectionFile.split('/')), output(paths.projection))
  await record(paths.vocabulary, vectors.lsa.terms)
  await record(paths.projection, vectors.lsa.terms)
  return {
    embedder,
    made: vectors.embedder,
    lsa: {
      ...vectors.lsa,
      vocabularyFile: paths.vocabulary,
      projectionFile: paths.projection,
      worksChangedSince: kept.worksChangedSince,
    },
  }
}

/**
 * The kept vectors of a batch, read from the updated catalog's matrix in one read: they lie in the matrix in
 * the batch's order (both are in id order), so the read spans the batch's first to last kept row.
 */
async function readKeptRows(
  matrix: FileHandle,
  batch: readonly WorkText[],
  dimensions: number,
): Promise<(row: number) => Int8Array> {
  let first = Number.POSITIVE_INFINITY
  let last = -1
  for (const work of batch)
    if (work.kept !== undefined) {
      first = Math.min(first, work.kept.row)
      last = Math.max(last, work.kept.row)
    }
  if (last < 0) return () => new Int8Array(0)
  const length = (last - first + 1) * dimensions
  const block = new Int8Array(length)
  for (let done = 0; done < length; ) {
    const { bytesRead } = await matrix.read(block, done, length - done, first * dimensions + done)
    if (bytesRead === 0) throw new Error(`The kept vector matrix ended at row ${first + done / dimensions}`)
    done += bytesRead
  }
  return (row) => block.subarray((row - first) * dimensions, (row - first + 1) * dimensions)
}

/** Builds and writes the list index of the matrix at `WORK_VECTOR_MATRIX_FILE`; undefined when none pays. */
const buildListIndex = async (
  output: (path: string) => string,
  rows: number,
  dimensions: number,
  choice: ListIndexChoice,
  onProgress: BuildWorkVectorsOptions['onProgress'],
): Promise<{ readonly index: VectorListIndexRecord } | { readonly declined: VectorListIndexDeclined }> => {
  const matrix = await open(output(WORK_VECTOR_MATRIX_FILE), 'r')
  try {
    const read = async (position: number, length: number) => {
      const block = new Int8Array(length)
      for (let done = 0; done < length; ) {
        const { bytesRead } = await matrix.read(block, done, length - done, position + done)
        if (bytesRead === 0) throw new Error(`The vector matrix ended at byte ${position + done}`)
        done += bytesRead
      }
      return block
    }
    const built = await buildIvfIndex(int8FileRowSource(read, rows, dimensions), {
      ...choice,
      ...(onProgress === undefined
        ? {}
        : { onProgress: (done, total) => onProgress(done, total, 'indexing') }),
    })
    if (built.index === undefined)
      return {
        declined: {
          decidedOn: built.decidedOn,
          scanShare: built.calibration.scanRows / rows,
          reason: built.reason,
        },
      }
    await writeFile(output(WORK_VECTOR_LIST_INDEX_FILE), encodeIvfIndex(built.index))
    const { calibration } = built
    const index: VectorListIndexRecord = {
      kind: 'ivf',
      file: WORK_VECTOR_LIST_INDEX_FILE,
      lists: calibration.lists,
      scanRows: calibration.scanRows,
      recall: calibration.recall,
      targetRecall: calibration.targetRecall,
      calibrationQueries: calibration.queries,
      sampleRows: calibration.sampleRows,
      seed: calibration.seed,
    }
    return { index }
  } finally {
    await matrix.close()
  }
}
