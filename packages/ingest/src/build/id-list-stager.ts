// The id lists an ingest stages: the merged and deleted ids of the snapshot and of the catalog it updates, in
// arrival order (the catalog's first), numbered by the staging cursor.
import type { CheckpointPhase } from '../parse/parse-checkpoint.ts'
import { readDeletedIds, readMergedIds } from '../plan/id-list-reader.ts'
import type { SnapshotIdFile, SnapshotPlan } from '../plan/snapshot-plan.ts'
import type { ProgressReporter } from '../progress-reporter.ts'
import { loadCatalogDeletedSql, loadCatalogMergedSql } from './catalog-sql.ts'
import { catalogInvalid, type PreviousCatalog, previousCatalogTables } from './previous-catalog-reader.ts'
import type { StagingDatabase } from './staging-database.ts'

/** Where staging stands: the next sequence number of the id lists (arrival order) and tallies. */
export interface StageCursor {
  nextSeq: bigint
  recordsRead: number
  rewritten: number
  /** The checkpoint's phase: `unsealed` until everything before the parse is staged. */
  checkpoint: CheckpointPhase | 'unsealed'
}

/** The merges and deletions of the catalog being updated, before the snapshot's. */
export async function stagePreviousIds(
  db: StagingDatabase,
  previous: PreviousCatalog,
  cursor: StageCursor,
): Promise<void> {
  const tables = previousCatalogTables(previous)
  const load = async (sql: string) => {
    const count = await db.run(sql, [cursor.nextSeq])
    cursor.nextSeq += BigInt(count) + 1n
  }
  try {
    await load(loadCatalogMergedSql(tables.mergedIds))
    await load(loadCatalogDeletedSql(tables.deletedIds))
  } catch (error) {
    throw catalogInvalid(previous.outDir, error)
  }
}

/** Stages the snapshot's merged and deleted id lists. */
export async function stageIdFiles(
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
