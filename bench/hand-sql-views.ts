// The hand-written DuckDB side of the benchmarks: a fresh in-memory DuckDB with plain views over the catalog's
// Parquet files, as someone writing the SQL by hand would set it up (no serving database, no caches of ours).
// Since format 5 the records are not in the Parquet files: a row states where its record is in the entity's
// record store (`record_offset`, `record_bytes`), each record a zstd frame of its own compressed with the
// store's dictionary. So the hand-written side selects those two columns and reads each record the plain way:
// one positioned read per record and one decompression with the store's codec, nothing merged or cached.
import { closeSync, mkdtempSync, openSync, read as readFd, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { DuckDBConnection } from '@duckdb/node-api'
import { createDuckDbInstance, exportCatalogTables, tablesInServingDatabase } from '@oqlkit/adapter-duckdb'
import {
  checkRecordCodecId,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  linkFilePath,
  readCatalogManifest,
  recordCodecOf,
} from '@oqlkit/catalog'

interface ManifestFiles {
  readonly entities: Record<
    string,
    {
      readonly files: string[]
      readonly rowCount: number
      readonly recordStore: { readonly file: string; readonly dictionary: string; readonly codec: string }
    }
  >
  readonly links: Record<string, { readonly files: string[] }>
  readonly externalIds: { readonly files: string[] }
  readonly extensions: Record<string, unknown>
}

/** A row that says where its record is: what a hand-written page selects instead of the record itself. */
export type RecordLocationRow = Readonly<Record<string, unknown>> & {
  readonly record_offset?: unknown
  readonly record_bytes?: unknown
}

export interface HandSqlDatabase {
  readonly connection: DuckDBConnection
  readonly manifest: ManifestFiles
  /** The rows of a statement, as JSON-safe objects. */
  readonly rows: (sql: string, params?: (string | number)[]) => Promise<Record<string, unknown>[]>
  /**
   * The works' records (their JSON as UTF-8 bytes, as the adapter answers them) of the rows a statement selects
   * with `record_offset` and `record_bytes`, in the rows' order.
   */
  readonly records: (sql: string, params?: (string | number)[]) => Promise<Uint8Array[]>
  readonly close: () => void
}

const readAt = promisify(readFd)

export async function openHandSqlViews(catalogDir: string): Promise<HandSqlDatabase> {
  const manifest = JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as ManifestFiles
  // A catalog of format 9 keeps its tables in its serving database alone: a hand-written client over Parquet
  // files reads the files `exportCatalogTables` writes of them (once, into a folder removed at close).
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  const exported = tablesInServingDatabase(read.manifest)
    ? mkdtempSync(join(tmpdir(), 'oqlkit-hand-sql-'))
    : undefined
  if (exported !== undefined) await exportCatalogTables(catalogDir, read.manifest, exported)
  // File names come from our own manifest, not from a user; quoted all the same.
  const fileList = (files: readonly string[] | undefined, layoutPath: string) =>
    `[${(exported === undefined
      ? (files ?? []).map((file) => join(catalogDir, file))
      : [join(exported, layoutPath)]
    )
      .map((file) => `'${file.replaceAll("'", "''")}'`)
      .join(', ')}]`
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  await connection.run('SET parquet_metadata_cache = true')
  const views: Record<string, readonly [readonly string[] | undefined, string]> = {
    works: [manifest.entities.works?.files, entityFilePath('works')],
    authorships: [manifest.links['works-authors']?.files, linkFilePath('works-authors')],
    work_institutions: [manifest.links['works-institutions']?.files, linkFilePath('works-institutions')],
    work_topics: [manifest.links['works-topics']?.files, linkFilePath('works-topics')],
    citations: [manifest.links['works-referenced-works']?.files, linkFilePath('works-referenced-works')],
    work_institution_countries: [
      manifest.links['works-institution-countries']?.files,
      linkFilePath('works-institution-countries'),
    ],
    external_ids: [manifest.externalIds.files, EXTERNAL_IDS_FILE],
  }
  for (const [view, [files, layoutPath]] of Object.entries(views)) {
    if (files === undefined) throw new Error(`the catalog in ${catalogDir} has no table for ${view}`)
    await connection.run(`CREATE VIEW ${view} AS SELECT * FROM read_parquet(${fileList(files, layoutPath)})`)
  }
  const store = manifest.entities.works?.recordStore
  if (store === undefined) throw new Error(`the catalog in ${catalogDir} has no record store for works`)
  const codec = recordCodecOf(
    checkRecordCodecId(store.codec, store.file),
    readFileSync(join(catalogDir, store.dictionary)),
  )
  const recordFile = openSync(join(catalogDir, store.file), 'r')
  const rows = async (sql: string, params: (string | number)[] = []) =>
    (await connection.runAndReadAll(sql, params)).getRowObjectsJson() as Record<string, unknown>[]
  const readRecord = async (row: RecordLocationRow): Promise<Uint8Array> => {
    const bytes = Number(row.record_bytes)
    const offset = Number(row.record_offset)
    if (!Number.isSafeInteger(bytes) || !Number.isSafeInteger(offset))
      throw new Error(
        `a hand-written page must select record_offset and record_bytes: ${JSON.stringify(row)}`,
      )
    const buffer = Buffer.allocUnsafe(bytes)
    const { bytesRead } = await readAt(recordFile, buffer, 0, bytes, offset)
    if (bytesRead !== bytes) throw new Error(`the works' record store ends before offset ${offset + bytes}`)
    return codec.decode(buffer)
  }
  return {
    connection,
    manifest,
    rows,
    records: async (sql, params = []) => Promise.all((await rows(sql, params)).map(readRecord)),
    close: () => {
      closeSync(recordFile)
      connection.closeSync()
      instance.closeSync()
      if (exported !== undefined) rmSync(exported, { recursive: true, force: true })
    },
  }
}
