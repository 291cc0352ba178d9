// The texts file of an entity: `(id, id_num, display_name, texts)` in id order, `texts` the record's text
// fields as JSON. What the search index, the works' vectors and the tagger read; written from the record
// store when they are built (in the same ingest, or later by `oqlkit index`) into their work folder, and
// removed after. The catalog itself keeps no copy of these texts (format 5 had them as a `texts` column of
// every entity file: 130 of `works.parquet`'s 170 MB at 100k works, carried through every sort of the
// ingest): the record store is the only place a record's text is.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { DuckDBAppender } from '@duckdb/node-api'
import type { BuildSession } from '../sql/build-session.ts'
import type { CatalogEntity } from './catalog-entities.ts'
import { type CatalogRecordStore, entityFilePath } from './catalog-layout.ts'
import { readCatalogManifest } from './catalog-manifest-reader.ts'
import { pickJsonMembers } from './json-member-picker.ts'
import { RECORD_CODEC_ID, RecordCodec } from './record-codec.ts'

/**
 * The keys of a record the builders read: the search index's stored fields, the abstract and title the
 * vectors embed, and the tagger's training texts (title, abstract, keywords, concepts, topics).
 */
export const TEXT_KEYS: readonly string[] = [
  'title',
  'display_name',
  'abstract_inverted_index',
  'fulltext',
  'display_name_alternatives',
  'display_name_acronyms',
  'alternate_titles',
  'abbreviated_title',
  'description',
  'keywords',
  'concepts',
  'topics',
]

export interface RecordTextsFileOptions {
  readonly session: BuildSession
  /** The catalog folder (or the build folder an ingest is writing it in). */
  readonly catalogDir: string
  readonly entity: CatalogEntity
  /** The entity's record store, as `catalog.json` names it. */
  readonly store: CatalogRecordStore
  /** Where to write the texts file (a work folder: it is not part of the catalog). */
  readonly outPath: string
}

/** Rows read from the entity file at once: ids and record locations, a few hundred kB. */
const BATCH_ROWS = 8192

const TEXTS_TABLE = 'record_texts_build'

// `$1` the entity file, `$2`, `$3` the batch's first and next row numbers. The file is in id order. Paged by
// row number, each batch reads only its own row groups: paged by `id > last ORDER BY id LIMIT n`, each read
// every row group after the last id (at 1M works 257 ms for the first batch against 57 ms; quadratic in all).
const LOCATIONS_SQL = `SELECT id, id_num, display_name, record_offset, record_bytes
FROM read_parquet($1, file_row_number = true) WHERE file_row_number >= $2 AND file_row_number < $3
ORDER BY file_row_number`

const TEXT_KEY_SET: ReadonlySet<string> = new Set(TEXT_KEYS)

/**
 * The record's text fields, as the `texts` JSON the builders read: the members of its JSON whose keys are
 * `TEXT_KEYS`, in the record's order, picked without parsing the record (a quarter of the time).
 */
const recordTextsOf = (recordJson: string): string => pickJsonMembers(recordJson, TEXT_KEY_SET)

