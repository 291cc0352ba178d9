// An update is the build it stands for: the bundled sample ingested, then a newer partition ingested into it
// as an update (revised works and authors, new works, merges), gives the same catalog as the sample and the
// partition built together from scratch — every entity row, record, link row and id list — although the
// update reads the catalog's kept rows from its own files and copies its record store instead of parsing
// its records again.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listValue } from '@duckdb/node-api'
import type { CatalogManifest } from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestSummary } from '../src/ingest-progress.ts'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import { readSample, recordsOf, updateMerges, updateParts } from './support/sample-update-fixtures.ts'
import { type FixturePart, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

const core = { searchIndex: false, textTagger: false, vectors: false } as const

let root: string
let updated: string
let rebuilt: string
let updateSummary: IngestSummary
let storeBeforeUpdate: Buffer
/** The build steps the update reported. */
const updateSteps = new Set<string>()
let sample: FixturePart[]

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-update-equivalence-'))
  const read = readSample()
  sample = read.parts
  const update = updateParts(sample)
  const merges = updateMerges(sample)
  writeLegacySnapshot(join(root, 'base'), sample, read.merged)
  writeLegacySnapshot(join(root, 'update'), update, merges)
  writeLegacySnapshot(join(root, 'together'), [...sample, ...update], {
    ...read.merged,
    works: { ...read.merged.works, ...merges.works },
  })
  updated = join(root, 'updated')
  rebuilt = join(root, 'rebuilt')
  await ingestSnapshot({ snapshotDir: join(root, 'base'), outDir: updated, mode: 'replace', ...core })
  copyFileSync(join(updated, 'records', 'works.records'), join(root, 'works-before.records'))
  storeBeforeUpdate = readFileSync(join(root, 'works-before.records'))
  // Small sort batches: the update's rows (the kept ones read from the catalog's file) go through the ranges.
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
  await ingestSnapshot({ snapshotDir: join(root, 'together'), outDir: rebuilt, mode: 'replace', ...core })
}, 120_000)

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

async function withBoth<T>(use: (a: CatalogInspector, b: CatalogInspector) => Promise<T>): Promise<T> {
  const a = await CatalogInspector.open(updated)
  const b = await CatalogInspector.open(rebuilt)
  try {
    return await use(a, b)
  } finally {
    a.close()
    b.close()
  }
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
    expect(records.has('W9000000001')).toBe(true)
    expect(records.size).toBe(works.length + 3 - 2)
  })

  it('merged the kept and the new works a range of ids at a time', () => {
    const ranges = [...updateSteps].filter((step) =>
      step.startsWith('entities/works.parquet (sorting id range '),
    )
    expect(ranges.length).toBeGreaterThan(3)
  })

  it('has the same rows in every entity file, in the same (id) order', async () => {
    await withBoth(async (a, b) => {
      const manifest: CatalogManifest = a.manifest()
      for (const [entity, table] of Object.entries(manifest.entities)) {
        const other = b.manifest().entities[entity as keyof CatalogManifest['entities']]
        expect(table.rowCount, entity).toBe(other.rowCount)
        // Offsets differ (the update's store begins with the old one), nothing else may.
        expect(await differences(a, b, table.files, ['record_offset', 'record_bytes']), entity).toStrictEqual(
          [],
        )
        const order = 'SELECT list(id) AS ids FROM read_parquet($1::VARCHAR[])'
        const [ours] = await a.rows(order, [listValue(table.files.map((file) => a.file(file)))])
        const [theirs] = await b.rows(order, [listValue(other.files.map((file) => b.file(file)))])
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

  const linkAndIdTables = (manifest: CatalogManifest) => [
    ...Object.values(manifest.links),
    manifest.externalIds,
    manifest.mergedIds,
    manifest.deletedIds,
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
})
