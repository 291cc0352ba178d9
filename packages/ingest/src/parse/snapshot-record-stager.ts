// The parse step of an ingest: every record of the snapshot parsed once by the parse workers, their derived
// values staged in DuckDB as each part is done, and their compressed bytes assembled into each entity's record
// store (after the records of the catalog being updated). A resumed run takes the parts and codings its
// checkpoint recorded.
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { listValue } from '@duckdb/node-api'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  catalogEntityInfo,
  RECORDS_DIR,
  type RecordCodecId,
  recordDictionaryPath,
  recordStorePath,
} from '@oqlkit/catalog'
import { loadStagedRowsSql, SNAPSHOT_SEQ_STRIDE, stagePreviousIdsSql } from '../build/catalog-sql.ts'
import type { StageCursor } from '../build/id-list-stager.ts'
import {
  catalogInvalid,
  type PreviousCatalog,
  previousCatalogTables,
  previousEntities,
  previousFile,
} from '../build/previous-catalog-reader.ts'
import {
  type AssembledRecordStore,
  assembleRecordStore,
  type ChosenRecordCoding,
  DICTIONARY_EXAMPLES,
  type RecordCoding,
  type RecordSegment,
  recordCodingFor,
} from '../build/record-store-assembler.ts'
import type { StagedPart } from '../build/staged-row-slices.ts'
import type { StagingDatabase } from '../build/staging-database.ts'
import type { SnapshotPart, SnapshotPlan } from '../plan/snapshot-plan.ts'
import type { ProgressReporter } from '../progress-reporter.ts'
import { parquetReaderMemoryLimit } from './parquet-row-reader.ts'
import {
  type ParseCheckpoint,
  saveCodings,
  sealCheckpoint,
  setCheckpointPhase,
  stageParsedTasks,
} from './parse-checkpoint.ts'
import { type ParseDone, runParseTasks } from './part-parse-pool.ts'
import type { ParseTask, ParseWorkerData } from './part-parser.ts'
import { checkParquetPart, checkRecordCount, firstRecordsAcross } from './part-stager.ts'
import { recordExtractionSpecs } from './record-extraction-spec.ts'

/** The segment number of the updated catalog's own record store (no staged row refers to it). */
const PREVIOUS_STORE_PART = -1

const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0)

