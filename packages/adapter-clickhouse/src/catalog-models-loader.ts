// What semantic search and text tagging need in ClickHouse, loaded beside the catalog's tables: the works'
// vectors (`work_vectors`) and the small files a server reads at start (`catalog_files`: catalog.json, the LSA
// model that embeds queries, the text tagger's model). Both are sent as RowBinary, as the records are: the
// vectors are int8 bytes in the catalog's matrix file, which ClickHouse cannot pair with their ids by itself
// (the ids are in a Parquet file of their own, in the same row order), and the model files are binary. The
// ids file goes to ClickHouse as Parquet first, into a scratch table, and its rows are read back in the
// file's order, so no other engine reads the catalog for ClickHouse.
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { ClickHouseClient } from '@clickhouse/client'
import type { CatalogIdOrder } from '@oqlkit/catalog'
import { insertInto, rowBinaryInsert, runCommand, selectCompactRows } from './clickhouse-driver.ts'
import { letterIdOrderSql } from './clickhouse-id-order.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { CATALOG_FILES_TABLE, WORK_VECTORS_TABLE } from './clickhouse-model-tables.ts'
import { encodeStringRows, lengthBytes } from './row-binary-strings.ts'

/** Vectors sent together: 2,000 rows of 256 dimensions are half a megabyte. */
const VECTOR_BATCH = 2000

const qualified = (database: string, table: string) =>
  `${quoteIdentifier(database)}.${quoteIdentifier(table)}`

/** A file of the catalog folder by its catalog-relative path; a path that leaves the folder is refused. */
const catalogPath = (catalogDir: string, file: string): string => {
  const parts = file.split('/')
  if (file.startsWith('/') || parts.some((part) => part === '' || part === '.' || part === '..'))
    throw new Error(`catalog.json names a file outside the catalog: ${file}`)
  return join(catalogDir, ...parts)
}

/** An unsigned LEB128 length, as RowBinary writes the size of a String or an Array. */
const lengthPrefix = (length: number): Buffer => Buffer.from(lengthBytes(length))

/** Rows `(id String, vector Array(Int8), norm Float32)` in RowBinary. */
const encodeVectorRows = (
  ids: readonly string[],
  norms: readonly number[],
  matrix: Buffer,
  dimensions: number,
): Buffer => {
  const parts: Buffer[] = []
  const width = lengthPrefix(dimensions)
  for (const [row, id] of ids.entries()) {
    const idBytes = Buffer.from(id, 'utf8')
    const norm = Buffer.allocUnsafe(4)
    norm.writeFloatLE(norms[row]!, 0)
    parts.push(
      lengthPrefix(idBytes.length),
      idBytes,
      width,
      matrix.subarray(row * dimensions, (row + 1) * dimensions),
      norm,
    )
  }
  return Buffer.concat(parts)
}

/** Sends RowBinary chunks as one INSERT, waiting on the stream's back-pressure. */
const insertRowBinary = (client: ClickHouseClient, database: string, table: string, columns: string) =>
  rowBinaryInsert(client, `INSERT INTO ${qualified(database, table)} (${columns})`)

/** The scratch table the ids and norms of the vectors pass through while they load. */
const VECTOR_IDS_SCRATCH_TABLE = 'work_vector_ids_loading'

/**
 * The ids and norms of the vector index, in its ids file's order (the matrix's): ingest writes that file in
 * the catalog's id order (letter ids by number since format 8, by text before), and ids are unique, so that
 * order in ClickHouse gives the same order back.
 */
const readVectorIds = async (
  client: ClickHouseClient,
  database: string,
  idsPath: string,
  order: CatalogIdOrder,
): Promise<readonly { readonly id: string; readonly norm: number }[]> => {
  const scratch = qualified(database, VECTOR_IDS_SCRATCH_TABLE)
  await runCommand(client, `DROP TABLE IF EXISTS ${scratch}`)
  await runCommand(client, `CREATE TABLE ${scratch} (\`id\` String, \`norm\` Float32) ENGINE = Memory`)
  try {
    await insertInto(client, scratch, createReadStream(idsPath), 'Parquet')
    const rows = await selectCompactRows<[string, number]>(
      client,
      `SELECT id, norm FROM ${scratch} ORDER BY ${order === 'by-number' ? letterIdOrderSql('id') : 'id'}`,
    )
    return rows.map(([id, norm]) => ({ id, norm: Number(norm) }))
  } finally {
    await runCommand(client, `DROP TABLE IF EXISTS ${scratch}`)
  }
}

export interface WorkVectorsSource {
  readonly idsFile: string
  readonly matrixFile: string
  readonly dimensions: number
  readonly rows: number
  /** The catalog's id order, which its vector files follow. */
  readonly order: CatalogIdOrder
}

/**
 * The works' vectors into `work_vectors`: the ids and norms read from their Parquet file through DuckDB (in
 * the file's order, which is the matrix's), the matrix read front to back beside them. The ids of every work
 * are held at once (about 30 MB at 1M works); the matrix is streamed.
 */
export const loadWorkVectors = async (
  client: ClickHouseClient,
  catalogDir: string,
  database: string,
  source: WorkVectorsSource,
  report: (rowsLoaded: number) => void,
): Promise<void> => {
  const { dimensions } = source
  const matrixPath = catalogPath(catalogDir, source.matrixFile)
  const expected = source.rows * dimensions
  const size = (await stat(matrixPath)).size
  if (size !== expected)
    throw new Error(
      `the vector matrix ${source.matrixFile} holds ${size} bytes where catalog.json says ${source.rows} works of ${dimensions} dimensions (${expected} bytes); build the vectors again (oqlkit ingest)`,
    )
  const rows = await readVectorIds(client, database, catalogPath(catalogDir, source.idsFile), source.order)
  if (rows.length !== source.rows)
    throw new Error(
      `${source.idsFile} lists ${rows.length} works where catalog.json says ${source.rows}; build the vectors again (oqlkit ingest)`,
    )
  const insert = insertRowBinary(client, database, WORK_VECTORS_TABLE, '`id`, `vector`, `norm`')
  try {
    let sent = 0
    let pending: Buffer = Buffer.alloc(0)
    const batchBytes = VECTOR_BATCH * dimensions
    for await (const chunk of createReadStream(matrixPath, { highWaterMark: batchBytes })) {
      pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer])
      const whole = Math.floor(pending.length / dimensions)
      if (whole === 0) continue
      const batch = rows.slice(sent, sent + whole)
      await insert.write(
        encodeVectorRows(
          batch.map((row) => row.id),
          batch.map((row) => row.norm),
          pending,
          dimensions,
        ),
      )
      pending = pending.subarray(whole * dimensions)
      sent += whole
      report(sent)
    }
    await insert.finish()
  } catch (error) {
    await insert.fail(error)
    throw error
  }
}

/** Files of the catalog folder into `catalog_files`, each a row `(path, content)`, content as bytes. */
export const loadCatalogFiles = async (
  client: ClickHouseClient,
  catalogDir: string,
  database: string,
  files: readonly string[],
): Promise<void> => {
  const encoder = new TextEncoder()
  const rows = await Promise.all(
    files.map(async (file) => [encoder.encode(file), await readFile(catalogPath(catalogDir, file))]),
  )
  const insert = insertRowBinary(client, database, CATALOG_FILES_TABLE, '`path`, `content`')
  try {
    await insert.write(encodeStringRows(rows))
    await insert.finish()
  } catch (error) {
    await insert.fail(error)
    throw error
  }
}
