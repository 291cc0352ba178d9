// Builds a catalog's serving database (`catalog.duckdb`) from its files: the narrow tables, indexes and link
// tables that `serve` reads, made once at ingest rather than copied into memory at every start (38 s and a
// 2.3 GB peak at 1M works when serve made them).
import { rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogFile, CatalogManifest } from '@oqlkit/catalog'
import { constantLiteral, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { type AutocompleteIndexOptions, autocompleteIndexStatements } from '../query/autocomplete-index.ts'
import {
  catalogViewStatements,
  SERVING_DATABASE_NAME,
  served,
  servingDatabaseStatements,
} from '../query/catalog-views.ts'
import { openDuckDbDatabase, runOnOneThread } from '../query/duckdb-driver.ts'

/** DuckDB's spill folder while the serving database is built (removed afterwards). */
const SERVING_SPILL_DIR = '.serving-spill'

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
  // What outgrows the memory limit (the sorts of a big catalog's tables and indexes) spills inside the
  // catalog folder being built, not into whatever folder the process was started in.
  const spill = join(catalogDir, SERVING_SPILL_DIR)
  const db = await openDuckDbDatabase({
    connections: 1,
    tempDirectory: spill,
    ...(options.memoryLimit === undefined ? {} : { memoryLimit: options.memoryLimit }),
  })
  let rows = 0
  try {
    await db.all(`ATTACH ${constantLiteral(path)} AS ${SERVING_DATABASE_NAME}`)
    // The Parquet views the tables are made from live in memory: views would store the build folder's paths.
    for (const statement of catalogViewStatements(catalogDir, manifest, 'views')) await db.all(statement)
    const steps = [
      ...servingDatabaseStatements(manifest),
      ...autocompleteIndexStatements(
        served,
        (entity) => manifest.entities[entity]?.rowCount ?? 0,
        options.autocomplete,
      ).map((statement) => ({
        statement,
        threadBound: false,
      })),
    ]
    for (const [done, { statement, threadBound }] of steps.entries()) {
      options.onStep?.(done, steps.length)
      if (threadBound) await runOnOneThread(db, [statement])
      else await db.all(statement)
    }
    options.onStep?.(steps.length, steps.length)
    // Exact for tables that were only ever inserted into.
    const [counted] = await db.all(
      `SELECT CAST(coalesce(sum(estimated_size), 0) AS BIGINT) AS rows FROM duckdb_tables() WHERE database_name = ${constantLiteral(SERVING_DATABASE_NAME)}`,
    )
    rows = Number(counted?.rows ?? 0)
    await db.all(`DETACH ${SERVING_DATABASE_NAME}`)
  } finally {
    await db.close()
    await rm(spill, { recursive: true, force: true })
  }
  return { path: SERVING_DATABASE_FILE, bytes: (await stat(path)).size, rows }
}
