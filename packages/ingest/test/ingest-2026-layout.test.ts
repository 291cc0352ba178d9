// The 2026 snapshot layouts: `data/jsonl/` with per-entity and combined `manifest.json` files and the works
// `deleted_ids.csv(.gz)` log, and `data/parquet/`, read through DuckDB.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import {
  author,
  type FixtureRecord,
  partsOf,
  work,
  writeJsonl2026Snapshot,
  writeParquet2026Snapshot,
} from './support/snapshot-fixtures.ts'

// The layouts are read by the parse step; what a layout yields is in the core catalog's records and tables,
// so these ingests leave out the search index, vectors and tag model (half an ingest's cost).
const core = { searchIndex: false, vectors: false, textTagger: false } as const

let root: string

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-ingest-2026-'))
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

async function withCatalog<T>(dir: string, use: (catalog: CatalogInspector) => Promise<T>): Promise<T> {
  const catalog = await CatalogInspector.open(dir)
  try {
    return await use(catalog)
  } finally {
    catalog.close()
  }
}

const works: FixtureRecord[] = [
  work(1, '2026-06-20T01:00:00'),
  work(2, '2026-06-20T01:00:00'),
  work(3, '2026-06-21T01:00:00'),
  work(4, '2026-06-24T01:00:00'),
]

describe('the 2026 JSON Lines layout', () => {
  it('reads per-entity and combined manifests and removes the ids of the works deletion log', async () => {
    const deleted =
      'work_id,deleted_date\nhttps://openalex.org/W2,2026-06-22\nW4,2026-06-23\nW77,2026-06-01\n'
    const snapshotDir = join(root, 'jsonl')
    writeJsonl2026Snapshot(
      snapshotDir,
      [...partsOf('works', works), ...partsOf('authors', [author(1, '2026-06-20')])],
      {
        combinedOnly: ['authors'],
        extraFiles: { 'works/deleted_ids.csv.gz': gzipSync(deleted), 'works/deleted_ids.csv': deleted },
      },
    )
    const outDir = join(root, 'jsonl-catalog')
    const summary = await ingestSnapshot({ snapshotDir, outDir, ...core })

    expect(summary.layout).toBe('jsonl')
    // One of the two copies of the deletion log is read.
    expect(summary.filesRead).toBe(5)
    expect(summary.entities.works).toMatchObject({ recordsRead: 4, deleted: 1, recordsWritten: 3 })
    expect(summary.entities.authors).toMatchObject({ recordsRead: 1, recordsWritten: 1 })
    await withCatalog(outDir, async (catalog) => {
      // W4 was published (2026-06-24) after its deletion (2026-06-23): the record stays.
      expect([...(await catalog.records('works')).keys()]).toStrictEqual(['W1', 'W3', 'W4'])
      expect(
        await catalog.rows(
          'SELECT entity, id, CAST(deleted_date AS VARCHAR) AS deleted_date FROM read_parquet($1) ORDER BY id',
          [catalog.file('ids/deleted-ids.parquet')],
        ),
      ).toStrictEqual([
        { entity: 'works', id: 'W2', deleted_date: '2026-06-22' },
        { entity: 'works', id: 'W77', deleted_date: '2026-06-01' },
      ])
      const stored = (await catalog.records('works')).get('W1')
      expect(stored).toStrictEqual(works[0])
    })
  })

  it('keeps deletions when a later update brings the deleted id again in an older partition', async () => {
    const snapshotDir = join(root, 'jsonl-late')
    writeJsonl2026Snapshot(
      snapshotDir,
      partsOf('works', [work(2, '2026-06-21T00:00:00', { title: 'stale' })]),
    )
    const outDir = join(root, 'jsonl-catalog')
    const summary = await ingestSnapshot({ snapshotDir, outDir, ...core })
    expect(summary.entities.works).toMatchObject({ recordsRead: 1, deleted: 1, recordsWritten: 3 })
    await withCatalog(outDir, async (catalog) => {
      expect([...(await catalog.records('works')).keys()]).toStrictEqual(['W1', 'W3', 'W4'])
    })
  })
})

describe('the 2026 Parquet layout', () => {
  const columns = {
    id: 'VARCHAR',
    doi: 'VARCHAR',
    display_name: 'VARCHAR',
    publication_year: 'INTEGER',
    ids: 'STRUCT(openalex VARCHAR, doi VARCHAR)',
    authorships: 'STRUCT(author STRUCT(id VARCHAR, display_name VARCHAR))[]',
    updated_date: 'VARCHAR',
  }
  const records = works.map(
    ({ id, doi, display_name, publication_year, ids, authorships, updated_date }) => ({
      id,
      doi,
      display_name,
      publication_year,
      ids,
      authorships,
      updated_date,
    }),
  )

  it('reads Parquet parts through DuckDB into the same catalog', async () => {
    const snapshotDir = join(root, 'parquet')
    await writeParquet2026Snapshot(snapshotDir, partsOf('works', records), columns)
    const outDir = join(root, 'parquet-catalog')
    const summary = await ingestSnapshot({ snapshotDir, outDir, ...core })

    expect(summary.layout).toBe('parquet')
    expect(summary.entities.works).toMatchObject({ recordsRead: 4, recordsWritten: 4 })
    await withCatalog(outDir, async (catalog) => {
      expect(await catalog.records('works')).toStrictEqual(
        new Map(records.map((record, i) => [`W${i + 1}`, record])),
      )
      expect(
        await catalog.rows('SELECT id, doi, publication_year FROM read_parquet($1) ORDER BY id LIMIT 1', [
          catalog.file('entities/works.parquet'),
        ]),
      ).toStrictEqual([{ id: 'W1', doi: '10.1000/test.1', publication_year: 2020 }])
      expect(
        await catalog.rows('SELECT key, work_id FROM read_parquet($1) ORDER BY key LIMIT 2', [
          catalog.file('links/works-authors.parquet'),
        ]),
      ).toStrictEqual([
        { key: 'A1', work_id: 'W1' },
        { key: 'A2', work_id: 'W2' },
      ])
    })
  })

  it('reads the JSON Lines copy when a snapshot holds both formats, unless told otherwise', async () => {
    const snapshotDir = join(root, 'both')
    writeJsonl2026Snapshot(snapshotDir, partsOf('works', works.slice(0, 1)))
    await writeParquet2026Snapshot(snapshotDir, partsOf('works', records.slice(0, 2)), columns)
    const jsonl = await ingestSnapshot({ snapshotDir, outDir: join(root, 'both-jsonl'), ...core })
    expect([jsonl.layout, jsonl.recordsRead]).toStrictEqual(['jsonl', 1])
    const parquet = await ingestSnapshot({
      snapshotDir,
      outDir: join(root, 'both-parquet'),
      preferFormat: 'parquet',
      ...core,
    })
    expect([parquet.layout, parquet.recordsRead]).toStrictEqual(['parquet', 2])
  })
})
