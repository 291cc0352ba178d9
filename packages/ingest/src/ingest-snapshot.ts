// `ingestSnapshot`: reads an OpenAlex snapshot (legacy or 2026 layout) and writes a catalog. The steps:
//   1. plan: find the layout, check the manifests against the files (nothing is read yet);
//   2. parse: worker threads, one per core, read every part file once (a Parquet part through a DuckDB of
//      the worker's own, parquet-row-reader.ts): each record is compressed into its entity's record store
//      and every value the catalog derives from it is written as one JSON line, which DuckDB loads as soon
//      as the part is done (while the workers go on); the id lists are staged beside them. All of it inside
//      a build folder next to the catalog. When updating, the catalog's own records are not parsed again:
//      its ids are staged from its files, and its record store begins the new one;
//   3. build: one version per id (newest partition wins), merges and deletions, Parquet files (the rows an
//      update keeps read from the catalog's own files), catalog.json, the serving database;
//   4. commit: swap the build folder in. Any error before that leaves the existing catalog untouched.
// A run stopped during step 2 (killed, or failing for want of memory or disk) leaves its build folder, and the
// next run of the same ingest resumes it: each part is staged in one transaction with a record of it
// (parse-checkpoint.ts), and only the parts not recorded are parsed again.
import { mkdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { listValue } from '@duckdb/node-api'
import { buildServingDatabase } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_ENTITIES,
  CATALOG_FORMAT,
  CATALOG_FORMAT_VERSION,
  CATALOG_MANIFEST_FILE,
  type CatalogEntity,
  type CatalogEntityInfo,
  type CatalogIngestRecord,
  type CatalogManifest,
  catalogEntityInfo,
  RECORD_CODEC_ID,
  RECORDS_DIR,
  type RecordCodecId,
  readCatalogManifest,
  recordDictionaryPath,
  recordStorePath,
  SERVING_DATABASE_FILE,
  withSearchIndex,
  withTextTagger,
  withVectorIndex,
} from '@oqlkit/catalog'
import {
  type BuiltCatalog,
  buildCatalog,
  type PreviousCatalogFiles,
  type StagedPart,
} from './build/catalog-builder.ts'
import {
  CREATE_ID_STAGE_TABLES_SQL,
  createStageTableSql,
  LOAD_CATALOG_DELETED_SQL,
  LOAD_CATALOG_MERGED_SQL,
  loadStagedRowsSql,
  SNAPSHOT_SEQ_STRIDE,
  stagePreviousIdsSql,
} from './build/catalog-sql.ts'
import {
  abandonBuildFolder,
  type BuildFolder,
  commitBuildFolder,
  folderBytes,
  leaveBuildFolder,
  openBuildFolder,
} from './build/catalog-swap.ts'
import {
  type AssembledRecordStore,
  assembleRecordStore,
  type ChosenRecordCoding,
  DICTIONARY_EXAMPLES,
  type RecordCoding,
  type RecordSegment,
  recordCodingFor,
} from './build/record-store-assembler.ts'
import { defaultStagingMemoryLimit, StagingDatabase } from './build/staging-database.ts'
import { IngestError, ingestErrorDetails } from './ingest-error.ts'
import type { EntityIngestCounts, IngestProgressListener, IngestSummary } from './ingest-progress.ts'
import { parquetReaderMemoryLimit } from './parse/parquet-row-reader.ts'
import {
  type CheckpointPhase,
  checkpointFingerprint,
  createCheckpointTables,
  type ParseCheckpoint,
  type ParsedTask,
  resumableCheckpoint,
  saveCodings,
  sealCheckpoint,
  setCheckpointPhase,
  stageParsedTask,
} from './parse/parse-checkpoint.ts'
import { defaultParseWorkers, type ParseDone, runParseTasks } from './parse/part-parse-pool.ts'
import type { ParseTask, ParseWorkerData } from './parse/part-parse-worker.ts'
import { checkParquetPart, checkRecordCount, firstRecordsAcross } from './parse/part-stager.ts'
import { recordExtractionSpecs } from './parse/record-extraction-spec.ts'
import { readDeletedIds, readMergedIds } from './plan/id-list-reader.ts'
import type { SnapshotIdFile, SnapshotPart, SnapshotPlan } from './plan/snapshot-plan.ts'
import { planSnapshot } from './plan/snapshot-planner.ts'
import { ProgressReporter } from './progress-reporter.ts'
import { buildSearchIndex } from './search/search-index-builder.ts'
import { buildTextTagger, DEFAULT_TEXT_TAGGER_SEED } from './tagging/text-tagger-builder.ts'
import { RecordTextsFiles } from './texts/record-texts-file.ts'
import { buildWorkVectors, type VectorsChoice } from './vectors/work-vector-builder.ts'

