// An entity with no records is built by a shorter path than one with records (its file written by one
// statement, without winners, verdicts or views; its serving tables made in one transaction with the other
// empty ones, its row number a column of the table as it is made): its tables must be the ones an entity
// with records gets, column for column, with the same indexes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_ENTITIES,
  type CatalogManifest,
  constantLiteral,
  entityFilePath,
  LINK_TABLES,
  linkExtremeColumnsOf,
  readCatalogManifest,
  SERVING_DATABASE_FILE,
} from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { author, partsOf, work, writeLegacySnapshot } from './support/index.ts'

const dir = mkdtempSync(join(tmpdir(), 'oqlkit-empty-entities-'))
const catalogDir = join(dir, 'catalog')
const tablesDir = join(dir, 'tables')
let manifest: CatalogManifest
type Row = Record<string, unknown>
let query: (sql: string) => Promise<Row[]>
let close: () => void = () => {}

beforeAll(async () => {
  const snapshotDir = join(dir, 'snapshot')
  writeLegacySnapshot(snapshotDir, [
    ...partsOf('works', [work(1, '2024-01-01'), work(2, '2024-01-02')]),
    ...partsOf('authors', [author(1, '2024-01-01')]),
  ])
  await ingestSnapshot({
    snapshotDir,
    outDir: catalogDir,
    tableFilesDir: tablesDir,
    searchIndex: false,
    vectors: false,
    textTagger: false,
  })
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  manifest = read.manifest
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  await connection.run(`ATTACH ${constantLiteral(join(catalogDir, SERVING_DATABASE_FILE))} AS s (READ_ONLY)`)
  query = async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson()
  close = () => {
    connection.closeSync()
    instance.closeSync()
  }
}, 120_000)

afterAll(() => {
  close()
  rmSync(dir, { recursive: true, force: true })
})

describe('an entity with no records', () => {
  it('is most of this catalog, beside two with records', () => {
    const empty = CATALOG_ENTITIES.filter(({ entity }) => manifest.entities[entity].rowCount === 0)
    expect(empty.length).toBe(CATALOG_ENTITIES.length - 2)
  })

  it('has a file of the columns and types its manifest states, as an entity with records', async () => {
    for (const { entity } of CATALOG_ENTITIES) {
      const file = join(tablesDir, ...entityFilePath(entity).split('/'))
      const columns = await query(`DESCRIBE SELECT * FROM read_parquet(${constantLiteral(file)})`)
      expect(
        columns.map((column) => [column.column_name, column.column_type]),
        entity,
      ).toStrictEqual(manifest.entities[entity].columns.map((column) => [column.name, column.type]))
    }
  })

  it('has the narrow table, row locations and indexes of an entity with records', async () => {
    const extremes = LINK_TABLES.flatMap((spec) => {
      const { lo, hi } = linkExtremeColumnsOf(spec.name)
      return [lo, hi]
    })
    for (const info of CATALOG_ENTITIES) {
      const narrow = await query(
        `SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 's' AND table_name = ${constantLiteral(`${info.table}__narrow`)} ORDER BY column_index`,
      )
      expect(
        narrow.map((column) => column.column_name),
        info.entity,
      ).toStrictEqual([
        ...manifest.entities[info.entity].columns.map((column) => column.name),
        '__autocomplete_name',
        ...(info.idKind === 'letter' ? ['__search_doc'] : []),
        ...(info.entity === 'works' ? extremes : []),
        '__row_number',
      ])
      expect(narrow.at(-1)?.data_type, info.entity).toBe('UINTEGER')
      const locations = await query(
        `SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = 's' AND table_name = ${constantLiteral(`${info.table}__locations`)} ORDER BY column_index`,
      )
      expect(locations.map((column) => [column.column_name, column.data_type])).toStrictEqual([
        ['row', 'BIGINT'],
        ['id', 'VARCHAR'],
        ['record_offset', 'BIGINT'],
        ['record_bytes', 'INTEGER'],
      ])
      const indexes = await query(
        `SELECT index_name FROM duckdb_indexes() WHERE database_name = 's' AND table_name IN (${constantLiteral(`${info.table}__narrow`)}, ${constantLiteral(`${info.table}__locations`)}) ORDER BY index_name`,
      )
      expect(indexes.map((index) => index.index_name)).toStrictEqual([
        `${info.table}__locations_row`,
        `${info.table}__narrow_id`,
      ])
    }
  })

  it('numbers the rows of the entities with records from 0 in id order', async () => {
    for (const entity of ['works', 'authors'] as const) {
      const table = `"${CATALOG_ENTITIES.find((info) => info.entity === entity)!.table}__narrow"`
      const rows = await query(
        `SELECT id, CAST(__row_number AS INTEGER) AS n FROM s.main.${table} ORDER BY n`,
      )
      expect(rows.map((row) => row.n)).toStrictEqual(rows.map((_, index) => index))
    }
  })
})
