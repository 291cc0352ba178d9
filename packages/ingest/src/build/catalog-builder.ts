// Turns the staging tables into the catalog files: one version per id, merges and deletions applied,

// derived columns, side tables, id tables. Runs after every snapshot file has been staged.
import { existsSync } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { type DuckDBValue, listValue } from '@duckdb/node-api'
import {
  CATALOG_ENTITIES,
  type CatalogColumn,
  type CatalogEntity,
  type CatalogEntityInfo,
  type CatalogEntityTable,
  type CatalogFile,
  type CatalogLinkTable,
  type CatalogManifest,
  catalogEntityInfo,
  DELETED_ID_COLUMNS,
  DELETED_IDS_FILE,
  ENTITIES_DIR,
  EXTERNAL_ID_COLUMNS,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  IDS_DIR,
  LINK_COLUMNS,
  LINK_TABLES,
  LINKS_DIR,
  type LinkTableSpec,
  linkFilePath,
  MERGED_ID_COLUMNS,
  MERGED_IDS_FILE,
} from '@oqlkit/catalog'
import { withSettings } from '../texts/build-session.ts'
import {
  COPY_DELETED_SQL,
  COPY_EXTERNAL_IDS_SQL,
  COPY_MERGED_SQL,
  copyChangedLinksSql,
  copyChangedRowsSql,
  copyEmptyEntitySql,
  copyEntitySql,
  copyGoneIdsSql,
  copyLinkTableSql,
  copySortedRangeSql,
  dropEntityRowsSql,
  dropViewAndStagingSql,
  type EntityRows,
  entityFileColumnsOf,
  FOLLOW_MERGE_CHAINS_SQL,
  insertExternalIdsSql,
  insertPreviousExternalIdsSql,
  judgeWinnersSql,
  keepPreviousRowsSql,
  keptRowsSizeSql,
  keptRowsViewSql,
  latestPartitionSql,
  pickWinnersSql,
  RESOLVE_DELETED_SQL,
  RESOLVE_MERGED_SQL,
  rangeFolderName,
  rangeRowsViewSql,
  recordLiveIdsSql,
  sortBoundariesSql,
  splitRowsIntoRangesSql,
  verdictCountsSql,
} from './catalog-sql.ts'
import type { AssembledRecordStore } from './record-store-assembler.ts'
import { type StagedPart, stagedRowSlices } from './staged-row-slices.ts'
import type { StagingDatabase } from './staging-database.ts'

export interface EntityVerdictCounts {
  readonly ids: number
  readonly superseded: number
  readonly deleted: number
  readonly merged: number
  readonly written: number
}

/** What a build writes: the manifest's tables and files, with what became of each entity's records. */
export interface BuiltCatalog
  extends Pick<CatalogManifest, 'entities' | 'links' | 'externalIds' | 'mergedIds' | 'deletedIds' | 'files'> {
  readonly counts: Readonly<Record<CatalogEntity, EntityVerdictCounts>>
}

/** Called before each catalog file is written, with the number of files written so far. */
export type BuildStepListener = (step: string, done: number, total: number) => void

/**
 * Where the build writes the tables' Parquet files, inside the build folder (`.tables/entities/works.parquet`,
 * …): the serving database is built from them and they are removed, since the catalog keeps its tables in the
 * serving database alone (format 9).
 */
export const BUILD_TABLES_DIR = '.tables'

/** A table file's path in the build folder, from its path in the catalog layout. */
export const buildTablePath = (layoutPath: string): string => `${BUILD_TABLES_DIR}/${layoutPath}`

/**
 * The file of range `index` of a table sorted in id ranges, from the table's one-file path
 * (`entities/works.parquet` → `entities/works.0003.parquet`): the ranges' files in order are the table.
 */
export const rangeFilePath = (layoutPath: string, index: number): string =>
  layoutPath.replace(/\.parquet$/, `.${String(index).padStart(4, '0')}.parquet`)

