// `ingestSnapshot`: reads an OpenAlex snapshot (legacy or 2026 layout) and writes a catalog. The steps:
//   1. plan: find the layout, check the manifests against the files (nothing is read yet);
//   2. stage: the existing catalog's rows (when updating), then every part file, then the id lists, into a
//      DuckDB database inside a build folder beside the catalog;
//   3. build: one version per id (newest partition wins), merges and deletions, Parquet files, catalog.json;
//   4. commit: swap the build folder in. Any error before that leaves the existing catalog untouched.
import { readdir, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { DuckDBAppender } from '@duckdb/node-api'
import { CATALOG_ENTITIES, type CatalogEntity } from '../catalog/catalog-entities.ts'
import {
  CATALOG_FORMAT,
  CATALOG_FORMAT_VERSION,
  CATALOG_MANIFEST_FILE,
  type CatalogIngestRecord,
  type CatalogManifest,
  SERVING_DATABASE_FILE,
} from '../catalog/catalog-layout.ts'
import { readCatalogManifest } from '../catalog/catalog-manifest-reader.ts'
import { buildSearchIndex } from '../search/search-index-builder.ts'
import { withSearchIndex } from '../search/search-index-manifest.ts'
import { buildTextTagger, DEFAULT_TEXT_TAGGER_SEED } from '../tagging/text-tagger-builder.ts'
import { withTextTagger } from '../tagging/text-tagger-layout.ts'
import { withVectorIndex } from '../vectors/vector-index-manifest.ts'
import { buildWorkVectors, type VectorsChoice } from '../vectors/work-vector-builder.ts'
import { type BuiltCatalog, buildCatalog } from './catalog-builder.ts'
import {
  CREATE_ID_STAGE_TABLES_SQL,
  createStageTableSql,
  LOAD_CATALOG_DELETED_SQL,
  LOAD_CATALOG_MERGED_SQL,
  loadCatalogEntitySql,
  stageTableName,
} from './catalog-sql.ts'
import { abandonBuildFolder, type BuildFolder, commitBuildFolder, openBuildFolder } from './catalog-swap.ts'
import { readDeletedIds, readMergedIds } from './id-list-reader.ts'
import { IngestError, ingestErrorDetails } from './ingest-error.ts'
import type { EntityIngestCounts, IngestProgressListener, IngestSummary } from './ingest-progress.ts'
import { type StageCursor, stageJsonLinesPart, stageParquetPart } from './part-stager.ts'
import { ProgressReporter } from './progress-reporter.ts'
import { buildServingDatabase } from './serving-database-builder.ts'
import type { SnapshotIdFile, SnapshotPlan } from './snapshot-plan.ts'
import { planSnapshot } from './snapshot-planner.ts'
import { StagingDatabase } from './staging-database.ts'

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
  /** DuckDB threads and memory limit for the build. */
  readonly threads?: number
  readonly memoryLimit?: string
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
}

const STAGING_DIR = '.staging'

export async function ingestSnapshot(options: IngestOptions): Promise<IngestSummary> {
  const started = performance.now()
  const plan = await planSnapshot(options.snapshotDir, {
    ...(options.preferFormat === undefined ? {} : { preferFormat: options.preferFormat }),
  })
  const progress = new ProgressReporter(plan, options.onProgress)
  progress.emit('scan')

  const build = await openBuildFolder(options.outDir)
  let db: StagingDatabase | undefined
  try {
    const stagingDir = join(build.path, STAGING_DIR)
    db = await StagingDatabase.open(stagingDir, {
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
    })
    for (const info of CATALOG_ENTITIES) await db.run(createStageTableSql(info))
    for (const sql of CREATE_ID_STAGE_TABLES_SQL) await db.run(sql)

    const cursor: StageCursor = { nextSeq: 1n, recordsRead: 0, rewritten: 0 }
    const updating = build.hasCatalog && (options.mode ?? 'update') === 'update'
    const previous = updating ? await stagePreviousCatalog(db, build, cursor) : undefined
    const read = await stageSnapshot(db, plan, cursor, progress)

    const built = await buildCatalog(
      db,
      build.path,
      (step, done, total) => progress.building(step, done, total),
      options.sortBatchBytes === undefined ? {} : { sortBatchBytes: options.sortBatchBytes },
    )
    // The full-text index is part of the catalog: built in the same folder, swapped in with it.
    const searchIndex =
      options.searchIndex === false
        ? undefined
        : await buildSearchIndex({
            connection: db,
            catalogDir: build.path,
            onEntity: (entity, done, total) => progress.building(`search/${entity}`, done, total),
          })
    const vectors =
      options.vectors === false
        ? undefined
        : await buildWorkVectors({
            session: db,
            catalogDir: build.path,
            vectors: options.vectors ?? { kind: 'lsa' },
            onProgress: (done, total, step) => progress.building(`vectors (${step})`, done, total),
          })
    db.close()
    db = undefined
    await rm(stagingDir, { recursive: true, force: true })
    const textTagger =
      options.textTagger === false
        ? undefined
        : await buildTextTagger({
            catalogDir: build.path,
            seed: options.textTaggerSeed ?? DEFAULT_TEXT_TAGGER_SEED,
            onProgress: (done, total) => progress.building('text-tagger', done, total),
          })

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
      ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
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
      catalogBytes: await folderBytes(build.outDir),
      durationMs: Math.round(performance.now() - started),
      warnings: plan.warnings,
    }
  } catch (error) {
    db?.close()
    await abandonBuildFolder(build)
    throw error
  }
}

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

