// What a stopped ingest leaves for the next run of the same command: the staging database records, in the
// same transaction as each part's staged rows, that the part is parsed, so a run killed after hours of
// parsing (out of memory, a reboot, Ctrl-C) resumes with the parts it had not finished instead of starting
// over. Only the parse resumes: the build after it rewrites the staging tables, so a run stopped there
// parses again (the checkpoint says which phase it reached).
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { blobValue, type DuckDBBlobValue, type DuckDBValue } from '@duckdb/node-api'
import type { CatalogEntity, RecordCodecId } from '@oqlkit/catalog'
import { CATALOG_FORMAT_VERSION, type CatalogManifest } from '@oqlkit/catalog'
import type { ChosenRecordCoding } from '../build/record-store-assembler.ts'
import { STAGING_FILE, StagingDatabase, type StagingOptions } from '../build/staging-database.ts'
import type { SnapshotPlan } from '../plan/snapshot-plan.ts'

/**
 * `parsing` while parts are being staged (a run stopped then resumes), `building` once the record stores are
 * put together from the parsed segments (which removes them: a run stopped then starts over).
 */
export type CheckpointPhase = 'parsing' | 'building'

/** A part whose parse is staged for good: what the run needs of its result without parsing it again. */
export interface ParsedTask {
  readonly index: number
  readonly records: number
  readonly rewritten: number
  readonly longestRow: number
  /** The bytes of its rows file, which the build's sort budget counts. */
  readonly rowsBytes: number
}

export interface ParseCheckpoint {
  readonly fingerprint: string
  readonly phase: CheckpointPhase
  readonly codings: ReadonlyMap<CatalogEntity, ChosenRecordCoding>
  readonly parsed: ReadonlyMap<number, ParsedTask>
}

/** What makes two runs the same ingest: the files they read (as they are now) and what they build on. */
export interface CheckpointInputs {
  readonly plan: SnapshotPlan
  readonly mode: 'update' | 'replace'
  readonly codec: RecordCodecId
  /** The catalog an update starts from, as its manifest describes it (null when building from scratch). */
  readonly previous: CatalogManifest | null
}

const CREATE_CHECKPOINT_TABLES_SQL = [
  'CREATE TABLE ingest_checkpoint (fingerprint VARCHAR NOT NULL, phase VARCHAR NOT NULL)',
  'CREATE TABLE checkpoint_codings (entity VARCHAR PRIMARY KEY, codec VARCHAR NOT NULL, dictionary BLOB NOT NULL, dictionary_kind VARCHAR NOT NULL, warning VARCHAR)',
  'CREATE TABLE parsed_tasks (task INTEGER PRIMARY KEY, records BIGINT NOT NULL, rewritten BIGINT NOT NULL, longest_row BIGINT NOT NULL, rows_bytes BIGINT NOT NULL)',
] as const

/**
 * A digest of the inputs: every part and id file with its size and modification time, the layout, the
 * mode, the codec asked for, the catalog updated (its creation time and ingests) and the catalog format. A
 * file changed, added or removed since the stopped run makes another digest, and that run's work is dropped.
 */
export async function checkpointFingerprint(inputs: CheckpointInputs): Promise<string> {
  const files = await Promise.all(
    [...inputs.plan.parts.map((part) => part.path), ...inputs.plan.idFiles.map((file) => file.path)].map(
      async (path) => {
        const info = await stat(path)
        // Whole milliseconds: finer digits do not survive every file system or copy tool.
        return [path, info.size, Math.trunc(info.mtimeMs)]
      },
    ),
  )
  const described = {
    format: CATALOG_FORMAT_VERSION,
    layout: inputs.plan.layout,
    mode: inputs.mode,
    codec: inputs.codec,
    previous:
      inputs.previous === null
        ? null
        : { createdAt: inputs.previous.createdAt, ingests: inputs.previous.ingests.length },
    files,
  }
  return createHash('sha256').update(JSON.stringify(described)).digest('hex')
}

/** Makes the checkpoint's tables in a new staging database (the fingerprint is written last, by `seal`). */
export async function createCheckpointTables(db: StagingDatabase): Promise<void> {
  for (const sql of CREATE_CHECKPOINT_TABLES_SQL) await db.run(sql)
}

/** Keeps the record codings chosen for the run: a resumed run must compress with the same dictionaries. */
export async function saveCodings(
  db: StagingDatabase,
  codings: ReadonlyMap<CatalogEntity, ChosenRecordCoding>,
): Promise<void> {
  await insertRows(
    db,
    'checkpoint_codings',
    [...codings].map(([entity, coding]) => [
      entity,
      coding.codec,
      blobValue(coding.dictionary),
      coding.dictionaryKind,
      coding.warning ?? null,
    ]),
  )
}

/**
 * Inserts `rows` into one of the checkpoint's tables (its name is this module's own) in one statement: each
 * statement with parameters is three trips through libuv's pool (`build-session.ts`), and the sample's parsed
 * parts were 0.3 s of them, one statement a part.
 */
