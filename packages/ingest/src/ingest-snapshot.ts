// `ingestSnapshot`: reads an OpenAlex snapshot (legacy or 2026 layout) and writes a catalog. The steps:
//   1. plan: find the layout, check the manifests against the files (nothing is read yet);
//   2. parse: worker threads, one per core (the main thread for a snapshot under 4 MiB), read every part
//      file once (a Parquet part through a DuckDB of the parser's own, parquet-row-reader.ts): each record
//      is compressed into its entity's record store and every value the catalog derives from it is written
//      as one JSON line, which DuckDB loads as soon as the part is done (parts finished together in one
//      transaction, while the workers go on); the id lists are staged beside them. All of it inside
//      a build folder next to the catalog. When updating, the catalog's own records are not parsed again:
//      its ids are staged from its tables (its serving database, or a format 8 catalog's files), and its
//      record store begins the new one;
//   3. build: one version per id (newest partition wins), merges and deletions, the tables as Parquet files
//      in the build folder, and the serving database made of them (or an update's changes alone, which the
//      catalog's serving database takes in place), then the search index, vectors and tagger, catalog.json;
//   4. commit: swap the build folder in. Any error before that leaves the existing catalog untouched.
// A run stopped during step 2 (killed, or failing for want of memory or disk) leaves its build folder, and the
// next run of the same ingest resumes it: each part is staged in one transaction with a record of it
// (parse-checkpoint.ts), and only the parts not recorded are parsed again.
import { existsSync } from 'node:fs'
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  buildServingDatabase,
  exportCatalogTables,
  type ServedTableRows,
  updateServingDatabase,
} from '@oqlkit/adapter-duckdb'
import {
  CATALOG_ENTITIES,
  CATALOG_FORMAT,
  CATALOG_FORMAT_VERSION,
  CATALOG_MANIFEST_FILE,
  type CatalogEntity,
  type CatalogFile,
  type CatalogIngestRecord,
  type CatalogManifest,
  catalogIdOrder,
  RECORD_CODEC_ID,
  type RecordCodecId,
  readCatalogManifest,
  SERVING_DATABASE_FILE,
  searchIndexOf,
  vectorIndexOf,
  withSearchIndex,
  withTextTagger,
  withVectorIndex,
} from '@oqlkit/catalog'
import {
  BUILD_TABLES_DIR,
  type BuiltCatalog,
  buildCatalog,
  buildCatalogChanges,
  GONE_IDS_DIR,
} from './build/catalog-builder.ts'
import { CREATE_ID_STAGE_TABLES_SQL, createStageTableSql } from './build/catalog-sql.ts'
import {
  abandonBuildFolder,
  commitBuildFolder,
  folderBytes,
  leaveBuildFolder,
  openBuildFolder,
} from './build/catalog-swap.ts'
import { type StageCursor, stageIdFiles, stagePreviousIds } from './build/id-list-stager.ts'
import {
  attachPreviousCatalog,
  keptRecordBytes,
  type PreviousCatalog,
  previousCatalogTables,
  previousFile,
  readPreviousCatalog,
} from './build/previous-catalog-reader.ts'
import { defaultStagingMemoryLimit, StagingDatabase } from './build/staging-database.ts'
import { stageUnchangedWorks } from './build/unchanged-works.ts'
import { IngestError } from './ingest-error.ts'
import type { EntityIngestCounts, IngestProgressListener, IngestSummary } from './ingest-progress.ts'
import {
  checkpointFingerprint,
  createCheckpointTables,
  type ParseCheckpoint,
  resumableCheckpoint,
} from './parse/parse-checkpoint.ts'
import { defaultParseWorkers } from './parse/part-parse-pool.ts'
import { stageRecords } from './parse/snapshot-record-stager.ts'
import { planSnapshot } from './plan/snapshot-planner.ts'
import { snapshotVersionOf } from './plan/snapshot-version.ts'
import { ProgressReporter } from './progress-reporter.ts'
import { buildSearchIndex, type SearchBuildProgress } from './search/search-index-builder.ts'
import { updateSearchIndex } from './search/search-index-updater.ts'
import { buildTextTagger, DEFAULT_TEXT_TAGGER_SEED, keepTextTagger } from './tagging/text-tagger-builder.ts'
import { openCatalogEntityRows } from './texts/catalog-entity-rows.ts'
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
   * An update keeps the catalog's trained models (LSA, the tag model) and the vectors of the works it keeps
   * as they were, until the works changed since training pass a share of the catalog
   * (`texts/model-reuse-policy.ts`). `true` trains them again now, and embeds every work.
   */
  readonly retrainModels?: boolean
  /**
   * Resume a stopped run of the same ingest (default true): when a build folder a killed run left beside the
   * catalog was staging the same files for the same catalog, the parts it had parsed are not read again.
   * `false` removes such a folder and starts over.
   */
  readonly resume?: boolean
  /**
   * Also keep the catalog's tables as Parquet files, in the layout's `entities/`, `links/` and `ids/` under
   * this folder, which must not exist yet: the files the build made the serving database of, for readers
   * that want plain files (the catalog itself keeps its tables in the serving database alone; a catalog's
   * tables can also be written later with adapter-duckdb's `exportCatalogTables`).
   */
  readonly tableFilesDir?: string
}

