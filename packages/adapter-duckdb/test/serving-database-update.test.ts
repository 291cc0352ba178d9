// When the serving database cannot be changed in place (updateServingDatabase), it says why and leaves no
// file, so that the ingest builds it whole; and when nothing changed, it is the catalog's as it was. That an
// update in place gives the tables a build gives is tested by the ingest (ingest-update-equivalence.test.ts).
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type CatalogManifest,
  entityFilePath,
  readCatalogManifest,
  SERVING_DATABASE_FILE,
} from '@oqlkit/catalog'
import { keepTablesAsFiles } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NARROW_ROW_COLUMN } from '../src/query/catalog-views.ts'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { updateServingDatabase } from '../src/serving/serving-database-updater.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

type Catalog = { catalogDir: string; dispose: () => void }
const catalogs: Catalog[] = []
let previous: Catalog
let previousPath: string

const manifestOf = async (catalog: Catalog): Promise<CatalogManifest> => {
  const read = await readCatalogManifest(catalog.catalogDir)
  if (!read.ok) throw new Error(read.message)
  return read.manifest
}

/** Runs statements in DuckDB over `database` (a file, or memory). */
const run = async (database: string, statements: readonly string[]) => {
  const instance = await createDuckDbInstance(database)
  const connection = await instance.connect()
  try {
    for (const statement of statements) await connection.run(statement)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/**
 * A copy of the sample catalog, its tables also as files (which the tests change a table's rows by): a copy
 * of `previous`, whose tables were written as files once (writing them for each of nine copies cost ~3 s).
 */
const copy = async (): Promise<Catalog> => {
  const root = mkdtempSync(join(tmpdir(), 'oqlkit-serving-update-'))
  const catalog = {
    catalogDir: join(root, 'catalog'),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  }
  catalogs.push(catalog)
  cpSync(previous.catalogDir, catalog.catalogDir, { recursive: true })
  return catalog
}

/** The rows of one query over `database`, as JSON values. */
const readRows = async (database: string, [query]: readonly [string]) => {
  const instance = await createDuckDbInstance(database)
  const connection = await instance.connect()
  try {
    return (await connection.runAndReadAll(query)).getRowObjectsJson()
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

beforeAll(async () => {
  // The catalog every update starts from; the tests read it and change copies of it only.
  previous = await ingestSampleCatalog()
  catalogs.push(previous)
  await keepTablesAsFiles(previous.catalogDir)
  previousPath = join(previous.catalogDir, SERVING_DATABASE_FILE)
}, 60_000)

afterAll(() => {
  for (const catalog of catalogs) catalog.dispose()
})

describe('a serving database updated in place', () => {
  it('is the catalog’s own when nothing changed', async () => {
    const next = await copy()
    const result = await updateServingDatabase(next.catalogDir, await manifestOf(next), {
      previousPath,
      previousIdOrder: 'by-number',
    })
    expect(result.updated).toBe(true)
    if (result.updated) expect(result.changed.size).toBe(0)
    expect(existsSync(join(next.catalogDir, SERVING_DATABASE_FILE))).toBe(true)
  })

  it('is declined, leaving no file, when a new id sorts before the catalog’s last', async () => {
    const next = await copy()
    const works = join(next.catalogDir, ...entityFilePath('works').split('/'))
    // One work more, whose id sorts first: its row number could not be in id order.
    await run(':memory:', [
      `COPY (SELECT * FROM read_parquet('${works}') UNION ALL (SELECT * REPLACE ('W1' AS "id") FROM read_parquet('${works}') LIMIT 1) ORDER BY "id") TO '${works}.next' (FORMAT parquet)`,
    ])
    renameSync(`${works}.next`, works)
    const result = await updateServingDatabase(next.catalogDir, await manifestOf(next), {
      previousPath,
      previousIdOrder: 'by-number',
    })
    expect(result).toStrictEqual({
      updated: false,
      reason: "1 new works ids sort before the catalog's last (rows are numbered in id order)",
    })
    expect(existsSync(join(next.catalogDir, SERVING_DATABASE_FILE))).toBe(false)
  })

  it('numbers a new id after the last when its number is, though its text sorts before', async () => {
    const next = await copy()
    const works = join(next.catalogDir, ...entityFilePath('works').split('/'))
    // The sample's ids run up to 10 digits (`W99854102` sorts last as text): an 11-digit id comes last by
    // number, as OpenAlex's new ids do, and first but one as text.
    const newId = 'W10000000000'
    await run(':memory:', [
      `COPY (SELECT * FROM read_parquet('${works}') UNION ALL (SELECT * REPLACE ('${newId}' AS "id", 10000000000 AS id_num) FROM read_parquet('${works}') LIMIT 1) ORDER BY id_num, "id") TO '${works}.next' (FORMAT parquet)`,
    ])
    renameSync(`${works}.next`, works)
    // The manifest says the catalog now has that one work more.
    const manifest = await manifestOf(next)
    const counted = {
      ...manifest,
      entities: {
        ...manifest.entities,
        works: { ...manifest.entities.works, rowCount: manifest.entities.works.rowCount + 1 },
      },
    }
    const result = await updateServingDatabase(next.catalogDir, counted, {
      previousPath,
      previousIdOrder: 'by-number',
    })
    expect(result.updated).toBe(true)
    if (result.updated) expect(result.changed.get('works')).toStrictEqual({ deleted: 0, inserted: 1 })
    const rows = await readRows(join(next.catalogDir, SERVING_DATABASE_FILE), [
      `SELECT "id", "${NARROW_ROW_COLUMN}" AS n, (SELECT max("${NARROW_ROW_COLUMN}") FROM works__narrow) AS last, (SELECT count(*) FROM works__narrow) AS "rows" FROM works__narrow WHERE "id" IN ('${newId}', 'W99854102')`,
    ])
    const numberOf = new Map(rows.map((row) => [String(row.id), Number(row.n)]))
    expect(numberOf.get(newId)).toBe(Number(rows[0]!.last))
    expect(numberOf.get(newId)).toBe(Number(rows[0]!.rows) - 1)
    expect(numberOf.get('W99854102')!).toBeLessThan(numberOf.get(newId)!)
    // A manifest whose rows do not add up with the changes is declined (the caller builds the database
    // whole), and leaves no file.
    expect(
      await updateServingDatabase(next.catalogDir, manifest, { previousPath, previousIdOrder: 'by-number' }),
    ).toStrictEqual({
      updated: false,
      reason: `the serving database's works would hold ${counted.entities.works.rowCount} rows where the catalog has ${manifest.entities.works.rowCount}`,
    })
    expect(existsSync(join(next.catalogDir, SERVING_DATABASE_FILE))).toBe(false)
  })

  it('is declined for a catalog whose rows are in the ids’ text order (format 7 and earlier)', async () => {
    const next = await copy()
    const result = await updateServingDatabase(next.catalogDir, await manifestOf(next), {
      previousPath,
      previousIdOrder: 'by-text',
    })
    expect(result).toStrictEqual({
      updated: false,
      reason:
        "the catalog being updated numbers its serving rows in the ids' text order (format 7 or earlier)",
    })
    expect(existsSync(join(next.catalogDir, SERVING_DATABASE_FILE))).toBe(false)
  })

  it('is declined once updates in place have inserted more than their share since the build', async () => {
    // Two updates, each revising the works of one hash bucket of twenty (3.4% and 2.7% of the sample's; their
    // record locations move): the first changes the database in place, the second would bring the rows
    // inserted since the build past 5%.
    const revise = async (catalog: Catalog, bucket: number) => {
      const works = join(catalog.catalogDir, ...entityFilePath('works').split('/'))
      await run(':memory:', [
        `COPY (SELECT * REPLACE (CASE WHEN hash("id") % 20 = ${bucket} THEN record_bytes + 1 ELSE record_bytes END AS record_bytes) FROM read_parquet('${works}')) TO '${works}.next' (FORMAT parquet)`,
      ])
      renameSync(`${works}.next`, works)
    }
    const first = await copy()
    await revise(first, 0)
    const once = await updateServingDatabase(first.catalogDir, await manifestOf(first), {
      previousPath,
      previousIdOrder: 'by-number',
      maxChangedShare: 0.05,
    })
    expect(once.updated).toBe(true)
    const revised = once.updated ? (once.changed.get('works')?.inserted ?? 0) : 0
    const works = (await manifestOf(first)).entities.works.rowCount
    expect(revised).toBeGreaterThan(0.02 * works)
    expect(revised).toBeLessThan(0.05 * works)
    const second = await copy()
    await revise(second, 0)
    await revise(second, 1)
    const twice = await updateServingDatabase(second.catalogDir, await manifestOf(second), {
      previousPath: join(first.catalogDir, SERVING_DATABASE_FILE),
      previousIdOrder: 'by-number',
      maxChangedShare: 0.05,
    })
    expect(twice.updated).toBe(false)
    if (!twice.updated)
      expect(twice.reason).toMatch(
        /^updates in place would have inserted \d+ rows of \d+ works since the serving database was built, more than 0.05 of them$/,
      )
    // From the database as built, the same update is in place: the count is the updates' since the build.
    const fromBuild = await updateServingDatabase(second.catalogDir, await manifestOf(second), {
      previousPath,
      previousIdOrder: 'by-number',
      maxChangedShare: 0.2,
    })
    expect(fromBuild.updated).toBe(true)
  })

  it('is declined for a database built before its rows were numbered in a column', async () => {
    const older = await copy()
    await run(join(older.catalogDir, SERVING_DATABASE_FILE), [
      'SET threads = 1',
      `CREATE TABLE works__older AS SELECT * EXCLUDE (${NARROW_ROW_COLUMN}) FROM works__narrow`,
      'DROP TABLE works__narrow',
      'ALTER TABLE works__older RENAME TO works__narrow',
    ])
    const next = await copy()
    const result = await updateServingDatabase(next.catalogDir, await manifestOf(next), {
      previousPath: join(older.catalogDir, SERVING_DATABASE_FILE),
      previousIdOrder: 'by-number',
    })
    expect(result).toStrictEqual({
      updated: false,
      reason: 'the serving database being updated numbers its rows by rowid',
    })
  })
})