/** Writes the texts file of one entity; returns its number of rows. */
export async function writeRecordTextsFile(options: RecordTextsFileOptions): Promise<number> {
  const { session, catalogDir, store } = options
  if (store.codec !== RECORD_CODEC_ID)
    throw new Error(
      `The record store of ${options.entity} uses codec ${store.codec}; this reader knows ${RECORD_CODEC_ID}`,
    )
  const inCatalog = (relative: string) => join(catalogDir, ...relative.split('/'))
  const codec = new RecordCodec(readFileSync(inCatalog(store.dictionary)))
  const entityFile = inCatalog(entityFilePath(options.entity))
  await session.run(
    `CREATE OR REPLACE TEMP TABLE ${TEXTS_TABLE} (id VARCHAR, id_num BIGINT, display_name VARCHAR, texts VARCHAR)`,
  )
  const file = openSync(inCatalog(store.file), 'r')
  let appender: DuckDBAppender | undefined
  try {
    appender = await session.appender(TEXTS_TABLE)
    let buffer = Buffer.allocUnsafe(1 << 16)
    for (let from = 0; ; from += BATCH_ROWS) {
      const rows = await session.rows(LOCATIONS_SQL, [entityFile, from, from + BATCH_ROWS])
      for (const row of rows) {
        const offset = Number(row.record_offset)
        const bytes = Number(row.record_bytes)
        if (bytes > buffer.length) buffer = Buffer.allocUnsafe(bytes)
        // Synchronous positioned reads: the batch is read in order, each from the page cache at best, and a
        // promise per record would cost more than the read.
        if (readSync(file, buffer, 0, bytes, offset) !== bytes)
          throw new Error(
            `The record store of ${options.entity} is shorter than its rows say (offset ${offset})`,
          )
        const decoded = codec.decode(buffer.subarray(0, bytes))
        const recordJson = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength).toString(
          'utf8',
        )
        appender.appendVarchar(String(row.id))
        if (row.id_num === null || row.id_num === undefined) appender.appendNull()
        else appender.appendBigInt(BigInt(row.id_num as string | number))
        if (typeof row.display_name === 'string') appender.appendVarchar(row.display_name)
        else appender.appendNull()
        appender.appendVarchar(recordTextsOf(recordJson))
        appender.endRow()
      }
      if (rows.length < BATCH_ROWS) break
    }
    appender.closeSync()
    appender = undefined
    // The rows were appended in id order; the copy keeps it (whatever the session's setting), which is
    // what the builders' id-range reads and the tagger's fixed training order need.
    const [setting] = await session.rows("SELECT current_setting('preserve_insertion_order') AS keep")
    await session.run('SET preserve_insertion_order = true')
    try {
      return await session.run(
        `COPY (SELECT * FROM ${TEXTS_TABLE}) TO $1 (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 16384)`,
        [options.outPath],
      )
    } finally {
      await session.run(`SET preserve_insertion_order = ${setting?.keep === false ? 'false' : 'true'}`)
    }
  } finally {
    appender?.closeSync()
    closeSync(file)
    await session.run(`DROP TABLE IF EXISTS ${TEXTS_TABLE}`)
  }
}

export interface RecordTextsFilesOptions {
  readonly session: BuildSession
  readonly catalogDir: string
  /** Each entity's record store, as `catalog.json` names it (or the ingest building it). */
  readonly stores: ReadonlyMap<CatalogEntity, CatalogRecordStore>
  /** Where the files are written; the caller removes it. */
  readonly workDir: string
  /** Called before an entity's file is written. */
  readonly onEntity?: (entity: CatalogEntity) => void
}

/**
 * The texts files of a catalog's entities, each written on first use into a work folder and shared by the
 * builders that run one after another (the search index reads every searchable entity's, then the vectors
 * and the tagger read the works' again).
 */
export class RecordTextsFiles {
  readonly #options: RecordTextsFilesOptions
  readonly #written = new Map<CatalogEntity, Promise<string>>()

  constructor(options: RecordTextsFilesOptions) {
    this.#options = options
  }

  /** For a catalog already written: the record stores its `catalog.json` names. */
  static async ofCatalog(
    session: BuildSession,
    catalogDir: string,
    workDir: string,
  ): Promise<RecordTextsFiles> {
    const read = await readCatalogManifest(catalogDir)
    if (!read.ok) throw new Error(`Cannot read the records of the catalog in ${catalogDir}: ${read.message}`)
    const stores = new Map(
      Object.entries(read.manifest.entities).map(([entity, table]) => [
        entity as CatalogEntity,
        table.recordStore,
      ]),
    )
    return new RecordTextsFiles({ session, catalogDir, stores, workDir })
  }

  /** The path of the entity's texts file, written now if it is not yet. */
  of(entity: CatalogEntity): Promise<string> {
    let written = this.#written.get(entity)
    if (written === undefined) {
      written = this.#write(entity)
      // A failed write is not kept: the error reaches the builder that asked.
      written.catch(() => this.#written.delete(entity))
      this.#written.set(entity, written)
    }
    return written
  }

  async #write(entity: CatalogEntity): Promise<string> {
    const { session, catalogDir, stores, workDir } = this.#options
    const store = stores.get(entity)
    if (store === undefined) throw new Error(`The catalog has no record store for ${entity}`)
    this.#options.onEntity?.(entity)
    await mkdir(workDir, { recursive: true })
    const outPath = join(workDir, `${entity}.texts.parquet`)
    await writeRecordTextsFile({ session, catalogDir, entity, store, outPath })
    return outPath
  }
}
