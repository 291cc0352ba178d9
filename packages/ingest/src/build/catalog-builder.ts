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
  linkFilePath,
  MERGED_ID_COLUMNS,
  MERGED_IDS_FILE,
} from '@oqlkit/catalog'
import { withSettings } from '../texts/build-session.ts'
import {
  COPY_DELETED_SQL,
  COPY_EXTERNAL_IDS_SQL,
  COPY_MERGED_SQL,
  copyEntitySql,
  copyLinkTableSql,
  countSortedRowsSql,
  createSortedTableSql,
  dropEntityRowsSql,
  dropViewAndStagingSql,
  type EntityRows,
  entityFileColumnsOf,
  FOLLOW_MERGE_CHAINS_SQL,
  insertExternalIdsSql,
  insertPreviousExternalIdsSql,
  insertSortedRangeSql,
  judgeWinnersSql,
  keepPreviousRowsSql,
  keptRowsSizeSql,
  keptRowsViewSql,
  latestPartitionSql,
  pickWinnersSql,
  RESOLVE_DELETED_SQL,
  RESOLVE_MERGED_SQL,
  rangeFolderName,
  recordLiveIdsSql,
  renameSortedTableSql,
  sortBoundariesSql,
  splitRowsIntoRangesSql,
  verdictCountsSql,
} from './catalog-sql.ts'
import type { AssembledRecordStore } from './record-store-assembler.ts'
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