/** How an entity's rows were sorted: by the statement that writes its one file, or in ranges, a file each. */
type SortedEntity =
  | { readonly rows: 'view' }
  | { readonly rows: 'ranges'; readonly files: readonly CatalogFile[] }

/** Merge chains longer than this are cut (they can only come from cycles). */
const MAX_MERGE_HOPS = 32

export const BUILD_STEP_COUNT = CATALOG_ENTITIES.length + LINK_TABLES.length + 3

/**
 * The tables of the catalog being updated, as relations of the staging session (`previousCatalogTables`): the
 * rows it keeps are read from them as they are, with their link rows and external ids, instead of parsing
 * its records again.
 */
export interface PreviousCatalogTables {
  /** Entities the catalog has rows of, and their relations. */
  readonly entities: ReadonlyMap<CatalogEntity, string>
  /** Each link table's relation, by name. */
  readonly links: ReadonlyMap<string, string>
  readonly externalIds: string
  readonly mergedIds: string
  readonly deletedIds: string
}

export interface BuildOptions {
  /** When updating: the catalog's own tables, which its kept rows come from. */
  readonly previous?: PreviousCatalogTables
  /** The most record bytes sorted at once (default: a sixth of DuckDB's memory limit). */
  readonly sortBatchBytes?: number
  /**
   * Each entity's staged parts: the numbers of their rows and the bytes of their JSON lines (an upper bound
   * of what a sort of them holds). The range split reads them a slice of rows at a time.
   */
  readonly stagedParts: ReadonlyMap<CatalogEntity, readonly StagedPart[]>
}

/**
 * The share of DuckDB's memory limit one sort may take. A sort of rows with large strings needs several
 * times their size; a sixth sorted 100k works of 13 KB in eight ranges under a 1 GB limit.
 */
const SORT_MEMORY_SHARE = 6

/**
 * The sort budgets of staged JSON the range split takes at once (half of DuckDB's memory limit with the
 * default budget of a sixth).
 */
const SLICE_BUDGETS = 3

/** Where an entity's rows wait, split by id range, to be sorted (inside the build folder; removed after). */
const SORT_RANGES_DIR = '.sort-ranges'

/** Writes every table of the catalog whole (`BUILD_TABLES_DIR`). */
export async function buildCatalog(
  db: StagingDatabase,
  outDir: string,
  stores: ReadonlyMap<CatalogEntity, AssembledRecordStore>,
  onStep: BuildStepListener,
  options: BuildOptions,
): Promise<BuiltCatalog> {
  return (await buildTables(db, outDir, stores, onStep, options, false)) as BuiltCatalog
}

/**
 * What an update changes, for a serving database changed in place by it: `built` describes the tables' files
 * as they hold the changes (see `buildCatalogChanges`), `gone` each entity's file of the catalog's ids whose
 * rows the update does not keep; `whole` writes every table whole after all, when the serving database must
 * be built whole (once, in place of the changes).
 */
export interface CatalogChanges {
  readonly built: BuiltCatalog
  readonly gone: ReadonlyMap<CatalogEntity, string>
  readonly whole: () => Promise<BuiltCatalog>
}

/**
 * An update's changes alone (`options.previous` must be given): per entity the rows it writes (added or
 * revised) in the entity's file and the ids of the catalog's rows it does not keep; the link rows and
 * external ids of the rows it writes; the merged and deleted ids whole. Each entity's row count is the one it
 * will have once the changes are applied; the link tables' and external ids' are the changes' own. No table is
 * sorted whole: the catalog's kept rows stay where they are, in its serving database.
 */
export async function buildCatalogChanges(
  db: StagingDatabase,
  outDir: string,
  stores: ReadonlyMap<CatalogEntity, AssembledRecordStore>,
  onStep: BuildStepListener,
  options: BuildOptions & { readonly previous: PreviousCatalogTables },
): Promise<CatalogChanges> {
  return (await buildTables(db, outDir, stores, onStep, options, true)) as CatalogChanges
}

/** The folder of the build's tables where an update's changes list the ids each entity does not keep. */
export const GONE_IDS_DIR = 'gone'