const STAGING_DIR = '.staging'
/** Where the records' texts wait for the search index, vectors and tagger (inside the build folder). */
const TEXTS_DIR = '.texts'

export async function ingestSnapshot(options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now()
  if (options.tableFilesDir !== undefined && existsSync(options.tableFilesDir))
    throw new Error(
      `The folder for the table files, ${options.tableFilesDir}, exists already: name one that does not exist yet`,
    )
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
    if (previous !== undefined) await attachPreviousCatalog(db, previous)
    const resumed = build.resumed ? checkpoint : undefined
    if (resumed === undefined) {
      for (const info of CATALOG_ENTITIES) await db.run(createStageTableSql(info))
      for (const sql of CREATE_ID_STAGE_TABLES_SQL) await db.run(sql)
      await createCheckpointTables(db)
    }
    const staged = await stageRecords(db, plan, build.path, stagingDir, previous, cursor, progress, {
      workers: options.threads ?? defaultParseWorkers(plan.parts.reduce((sum, part) => sum + part.bytes, 0)),
      codec,
      ...(options.zstdCommand === undefined ? {} : { zstdCommand: options.zstdCommand }),
      resumed,
      fingerprint: await fingerprintFor(build.hasCatalog),
    })
    if (previous !== undefined) await stagePreviousIds(db, previous, cursor)
    await stageIdFiles(db, plan, cursor, progress)
    const read = staged.read

    const onBuildStep = (step: string, done: number, total: number) => progress.building(step, done, total)
    const buildOptions = {
      stagedParts: staged.stagedParts,
      ...(options.sortBatchBytes === undefined ? {} : { sortBatchBytes: options.sortBatchBytes }),
      ...(previous === undefined ? {} : { previous: previousCatalogTables(previous) }),
    }
    // An update writes its changes alone, which its serving database takes in place; only when that is
    // declined are the tables written whole, and the serving database built of them (at once, when it is
    // certain to be declined: a catalog in the ids' text order, or a serving database not closed cleanly).
    const changes =
      previous === undefined || !mayUpdateInPlace(previous)
        ? undefined
        : await buildCatalogChanges(db, build.path, staged.stores, onBuildStep, {
            ...buildOptions,
            previous: previousCatalogTables(previous),
          })
    let built =
      changes?.built ?? (await buildCatalog(db, build.path, staged.stores, onBuildStep, buildOptions))
    const ingest: CatalogIngestRecord = {
      at: new Date().toISOString(),
      snapshotDir: plan.snapshotDir,
      layout: plan.layout,
      filesRead: plan.parts.length + plan.idFiles.length,
      recordsRead: cursor.recordsRead,
      snapshot: await snapshotVersionOf(plan),
    }
    // The tables as the build wrote them (whole, or an update's changes), in Parquet files of its tables
    // folder, which the serving database is made of.
    let written = catalogManifestOf(built, ingest, previous?.manifest.ingests ?? [])
    // The same bound as the build's: DuckDB's own default is 80% of the machine.
    const memoryLimit = options.memoryLimit ?? defaultStagingMemoryLimit()
    // An update changes the catalog's serving database in place where it can (only the rows it changed).
    const inPlace =
      previous === undefined
        ? undefined
        : changes === undefined
          ? ({ updated: false, reason: inPlaceDeclinedReason(previous) } as const)
          : await updateServingDatabase(build.path, written, {
              previousPath: previousFile(previous, SERVING_DATABASE_FILE),
              previousIdOrder: catalogIdOrder(previous.manifest),
              gone: changes.gone,
              memoryLimit,
              onStep: (done, total) => progress.building(`${SERVING_DATABASE_FILE} (in place)`, done, total),
            })
    if (inPlace?.updated === true) written = withServedRows(written, inPlace.tableRows)
    else if (changes !== undefined) {
      built = await changes.whole()
      written = catalogManifestOf(built, ingest, previous?.manifest.ingests ?? [])
    }
    const serving = inPlace?.updated
      ? inPlace.file
      : await buildServingDatabase(build.path, written, {
          memoryLimit,
          onStep: (done, total) =>
            progress.building(
              inPlace === undefined
                ? SERVING_DATABASE_FILE
                : `${SERVING_DATABASE_FILE} (built whole: ${inPlace.reason})`,
              done,
              total,
            ),
        })
    // The catalog keeps its tables in the serving database alone: their files were the build's work, kept
    // (until the catalog is committed) only when asked for and whole.
    // A table sorted in id ranges is a file per range: the folder of files is then written from the catalog,
    // one file a table, as an export writes it.
    const keepTableFiles =
      options.tableFilesDir !== undefined &&
      inPlace?.updated !== true &&
      Object.values(built.entities).every((table) => table.files.length === 1)
    if (!keepTableFiles) await rm(join(build.path, BUILD_TABLES_DIR), { recursive: true, force: true })
    else await rm(join(build.path, BUILD_TABLES_DIR, GONE_IDS_DIR), { recursive: true, force: true })
    const catalog = servedTablesOf(written, serving)
    // The builders after the tables read the records' texts from the record stores just written, each
    // entity's once, into files shared between them and removed before the swap; where each record lies, from
    // the serving database.
    const texts = new RecordTextsFiles({
      session: db,
      catalogDir: build.path,
      rows: await openCatalogEntityRows(db, build.path, catalog),
      stores: new Map(CATALOG_ENTITIES.map(({ entity }) => [entity, built.entities[entity].recordStore])),
      workDir: join(build.path, TEXTS_DIR),
      onEntity: (entity) => progress.building(`texts of ${entity}`, 0, 1),
    })
    // The full-text index is part of the catalog: built in the same folder, swapped in with it. An update
    // of a catalog with an index indexes only the records it added or revised (`updateSearchIndex`).
    const searchBuild = {
      connection: db,
      catalogDir: build.path,
      texts,
      // Each step once the entity's texts are written (writing them reports `texts of …` meanwhile):
      // at 1M works the works' index takes tens of minutes, which a stale label would hide.
      onProgress: ({ entity, step, done, total }: SearchBuildProgress) =>
        progress.building(`search/${entity} (${step})`, done, total),
    }
    const previousSearch = previous === undefined ? undefined : searchIndexOf(previous.manifest)
    const searchIndex =
      options.searchIndex === false
        ? undefined
        : previous !== undefined && previousSearch !== undefined
          ? await updateSearchIndex({
              ...searchBuild,
              previous: { catalogDir: previous.outDir, index: previousSearch },
              keptBelow: new Map(
                await Promise.all(
                  CATALOG_ENTITIES.map(
                    async ({ entity }) => [entity, await keptRecordBytes(previous, entity)] as const,
                  ),
                ),
              ),
              onEntity: (entity, how, done, total) =>
                progress.building(`search/${entity} (${how})`, done, total),
            })
          : await buildSearchIndex({
              ...searchBuild,
              onEntity: (entity, done, total) => progress.building(`search/${entity}`, done, total),
            })
    // What an update's models and vectors start from: the works it kept as they were.
    const unchanged =
      previous === undefined || (options.vectors === false && options.textTagger === false)
        ? undefined
        : await stageUnchangedWorks(db, texts.rowsOf('works'), built.entities.works, previous)
    const previousVectors = previous === undefined ? undefined : vectorIndexOf(previous.manifest)
    const vectors =
      options.vectors === false
        ? undefined
        : await buildWorkVectors({
            session: db,
            catalogDir: build.path,
            texts,
            vectors: options.vectors ?? { kind: 'lsa' },
            ...(previousVectors === undefined || unchanged === undefined
              ? {}
              : {
                  update: {
                    catalogDir: previous!.outDir,
                    vectors: previousVectors,
                    unchanged,
                    retrain: options.retrainModels === true,
                  },
                }),
            onProgress: (done, total, step) => progress.building(`vectors (${step})`, done, total),
          })
    // An update keeps the catalog's tag model while few enough works have changed since it was trained.
    const keptTagger =
      options.textTagger === false || previous === undefined || unchanged === undefined
        ? undefined
        : await keepTextTagger(previous, build.path, {
            seed: options.textTaggerSeed ?? DEFAULT_TEXT_TAGGER_SEED,
            unchanged,
            retrain: options.retrainModels === true,
          })
    // The tagger reads the works' texts without DuckDB's staging session: their file is written first.
    const worksTexts =
      options.textTagger === false || keptTagger !== undefined ? undefined : await texts.of('works')
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

    const indexed = searchIndex === undefined ? catalog : withSearchIndex(catalog, searchIndex)
    const taggerManifest = keptTagger ?? textTagger?.manifest
    const tagged = taggerManifest === undefined ? indexed : withTextTagger(indexed, taggerManifest)
    const manifest = vectors === undefined ? tagged : withVectorIndex(tagged, vectors)
    await writeFile(join(build.path, CATALOG_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
    progress.emit('commit')
    await commitBuildFolder(build)
    const tableFilesWarning =
      options.tableFilesDir === undefined
        ? undefined
        : await writeTableFiles(
            build.outDir,
            manifest,
            options.tableFilesDir,
            keepTableFiles,
            options.memoryLimit ?? defaultStagingMemoryLimit(),
          )
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
      // The catalog's tables as they are now (an update's changes give only their own link rows).
      linkRows: sum(Object.values(manifest.links).map((link) => link.rowCount)),
      externalIds: manifest.externalIds.rowCount,
      mergedIds: manifest.mergedIds.rowCount,
      deletedIds: manifest.deletedIds.rowCount,
      // Every byte the catalog holds on disk: its files, the search index, vectors, model and serving database.
      catalogBytes: await folderBytes(build.outDir),
      durationMs: Math.round(performance.now() - started),
      partsResumed: staged.partsResumed,
      modelsKept: {
        ...(vectors?.lsa?.worksChangedSince === undefined ? {} : { lsa: vectors.lsa.worksChangedSince }),
        ...(keptTagger?.worksChangedSince === undefined ? {} : { textTagger: keptTagger.worksChangedSince }),
      },
      warnings: [
        ...plan.warnings,
        ...build.removedLeftovers.map(
          ({ path, bytes }) =>
            `removed ${path} (${(bytes / 1_048_576).toFixed(1)} MB), left by an ingest that stopped before it finished${options.resume === false ? '' : ' and not resumable by this one (other files, or stopped after its parse)'}`,
        ),
        ...staged.warnings,
        ...(tableFilesWarning === undefined ? [] : [tableFilesWarning]),
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

/**
 * Writes the committed catalog's tables as files into `tableFilesDir`: the ones the build made (moved out of
 * the catalog folder, where they waited), or, for an update its serving database took in place (whose own
 * files hold its changes alone), written from the catalog. A failure no longer undoes the catalog: it is
 * returned as a warning.
 */
async function writeTableFiles(
  catalogDir: string,
  manifest: CatalogManifest,
  tableFilesDir: string,
  built: boolean,
  /** The build's DuckDB memory limit, which the export keeps to as well. */
  memoryLimit: string,
): Promise<string | undefined> {
  try {
    if (built) await moveFolder(join(catalogDir, BUILD_TABLES_DIR), tableFilesDir)
    else await exportCatalogTables(catalogDir, manifest, tableFilesDir, { memoryLimit })
    return undefined
  } catch (error) {
    await rm(join(catalogDir, BUILD_TABLES_DIR), { recursive: true, force: true })
    return `the catalog is written, but its tables could not be written as files into ${tableFilesDir}: ${error instanceof Error ? error.message : String(error)}`
  }
}

/**
 * Whether the serving database of the catalog being updated may take an update in place: not when its rows
 * are in the ids' text order, or when it has no serving database or one not closed cleanly (a write-ahead log).
 */
const mayUpdateInPlace = (previous: PreviousCatalog): boolean => inPlaceDeclinedReason(previous) === ''

function inPlaceDeclinedReason(previous: PreviousCatalog): string {
  const serving = previousFile(previous, SERVING_DATABASE_FILE)
  if (catalogIdOrder(previous.manifest) === 'by-text')
    return "the catalog being updated numbers its serving rows in the ids' text order (format 7 or earlier)"
  if (!existsSync(serving)) return 'the catalog being updated has no serving database'
  if (existsSync(`${serving}.wal`)) return 'the serving database being updated has a write-ahead log'
  return ''
}

/** Moves a folder, also onto another file system (a rename cannot cross one). */
async function moveFolder(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true })
  try {
    await rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
    await cp(from, to, { recursive: true })
    await rm(from, { recursive: true, force: true })
  }
}

/** Whether a failure is the machine's (memory, disk, a file that became unreadable) rather than the input's. */
const resumableAfter = (error: unknown): boolean => !(error instanceof IngestError)

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0)

/** The manifest with the rows its link tables and external ids hold once an update's changes are applied. */
function withServedRows(manifest: CatalogManifest, rows: ServedTableRows): CatalogManifest {
  return {
    ...manifest,
    links: Object.fromEntries(
      Object.entries(manifest.links).map(([name, table]) => [
        name,
        { ...table, rowCount: rows.links[name] ?? 0 },
      ]),
    ),
    externalIds: { ...manifest.externalIds, rowCount: rows.externalIds },
  }
}

/**
 * The manifest of a catalog whose tables are kept in its serving database alone (`serving`, its file entry):
 * the tables list no file, and the files the build wrote them to are not the catalog's.
 */
function servedTablesOf(written: CatalogManifest, serving: CatalogFile): CatalogManifest {
  const tables = new Set(
    [
      ...Object.values(written.entities),
      ...Object.values(written.links),
      written.externalIds,
      written.mergedIds,
      written.deletedIds,
    ].flatMap((table) => table.files),
  )
  const served = <T extends { readonly files: readonly string[] }>(table: T): T => ({ ...table, files: [] })
  return {
    ...written,
    entities: Object.fromEntries(
      Object.entries(written.entities).map(([entity, table]) => [entity, served(table)]),
    ) as CatalogManifest['entities'],
    links: Object.fromEntries(Object.entries(written.links).map(([name, table]) => [name, served(table)])),
    externalIds: served(written.externalIds),
    mergedIds: served(written.mergedIds),
    deletedIds: served(written.deletedIds),
    files: [...written.files.filter((file) => !tables.has(file.path)), serving],
  }
}

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
