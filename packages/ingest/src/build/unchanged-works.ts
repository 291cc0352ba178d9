// The works an update kept as they were: those whose record the catalog being updated already held, unrevised,
// unmerged and undeleted. Their texts are the same, so what was derived from their texts (their vectors) can
// be kept rather than derived again. They are the rows whose record lies below `keptRecordBytes`.
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

/**
 * Stages the ids of the works the update kept as they were, from the new catalog's works (`worksRows`, a
 * relation of the session: `CatalogEntityRows`).
 */
export async function stageUnchangedWorks(
  session: BuildSession,
  worksRows: string,
  works: CatalogEntityTable,
  previous: PreviousCatalog,
): Promise<UnchangedWorks> {
  const old = previous.manifest.entities.works
  const keptBytes = await keptRecordBytes(previous, 'works')
  await session.run(`CREATE OR REPLACE TEMP TABLE ${UNCHANGED_WORKS_TABLE} (id VARCHAR)`)
  await session.run(
    `INSERT INTO ${UNCHANGED_WORKS_TABLE} SELECT id FROM ${worksRows} WHERE record_offset < $1`,
    [keptBytes],
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