/** The rows one parse task staged: numbered `firstSeq` on, `records` of them, `bytes` of JSON lines. */
export interface StagedPart {
  readonly firstSeq: bigint
  readonly records: number
  readonly bytes: number
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

export async function buildCatalog(
  db: StagingDatabase,
  outDir: string,
  stores: ReadonlyMap<CatalogEntity, AssembledRecordStore>,
  onStep: BuildStepListener,
  options: BuildOptions,
): Promise<BuiltCatalog> {
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

  // The kept rows are a view, sorted by the statement that writes the entity's file when they fit one sort
  // in memory. Otherwise they are sorted a range of ids at a time: the staged rows are split, a slice of
  // staging numbers at a time, into one compressed Parquet folder per range, the view and its staging
  // tables dropped, and each range read back (with, in an update, the catalog's kept rows of that range),
  // sorted and appended in order to a table (inserts keep their ORDER BY).
  const sortById = async (
    info: CatalogEntityInfo,
    label: string,
    budget: number,
    previous: boolean,
  ): Promise<EntityRows> => {
    const stagedParts = options.stagedParts.get(info.entity) ?? []
    if (fitsOneSort(info.entity, previous)) return 'view'
    const [size] = await db.rows(keptRowsSizeSql(info))
    const rows = Number(size?.rows ?? 0)
    const bytes = Number(size?.bytes ?? 0)
    const parts = Math.max(1, Math.min(rows, Math.ceil(bytes / budget)))
    if (parts === 1) return 'view'
    const [row] = await db.rows(sortBoundariesSql(info, parts))
    const bounds = [...new Set((row?.bounds ?? []) as string[])]
    const rangesDir = join(outDir, `${SORT_RANGES_DIR}-${info.entity}`)
    const path = entityFilePath(info.entity)
    try {
      await run(label, createSortedTableSql(info))
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
          const sliceBytes = budget * SLICE_BUDGETS
          const slices = stagedParts.flatMap((part) => {
            const pieces = Math.max(1, Math.ceil(part.bytes / sliceBytes))
            const perPiece = Math.max(1, Math.ceil(part.records / pieces))
            const list: (readonly [bigint, bigint])[] = []
            for (let from = 0; from < part.records; from += perPiece)
              list.push([
                part.firstSeq + BigInt(from),
                part.firstSeq + BigInt(Math.min(part.records, from + perPiece) - 1),
              ])
            return list
          })
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
      for (let index = 0; index <= bounds.length; index++) {
        const folder = join(rangesDir, rangeFolderName(index))
        // A range can be empty of staged rows (bounds that repeat were merged, and an update's new rows may
        // fall in few ranges); an update's kept rows are read for every range.
        const split = existsSync(folder)
        if (!split && !previous) continue
        // A big entity's sort takes minutes: the progress names the range (without counting a step).
        onStep(`${path} (sorting id range ${index + 1} of ${bounds.length + 1})`, done, BUILD_STEP_COUNT)
        const above = index === 0 ? null : bounds[index - 1]!
        const upTo = index === bounds.length ? null : bounds[index]!
        await run(
          `${label} (range ${index + 1} of ${bounds.length + 1})`,
          insertSortedRangeSql(info, split, previous),
          [...(split ? [join(folder, '*.parquet')] : []), ...(previous ? [above, upTo] : [])],
        )
        await rm(folder, { recursive: true, force: true })
      }
      // Every kept row went through exactly one range: a slice or range missed would lose rows silently.
      const [sorted] = await db.rows(countSortedRowsSql(info))
      if (Number(sorted?.n ?? -1) !== rows)
        throw new Error(`${label}: the id ranges hold ${sorted?.n} rows where ${rows} were kept`)
      await db.run(renameSortedTableSql(info))
    } finally {
      await rm(rangesDir, { recursive: true, force: true })
    }
    return 'sorted-table'
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
  for (const info of CATALOG_ENTITIES) {
    const previous = options.previous?.entities.get(info.entity)
    // An entity that fits one sort (most of a small snapshot's 46, many of them empty) runs its statements
    // in one transaction, without the checkpoint that frees a big entity's disk: a commit to the staging
    // file for each statement was nearly half of a small ingest's entity steps (a 3-record core ingest,
    // ~650 statements for 46 entities, 40 of them empty: 3.05-3.36 s → 1.68-1.91 s, the whole ingest
    // 4.7-5.6 s → 3.8-4.5 s, four pairs at load 5-6).
    const small = fitsOneSort(info.entity, previous !== undefined)
    if (small) await db.run('BEGIN TRANSACTION')
    try {
      counts[info.entity] = await buildEntity(info, previous, small)
      if (small) await db.run('COMMIT')
    } catch (error) {
      if (small) await db.run('ROLLBACK').catch(() => {})
      throw error
    }
  }

  async function buildEntity(
    info: CatalogEntityInfo,
    previous: string | undefined,
    small: boolean,
  ): Promise<EntityVerdictCounts> {
    // An entity with nothing staged and no catalog rows to keep (most of a small snapshot's) writes its empty
    // file with the schema the view gives, and skips the statements that would count, record and look up no
    // rows: each costs a round trip into DuckDB (~5 ms), about a tenth of a small ingest.
    const empty = previous === undefined && stagedRecordsOf(options, info.entity) === 0
    await run(`${info.entity}: picking the newest version of each id`, pickWinnersSql(info))
    await run(`${info.entity}: applying merges and deletions`, judgeWinnersSql(info), [info.entity])
    const verdict = empty ? {} : ((await db.rows(verdictCountsSql(info)))[0] ?? {})
    if (previous !== undefined)
      await run(`${info.entity}: finding the rows kept as they are`, keepPreviousRowsSql(info))
    for (const sql of keptRowsViewSql(info, previous)) await db.run(sql)
    const rows = await sortById(info, `${info.entity}: sorting the table`, budget, previous !== undefined)
    if (info.entity === 'works') worksRows = rows
    if (!empty) {
      await run(`${info.entity}: recording live ids`, recordLiveIdsSql(info), [info.entity])
      await run(`${info.entity}: collecting external ids`, insertExternalIdsSql(info), [info.entity])
    }
    if (previous !== undefined)
      await run(
        `${info.entity}: keeping external ids`,
        insertPreviousExternalIdsSql(info, options.previous!.externalIds),
        [info.entity],
      )
    const records = stores.get(info.entity)
    if (records === undefined) throw new Error(`no record store was assembled for ${info.entity}`)
    files.push(...records.files)
    const path = entityFilePath(info.entity)
    // The copy of a range-sorted table keeps its order on one thread: on two, DuckDB's ordered Parquet
    // write held batches of both outside its memory limit (3.75 GB of RSS at 100k works under a 3 GB
    // limit, 1.34 GB on one thread, and no slower); smaller row groups made it worse (5.5 GB).
    const copy = () => write(path, copyEntitySql(info, rows))
    const written = rows === 'sorted-table' ? await withSettings(db, { threads: 1 }, copy) : await copy()
    const latest = empty ? null : (await db.rows(latestPartitionSql(info)))[0]?.latest
    // The works' rows stay for the link tables.
    if (info.entity !== 'works')
      for (const sql of dropEntityRowsSql(info, rows, { checkpoint: !small })) await db.run(sql)
    entities[info.entity] = {
      files: [buildTablePath(path)],
      rowCount: written,
      sortedBy: ['id'],
      columns: entityFileColumnsOf(info.entity),
      latestPartitionDate: typeof latest === 'string' ? latest : null,
      recordStore: records.store,
    }
    return {
      ids: Number(verdict.ids ?? 0),
      superseded: Number(verdict.superseded ?? 0),
      deleted: Number(verdict.deleted ?? 0),
      merged: Number(verdict.merged ?? 0),
      written,
    }
  }

  const works = catalogEntityInfo('works')!
  const keepsWorks = options.previous?.entities.has('works') ?? false
  const links: Record<string, CatalogLinkTable> = {}
  for (const spec of LINK_TABLES) {
    const path = linkFilePath(spec.name)
    const rows = await write(
      path,
      copyLinkTableSql(spec, works, keepsWorks ? previousLink(options.previous!, spec.name) : undefined),
    )
    links[spec.name] = {
      files: [buildTablePath(path)],
      rowCount: rows,
      sortedBy: ['key', 'work_id'],
      columns: LINK_COLUMNS,
      keyEntity: spec.keyEntity,
      description: spec.description,
    }
  }

  for (const sql of dropEntityRowsSql(works, worksRows)) await db.run(sql)

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
  const externalIds = await idTable(
    EXTERNAL_IDS_FILE,
    COPY_EXTERNAL_IDS_SQL,
    ['scheme', 'value'],
    EXTERNAL_ID_COLUMNS,
  )
  const mergedIds = await idTable(MERGED_IDS_FILE, COPY_MERGED_SQL, ['entity', 'old_id'], MERGED_ID_COLUMNS)
  const deletedIds = await idTable(DELETED_IDS_FILE, COPY_DELETED_SQL, ['entity', 'id'], DELETED_ID_COLUMNS)
  return { entities, counts, links, externalIds, mergedIds, deletedIds, files }
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
