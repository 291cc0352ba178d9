// The DuckDB session a catalog's serving database is built or updated in: the catalog's Parquet views in
// memory, the database file attached, spill inside the catalog folder, everything closed and removed after.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogManifest } from '@oqlkit/catalog'
import { constantLiteral } from '@oqlkit/catalog'
import { catalogViewStatements } from '../query/catalog-view-statements.ts'
import { SERVING_DATABASE_NAME } from '../query/catalog-views.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../query/duckdb-driver.ts'

/** DuckDB's spill folder while the serving database is built or updated (removed afterwards). */
const SERVING_SPILL_DIR = '.serving-spill'

/**
 * Runs `use` on a session with the database at `path` attached as `SERVING_DATABASE_NAME` and the catalog's
 * views made; detaches it when `use` returns, and closes the session whatever happens.
 */
export async function withServingDatabase<T>(
  catalogDir: string,
  manifest: CatalogManifest,
  path: string,
  memoryLimit: string | undefined,
  use: (db: DuckDbConnectionLike) => Promise<T>,
): Promise<T> {
  // What outgrows the memory limit (the sorts of a big catalog's tables and indexes) spills inside the
  // catalog folder being built, not into whatever folder the process was started in.
  const spill = join(catalogDir, SERVING_SPILL_DIR)
  const db = await openDuckDbDatabase({
    connections: 1,
    tempDirectory: spill,
    ...(memoryLimit === undefined ? {} : { memoryLimit }),
  })
  try {
    await db.all(`ATTACH ${constantLiteral(path)} AS ${SERVING_DATABASE_NAME}`)
    // The Parquet views the tables are made from live in memory: views would store the build folder's paths.
    for (const statement of catalogViewStatements(catalogDir, manifest, 'views')) await db.all(statement)
    const result = await use(db)
    await db.all(`DETACH ${SERVING_DATABASE_NAME}`)
    return result
  } finally {
    await db.close()
    await rm(spill, { recursive: true, force: true })
  }
}

/** The rows the attached serving database's tables hold (exact for tables only ever inserted into). */
export async function servingDatabaseRows(db: DuckDbConnectionLike): Promise<number> {
  const [counted] = await db.all(
    `SELECT CAST(coalesce(sum(estimated_size), 0) AS BIGINT) AS rows FROM duckdb_tables() WHERE database_name = ${constantLiteral(SERVING_DATABASE_NAME)}`,
  )
  return Number(counted?.rows ?? 0)
}
