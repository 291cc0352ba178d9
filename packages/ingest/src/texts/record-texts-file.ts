// The texts file of an entity: `(id, id_num, display_name, texts)` in id order, `texts` the record's text
// fields as JSON. What the search index, the works' vectors and the tagger read; written from the record
// store when they are built (in the same ingest, or later by `oqlkit index`) into their work folder, and
// removed after. The catalog itself keeps no copy of these texts (format 5 had them as a `texts` column of
// every entity file: 130 of `works.parquet`'s 170 MB at 100k works, carried through every sort of the
// ingest): the record store is the only place a record's text is.
import { closeSync, openSync, readFileSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { type DuckDBAppender, listValue } from '@duckdb/node-api'
import type { CatalogEntity } from '@oqlkit/catalog'
import {
  type CatalogRecordStore,
  checkRecordCodecId,
  type RecordCodecId,
  type RecordLocations,
  RecordTextsReader,
  RecordTextsWorkerPool,
  readCatalogManifest,
  recordCodecOf,
} from '@oqlkit/catalog'
import { type BuildSession, withSettings } from './build-session.ts'
import { type CatalogEntityRows, openCatalogEntityRows, ROW_POSITION_COLUMN } from './catalog-entity-rows.ts'

export { TEXT_KEYS } from '@oqlkit/catalog'

/** How the records are read: on worker threads from this many rows, on the main thread below. */
export interface RecordTextsThreads {
  /** Worker threads (0: the main thread reads every entity). Default `defaultTextsWorkers()`. */
  readonly workers?: number
  /**
   * The fewest rows read on workers: starting them costs more than a small entity's reading. Default
   * `WORKERS_FROM_ROWS`.
   */
  readonly workersFromRows?: number
  /**
   * Rows whose locations are read from the entity file at once (each read in batches of at most
   * `WORKER_BATCH_ROWS`). Default `BATCH_ROWS`; tests make it small to reach many batches.
   */
  readonly batchRows?: number
}

/**
 * Worker threads when not told: one per core but one, which the main thread's appending and DuckDB's
 * writing keep busy. Over 1M works on this project's 2-core machine, two workers took the pass from 196 s
 * (main thread) to 151-164 s, but its peak from 3.8 to 4.1-4.2 GB, over the ingest's 4 GB bound; one
 * worker took 195 s and 3.7 GB. More cores than that are where the workers pay.
 */
export const defaultTextsWorkers = (): number => Math.max(0, availableParallelism() - 1)

/** Rows below which an entity's records are read on the main thread (a worker takes about 100 ms to start). */
export const WORKERS_FROM_ROWS = 4 * 8192

export interface RecordTextsFileOptions {
  readonly session: BuildSession
  /** The catalog folder (or the build folder an ingest is writing it in). */
  readonly catalogDir: string
  readonly entity: CatalogEntity
  /** The entity's rows, as a relation of the session (`CatalogEntityRows`). */
  readonly rows: string
  /** The entity's record store, as `catalog.json` names it. */
  readonly store: CatalogRecordStore
  /** Where to write the texts file (a work folder: it is not part of the catalog). */
  readonly outPath: string
  /**
   * Only the records at or past this offset of the record store (default 0, every record): an update's
   * records, since the store of the catalog it updates begins the new one.
   */
  readonly fromOffset?: number
  readonly threads?: RecordTextsThreads
}

/** Rows read from the entity file at once: ids and record locations, a few hundred kB. */
const BATCH_ROWS = 8192

const TEXTS_TABLE = 'record_texts_build'

// `rows` the entity's rows (`CatalogEntityRows`), `$1`, `$2` the batch's first and next positions, which are in
// id order. Paged by position, each batch reads only its own row groups: paged by `id > last ORDER BY id LIMIT
// n`, each read every row group after the last id (at 1M works 257 ms for the first batch against 57 ms;
// quadratic in all). `$3`: the smallest record offset read (0: every record; an update reads only the records
// it wrote).
const locationsSql = (rows: string): string => `SELECT id, id_num, display_name, record_offset, record_bytes
FROM ${rows} WHERE ${ROW_POSITION_COLUMN} >= $1 AND ${ROW_POSITION_COLUMN} < $2 AND record_offset >= $3
ORDER BY ${ROW_POSITION_COLUMN}`

/**
 * Rows read from the record store at once (a worker's batch, or one read on the main thread). Small, because
 * what is in flight is held twice (the worker's texts and their copy on the main thread) and a worker's
 * garbage grows with its batch: at 1M works, batches of 8,192 rows took the pass's peak to 4.8 GB.
 */
const WORKER_BATCH_ROWS = 1024

/** Batches a worker may hold, sent and not yet appended: each worker busy while the main thread appends. */
const BATCHES_IN_FLIGHT_PER_WORKER = 2

const locationsOf = (rows: readonly Record<string, unknown>[]): RecordLocations => ({
  offsets: Float64Array.from(rows, (row) => Number(row.record_offset)),
  lengths: Uint32Array.from(rows, (row) => Number(row.record_bytes)),
})

/** Where a texts file's batches are read: on the main thread, or on worker threads. */
interface TextsSource {
  readonly textsOf: (locations: RecordLocations) => Promise<string[]>
  /** Batches asked and not yet appended, at most: 0 reads each as it is asked. */
  readonly ahead: number
  readonly close: () => Promise<void>
}

function mainThreadTextsSource(
  storePath: string,
  codec: RecordCodecId,
  dictionary: Buffer,
  entity: string,
): TextsSource {
  const fd = openSync(storePath, 'r')
  const reader = new RecordTextsReader(fd, recordCodecOf(codec, dictionary), entity)
  return {
    textsOf: async (locations) => reader.textsOf(locations),
    ahead: 0,
    close: async () => closeSync(fd),
  }
}

function workerTextsSource(pool: RecordTextsWorkerPool): TextsSource {
  return {
    textsOf: (locations) => pool.textsOf(locations),
    ahead: pool.size * BATCHES_IN_FLIGHT_PER_WORKER,
    close: () => pool.close(),
  }
}

/**
 * Texts appended to the work table before it is written out as a part of the file: the table (and the
 * writer reading it) holds at most about this much, whatever the entity's size. Appended whole, 100k
 * generated works' texts took the pass to 2.2 GB of RSS under a 768 MB `memory_limit` (3.1 GB under 2 GB).
 */
const PART_TEXT_CHARS = 64 * 1024 * 1024

/**
 * Rows per row group of the texts file and its parts. A row group is what DuckDB's Parquet writer holds per
 * thread while it compresses it: 16,384 rows of works' texts (about 80 MB) took a copy 550 MB over its
 * `memory_limit`, 2,048 rows 70 MB. Readers find rows by `file_row_number` or by id range, not row group.
 */
const TEXTS_ROW_GROUP = 2048

// Parts are read back once, by the final copy: fast compression beats small files.
const PART_PARQUET = `FORMAT parquet, COMPRESSION lz4_raw, ROW_GROUP_SIZE ${TEXTS_ROW_GROUP}`
const TEXTS_PARQUET = `FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE ${TEXTS_ROW_GROUP}`

/**
 * Writes the texts file of one entity; returns its number of rows. Records are appended to a work table in
 * id order and written out every `PART_TEXT_CHARS` into a part file; the parts are then copied, in order, into
 * the one texts file (an entity whose texts fit one part is written straight to it).
 */
export async function writeRecordTextsFile(options: RecordTextsFileOptions): Promise<number> {
  const { session, catalogDir, store } = options
  const codec = checkRecordCodecId(store.codec, store.file)
  const inCatalog = (relative: string) => join(catalogDir, ...relative.split('/'))
  const createTable = () =>
    session.run(
      `CREATE OR REPLACE TEMP TABLE ${TEXTS_TABLE} (id VARCHAR, id_num BIGINT, display_name VARCHAR, texts VARCHAR)`,
    )
  await createTable()
  const storePath = inCatalog(store.file)
  const dictionary = readFileSync(inCatalog(store.dictionary))
  const fromOffset = options.fromOffset ?? 0
  const [counted] = await session.rows(
    `SELECT coalesce(max(${ROW_POSITION_COLUMN}) + 1, 0) AS span, count(*) FILTER (WHERE record_offset >= $1) AS read FROM ${options.rows}`,
    [fromOffset],
  )
  const span = Number(counted?.span ?? 0)
  const workerCount =
    Number(counted?.read ?? 0) >= (options.threads?.workersFromRows ?? WORKERS_FROM_ROWS)
      ? (options.threads?.workers ?? defaultTextsWorkers())
      : 0
  const source =
    workerCount > 0
      ? workerTextsSource(
          new RecordTextsWorkerPool(workerCount, { entity: options.entity, storePath, codec, dictionary }),
        )
      : mainThreadTextsSource(storePath, codec, dictionary, options.entity)
  // Every copy keeps the rows in the order they were appended (id order), whatever the session's setting:
  // the builders' id-range reads and the tagger's fixed training order need it.
  return await withSettings(session, { preserve_insertion_order: true }, async () => {
    const parts: string[] = []
    let appender: DuckDBAppender | undefined
    try {
      let into = await session.appender(TEXTS_TABLE)
      appender = into
      let partChars = 0
      // Writes the rows appended so far to the next part file and starts an empty table.
      const writePart = async () => {
        into.closeSync()
        appender = undefined
        const part = `${options.outPath}.part-${String(parts.length).padStart(5, '0')}`
        await session.run(`COPY (SELECT * FROM ${TEXTS_TABLE}) TO $1 (${PART_PARQUET})`, [part])
        parts.push(part)
        await createTable()
        into = await session.appender(TEXTS_TABLE)
        appender = into
        partChars = 0
      }
      const append = async (rows: readonly Record<string, unknown>[], texts: readonly string[]) => {
        for (const [at, row] of rows.entries()) {
          into.appendVarchar(String(row.id))
          if (row.id_num === null || row.id_num === undefined) into.appendNull()
          else into.appendBigInt(BigInt(row.id_num as string | number))
          if (typeof row.display_name === 'string') into.appendVarchar(row.display_name)
          else into.appendNull()
          into.appendVarchar(texts[at]!)
          into.endRow()
          partChars += texts[at]!.length
        }
        if (partChars >= PART_TEXT_CHARS) await writePart()
      }
      // Asked of the source and not yet appended, oldest first: appended in id order as they come back.
      const inFlight: { rows: Record<string, unknown>[]; texts: Promise<string[]> }[] = []
      const batchRows = options.threads?.batchRows ?? BATCH_ROWS
      // Paged by position: with `fromOffset`, or gaps in the positions, a page may hold fewer rows than it spans.
      for (let from = 0; from < span; from += batchRows) {
        const rows = await session.rows(locationsSql(options.rows), [from, from + batchRows, fromOffset])
        for (let at = 0; at < rows.length; at += WORKER_BATCH_ROWS) {
          const batch = rows.slice(at, at + WORKER_BATCH_ROWS)
          const texts = source.textsOf(locationsOf(batch))
          // Awaited in turn below; a failure while an older batch is awaited must not go unhandled meanwhile.
          texts.catch(() => {})
          inFlight.push({ rows: batch, texts })
          while (inFlight.length > source.ahead) {
            const oldest = inFlight.shift()!
            await append(oldest.rows, await oldest.texts)
          }
        }
      }
      for (const batch of inFlight) await append(batch.rows, await batch.texts)
      into.closeSync()
      appender = undefined
      if (parts.length === 0)
        return await session.run(`COPY (SELECT * FROM ${TEXTS_TABLE}) TO $1 (${TEXTS_PARQUET})`, [
          options.outPath,
        ])
      if (partChars > 0) await writePart()
      return await session.run(`COPY (SELECT * FROM read_parquet($1)) TO $2 (${TEXTS_PARQUET})`, [
        listValue(parts),
        options.outPath,
      ])
    } finally {
      appender?.closeSync()
      await source.close()
      await session.run(`DROP TABLE IF EXISTS ${TEXTS_TABLE}`)
      for (const part of parts) await rm(part, { force: true })
    }
  })
}

export interface RecordTextsFilesOptions {
  readonly session: BuildSession
  readonly catalogDir: string
  /** The catalog's entity rows, which say where each record lies (`openCatalogEntityRows`). */
  readonly rows: CatalogEntityRows
  /** Each entity's record store, as `catalog.json` names it (or the ingest building it). */
  readonly stores: ReadonlyMap<CatalogEntity, CatalogRecordStore>
  /** Where the files are written; the caller removes it. */
  readonly workDir: string
  /** Called before an entity's file is written. */
  readonly onEntity?: (entity: CatalogEntity) => void
  readonly threads?: RecordTextsThreads
}

/**
 * The texts files of a catalog's entities, each written on first use into a work folder and shared by the
 * builders that run one after another (the search index reads every searchable entity's, then the vectors
 * and the tagger read the works' again).
 */
export class RecordTextsFiles {
  readonly #options: RecordTextsFilesOptions
  readonly #written = new Map<string, Promise<string>>()

  constructor(options: RecordTextsFilesOptions) {
    this.#options = options
  }

  /** For a catalog already written: the record stores its `catalog.json` names. */
  static async ofCatalog(
    session: BuildSession,
    catalogDir: string,
    workDir: string,
    threads?: RecordTextsThreads,
  ): Promise<RecordTextsFiles> {
    const read = await readCatalogManifest(catalogDir)
    if (!read.ok) throw new Error(`Cannot read the records of the catalog in ${catalogDir}: ${read.message}`)
    const stores = new Map(
      Object.entries(read.manifest.entities).map(([entity, table]) => [
        entity as CatalogEntity,
        table.recordStore,
      ]),
    )
    return new RecordTextsFiles({
      session,
      catalogDir,
      rows: await openCatalogEntityRows(session, catalogDir, read.manifest),
      stores,
      workDir,
      ...(threads === undefined ? {} : { threads }),
    })
  }

  /** The entity's rows, as a relation of the session (`CatalogEntityRows`). */
  rowsOf(entity: CatalogEntity): string {
    return this.#options.rows.of(entity)
  }

  /** The path of the entity's texts file, written now if it is not yet. */
  of(entity: CatalogEntity): Promise<string> {
    return this.#once(`${entity}.texts.parquet`, entity, 0)
  }

  /**
   * The texts of only the entity's records at or past `fromOffset` of its record store (an update's: the
   * store of the catalog it updates begins the new one), written now if they are not yet.
   */
  changedOf(entity: CatalogEntity, fromOffset: number): Promise<string> {
    return this.#once(`${entity}.from-${fromOffset}.texts.parquet`, entity, fromOffset)
  }

  #once(name: string, entity: CatalogEntity, fromOffset: number): Promise<string> {
    let written = this.#written.get(name)
    if (written === undefined) {
      written = this.#write(name, entity, fromOffset)
      // A failed write is not kept: the error reaches the builder that asked.
      written.catch(() => this.#written.delete(name))
      this.#written.set(name, written)
    }
    return written
  }

  async #write(name: string, entity: CatalogEntity, fromOffset: number): Promise<string> {
    const { session, catalogDir, stores, workDir, rows } = this.#options
    const store = stores.get(entity)
    if (store === undefined) throw new Error(`The catalog has no record store for ${entity}`)
    this.#options.onEntity?.(entity)
    await mkdir(workDir, { recursive: true })
    const outPath = join(workDir, name)
    const { threads } = this.#options
    await writeRecordTextsFile({
      session,
      catalogDir,
      entity,
      rows: rows.of(entity),
      store,
      outPath,
      fromOffset,
      ...(threads === undefined ? {} : { threads }),
    })
    return outPath
  }
}