/** The file (in the layout's terms) of an entity's ids an update does not keep. */
export const goneIdsPath = (entity: CatalogEntity): string => `${GONE_IDS_DIR}/${entity}.parquet`

async function buildTables(
  db: StagingDatabase,
  outDir: string,
  stores: ReadonlyMap<CatalogEntity, AssembledRecordStore>,
  onStep: BuildStepListener,
  options: BuildOptions,
  changesOnly: boolean,
): Promise<BuiltCatalog | CatalogChanges> {
  for (const dir of [ENTITIES_DIR, LINKS_DIR, IDS_DIR])
    await mkdir(join(outDir, BUILD_TABLES_DIR, dir), { recursive: true })
  let done = 0
  const step = (name: string) => onStep(name, done++, BUILD_STEP_COUNT)
  const files: CatalogFile[] = []
  // A statement that fails (out of memory, out of disk) says which step of the build it was.
  const run = async (label: string, sql: string, params?: readonly DuckDBValue[]): Promise<number> => {
    try {
      return await db.run(sql, params)
    } catch (error) {
      throw new Error(`${label}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
  }
  // Each table's file, by its path in the catalog layout, is written under the build's tables folder.
  const write = async (
    layoutPath: string,
    sql: string,
    params: readonly DuckDBValue[] = [],
  ): Promise<number> => {
    step(layoutPath)
    const path = buildTablePath(layoutPath)
    const rows = await run(`writing ${layoutPath}`, sql, [join(outDir, ...path.split('/')), ...params])
    files.push({ path, bytes: (await stat(join(outDir, ...path.split('/')))).size, rows })
    return rows
  }

  // The ranges' folders of the entities sorted in ranges, removed once their rows are dropped (or at the end).
  const rangeFolders = new Map<CatalogEntity, string>()

  // The kept rows are a view, sorted by the statement that writes the entity's file when they fit one sort
  // in memory. Otherwise they are sorted a range of ids at a time: the staged rows are split, a slice of
  // staging numbers at a time, into one compressed Parquet folder per range, the view and its staging
  // tables dropped, and each range read back (with, in an update, the catalog's kept rows of that range),
  // sorted and written as its own file of the entity's table; the rows stay in the ranges' folders (a view)
  // for the ids and link tables, until the entity's rows are dropped.
  const sortById = async (
    info: CatalogEntityInfo,
    label: string,
    budget: number,
    previous: boolean,
  ): Promise<SortedEntity> => {
    if (fitsOneSort(info.entity, previous)) return { rows: 'view' }
    const [size] = await db.rows(keptRowsSizeSql(info))
    const rows = Number(size?.rows ?? 0)
    const bytes = Number(size?.bytes ?? 0)
    const parts = Math.max(1, Math.min(rows, Math.ceil(bytes / budget)))
    if (parts === 1) return { rows: 'view' }
    const [row] = await db.rows(sortBoundariesSql(info, parts))
    const bounds = [...new Set((row?.bounds ?? []) as string[])]
    const rangesDir = join(outDir, `${SORT_RANGES_DIR}-${info.entity}`)
    // A run that failed after its split left the folder behind: its files must not join this run's ranges.
    await rm(rangesDir, { recursive: true, force: true })
    rangeFolders.set(info.entity, rangesDir)
    try {
      return await sortInRanges(info, label, budget, previous, { rows, bytes, bounds, rangesDir })
    } catch (error) {
      rangeFolders.delete(info.entity)
      await rm(rangesDir, { recursive: true, force: true })
      throw error
    }
  }

  /** `sortById`'s ranges: the split, then each range sorted into its file. */
  const sortInRanges = async (
    info: CatalogEntityInfo,
    label: string,
    budget: number,
    previous: boolean,
    {
      rows,
      bytes,
      bounds,
      rangesDir,
    }: { rows: number; bytes: number; bounds: readonly string[]; rangesDir: string },
  ): Promise<SortedEntity> => {
    const stagedParts = options.stagedParts.get(info.entity) ?? []
    const path = entityFilePath(info.entity)
    // Each range's folder buffers rows until this many before writing them: a share of the budget each.
    const rowBytes = bytes / Math.max(1, rows)
    const flushRows = Math.max(64, Math.floor(budget / (bounds.length + 1) / Math.max(1, rowBytes)))
    // The rows of a range are sorted afterwards, so the split need not keep their order; keeping it made
    // DuckDB buffer every range at once and spill 27 GB to its temp folder at 1M works. Both settings hold
    // for the split alone (`withSettings`).
    await withSettings(
      db,
      { partitioned_write_flush_threshold: flushRows, preserve_insertion_order: false },
      async () => {
        // A slice of staged rows at a time, each at most half the memory limit of JSON (a sort's budget is
        // a sixth), which the partitioned write holds before it writes (see splitRowsIntoRangesSql).
        const slices = stagedRowSlices(stagedParts, budget * SLICE_BUDGETS)
        for (const [slice, [first, last]] of slices.entries()) {
          onStep(
            `${path} (splitting slice ${slice + 1} of ${slices.length} into id ranges)`,
            done,
            BUILD_STEP_COUNT,
          )
          await run(
            `${label} (splitting into ${bounds.length + 1} ranges)`,
            splitRowsIntoRangesSql(info, slice),
            [listValue(bounds), rangesDir, first, last],
          )
        }
      },
    )
    for (const sql of dropViewAndStagingSql(info)) await db.run(sql)
    // Whether the split wrote any range's files (DuckDB makes the folder even when it writes no row: an update
    // whose staged records were all older than the catalog's, or deleted, keeps none of them).
    let split = false
    step(path)
    const rangeFiles: CatalogFile[] = []
    for (let index = 0; index <= bounds.length; index++) {
      const folder = join(rangesDir, rangeFolderName(index))
      // A range can be empty of staged rows (bounds that repeat were merged, and an update's new rows may
      // fall in few ranges); an update's kept rows are read for every range.
      const splitHere = existsSync(folder)
      split ||= splitHere
      if (!splitHere && !previous) continue
      // A big entity's sort takes minutes: the progress names the range (without counting a step).
      onStep(`${path} (sorting id range ${index + 1} of ${bounds.length + 1})`, done, BUILD_STEP_COUNT)
      const above = index === 0 ? null : bounds[index - 1]!
      const upTo = index === bounds.length ? null : bounds[index]!
      const file = buildTablePath(rangeFilePath(path, index))
      const written = await run(
        `${label} (range ${index + 1} of ${bounds.length + 1})`,
        copySortedRangeSql(info, splitHere, previous),
        [
          join(outDir, ...file.split('/')),
          ...(splitHere ? [join(folder, '*.parquet')] : []),
          ...(previous ? [above, upTo] : []),
        ],
      )
      // A range the update keeps no row of writes an empty file, which the table does not need.
      if (written === 0 && !splitHere) {
        await rm(join(outDir, ...file.split('/')), { force: true })
        continue
      }
      rangeFiles.push({
        path: file,
        bytes: (await stat(join(outDir, ...file.split('/')))).size,
        rows: written,
      })
    }
    // Every kept row went through exactly one range: a slice or range missed would lose rows silently.
    const sorted = rangeFiles.reduce((total, file) => total + file.rows, 0)
    if (sorted !== rows)
      throw new Error(`${label}: the id ranges hold ${sorted} rows where ${rows} were kept`)
    await run(
      `${label} (reading the ranges back)`,
      rangeRowsViewSql(info, split ? join(rangesDir, '*', '*.parquet') : null, previous),
    )
    files.push(...rangeFiles)
    return { rows: 'ranges', files: rangeFiles }
  }

  /** Drops the entity's rows, and the ranges' folder they were read from. */
  const dropRows = async (info: CatalogEntityInfo, rows: EntityRows, checkpoint: boolean) => {
    for (const sql of dropEntityRowsSql(info, rows, { checkpoint })) await db.run(sql)
    const folder = rangeFolders.get(info.entity)
    if (folder !== undefined) await rm(folder, { recursive: true, force: true })
    rangeFolders.delete(info.entity)
  }

  await db.run(RESOLVE_MERGED_SQL)
  for (let hop = 0; hop < MAX_MERGE_HOPS && (await db.run(FOLLOW_MERGE_CHAINS_SQL)) > 0; hop++) {
    // Each pass moves every merge one step further along its chain.
  }
  await db.run(RESOLVE_DELETED_SQL)

  const entities = {} as Record<CatalogEntity, CatalogEntityTable>
  let worksRows: EntityRows = 'view'
  const counts = {} as Record<CatalogEntity, EntityVerdictCounts>
  const budget = options.sortBatchBytes ?? (await db.memoryLimitBytes()) / SORT_MEMORY_SHARE
  // The staged JSON is larger than what a sort holds: when it fits, the rows are sorted by the statement
  // that writes the file, with nothing measured (unless an update keeps rows from the catalog's file too).
  const fitsOneSort = (entity: CatalogEntity, previous: boolean): boolean =>
    !previous && stagedBytesOf(options, entity) <= budget
  const previousOf = (info: CatalogEntityInfo) => options.previous?.entities.get(info.entity)
  // Entities whose live and external ids are staged already (by an update's changes, from the unsorted rows).
  const idsStaged = new Set<CatalogEntity>()

  // An entity that fits one sort (most of a small snapshot's 46, many of them empty) runs its statements in
  // one transaction, without the checkpoint that frees a big entity's disk: a commit to the staging file for
  // each statement was nearly half of a small ingest's entity steps (a 3-record core ingest, ~650 statements
  // for 46 entities, 40 of them empty: 3.05-3.36 s → 1.68-1.91 s, the whole ingest 4.7-5.6 s → 3.8-4.5 s,
  // four pairs at load 5-6).
  const inTransaction = async (small: boolean, work: () => Promise<void>): Promise<void> => {
    if (small) await db.run('BEGIN TRANSACTION')
    try {
      await work()
      if (small) await db.run('COMMIT')
    } catch (error) {
      if (small) await db.run('ROLLBACK').catch(() => {})
      throw error
    }
  }

  // An entity with nothing staged and no catalog rows to keep (most of a small snapshot's) writes its empty
  // file with the schema the view gives, and skips the statements that would count, record and look up no
  // rows: each costs a round trip into DuckDB (~5 ms), about a tenth of a small ingest.
  const isEmpty = (info: CatalogEntityInfo) =>
    previousOf(info) === undefined && stagedRecordsOf(options, info.entity) === 0

  // Such an entity (not the works, whose rows the link tables read) has nothing to pick, count or sort: its
  // file is the schema alone, written by one statement. The winners, verdicts and views it would be written
  // through were a dozen statements (with a transaction of their own), ~15 ms an entity, and most of a small
  // snapshot's 23 entities are empty.
  const writesEmpty = (info: CatalogEntityInfo) => info.entity !== 'works' && isEmpty(info)

  async function writeEmptyEntity(info: CatalogEntityInfo): Promise<void> {
    const path = entityFilePath(info.entity)
    const written = await write(path, copyEmptyEntitySql(info))
    counts[info.entity] = { ids: 0, superseded: 0, deleted: 0, merged: 0, written }
    entities[info.entity] = entityTable(info, [buildTablePath(path)], written, null)
  }

  /** The newest version of each id, merges and deletions applied, and the entity's rows as a view. */
  async function resolveEntity(info: CatalogEntityInfo): Promise<void> {
    const previous = previousOf(info)
    await run(`${info.entity}: picking the newest version of each id`, pickWinnersSql(info))
    await run(`${info.entity}: applying merges and deletions`, judgeWinnersSql(info), [info.entity])
    const verdict = isEmpty(info) ? {} : ((await db.rows(verdictCountsSql(info)))[0] ?? {})
    if (previous !== undefined)
      await run(`${info.entity}: finding the rows kept as they are`, keepPreviousRowsSql(info))
    for (const sql of keptRowsViewSql(info, previous)) await db.run(sql)
    counts[info.entity] = {
      ids: Number(verdict.ids ?? 0),
      superseded: Number(verdict.superseded ?? 0),
      deleted: Number(verdict.deleted ?? 0),
      merged: Number(verdict.merged ?? 0),
      written: Number(verdict.written ?? 0),
    }
  }

  /**
   * The live ids of the entity's rows and the external ids of those it writes, once; with `whole`, the
   * external ids of the catalog's kept rows too (an update's changes alone leave them in the catalog).
   */
  async function stageIds(info: CatalogEntityInfo, whole: boolean): Promise<void> {
    if (!idsStaged.has(info.entity) && !isEmpty(info)) {
      await run(`${info.entity}: recording live ids`, recordLiveIdsSql(info), [info.entity])
      await run(`${info.entity}: collecting external ids`, insertExternalIdsSql(info), [info.entity])
    }
    idsStaged.add(info.entity)
    if (whole && previousOf(info) !== undefined)
      await run(
        `${info.entity}: keeping external ids`,
        insertPreviousExternalIdsSql(info, options.previous!.externalIds),
        [info.entity],
      )
  }

  /** The entity's table, sorted by id, written whole. */
  async function writeEntity(info: CatalogEntityInfo, small: boolean): Promise<void> {
    const previous = previousOf(info)
    const sorted = await sortById(info, `${info.entity}: sorting the table`, budget, previous !== undefined)
    if (info.entity === 'works') worksRows = sorted.rows
    await stageIds(info, true)
    const path = entityFilePath(info.entity)
    const tableFiles =
      sorted.rows === 'ranges' ? sorted.files.map((file) => file.path) : [buildTablePath(path)]
    const written =
      sorted.rows === 'ranges'
        ? sorted.files.reduce((total, file) => total + file.rows, 0)
        : await write(path, copyEntitySql(info))
    const latest = isEmpty(info) ? null : (await db.rows(latestPartitionSql(info)))[0]?.latest
    // The works' rows stay for the link tables.
    if (info.entity !== 'works') await dropRows(info, sorted.rows, !small)
    entities[info.entity] = entityTable(info, tableFiles, written, latest)
    counts[info.entity] = { ...counts[info.entity]!, written }
  }

  const entityTable = (
    info: CatalogEntityInfo,
    tableFiles: readonly string[],
    rowCount: number,
    latest: unknown,
  ): CatalogEntityTable => {
    const records = stores.get(info.entity)
    if (records === undefined) throw new Error(`no record store was assembled for ${info.entity}`)
    return {
      files: [...tableFiles],
      rowCount,
      sortedBy: ['id'],
      columns: entityFileColumnsOf(info.entity),
      latestPartitionDate: typeof latest === 'string' ? latest : null,
      recordStore: records.store,
    }
  }

  const works = catalogEntityInfo('works')!
  const linkTable = (spec: LinkTableSpec, file: string, rowCount: number): CatalogLinkTable => ({
    files: [file],
    rowCount,
    sortedBy: ['key', 'work_id'],
    columns: LINK_COLUMNS,
    keyEntity: spec.keyEntity,
    description: spec.description,
  })
  // Each id table is one file, written by its COPY statement.
  const idTable = async (
    path: string,
    copySql: string,
    sortedBy: string[],
    columns: readonly CatalogColumn[],
  ) => ({
    files: [buildTablePath(path)],
    rowCount: await write(path, copySql),
    sortedBy,
    columns,
  })
  const idTables = async () => ({
    externalIds: await idTable(
      EXTERNAL_IDS_FILE,
      COPY_EXTERNAL_IDS_SQL,
      ['scheme', 'value'],
      EXTERNAL_ID_COLUMNS,
    ),
    mergedIds: await idTable(MERGED_IDS_FILE, COPY_MERGED_SQL, ['entity', 'old_id'], MERGED_ID_COLUMNS),
    deletedIds: await idTable(DELETED_IDS_FILE, COPY_DELETED_SQL, ['entity', 'id'], DELETED_ID_COLUMNS),
  })
  const recordFiles = () => CATALOG_ENTITIES.flatMap((info) => stores.get(info.entity)?.files ?? [])

  /** Every table written whole, in the layout's files (an entity resolved before, by `writeChanges`, is not again). */
  async function writeWhole(resolved: boolean): Promise<BuiltCatalog> {
    for (const info of CATALOG_ENTITIES) {
      if (writesEmpty(info)) {
        await writeEmptyEntity(info)
        continue
      }
      const small = fitsOneSort(info.entity, previousOf(info) !== undefined)
      await inTransaction(small, async () => {
        if (!resolved) await resolveEntity(info)
        await writeEntity(info, small)
      })
    }
    const keepsWorks = options.previous?.entities.has('works') ?? false
    const links: Record<string, CatalogLinkTable> = {}
    for (const spec of LINK_TABLES) {
      const path = linkFilePath(spec.name)
      const rows = await write(
        path,
        copyLinkTableSql(
          spec,
          works,
          keepsWorks ? previousLink(options.previous!, spec.name) : undefined,
          worksRows,
        ),
      )
      links[spec.name] = linkTable(spec, buildTablePath(path), rows)
    }
    await dropRows(works, worksRows, true)
    return { entities, counts, links, ...(await idTables()), files: [...recordFiles(), ...files] }
  }

  if (!changesOnly || options.previous === undefined) return await writeWhole(false)

  // An update's changes alone, in the tables' files: per entity the rows it writes (added or revised) and, in
  // `gone/`, the ids of the catalog's rows it does not keep; the link rows and external ids of the rows it
  // writes; the merged and deleted ids whole. Each entity's row count is the one it will have once the changes
  // are applied; the link tables' and external ids' are the changes' own (see `CatalogChanges`).
  await mkdir(join(outDir, BUILD_TABLES_DIR, GONE_IDS_DIR), { recursive: true })
  const gone = new Map<CatalogEntity, string>()
  for (const info of CATALOG_ENTITIES) {
    if (writesEmpty(info)) {
      await writeEmptyEntity(info)
      continue
    }
    await inTransaction(isEmpty(info), async () => {
      await resolveEntity(info)
      await stageIds(info, false)
      const path = entityFilePath(info.entity)
      await write(path, copyChangedRowsSql(info))
      if (previousOf(info) !== undefined) {
        const file = join(outDir, ...buildTablePath(goneIdsPath(info.entity)).split('/'))
        await run(`${info.entity}: listing the rows it does not keep`, copyGoneIdsSql(info), [file])
        gone.set(info.entity, file)
      }
      const latest = isEmpty(info) ? null : (await db.rows(latestPartitionSql(info)))[0]?.latest
      entities[info.entity] = entityTable(info, [buildTablePath(path)], counts[info.entity]!.written, latest)
    })
  }
  const links: Record<string, CatalogLinkTable> = {}
  for (const spec of LINK_TABLES) {
    const path = linkFilePath(spec.name)
    links[spec.name] = linkTable(
      spec,
      buildTablePath(path),
      await write(path, copyChangedLinksSql(spec, works)),
    )
  }
  return {
    built: { entities, counts, links, ...(await idTables()), files: [...recordFiles(), ...files] },
    gone,
    whole: () => {
      files.length = 0
      return writeWhole(true)
    },
  }
}

/** The records staged for the entity. */
function stagedRecordsOf(options: BuildOptions, entity: CatalogEntity): number {
  return (options.stagedParts.get(entity) ?? []).reduce((total, part) => total + part.records, 0)
}

/** The bytes of JSON lines staged for the entity (an upper bound of what a sort of its rows holds). */
function stagedBytesOf(options: BuildOptions, entity: CatalogEntity): number {
  return (options.stagedParts.get(entity) ?? []).reduce((total, part) => total + part.bytes, 0)
}

function previousLink(previous: PreviousCatalogTables, name: string): string {
  const relation = previous.links.get(name)
  if (relation === undefined) throw new Error(`the catalog being updated has no link table ${name}`)
  return relation
}
