// An update is the build it stands for: the bundled sample ingested, then a newer partition ingested into it
// as an update (revised works and authors, new works, merges), gives the same catalog as the sample and the
// partition built together from scratch — every entity row, record, link row and id list — although the
// update reads the catalog's kept rows from its own files and copies its record store instead of parsing
// its records again.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance, listValue } from '@duckdb/node-api'
import { NARROW_ROW_COLUMN } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  type CatalogManifest,
  DELETED_IDS_FILE,
  EXTERNAL_IDS_FILE,
  entityFilePath,
  idOrderSql,
  linkFilePath,
  MERGED_IDS_FILE,
  quoteIdentifier,
  SERVING_DATABASE_FILE,
} from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestSummary } from '../src/ingest-progress.ts'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import { readSample, recordsOf, updateMerges, updateParts } from './support/sample-update-fixtures.ts'
import { sharedSampleCatalog } from './support/shared-sample-catalog.ts'
import { type FixturePart, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

const core = { searchIndex: false, textTagger: false, vectors: false } as const
// New works as OpenAlex numbers them: past every id of the catalog by number (11 digits where the sample's
// have 8 to 10), though as text they sort among the first (`W10000000001` before `W2…`). In id order they
// come last, so the serving database takes them in place.
const NEW_WORK_ID = (at: number) => `W1000000000${at + 1}`

let root: string
let updated: string
let rebuilt: string
let updateSummary: IngestSummary
let rebuiltSummary: IngestSummary
let storeBeforeUpdate: Buffer
/** The build steps the update reported. */
const updateSteps = new Set<string>()
let sample: FixturePart[]

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-update-equivalence-'))
  const read = readSample()
  sample = read.parts
  // New works whose ids come after every id of the sample by number (`NEW_WORK_ID`): the serving database is
  // then changed in place (its rows are numbered in id order).
  const update = updateParts(sample, (at) => NEW_WORK_ID(at))
  const merges = updateMerges(sample)
  writeLegacySnapshot(join(root, 'update'), update, merges)
  writeLegacySnapshot(join(root, 'together'), [...sample, ...update], {
    ...read.merged,
    works: { ...read.merged.works, ...merges.works },
  })
  updated = join(root, 'updated')
  rebuilt = join(root, 'rebuilt')
  // The bundled sample ingested: the run's shared sample catalog, copied rather than built again (the update
  // changes it). It was built with its search index, vectors and tag model; the update, a core one like the
  // full build it is compared with, leaves those out, and the tables and records compared are the core's.
  cpSync(await sharedSampleCatalog(), updated, { recursive: true })
  storeBeforeUpdate = readFileSync(join(updated, 'records', 'works.records'))
  // Small sort batches: were the update to sort its tables whole, they would go through the ranges.
  updateSummary = await ingestSnapshot({
    snapshotDir: join(root, 'update'),
    outDir: updated,
    mode: 'update',
    sortBatchBytes: 256 * 1024,
    ...core,
    onProgress: (event) => {
      if (event.step !== null) updateSteps.add(event.step)
    },
  })
  rebuiltSummary = await ingestSnapshot({
    snapshotDir: join(root, 'together'),
    outDir: rebuilt,
    mode: 'replace',
    ...core,
  })
}, 120_000)

