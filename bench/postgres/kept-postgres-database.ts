// A PostgreSQL baseline database kept between benchmark runs (`--keep-postgres`): loading 1M works takes
// half an hour, the same every run. The database is named after the snapshot it holds, and a table written
// once the load has finished says so and keeps the load's figures for the report; a database without it
// (a load that was stopped) or loaded by another version of the loader is dropped and loaded again.
import {
  connectPostgres,
  dropDatabase,
  type LoadedDatabase,
  loadSnapshotIntoPostgres,
  type PostgresServer,
} from './postgres-snapshot-loader.ts'

/** Bumped when the tables, their rows or their indexes change: a kept database of another version is reloaded. */
export const BASELINE_LOADER_VERSION = 1

const MARKER_TABLE = 'oqlkit_bench_load'

/** The kept database of a snapshot cache folder (`snapshot-w1000000-s1-g1` → `oqlkit_bench_kept_w1000000_s1_g1`). */
export const keptDatabaseName = (snapshotName: string): string =>
  `oqlkit_bench_kept_${snapshotName
    .replace(/^snapshot-/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')}`

type LoadFigures = Pick<LoadedDatabase, 'rows' | 'copyMs' | 'indexMs' | 'analyzeMs' | 'sizeBytes'>

async function readFinishedLoad(server: PostgresServer, database: string): Promise<LoadFigures | undefined> {
  const admin = connectPostgres(server, 'postgres')
  try {
    const [found] = await admin`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${database}`
    if (found!.n === 0) return undefined
  } finally {
    await admin.end({ timeout: 5 })
  }
  const sql = connectPostgres(server, database)
  try {
    const [marker] = await sql`SELECT to_regclass(${MARKER_TABLE}) IS NOT NULL AS present`
    if (marker?.present !== true) return undefined
    const [row] = await sql.unsafe(`SELECT version, figures FROM ${MARKER_TABLE}`)
    return row?.version === BASELINE_LOADER_VERSION ? (row.figures as LoadFigures) : undefined
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/** The kept database of the snapshot: the one a previous run finished loading, or a new load of it. */
export async function openOrLoadKeptDatabase(options: {
  readonly server: PostgresServer
  readonly snapshotDir: string
  readonly database: string
  readonly onProgress?: (message: string) => void
}): Promise<LoadedDatabase & { readonly reused: boolean }> {
  const { server, database } = options
  const finished = await readFinishedLoad(server, database)
  if (finished !== undefined) {
    options.onProgress?.(`postgres: using the kept database ${database}`)
    const sql = connectPostgres(server, database)
    const close = () => sql.end({ timeout: 5 })
    return {
      database,
      sql,
      ...finished,
      drop: async () => {
        await close()
        await dropDatabase(server, database)
      },
      close,
      reused: true,
    }
  }
  await dropDatabase(server, database)
  const loaded = await loadSnapshotIntoPostgres({
    server,
    snapshotDir: options.snapshotDir,
    database,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  })
  const { rows, copyMs, indexMs, analyzeMs, sizeBytes } = loaded
  const figures = { rows, copyMs, indexMs, analyzeMs, sizeBytes }
  try {
    await loaded.sql.unsafe(`CREATE TABLE ${MARKER_TABLE} (version integer NOT NULL, figures jsonb NOT NULL)`)
    await loaded.sql`INSERT INTO ${loaded.sql(MARKER_TABLE)} VALUES (${BASELINE_LOADER_VERSION}, ${loaded.sql.json(figures)})`
  } catch (error) {
    await loaded.close().catch(() => {})
    throw error
  }
  return { ...loaded, reused: false }
}
