// The works an update kept as they were: those whose record the catalog being updated already held, unrevised,
// unmerged and undeleted. Their texts are the same, so what was derived from their texts (their vectors) can
// be kept rather than derived again. They are the rows whose record lies below `keptRecordBytes`.
import { join } from 'node:path'
import { listValue } from '@duckdb/node-api'
import type { CatalogEntityTable } from '@oqlkit/catalog'
import type { BuildSession } from '../texts/build-session.ts'
import { keptRecordBytes, type PreviousCatalog } from './previous-catalog-reader.ts'

export interface UnchangedWorks {
  /** The temporary table of their ids (one column `id`). */
  readonly table: string
  /** Works of the new catalog. */
  readonly works: number
  /** Works the update added, revised or removed: the new catalog's not kept, and the old one's not kept. */
  readonly changed: number
  /** The offset in the works' record store from which the records are the update's (`keptRecordBytes`). */
  readonly keptBelow: number
}

const UNCHANGED_WORKS_TABLE = 'unchanged_works'

/** Stages the ids of the works the update kept as they were, from the new catalog's works files. */
export async function stageUnchangedWorks(
  session: BuildSession,
  buildDir: string,
  works: CatalogEntityTable,
  previous: PreviousCatalog,
): Promise<UnchangedWorks> {
  const old = previous.manifest.entities.works
  const keptBytes = await keptRecordBytes(previous, 'works')
  const files = works.files.map((path) => join(buildDir, ...path.split('/')))
  await session.run(`CREATE OR REPLACE TEMP TABLE ${UNCHANGED_WORKS_TABLE} (id VARCHAR)`)
  if (files.length > 0)
    await session.run(
      `INSERT INTO ${UNCHANGED_WORKS_TABLE} SELECT id FROM read_parquet($1) WHERE record_offset < $2`,
      [listValue(files), keptBytes],
    )
  const [counted] = await session.rows(`SELECT count(*) AS n FROM ${UNCHANGED_WORKS_TABLE}`)
  const kept = Number(counted?.n ?? 0)
  return {
    table: UNCHANGED_WORKS_TABLE,
    works: works.rowCount,
    changed: works.rowCount - kept + (old.rowCount - kept),
    keptBelow: keptBytes,
  }
}