afterAll(async () => {
  try {
    for (const inspector of (await inspectors) ?? []) inspector.close()
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

/**
 * Inspectors of the updated and the rebuilt catalog, opened once on first use: the tests only read the
 * catalogs, and opening one writes every table of its serving database out as a file.
 */
let inspectors: Promise<[CatalogInspector, CatalogInspector]> | undefined

async function withBoth<T>(use: (a: CatalogInspector, b: CatalogInspector) => Promise<T>): Promise<T> {
  inspectors ??= Promise.all([CatalogInspector.open(updated), CatalogInspector.open(rebuilt)])
  const [a, b] = await inspectors
  return use(a, b)
}

/** Rows of `files` in one catalog and not the other (EXCEPT ALL), both ways, `except` columns left out. */
async function differences(
  a: CatalogInspector,
  b: CatalogInspector,
  files: readonly string[],
  except: readonly string[] = [],
): Promise<Record<string, unknown>[]> {
  const exclude = except.length === 0 ? '' : ` EXCLUDE (${except.join(', ')})`
  const sql = `(SELECT 'only updated' AS side, *${exclude} FROM read_parquet($1::VARCHAR[]) EXCEPT ALL SELECT 'only updated', *${exclude} FROM read_parquet($2::VARCHAR[])) UNION ALL (SELECT 'only rebuilt', *${exclude} FROM read_parquet($2::VARCHAR[]) EXCEPT ALL SELECT 'only rebuilt', *${exclude} FROM read_parquet($1::VARCHAR[])) LIMIT 5`
  return a.rows(sql, [
    listValue(files.map((file) => a.file(file))),
    listValue(files.map((file) => b.file(file))),
  ])
}

describe('an update gives the catalog a full build of the same records gives', () => {
  it('applied the update: revised and new works in, merged works out, authors renamed', async () => {
    expect(updateSummary.mode).toBe('updated')
    expect(updateSummary.entities.works).toMatchObject({ recordsRead: 23, merged: 2, superseded: 20 })
    expect(updateSummary.entities.authors).toMatchObject({ recordsRead: 5, superseded: 5 })
    const works = recordsOf(sample, 'works')
    const short = (at: number) => String(works[at]!.id).replace('https://openalex.org/', '')
    const records = await withBoth((a) => a.records('works'))
    expect(records.get(short(0))?.title).toBe(`${String(works[0]!.title)} (revised)`)
    expect(records.has(short(30))).toBe(false)
    expect(records.has(short(31))).toBe(false)
    expect(records.has(NEW_WORK_ID(0))).toBe(true)
    expect(records.size).toBe(works.length + 3 - 2)
  })

  it('wrote its changes alone: no table sorted whole, the works’ file holding the rows it wrote', () => {
    expect([...updateSteps].filter((step) => step.includes('sorting id range'))).toStrictEqual([])
    expect(updateSteps.has('entities/works.parquet')).toBe(true)
    expect(updateSummary.entities.works.recordsWritten).toBe(recordsOf(sample, 'works').length + 3 - 2)
    // Its summary counts the catalog's tables as they now are, not the changes alone.
    const tables = ({ linkRows, externalIds, mergedIds, deletedIds }: IngestSummary) => ({
      linkRows,
      externalIds,
      mergedIds,
      deletedIds,
    })
    expect(tables(updateSummary)).toStrictEqual(tables(rebuiltSummary))
  })

  it('has the same rows in every entity file, in the same (id) order', async () => {
    await withBoth(async (a, b) => {
      const manifest: CatalogManifest = a.manifest()
      for (const [entity, table] of Object.entries(manifest.entities)) {
        const other = b.manifest().entities[entity as keyof CatalogManifest['entities']]
        expect(table.rowCount, entity).toBe(other.rowCount)
        // Offsets differ (the update's store begins with the old one), nothing else may.
        const files = [entityFilePath(entity as CatalogEntity)]
        expect(await differences(a, b, files, ['record_offset', 'record_bytes']), entity).toStrictEqual([])
        const order = 'SELECT list(id) AS ids FROM read_parquet($1::VARCHAR[])'
        const [ours] = await a.rows(order, [listValue(files.map((file) => a.file(file)))])
        const [theirs] = await b.rows(order, [listValue(files.map((file) => b.file(file)))])
        expect(ours, entity).toStrictEqual(theirs)
      }
    })
  })

  it('serves the same record for every id', async () => {
    await withBoth(async (a, b) => {
      for (const entity of Object.keys(a.manifest().entities)) {
        const ours = await a.recordTexts(entity)
        const theirs = await b.recordTexts(entity)
        expect(ours.size, entity).toBe(theirs.size)
        for (const [id, record] of ours) expect(record, `${entity} ${id}`).toStrictEqual(theirs.get(id))
      }
    })
  })

  // Each with its file's path in the layout (the inspector reads the tables as files).
  const linkAndIdTables = (manifest: CatalogManifest) => [
    ...Object.entries(manifest.links).map(([name, table]) => ({ ...table, files: [linkFilePath(name)] })),
    { ...manifest.externalIds, files: [EXTERNAL_IDS_FILE] },
    { ...manifest.mergedIds, files: [MERGED_IDS_FILE] },
    { ...manifest.deletedIds, files: [DELETED_IDS_FILE] },
  ]

  it('has the same link rows, external ids, merged and deleted ids', async () => {
    await withBoth(async (a, b) => {
      const manifest = a.manifest()
      const tables = linkAndIdTables(manifest)
      const rebuiltTables = linkAndIdTables(b.manifest())
      for (const [at, table] of tables.entries()) {
        expect(await differences(a, b, table.files), table.files.join()).toStrictEqual([])
        expect(table.rowCount, table.files.join()).toBe(rebuiltTables[at]!.rowCount)
      }
      expect(manifest.links['works-authors']!.rowCount).toBeGreaterThan(0)
      expect(manifest.externalIds.rowCount).toBeGreaterThan(0)
    })
  })

  it('copied the catalog’s record store as it was, then added the new records after it', () => {
    const after = readFileSync(join(updated, 'records', 'works.records'))
    expect(after.length).toBeGreaterThan(storeBeforeUpdate.length)
    expect(after.subarray(0, storeBeforeUpdate.length).equals(storeBeforeUpdate)).toBe(true)
  })

  it('changed the catalog’s serving database in place, to the tables a build gives', async () => {
    expect([...updateSteps].filter((step) => step.startsWith(SERVING_DATABASE_FILE))).toStrictEqual([
      `${SERVING_DATABASE_FILE} (in place)`,
    ])
    expect([...updateSteps].some((step) => step.startsWith(`${SERVING_DATABASE_FILE} (built whole`))).toBe(
      false,
    )
    const instance = await DuckDBInstance.create(':memory:')
    const db = await instance.connect()
    const rows = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson()
    try {
      await db.run(`ATTACH '${join(updated, SERVING_DATABASE_FILE)}' AS a (READ_ONLY)`)
      await db.run(`ATTACH '${join(rebuilt, SERVING_DATABASE_FILE)}' AS b (READ_ONLY)`)
      const tables = (await rows("SELECT table_name FROM duckdb_tables() WHERE database_name = 'b'")).map(
        (row) => String(row.table_name),
      )
      const ours = (await rows("SELECT table_name FROM duckdb_tables() WHERE database_name = 'a'")).map(
        (row) => String(row.table_name),
      )
      // Beside the build's tables, the count of rows updates in place have inserted since it (revised or new).
      expect(ours.sort()).toStrictEqual([...tables, 'serving_updates'].sort())
      expect(await rows('SELECT entity, inserted FROM a.serving_updates ORDER BY entity')).toStrictEqual([
        { entity: 'authors', inserted: '5' },
        { entity: 'works', inserted: '23' },
      ])
      expect(tables).toContain('works__narrow')
      // Each table's rows as a build would differ only in row numbers and record locations: rows named by
      // number are named by id instead.
      const located = 'EXCLUDE (record_offset, record_bytes)'
      const rowsOf = (side: 'a' | 'b', table: string): string => {
        const t = `${side}.${quoteIdentifier(table)}`
        if (table.startsWith('link_'))
          return `SELECT l.* EXCLUDE (work_row), w."id" AS work_id FROM ${t} AS l JOIN ${side}.works__narrow AS w ON w.${quoteIdentifier(NARROW_ROW_COLUMN)} = l.work_row`
        if (table.endsWith('__narrow'))
          return `SELECT * ${located.replace(')', `, ${quoteIdentifier(NARROW_ROW_COLUMN)})`)} FROM ${t}`
        if (table.endsWith('__locations')) return `SELECT "id" FROM ${t}`
        if (table.endsWith('__autocomplete')) {
          const narrow = `${side}.${quoteIdentifier(table.replace(/__autocomplete$/, '__narrow'))}`
          return `SELECT p.* EXCLUDE ("row"), n."id" FROM ${t} AS p JOIN ${narrow} AS n ON n.${quoteIdentifier(NARROW_ROW_COLUMN)} = p."row"`
        }
        if (table.endsWith('__autocomplete_lists')) {
          const narrow = `${side}.${quoteIdentifier(table.replace(/__autocomplete_lists$/, '__narrow'))}`
          return `SELECT x.prefix, x.i, n."id" FROM (SELECT prefix, generate_subscripts("rows", 1) AS i, unnest("rows") AS r FROM ${t}) AS x JOIN ${narrow} AS n ON n.${quoteIdentifier(NARROW_ROW_COLUMN)} = x.r`
        }
        if (table === 'external_ids') return `SELECT * ${located} FROM ${t}`
        return `SELECT * FROM ${t}`
      }
      for (const table of tables) {
        const [counts] = await rows(
          `SELECT (SELECT count(*) FROM a.${quoteIdentifier(table)}) AS a, (SELECT count(*) FROM b.${quoteIdentifier(table)}) AS b`,
        )
        expect(counts, table).toStrictEqual({ a: counts?.b, b: counts?.b })
        const differ = await rows(
          `SELECT count(*) AS n FROM ((${rowsOf('a', table)} EXCEPT ALL ${rowsOf('b', table)}) UNION ALL (${rowsOf('b', table)} EXCEPT ALL ${rowsOf('a', table)}))`,
        )
        expect(differ[0]?.n, table).toBe('0')
      }
      // Every reference by row number names a row, and the numbers are in id order (letter ids by number).
      for (const table of tables.filter((name) => name.endsWith('__narrow') && !name.startsWith('link_'))) {
        const info = CATALOG_ENTITIES.find((entity) => `${entity.table}__narrow` === table)!
        const [order] = await rows(
          `SELECT count(*) FILTER (WHERE number <= previous) AS unordered, count(DISTINCT number) = count(*) AS distinct FROM (SELECT ${quoteIdentifier(NARROW_ROW_COLUMN)} AS number, lag(${quoteIdentifier(NARROW_ROW_COLUMN)}) OVER (ORDER BY ${idOrderSql(info)}) AS previous FROM a.${quoteIdentifier(table)})`,
        )
        expect(order, table).toStrictEqual({ unordered: '0', distinct: true })
        const locations = quoteIdentifier(table.replace(/__narrow$/, '__locations'))
        const [located] = await rows(
          `SELECT count(*) AS n FROM a.${locations} AS l LEFT JOIN a.${quoteIdentifier(table)} AS n ON n.${quoteIdentifier(NARROW_ROW_COLUMN)} = l."row" AND n."id" = l."id" AND n.record_offset = l.record_offset WHERE n."id" IS NULL`,
        )
        expect(located?.n, locations).toBe('0')
      }
    } finally {
      db.closeSync()
      instance.closeSync()
    }
  })
})