export interface IngestOptions {
  readonly snapshotDir: string
  readonly outDir: string
  readonly onProgress?: IngestProgressListener
  /**
   * `update` (default): when outDir holds a catalog, its records stay unless the snapshot has a newer
   * version of the same id, or merges or deletes it. `replace`: the catalog is built from the snapshot alone.
   */
  readonly mode?: 'update' | 'replace'
  /** Which copy to read when the snapshot holds both 2026 formats. Default `jsonl`. */
  readonly preferFormat?: 'jsonl' | 'parquet'
  /** DuckDB threads and memory limit for the build; `threads` is also the number of parse workers. */
  readonly threads?: number
  readonly memoryLimit?: string
  /**
   * The codec of the record stores a build starts (default `RECORD_CODEC_ID`, zstd). An update keeps the
   * codec of each store the catalog has records in, whatever this says (the new records join that store); an
   * entity the catalog has no records of starts a store in this codec.
   */
  readonly recordCodec?: RecordCodecId
  /**
   * The zstd command a new zstd store's dictionary is trained with (default `zstd` on the PATH; when it is
   * missing, the store gets the raw dictionary of its first records and the summary warns). For tests.
   */
  readonly zstdCommand?: string
  /** The most record bytes sorted at once (default: a sixth of the memory limit); for tests. */
  readonly sortBatchBytes?: number
  /**
   * Build the full-text search index with the catalog (default true). Without it the catalog answers every
   * query but searches; `indexCatalogSearch` (`oqlkit index`) adds the index later.
   */
  readonly searchIndex?: boolean
  /**
   * Train the text-tagging model (`/text`) from the works (default true). The same works and seed give a
   * byte-identical model; the seed only matters when the catalog has more works than are trained on.
   */
  readonly textTagger?: boolean
  readonly textTaggerSeed?: number
  /**
   * The works' vectors for semantic search (default: the built-in LSA model, trained here from the titles
   * and abstracts); `false` for none. With an embeddings server, its client computes them.
   */
  readonly vectors?: VectorsChoice | false
  /**
   * Resume a stopped run of the same ingest (default true): when a build folder a killed run left beside the
   * catalog was staging the same files for the same catalog, the parts it had parsed are not read again.
   * `false` removes such a folder and starts over.
   */
  readonly resume?: boolean
}

const STAGING_DIR = '.staging'
/** Where the records' texts wait for the search index, vectors and tagger (inside the build folder). */
const TEXTS_DIR = '.texts'

/** The segment number of the updated catalog's own record store (no staged row refers to it). */
const PREVIOUS_STORE_PART = -1