export interface StagedRecords {
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
export async function stageRecords(
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
    if (previous !== undefined) {
      const tables = previousCatalogTables(previous)
      for (const info of previousEntities(previous))
        await db.run(stagePreviousIdsSql(info, tables.entities.get(info.entity)!)).catch((error: unknown) => {
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
  // wait on disk all at once, and DuckDB loads while the workers parse. Tasks finished while a load ran are
  // loaded together next, one statement per entity, and the load and the checkpoint's record of its parts
  // are one transaction (`stageParsedTasks`).
  const stagedParts = new Map<CatalogEntity, StagedPart[]>()
  const noteStaged = (task: ParseTask, records: number, bytes: number) => {
    const part: StagedPart = { firstSeq: BigInt(task.seqBase), records, bytes }
    stagedParts.set(task.entity, [...(stagedParts.get(task.entity) ?? []), part])
  }
  const loadRows = async (group: readonly FinishedTask[]): Promise<void> => {
    const parts = await Promise.all(
      group.map(async ({ task, result }) => ({
        task,
        result,
        bytes: (await stat(task.rowsPath)).size,
      })),
    )
    const entities = [...new Set(parts.map(({ task }) => task.entity))]
    try {
      await stageParsedTasks(
        db,
        parts.map(({ task, result, bytes }) => ({
          segmentPath: task.segmentPath,
          task: {
            index: task.index,
            records: result.records,
            rewritten: result.rewritten,
            longestRow: result.longestRow,
            rowsBytes: bytes,
          },
        })),
        async () => {
          for (const entity of entities) {
            const own = parts.filter(({ task, bytes }) => task.entity === entity && bytes > 0)
            if (own.length === 0) continue
            const longestRow = Math.max(...own.map(({ result }) => result.longestRow))
            await db.run(loadStagedRowsSql(catalogEntityInfo(entity)!, longestRow), [
              listValue(own.map(({ task }) => task.rowsPath)),
            ])
          }
        },
      )
    } catch (error) {
      // Out of memory or disk here must say where, as the build steps do.
      throw new Error(`${entities.join(', ')}: loading the parsed records: ${(error as Error).message}`, {
        cause: error,
      })
    }
    for (const { task, result, bytes } of parts) {
      noteStaged(task, result.records, bytes)
      progress.staged()
    }
    await Promise.all(parts.map(({ task }) => rm(task.rowsPath, { force: true })))
  }
  const loads = groupedLoader(loadRows)

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
        return loads.add({ task, result })
      },
    })
    for (const result of parsed) results.set(result.index, result)
  } catch (error) {
    // The staging database is closed after a failure: no load may still be running on it then.
    await loads.idle()
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
  // The examples are read first, entity by entity (they come from the staging session, which runs one
  // statement at a time); the dictionaries are then chosen two at a time, each training a `zstd --train`
  // process of its own: in turn they were the sample's longest wait before its parse (1.3 s of 10).
  const choices: {
    readonly entity: CatalogEntity
    readonly kept: Parameters<typeof recordCodingFor>[0]
    readonly examples: readonly string[]
    readonly hasParts: boolean
  }[] = []
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
    const examples =
      kept === undefined
        ? await firstRecordsAcross(
            db,
            plan.parts.filter((part) => part.entity.entity === info.entity),
            DICTIONARY_EXAMPLES,
          )
        : []
    choices.push({ entity: info.entity, kept, examples, hasParts: first !== -1 })
  }
  const chosen = new Map<CatalogEntity, ChosenRecordCoding>()
  let next = 0
  const chooser = async (): Promise<void> => {
    for (let at = next++; at < choices.length; at = next++) {
      const { entity, kept, examples, hasParts } = choices[at]!
      if (kept === undefined && hasParts) progress.building(recordDictionaryPath(entity), 0, 1)
      const coding = recordCodingFor(kept, () => Promise.resolve(examples), options.codec, {
        workDir: join(stagingDir, 'dictionary', entity),
        ...(options.zstdCommand === undefined ? {} : { command: options.zstdCommand }),
      })
      // A store of the catalog that this version cannot extend (a codec it does not know) is the catalog's fault.
      chosen.set(
        entity,
        await (kept === undefined || previous === undefined
          ? coding
          : coding.catch((error: unknown) => {
              throw catalogInvalid(previous.outDir, error)
            })),
      )
    }
  }
  await Promise.all([chooser(), chooser()])
  // In the entities' order, as the stores are assembled.
  const codings = new Map<CatalogEntity, ChosenRecordCoding>()
  for (const info of CATALOG_ENTITIES) codings.set(info.entity, chosen.get(info.entity)!)
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

/** A parse task done, its rows waiting to be loaded. */
interface FinishedTask {
  readonly task: ParseTask
  readonly result: ParseDone
}

/**
 * Runs `load` on finished tasks one group at a time: each group is every task that finished while the last
 * load ran. `add` resolves when its task's group is loaded; after a failed load every later task is refused
 * with the same error (the staging database is in no state for more).
 */
function groupedLoader(load: (group: readonly FinishedTask[]) => Promise<void>) {
  let waiting: { finished: FinishedTask; settle: (failed?: { readonly error: unknown }) => void }[] = []
  let running: Promise<void> | undefined
  let failure: { readonly error: unknown } | undefined
  const drain = async (): Promise<void> => {
    while (waiting.length > 0) {
      const group = waiting
      waiting = []
      if (failure === undefined) {
        try {
          await load(group.map(({ finished }) => finished))
        } catch (error) {
          failure = { error }
        }
      }
      for (const { settle } of group) settle(failure)
    }
    running = undefined
  }
  return {
    add(finished: FinishedTask): Promise<void> {
      const loaded = new Promise<void>((resolve, reject) => {
        waiting.push({
          finished,
          settle: (failed) => (failed === undefined ? resolve() : reject(failed.error)),
        })
      })
      running ??= drain()
      return loaded
    },
    /** Resolves once no load is running. */
    async idle(): Promise<void> {
      await running
    },
  }
}