interface PreviousCatalog {
  readonly manifest: CatalogManifest
  readonly records: ReadonlyMap<CatalogEntity, number>
}

/** Loads the rows of the catalog being updated, before the snapshot's, so that equal versions go to the new. */
async function stagePreviousCatalog(
  db: StagingDatabase,
  build: BuildFolder,
  cursor: StageCursor,
): Promise<PreviousCatalog> {
  const result = await readCatalogManifest(build.outDir)
  if (!result.ok) {
    throw new IngestError({
      code: 'catalog-invalid',
      file: join(build.outDir, CATALOG_MANIFEST_FILE),
      detail: ingestErrorDetails.catalogInvalid(result.message),
    })
  }
  const { manifest } = result
  const records = new Map<CatalogEntity, number>()
  const load = async (sql: string, files: readonly string[]): Promise<number> => {
    let rows = 0
    for (const file of files) {
      const count = await db.run(sql, [join(build.outDir, ...file.split('/')), cursor.nextSeq])
      cursor.nextSeq += BigInt(count) + 1n
      rows += count
    }
    return rows
  }
  try {
    for (const info of CATALOG_ENTITIES) {
      records.set(info.entity, await load(loadCatalogEntitySql(info), manifest.entities[info.entity].files))
    }
    await load(LOAD_CATALOG_MERGED_SQL, manifest.mergedIds.files)
    await load(LOAD_CATALOG_DELETED_SQL, manifest.deletedIds.files)
  } catch (error) {
    throw new IngestError(
      {
        code: 'catalog-invalid',
        file: build.outDir,
        detail: ingestErrorDetails.catalogInvalid((error as Error).message),
      },
      { cause: error },
    )
  }
  return { manifest, records }
}

/** Stages every part file and id list of the snapshot; returns the records read per entity. */
async function stageSnapshot(
  db: StagingDatabase,
  plan: SnapshotPlan,
  cursor: StageCursor,
  progress: ProgressReporter,
): Promise<Map<CatalogEntity, number>> {
  const read = new Map<CatalogEntity, number>()
  let appender: { readonly entity: CatalogEntity; readonly appender: DuckDBAppender } | undefined
  const closeAppender = () => {
    appender?.appender.closeSync()
    appender = undefined
  }
  try {
    for (const part of plan.parts) {
      const entity = part.entity.entity
      progress.reading(part.path, entity, cursor.recordsRead)
      let records: number
      if (part.format === 'parquet') {
        closeAppender()
        records = await stageParquetPart(db, part, cursor)
      } else {
        if (appender?.entity !== entity) {
          closeAppender()
          appender = { entity, appender: await db.appender(stageTableName(part.entity)) }
        }
        records = await stageJsonLinesPart(part, appender.appender, cursor, () =>
          progress.reading(part.path, entity, cursor.recordsRead),
        )
      }
      read.set(entity, (read.get(entity) ?? 0) + records)
      progress.fileDone(part.bytes, cursor.recordsRead)
    }
  } finally {
    closeAppender()
  }
  for (const file of plan.idFiles) {
    progress.reading(file.path, file.entity.entity, cursor.recordsRead)
    await stageIdFile(db, file, cursor)
    progress.fileDone(file.bytes, cursor.recordsRead)
  }
  return read
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

/** Every byte the catalog holds on disk: its files, the search index, vectors, model and serving database. */
const folderBytes = async (dir: string): Promise<number> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => (await stat(join(entry.parentPath, entry.name))).size),
  )
  return sum(sizes)
}