export async function ingestSnapshot(options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now()
  const plan = await planSnapshot(options.snapshotDir, {
    ...(options.preferFormat === undefined ? {} : { preferFormat: options.preferFormat }),
  })
  const progress = new ProgressReporter(plan, options.onProgress)
  progress.emit('scan')

  const codec = options.recordCodec ?? RECORD_CODEC_ID
  const stagingOptions = {
    ...(options.threads === undefined ? {} : { threads: options.threads }),
    ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
  }
  // What this run's checkpoint is sealed with, and what a stopped run's must match to be resumed: worked out
  // once the lock is held (whether the catalog is updated depends on it), once.
  let fingerprint: Promise<string> | undefined
  const fingerprintFor = (hasCatalog: boolean): Promise<string> => {
    fingerprint ??= (async () => {
      const updating = hasCatalog && (options.mode ?? 'update') === 'update'
      const catalog = updating ? await readCatalogManifest(options.outDir) : undefined
      return checkpointFingerprint({
        plan,
        mode: updating ? 'update' : 'replace',
        codec,
        previous: catalog?.ok === true ? catalog.manifest : null,
      })
    })()
    return fingerprint
  }
  let checkpoint: ParseCheckpoint | undefined
  const build = await openBuildFolder(options.outDir, {
    resume: async (path, hasCatalog) => {
      if (options.resume === false) return false
      const wanted = await fingerprintFor(hasCatalog)
      checkpoint = await resumableCheckpoint(join(path, STAGING_DIR), wanted, stagingOptions)
      return checkpoint !== undefined
    },
  })
  let db: StagingDatabase | undefined
  // A resumed run's checkpoint is sealed already: a failure of the machine's keeps it from the start.
  const cursor: StageCursor = {
    nextSeq: 1n,
    recordsRead: 0,
    rewritten: 0,
    checkpoint: build.resumed ? 'parsing' : 'unsealed',
  }
  try {
    const stagingDir = join(build.path, STAGING_DIR)
    db = await StagingDatabase.open(stagingDir, stagingOptions)
    const updating = build.hasCatalog && (options.mode ?? 'update') === 'update'
    const previous = updating ? await readPreviousCatalog(build) : undefined
    const resumed = build.resumed ? checkpoint : undefined
    if (resumed === undefined) {
      for (const info of CATALOG_ENTITIES) await db.run(createStageTableSql(info))
      for (const sql of CREATE_ID_STAGE_TABLES_SQL) await db.run(sql)
      await createCheckpointTables(db)
    }
    const staged = await stageRecords(db, plan, build.path, stagingDir, previous, cursor, progress, {
      workers: options.threads ?? defaultParseWorkers(),
      codec,
      ...(options.zstdCommand === undefined ? {} : { zstdCommand: options.zstdCommand }),
      resumed,
      fingerprint: await fingerprintFor(build.hasCatalog),
    })
    if (previous !== undefined) await stagePreviousIds(db, build, previous.manifest, cursor)
    await stageIdFiles(db, plan, cursor, progress)
    const read = staged.read

    const built = await buildCatalog(
      db,
      build.path,
      staged.stores,
      (step, done, total) => progress.building(step, done, total),
      {
        stagedParts: staged.stagedParts,
        ...(previous === undefined ? {} : { previous: previousCatalogFiles(previous) }),
        ...(options.sortBatchBytes === undefined ? {} : { sortBatchBytes: options.sortBatchBytes }),
      },
    )
    // The builders after the tables read the records' texts from the record stores just written, each
    // entity's once, into files shared between them and removed before the swap.
    const texts = new RecordTextsFiles({
      session: db,
      catalogDir: build.path,
      stores: new Map(CATALOG_ENTITIES.map(({ entity }) => [entity, built.entities[entity].recordStore])),
      workDir: join(build.path, TEXTS_DIR),
      onEntity: (entity) => progress.building(`texts of ${entity}`, 0, 1),
    })
    // The full-text index is part of the catalog: built in the same folder, swapped in with it.
    const searchIndex =
      options.searchIndex === false
        ? undefined
        : await buildSearchIndex({
            connection: db,
            catalogDir: build.path,
            texts,
            onEntity: (entity, done, total) => progress.building(`search/${entity}`, done, total),
          })
    const vectors =
      options.vectors === false
        ? undefined
        : await buildWorkVectors({
            session: db,
            catalogDir: build.path,
            texts,
            vectors: options.vectors ?? { kind: 'lsa' },
            onProgress: (done, total, step) => progress.building(`vectors (${step})`, done, total),
          })
    // The tagger reads the works' texts without DuckDB's staging session: their file is written first.
    const worksTexts = options.textTagger === false ? undefined : await texts.of('works')
    db.close()
    db = undefined
    await rm(stagingDir, { recursive: true, force: true })
    const textTagger =
      worksTexts === undefined
        ? undefined
        : await buildTextTagger({
            catalogDir: build.path,
            worksTexts,
            seed: options.textTaggerSeed ?? DEFAULT_TEXT_TAGGER_SEED,
            onProgress: (done, total) => progress.building('text-tagger', done, total),
          })

    await rm(join(build.path, TEXTS_DIR), { recursive: true, force: true })

    const ingest: CatalogIngestRecord = {
      at: new Date().toISOString(),
      snapshotDir: plan.snapshotDir,
      layout: plan.layout,
      filesRead: plan.parts.length + plan.idFiles.length,
      recordsRead: cursor.recordsRead,
    }
    const catalog = catalogManifestOf(built, ingest, previous?.manifest.ingests ?? [])
    const indexed = searchIndex === undefined ? catalog : withSearchIndex(catalog, searchIndex)
    const tagged = textTagger === undefined ? indexed : withTextTagger(indexed, textTagger.manifest)
    const described = vectors === undefined ? tagged : withVectorIndex(tagged, vectors)
    const serving = await buildServingDatabase(build.path, described, {
      // The same bound as the build's: DuckDB's own default is 80% of the machine.
      memoryLimit: options.memoryLimit ?? defaultStagingMemoryLimit(),
      onStep: (done, total) => progress.building(SERVING_DATABASE_FILE, done, total),
    })
    const manifest: CatalogManifest = { ...described, files: [...described.files, serving] }
    await writeFile(join(build.path, CATALOG_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
    progress.emit('commit')
    await commitBuildFolder(build)
    progress.emit('done')

    const entities = {} as Record<CatalogEntity, EntityIngestCounts>
    for (const info of CATALOG_ENTITIES) {
      const counts = built.counts[info.entity]
      entities[info.entity] = {
        recordsRead: read.get(info.entity) ?? 0,
        previousRecords: previous?.records.get(info.entity) ?? 0,
        superseded: counts.superseded,
        deleted: counts.deleted,
        merged: counts.merged,
        recordsWritten: counts.written,
      }
    }
    return {
      catalogDir: build.outDir,
      snapshotDir: plan.snapshotDir,
      layout: plan.layout,
      mode: previous !== undefined ? 'updated' : build.hasCatalog ? 'replaced' : 'created',
      filesRead: ingest.filesRead,
      bytesRead: progress.bytesTotal,
      recordsRead: cursor.recordsRead,
      recordsWritten: sum(Object.values(entities).map((counts) => counts.recordsWritten)),
      relevanceScoresDropped: cursor.rewritten,
      entities,
      linkRows: sum(Object.values(built.links).map((link) => link.rowCount)),
      externalIds: built.externalIds.rowCount,
      mergedIds: built.mergedIds.rowCount,
      deletedIds: built.deletedIds.rowCount,
      // Every byte the catalog holds on disk: its files, the search index, vectors, model and serving database.
      catalogBytes: await folderBytes(build.outDir),
      durationMs: Math.round(performance.now() - started),
      partsResumed: staged.partsResumed,
      warnings: [
        ...plan.warnings,
        ...build.removedLeftovers.map(
          ({ path, bytes }) =>
            `removed ${path} (${(bytes / 1_048_576).toFixed(1)} MB), left by an ingest that stopped before it finished${options.resume === false ? '' : ' and not resumable by this one (other files, or stopped after its parse)'}`,
        ),
        ...staged.warnings,
      ],
    }
  } catch (error) {
    db?.close()
    // A run that fails while parsing for a reason other than its input (out of memory or disk, say) keeps
    // what it staged: the same command, run again once that is fixed, resumes. Bad input is fixed by
    // changing a file, which a resume would not trust anyway.
    const staged = progress.partsStaged
    if (options.resume !== false && resumableAfter(error) && cursor.checkpoint === 'parsing' && staged > 0) {
      await leaveBuildFolder(build)
      throw new Error(
        `${(error as Error).message}\nThe ${staged} part files staged so far are kept in ${build.path}: the same command resumes from them (or starts over with --no-resume).`,
        { cause: error },
      )
    }
    await abandonBuildFolder(build)
    throw error
  }
}

/** Whether a failure is the machine's (memory, disk, a file that became unreadable) rather than the input's. */
const resumableAfter = (error: unknown): boolean => !(error instanceof IngestError)

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0)

function catalogManifestOf(
  built: BuiltCatalog,
  ingest: CatalogIngestRecord,
  earlier: readonly CatalogIngestRecord[],
): CatalogManifest {
  return {
    format: CATALOG_FORMAT,
    formatVersion: CATALOG_FORMAT_VERSION,
    createdAt: ingest.at,
    sourceLayout: ingest.layout,
    ingests: [...earlier, ingest],
    entities: built.entities,
    links: built.links,
    externalIds: built.externalIds,
    mergedIds: built.mergedIds,
    deletedIds: built.deletedIds,
    files: built.files,
    extensions: {},
  }
}

/** Where staging stands: the next sequence number of the id lists (arrival order) and tallies. */
interface StageCursor {
  nextSeq: bigint
  recordsRead: number
  rewritten: number
  /** The checkpoint's phase: `unsealed` until everything before the parse is staged. */
  checkpoint: CheckpointPhase | 'unsealed'
}

interface PreviousCatalog {
  readonly manifest: CatalogManifest
  readonly records: ReadonlyMap<CatalogEntity, number>
  readonly outDir: string
}

/** A file of the catalog being updated, by its catalog-relative path. */
const previousFile = (previous: PreviousCatalog, relative: string): string =>
  join(previous.outDir, ...relative.split('/'))

/** The entities the catalog being updated has rows of. */
const previousEntities = (previous: PreviousCatalog): CatalogEntityInfo[] =>
  CATALOG_ENTITIES.filter((info) => previous.manifest.entities[info.entity].rowCount > 0)

function previousCatalogFiles(previous: PreviousCatalog): PreviousCatalogFiles {
  const files = (table: { readonly files: readonly string[] }) =>
    table.files.map((path) => previousFile(previous, path))
  return {
    entities: new Map(
      previousEntities(previous).map((info) => [info.entity, files(previous.manifest.entities[info.entity])]),
    ),
    links: new Map(Object.entries(previous.manifest.links).map(([name, table]) => [name, files(table)])),
    externalIds: files(previous.manifest.externalIds),
  }
}

async function readPreviousCatalog(build: BuildFolder): Promise<PreviousCatalog> {
  const result = await readCatalogManifest(build.outDir)
  if (!result.ok) {
    throw new IngestError({
      code: 'catalog-invalid',
      file: join(build.outDir, CATALOG_MANIFEST_FILE),
      detail: ingestErrorDetails.catalogInvalid(result.message),
    })
  }
  const records = new Map<CatalogEntity, number>()
  for (const info of CATALOG_ENTITIES)
    records.set(info.entity, result.manifest.entities[info.entity].rowCount)
  return { manifest: result.manifest, records, outDir: build.outDir }
}

const catalogInvalid = (file: string, error: unknown): IngestError =>
  new IngestError(
    { code: 'catalog-invalid', file, detail: ingestErrorDetails.catalogInvalid((error as Error).message) },
    { cause: error },
  )

/** The merges and deletions of the catalog being updated, before the snapshot's. */
async function stagePreviousIds(
  db: StagingDatabase,
  build: BuildFolder,
  manifest: CatalogManifest,
  cursor: StageCursor,
): Promise<void> {
  const load = async (sql: string, files: readonly string[]) => {
    for (const file of files) {
      const count = await db.run(sql, [join(build.outDir, ...file.split('/')), cursor.nextSeq])
      cursor.nextSeq += BigInt(count) + 1n
    }
  }
  try {
    await load(LOAD_CATALOG_MERGED_SQL, manifest.mergedIds.files)
    await load(LOAD_CATALOG_DELETED_SQL, manifest.deletedIds.files)
  } catch (error) {
    throw catalogInvalid(build.outDir, error)
  }
}

interface StagedRecords {
  readonly read: Map<CatalogEntity, number>
  readonly stores: Map<CatalogEntity, AssembledRecordStore>
  /** Each entity's parts as staged: their rows' numbers and the bytes of their rows files. */
  readonly stagedParts: Map<CatalogEntity, StagedPart[]>
  /** What could not be done as well as it should (a dictionary the zstd command could not train). */
  readonly warnings: readonly string[]
  /** Parts a stopped run had parsed, which this one did not read again. */
  readonly partsResumed: number
}

/**
 * Every record of the snapshot, parsed once by the parse workers: their derived values staged in DuckDB,
 * their compressed bytes assembled into each entity's record store (after the records of the catalog being
 * updated, whose ids are staged from its files).
 */
async function stageRecords(
  db: StagingDatabase,
  plan: SnapshotPlan,
  buildDir: string,
  stagingDir: string,
  previous: PreviousCatalog | undefined,
  cursor: StageCursor,
  progress: ProgressReporter,
  options: {
    readonly workers: number
    readonly codec: RecordCodecId
    readonly zstdCommand?: string
    /** The checkpoint of the stopped run this one resumes: its codings, and the parts it had parsed. */
    readonly resumed: ParseCheckpoint | undefined
    /** What the checkpoint of this run is sealed with (`checkpointFingerprint`). */
    readonly fingerprint: string
  },
): Promise<StagedRecords> {
  const resumed = options.resumed
  const rowsDir = join(stagingDir, 'rows')
  const segmentsDir = join(stagingDir, 'segments')
  for (const dir of [rowsDir, segmentsDir, join(buildDir, RECORDS_DIR)]) await mkdir(dir, { recursive: true })

  // The workers read Parquet parts themselves; their ids are checked here first, a column read.
  for (const [index, part] of plan.parts.entries())
    if (part.format === 'parquet' && resumed?.parsed.has(index) !== true) await checkParquetPart(db, part)
  // A resumed run compresses with the dictionaries the stopped one chose: its segments are kept.
  const codings =
    resumed?.codings ?? (await chooseRecordCodings(db, plan, previous, stagingDir, progress, options))
  const warnings = [...codings].flatMap(([entity, coding]) =>
    coding.warning === undefined
      ? []
      : [
          `${recordDictionaryPath(entity)}: no dictionary was trained (${coding.warning}); its records are compressed with the raw dictionary of its first records, about a tenth larger`,
        ],
  )

  const tasks: ParseTask[] = []
  const partOfTask = new Map<number, SnapshotPart>()
  const taskFiles = (index: number) => ({
    segmentPath: join(segmentsDir, `${index}.records`),
    rowsPath: join(rowsDir, `${index}.jsonl`),
    seqBase: (index + 1) * SNAPSHOT_SEQ_STRIDE,
  })
  // The ids of the catalog being updated, with their dates, compete with the snapshot's versions; their
  // rows stay in its files until the build reads the ones it keeps.
  // A resumed run has them staged already, as it has the codings: the checkpoint is sealed after both.
  if (resumed === undefined) {
    if (previous !== undefined)
      for (const info of previousEntities(previous)) {
        const files = previous.manifest.entities[info.entity].files.map((path) =>
          previousFile(previous, path),
        )
        await db.run(stagePreviousIdsSql(info), [listValue(files)]).catch((error: unknown) => {
          throw catalogInvalid(previous.outDir, error)
        })
      }
    await saveCodings(db, codings)
    await sealCheckpoint(db, options.fingerprint)
  }
  cursor.checkpoint = 'parsing'
  for (const part of plan.parts) {
    const index = tasks.length
    partOfTask.set(index, part)
    tasks.push({
      index,
      entity: part.entity.entity,
      ...taskFiles(index),
      codec: codings.get(part.entity.entity)!.codec,
      dictionary: codings.get(part.entity.entity)!.dictionary,
      path: part.path,
      format: part.format,
      partitionDate: part.partitionDate,
    })
  }

  // Each task's rows are loaded into its entity's staging table as soon as the task is done, one load at a
  // time, and its rows file removed: the rows of a big snapshot (19 KB a work, 190 GB at 10M works) never
  // wait on disk all at once, and DuckDB loads while the workers parse. The load and the checkpoint's record
  // of the part are one transaction (`stageParsedTask`).
  const stagedParts = new Map<CatalogEntity, StagedPart[]>()
  const noteStaged = (task: ParseTask, records: number, bytes: number) => {
    const part: StagedPart = { firstSeq: BigInt(task.seqBase), records, bytes }
    stagedParts.set(task.entity, [...(stagedParts.get(task.entity) ?? []), part])
  }
  const loadRows = async (task: ParseTask, result: ParseDone): Promise<void> => {
    const bytes = (await stat(task.rowsPath)).size
    const parsed: ParsedTask = {
      index: task.index,
      records: result.records,
      rewritten: result.rewritten,
      longestRow: result.longestRow,
      rowsBytes: bytes,
    }
    try {
      await stageParsedTask(db, parsed, task.segmentPath, async () => {
        if (bytes > 0)
          await db.run(loadStagedRowsSql(catalogEntityInfo(task.entity)!, result.longestRow), [
            listValue([task.rowsPath]),
          ])
      })
    } catch (error) {
      // Out of memory or disk here must say where, as the build steps do.
      throw new Error(`${task.entity}: loading the parsed records: ${(error as Error).message}`, {
        cause: error,
      })
    }
    noteStaged(task, result.records, bytes)
    progress.staged()
    await rm(task.rowsPath, { force: true })
  }
  let loads: Promise<void> = Promise.resolve()

  // The parts a stopped run parsed count as read, first: the progress goes on from where it stopped.
  const results = new Map<number, ParseDone>()
  let finished = 0
  for (const task of tasks) {
    const parsed = resumed?.parsed.get(task.index)
    if (parsed === undefined) continue
    results.set(task.index, {
      kind: 'done',
      index: task.index,
      records: parsed.records,
      rewritten: parsed.rewritten,
      segmentBytes: (await stat(task.segmentPath)).size,
      longestRow: parsed.longestRow,
    })
    noteStaged(task, parsed.records, parsed.rowsBytes)
    finished += parsed.records
    progress.resumed(partOfTask.get(task.index)!.bytes, finished)
  }
  const toParse = tasks.filter((task) => !results.has(task.index))
  progress.parsing()

  const running = new Map<number, number>()
  try {
    const workerData: ParseWorkerData = {
      specs: recordExtractionSpecs(),
      parquetMemoryLimit: parquetReaderMemoryLimit(await db.memoryLimitBytes()),
      parquetTempDirectory: join(stagingDir, 'parquet-readers'),
    }
    const parsed = await runParseTasks(toParse, workerData, options.workers, {
      cost: (task) => partOfTask.get(task.index)?.bytes ?? 0,
      onProgress: (task, records) => {
        running.set(task.index, records)
        const part = partOfTask.get(task.index)
        progress.reading(part?.path ?? task.entity, task.entity, finished + sum([...running.values()]))
      },
      onDone: (task, result) => {
        running.delete(task.index)
        finished += result.records
        const part = partOfTask.get(task.index)
        if (part !== undefined) {
          checkRecordCount(part, result.records)
          progress.fileDone(part.bytes, finished)
        }
        // After a failed load the rest are skipped: the chain stays rejected.
        loads = loads.then(() => loadRows(task, result))
        return loads
      },
    })
    for (const result of parsed) results.set(result.index, result)
  } catch (error) {
    // The staging database is closed after a failure: no load may still be running on it then.
    await loads.catch(() => {})
    throw error
  }
  const done = tasks.map((task) => results.get(task.index)!)
  for (const result of done) {
    cursor.recordsRead += result.records
    cursor.rewritten += result.rewritten
  }

  const read = new Map<CatalogEntity, number>()
  for (const info of CATALOG_ENTITIES) {
    const records = (task: ParseTask) => done[tasks.indexOf(task)]!.records
    read.set(info.entity, sum(tasks.filter((task) => task.entity === info.entity).map(records)))
  }
  // Putting the stores together removes the segments: from here a stopped run cannot resume.
  await setCheckpointPhase(db, 'building')
  cursor.checkpoint = 'building'
  const stores = await assembleRecordStores(db, buildDir, tasks, done, codings, previous, progress)
  return { read, stores, stagedParts, warnings, partsResumed: resumed?.parsed.size ?? 0 }
}

/**
 * How each entity's records are compressed (`recordCodingFor`): as the catalog being updated compressed them
 * where it has records, else with a dictionary chosen from the snapshot's first records of the entity.
 */
async function chooseRecordCodings(
  db: StagingDatabase,
  plan: SnapshotPlan,
  previous: PreviousCatalog | undefined,
  stagingDir: string,
  progress: ProgressReporter,
  options: { readonly codec: RecordCodecId; readonly zstdCommand?: string },
): Promise<Map<CatalogEntity, ChosenRecordCoding>> {
  const codings = new Map<CatalogEntity, ChosenRecordCoding>()
  for (const info of CATALOG_ENTITIES) {
    const old = previous?.manifest.entities[info.entity]
    const first = plan.parts.findIndex((part) => part.entity.entity === info.entity)
    const kept =
      previous !== undefined && old !== undefined && old.rowCount > 0
        ? {
            storePath: old.recordStore.file,
            dictionaryPath: previousFile(previous, old.recordStore.dictionary),
            codec: old.recordStore.codec,
          }
        : undefined
    if (kept === undefined && first !== -1) progress.building(recordDictionaryPath(info.entity), 0, 1)
    const coding = recordCodingFor(
      kept,
      () =>
        firstRecordsAcross(
          db,
          plan.parts.filter((part) => part.entity.entity === info.entity),
          DICTIONARY_EXAMPLES,
        ),
      options.codec,
      {
        workDir: join(stagingDir, 'dictionary', info.entity),
        ...(options.zstdCommand === undefined ? {} : { command: options.zstdCommand }),
      },
    )
    // A store of the catalog that this version cannot extend (a codec it does not know) is the catalog's fault.
    const chosen = await (kept === undefined || previous === undefined
      ? coding
      : coding.catch((error: unknown) => {
          throw catalogInvalid(previous.outDir, error)
        }))
    codings.set(info.entity, chosen)
  }
  return codings
}

/**
 * Each entity's record store, its tasks' segments concatenated in task order, and where each segment starts
 * in it (`record_bases`, which the kept rows' offsets are made absolute with). When updating, the catalog's
 * own store comes first, copied as it is: the rows kept from it keep their offsets.
 */
async function assembleRecordStores(
  db: StagingDatabase,
  buildDir: string,
  tasks: readonly ParseTask[],
  done: readonly ParseDone[],
  codings: ReadonlyMap<CatalogEntity, RecordCoding>,
  previous: PreviousCatalog | undefined,
  progress: ProgressReporter,
): Promise<Map<CatalogEntity, AssembledRecordStore>> {
  const stores = new Map<CatalogEntity, AssembledRecordStore>()
  const kept = new Set(previous === undefined ? [] : previousEntities(previous).map((info) => info.entity))
  for (const info of CATALOG_ENTITIES) {
    const own = tasks.filter((task) => task.entity === info.entity)
    progress.building(recordStorePath(info.entity), 0, own.length)
    const segments: RecordSegment[] = own.map((task) => ({
      part: task.index,
      path: task.segmentPath,
      records: done[tasks.indexOf(task)]!.records,
      removeAfterCopy: true,
    }))
    if (previous !== undefined && kept.has(info.entity)) {
      const store = previous.manifest.entities[info.entity].recordStore.file
      const listed = previous.manifest.files.find((file) => file.path === store)
      segments.unshift({
        part: PREVIOUS_STORE_PART,
        path: previousFile(previous, store),
        records: listed?.rows ?? previous.manifest.entities[info.entity].rowCount,
        removeAfterCopy: false,
      })
    }
    const store = await assembleRecordStore(buildDir, info.entity, codings.get(info.entity)!, segments)
    const bases = await db.appender('record_bases')
    try {
      for (const { part, base } of store.bases) {
        bases.appendVarchar(info.entity)
        bases.appendInteger(part)
        bases.appendBigInt(BigInt(base))
        bases.endRow()
      }
    } finally {
      bases.closeSync()
    }
    stores.set(info.entity, store)
  }
  return stores
}

/** Stages the snapshot's merged and deleted id lists. */
async function stageIdFiles(
  db: StagingDatabase,
  plan: SnapshotPlan,
  cursor: StageCursor,
  progress: ProgressReporter,
): Promise<void> {
  for (const file of plan.idFiles) {
    progress.reading(file.path, file.entity.entity, cursor.recordsRead)
    await stageIdFile(db, file, cursor)
    progress.fileDone(file.bytes, cursor.recordsRead)
  }
}

async function stageIdFile(db: StagingDatabase, file: SnapshotIdFile, cursor: StageCursor): Promise<void> {
  const appender = await db.appender(file.kind === 'merged' ? 'merged_stage' : 'deleted_stage')
  const optional = (value: string | null) =>
    value === null ? appender.appendNull() : appender.appendVarchar(value)
  try {
    if (file.kind === 'merged') {
      for await (const row of readMergedIds(file)) {
        appender.appendBigInt(cursor.nextSeq++)
        appender.appendVarchar(file.entity.entity)
        appender.appendVarchar(row.oldId)
        appender.appendVarchar(row.newId)
        optional(row.mergeDate)
        appender.endRow()
      }
    } else {
      for await (const row of readDeletedIds(file)) {
        appender.appendBigInt(cursor.nextSeq++)
        appender.appendVarchar(file.entity.entity)
        appender.appendVarchar(row.id)
        optional(row.deletedDate)
        appender.endRow()
      }
    }
  } finally {
    appender.closeSync()
  }
}
