// Builds a catalog's serving database (`catalog.duckdb`) from its files: the narrow tables, indexes and link
// tables that `serve` reads, made once at ingest rather than copied into memory at every start (38 s and a
// 2.3 GB peak at 1M works when serve made them).
import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogFile, CatalogManifest } from '@oqlkit/catalog'
import { SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { type AutocompleteIndexOptions, autocompleteIndexStatements } from '../query/autocomplete-index.ts'
import { type ServingDatabaseStep, served, servingDatabaseStatements } from '../query/catalog-views.ts'
import { onOneThread } from '../query/duckdb-driver.ts'
import { servingDatabaseRows, withServingDatabase } from './serving-database-session.ts'

export interface ServingDatabaseOptions {
  /** DuckDB `memory_limit` while building, e.g. `4GB`. */
  readonly memoryLimit?: string
  /** Called before each statement, with how many have run and how many there are. */
  readonly onStep?: (done: number, total: number) => void
  /** How the autocomplete index is built (tests build small lists to reach every path on a small catalog). */
  readonly autocomplete?: AutocompleteIndexOptions
}

/** Writes `catalog.duckdb` into `catalogDir` (replacing one there) and returns its file entry. */
export async function buildServingDatabase(
  catalogDir: string,
  manifest: CatalogManifest,
  options: ServingDatabaseOptions = {},
): Promise<CatalogFile> {
  const path = join(catalogDir, SERVING_DATABASE_FILE)
  await rm(path, { force: true })
  await rm(`${path}.wal`, { force: true })
  const rows = await withServingDatabase(catalogDir, manifest, path, options.memoryLimit, async (db) => {
    const steps: ServingDatabaseStep[] = [
      ...servingDatabaseStatements(manifest),
      ...autocompleteIndexStatements(
        served,
        (entity) => manifest.entities[entity]?.rowCount ?? 0,
        options.autocomplete,
      ).map((statement) => ({ statement, threadBound: false, empty: false })),
    ]
    // The statements of tables with no rows (most of a small catalog's: 21 of 23 entities, most link tables)
    // run in one transaction, which commits them to the file once: each autocommitted statement is a commit
    // of its own. Those of a table with rows keep theirs: a table made in an open transaction numbers its rows
    // from 2^55 until the commit, where its `rowid` must be its position (the row number is set from it), and a
    // big table's rows are not held uncommitted. The statements bound to one thread (consecutive) share one
    // change of the setting.
    let inTransaction = false
    let oneThread: (() => Promise<void>) | undefined
    for (const [done, { statement, threadBound, empty }] of steps.entries()) {
      options.onStep?.(done, steps.length)
      if (empty !== inTransaction) {
        await db.all(empty ? 'BEGIN TRANSACTION' : 'COMMIT')
        inTransaction = empty
      }
      if (threadBound && oneThread === undefined) oneThread = await onOneThread(db)
      if (!threadBound && oneThread !== undefined) {
        await oneThread()
        oneThread = undefined
      }
      await db.all(statement)
    }
    if (inTransaction) await db.all('COMMIT')
    await oneThread?.()
    options.onStep?.(steps.length, steps.length)
    return await servingDatabaseRows(db)
  })
  return { path: SERVING_DATABASE_FILE, bytes: (await stat(path)).size, rows }
}