async function insertRows(
  db: StagingDatabase,
  table: 'checkpoint_codings' | 'parsed_tasks',
  rows: readonly (readonly DuckDBValue[])[],
): Promise<void> {
  if (rows.length === 0) return
  let next = 1
  const tuples = rows.map((row) => `(${row.map(() => `$${next++}`).join(', ')})`)
  await db.run(`INSERT INTO ${table} VALUES ${tuples.join(', ')}`, rows.flat())
}

/**
 * Marks the staging database resumable: written once everything before the parse is in it (the tables, the
 * codings, an update's previous ids), so a run stopped during that setup leaves nothing a later run trusts.
 */
export async function sealCheckpoint(db: StagingDatabase, fingerprint: string): Promise<void> {
  await db.run("INSERT INTO ingest_checkpoint VALUES ($1, 'parsing')", [fingerprint])
}

export async function setCheckpointPhase(db: StagingDatabase, phase: CheckpointPhase): Promise<void> {
  await db.run('UPDATE ingest_checkpoint SET phase = $1', [phase])
}

/** A parsed part to stage: what the checkpoint records of it, and its segment of compressed records. */
export interface ParsedTaskToStage {
  readonly task: ParsedTask
  readonly segmentPath: string
}

/**
 * Runs `stage` (the statements that load parsed parts' rows) and records the parts as parsed, in one
 * transaction: after a crash each part is either staged and recorded, or neither. Their segments of
 * compressed records are flushed to disk first, since the record marks them complete. Parts that finish
 * together are staged together: a commit and its flushes cost about the same for one small part as for
 * twenty, and the sample's 194 parts, one transaction each, spent 5.4 s in them.
 */
export async function stageParsedTasks(
  db: StagingDatabase,
  parts: readonly ParsedTaskToStage[],
  stage: () => Promise<void>,
): Promise<void> {
  await Promise.all(parts.map(({ segmentPath }) => flushToDisk(segmentPath)))
  await db.run('BEGIN TRANSACTION')
  try {
    await stage()
    await insertRows(
      db,
      'parsed_tasks',
      parts.map(({ task }) => [task.index, task.records, task.rewritten, task.longestRow, task.rowsBytes]),
    )
    await db.run('COMMIT')
  } catch (error) {
    await db.run('ROLLBACK').catch(() => {})
    throw error
  }
}

async function flushToDisk(path: string): Promise<void> {
  const file = await open(path, 'r')
  try {
    await file.sync()
  } finally {
    await file.close()
  }
}

/** The checkpoint of an open staging database, or undefined when it was never sealed. */
export async function readCheckpoint(db: StagingDatabase): Promise<ParseCheckpoint | undefined> {
  const tables = await db.rows(
    "SELECT count(*) AS n FROM duckdb_tables() WHERE database_name = 'staging' AND table_name IN ('ingest_checkpoint', 'checkpoint_codings', 'parsed_tasks')",
  )
  if (Number(tables[0]?.n ?? 0) !== CREATE_CHECKPOINT_TABLES_SQL.length) return undefined
  const [head, ...more] = await db.rows('SELECT fingerprint, phase FROM ingest_checkpoint')
  if (head === undefined || more.length > 0) return undefined
  const codings = new Map<CatalogEntity, ChosenRecordCoding>()
  // The dictionaries as the driver's blob values: JSON rows would give them as escaped text.
  for (const row of await db.valueRows(
    'SELECT entity, codec, dictionary, dictionary_kind, warning FROM checkpoint_codings',
  ))
    codings.set(String(row.entity) as CatalogEntity, {
      codec: String(row.codec) as RecordCodecId,
      dictionary: Buffer.from((row.dictionary as DuckDBBlobValue).bytes),
      dictionaryKind: String(row.dictionary_kind) as ChosenRecordCoding['dictionaryKind'],
      ...(row.warning === null ? {} : { warning: String(row.warning) }),
    })
  const parsed = new Map<number, ParsedTask>()
  for (const row of await db.rows('SELECT * FROM parsed_tasks'))
    parsed.set(Number(row.task), {
      index: Number(row.task),
      records: Number(row.records),
      rewritten: Number(row.rewritten),
      longestRow: Number(row.longest_row),
      rowsBytes: Number(row.rows_bytes),
    })
  return {
    fingerprint: String(head.fingerprint),
    phase: head.phase === 'parsing' ? 'parsing' : 'building',
    codings,
    parsed,
  }
}

/**
 * Whether the build folder a stopped run left can be resumed by a run of `fingerprint`: its staging
 * database opens, was sealed for the same inputs, and stopped while parsing. The database is closed again
 * either way (the run reopens it with its own options).
 */
export async function resumableCheckpoint(
  stagingDir: string,
  fingerprint: string,
  options: StagingOptions = {},
): Promise<ParseCheckpoint | undefined> {
  if (!existsSync(join(stagingDir, STAGING_FILE))) return undefined
  let db: StagingDatabase | undefined
  try {
    db = await StagingDatabase.open(stagingDir, options)
    const checkpoint = await readCheckpoint(db)
    return checkpoint?.fingerprint === fingerprint && checkpoint.phase === 'parsing' ? checkpoint : undefined
  } catch {
    // A database the crash left unreadable is no checkpoint: the folder is removed and the run starts over.
    return undefined
  } finally {
    db?.close()
  }
}
