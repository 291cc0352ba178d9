// Updating a catalog by partition (legacy layout): a newer partition replaces a record by id, an older one
// does not, records the new snapshot does not mention stay; merged ids are recorded (chains resolved) and
// remove the old record unless it was published again after the merge. A catalog keeps its record codec
// across updates.
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CATALOG_FORMAT_VERSION, type CatalogManifest } from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IngestError } from '../src/ingest-error.ts'
import type { IngestSummary } from '../src/ingest-progress.ts'
import { type IngestOptions, ingestSnapshot } from '../src/ingest-snapshot.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import { keepTablesAsFiles } from './support/catalog-table-files.ts'
import {
  author,
  type FixtureRecord,
  partsOf,
  work,
  writeLegacySnapshot,
} from './support/snapshot-fixtures.ts'

let root: string
const catalogDir = () => join(root, 'catalog')

// What an update keeps, replaces, merges and encodes is in the records and tables of the core catalog; the
// search index, vectors and tag model an update rebuilds are ingest-update-equivalence's subject. Core
// ingests here cost half as much.
const core = { searchIndex: false, vectors: false, textTagger: false } as const

/** Writes a legacy snapshot of the records (plus merged-ids files) and ingests it into the shared catalog. */
async function ingest(
  name: string,
  records: Readonly<Record<string, readonly FixtureRecord[]>>,
  mergedIds: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
  mode: 'update' | 'replace' = 'update',
): Promise<IngestSummary> {
  const snapshotDir = join(root, name)
  writeLegacySnapshot(
    snapshotDir,
    Object.entries(records).flatMap(([entity, list]) => partsOf(entity, list)),
    mergedIds,
  )
  return ingestSnapshot({ snapshotDir, outDir: catalogDir(), mode, ...core })
}

/** `use` on the catalog in `dir` (the file's shared one unless told). */
async function read<T>(use: (catalog: CatalogInspector) => Promise<T>, dir = catalogDir()): Promise<T> {
  const catalog = await CatalogInspector.open(dir)
  try {
    return await use(catalog)
  } finally {
    catalog.close()
  }
}

/** Writes a legacy snapshot of works and ingests it (core) into the catalog in `outDir`. */
function ingestWorksInto(
  outDir: string,
  name: string,
  works: readonly FixtureRecord[],
  options: Partial<IngestOptions> = {},
): Promise<IngestSummary> {
  const snapshotDir = join(root, name)
  writeLegacySnapshot(snapshotDir, partsOf('works', works))
  return ingestSnapshot({ snapshotDir, outDir, ...core, ...options })
}

/** The catalog of two works, W2 citing W5, that the last three describes each update a copy of. */
let twoWorks: Promise<string> | undefined

/**
 * A copy of the catalog of two works in `dir` (built once, on first use: the tests only change their copies,
 * and a copy costs nothing beside an ingest).
 */
async function copyOfTwoWorks(dir: string): Promise<void> {
  twoWorks ??= (async () => {
    const catalog = join(root, 'two-works-catalog')
    await ingestWorksInto(catalog, 'two-works', [
      work(2, '2024-01-01T10:00:00', { title: 'two', referenced_works: ['https://openalex.org/W5'] }),
      work(5, '2024-01-01T10:00:00', { title: 'five' }),
    ])
    return catalog
  })()
  cpSync(await twoWorks, dir, { recursive: true })
}

/** The works' titles by id. */
const titlesOf = async (catalog: CatalogInspector) =>
  Object.fromEntries([...(await catalog.records('works'))].map(([id, record]) => [id, record.title]))

const titles = () => read(titlesOf)

/** The works' ids and the references' (key, work) rows, in their tables' order. */
const worksAndCitations = async (catalog: CatalogInspector) => ({
  works: await catalog.rows('SELECT id FROM read_parquet($1)', [catalog.file('entities/works.parquet')]),
  cited: await catalog.rows('SELECT key, work_id FROM read_parquet($1)', [
    catalog.file('links/works-referenced-works.parquet'),
  ]),
})

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-ingest-update-'))
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('updating a catalog by updated_date partition', () => {
  it('keeps the version from the newest partition within one snapshot', async () => {
    const summary = await ingest('first', {
      works: [
        work(1, '2024-01-01T10:00:00', { title: 'one, January' }),
        work(2, '2024-01-01T10:00:00', { title: 'two, January' }),
        work(3, '2024-01-01T10:00:00', { title: 'three, January' }),
        work(3, '2024-03-01T10:00:00', { title: 'three, March' }),
      ],
      authors: [author(1, '2024-01-01T10:00:00')],
    })
    expect(summary.mode).toBe('created')
    expect(summary.entities.works).toMatchObject({ recordsRead: 4, superseded: 1, recordsWritten: 3 })
    expect(await titles()).toStrictEqual({ W1: 'one, January', W2: 'two, January', W3: 'three, March' })
  })

  it('replaces a record from a newer partition and keeps the records the update does not mention', async () => {
    const summary = await ingest('newer', {
      works: [work(1, '2024-02-01T09:00:00', { title: 'one, February' })],
    })
    expect(summary.mode).toBe('updated')
    expect(summary.entities.works).toMatchObject({
      recordsRead: 1,
      previousRecords: 3,
      superseded: 1,
      recordsWritten: 3,
    })
    expect(summary.entities.authors).toMatchObject({ recordsRead: 0, previousRecords: 1, recordsWritten: 1 })
    // Read through one inspector (opening one writes the catalog's tables out as files).
    const [titled, dates] = await read(async (catalog) => [
      await titlesOf(catalog),
      await catalog.rows(
        "SELECT CAST(partition_date AS VARCHAR) AS d FROM read_parquet($1) WHERE id = 'W1'",
        [catalog.file('entities/works.parquet')],
      ),
    ])
    expect(titled).toStrictEqual({ W1: 'one, February', W2: 'two, January', W3: 'three, March' })
    expect(dates).toStrictEqual([{ d: '2024-02-01' }])
  })

  it('does not let an older partition replace a newer record', async () => {
    const summary = await ingest('older', {
      works: [work(1, '2023-12-01T09:00:00', { title: 'one, December' }), work(4, '2023-12-01T09:00:00')],
    })
    expect(summary.entities.works).toMatchObject({ recordsRead: 2, superseded: 1, recordsWritten: 4 })
    expect(await titles()).toMatchObject({ W1: 'one, February', W4: 'Work 4' })
  })

  it('records merged ids with chains resolved and removes the merged records', async () => {
    const summary = await ingest(
      'merges',
      { works: [work(5, '2024-01-15T00:00:00')] },
      {
        works: {
          '2024-04-01.csv': 'merge_date,id,merge_into_id\n2024-04-01,W2,W1\n',
          '2024-04-02.csv': 'merge_date,id,merge_into_id\n2024-04-02,W5,W2\n2024-04-02,W999,W1\n',
        },
      },
    )
    expect(summary.entities.works).toMatchObject({ merged: 2, recordsWritten: 3 })
    const [titled, merged] = await read(async (catalog) => [
      await titlesOf(catalog),
      await catalog.rows(
        'SELECT entity, old_id, new_id, CAST(merge_date AS VARCHAR) AS merge_date FROM read_parquet($1) ORDER BY old_id',
        [catalog.file('ids/merged-ids.parquet')],
      ),
    ])
    expect(Object.keys(titled).sort()).toStrictEqual(['W1', 'W3', 'W4'])
    expect(merged).toStrictEqual([
      { entity: 'works', old_id: 'W2', new_id: 'W1', merge_date: '2024-04-01' },
      { entity: 'works', old_id: 'W5', new_id: 'W1', merge_date: '2024-04-02' },
      { entity: 'works', old_id: 'W999', new_id: 'W1', merge_date: '2024-04-02' },
    ])
  })

  it('keeps merges across updates, and a record published again after its merge wins over it', async () => {
    const summary = await ingest('republished', {
      works: [work(2, '2024-05-01T00:00:00', { title: 'two, May' })],
    })
    expect(summary.entities.works).toMatchObject({ merged: 0, recordsWritten: 4 })
    const [titled, merged] = await read(async (catalog) => [
      await titlesOf(catalog),
      await catalog.rows('SELECT old_id FROM read_parquet($1) ORDER BY old_id', [
        catalog.file('ids/merged-ids.parquet'),
      ]),
    ])
    expect(titled).toMatchObject({ W2: 'two, May' })
    expect(merged).toStrictEqual([{ old_id: 'W5' }, { old_id: 'W999' }])
  })

  it('rebuilds from the snapshot alone in replace mode', async () => {
    const summary = await ingest('replacement', { works: [work(7, '2024-06-01T00:00:00')] }, {}, 'replace')
    expect(summary.mode).toBe('replaced')
    expect(Object.keys(await titles())).toStrictEqual(['W7'])
    expect(summary.entities.authors.recordsWritten).toBe(0)
    expect(summary.mergedIds).toBe(0)
  })
})

describe('updating a catalog of format 6, whose records are deflated', () => {
  const dir = () => join(root, 'deflated-catalog')
  const ingestInto = (name: string, works: readonly FixtureRecord[], options: Partial<IngestOptions> = {}) =>
    ingestWorksInto(dir(), name, works, options)
  const storeOf = async () => {
    const catalog = await CatalogInspector.open(dir())
    try {
      const manifest = JSON.parse(readFileSync(join(dir(), 'catalog.json'), 'utf8')) as CatalogManifest
      const records = await catalog.records('works')
      return {
        codec: manifest.entities.works.recordStore.codec,
        titles: Object.fromEntries([...records].map(([id, record]) => [id, record.title])),
      }
    } finally {
      catalog.close()
    }
  }

  it('keeps its codec: the new records join its store deflated, and every record reads back', async () => {
    await ingestInto(
      'deflated-first',
      [work(1, '2024-01-01T10:00:00', { title: 'one' }), work(2, '2024-01-01T10:00:00', { title: 'two' })],
      { recordCodec: 'deflate-raw+dictionary' },
    )
    // As an oqlkit of format 6 wrote it: every store deflated, and the version it read.
    const manifestPath = join(dir(), 'catalog.json')
    const written = JSON.parse(readFileSync(manifestPath, 'utf8')) as CatalogManifest
    writeFileSync(manifestPath, JSON.stringify({ ...written, formatVersion: 6 }))
    expect(await storeOf()).toStrictEqual({
      codec: 'deflate-raw+dictionary',
      titles: { W1: 'one', W2: 'two' },
    })
    // The update is not told the codec (the default is zstd): the store it extends decides.
    await ingestInto('deflated-update', [
      work(1, '2024-02-01T10:00:00', { title: 'one, revised' }),
      work(3, '2024-02-01T10:00:00', { title: 'three' }),
    ])
    expect(await storeOf()).toStrictEqual({
      codec: 'deflate-raw+dictionary',
      titles: { W1: 'one, revised', W2: 'two', W3: 'three' },
    })
    // Written back in the current version, which an oqlkit that knows only deflate stores refuses.
    expect((JSON.parse(readFileSync(manifestPath, 'utf8')) as CatalogManifest).formatVersion).toBe(
      CATALOG_FORMAT_VERSION,
    )
  })

  it('refuses to update a store whose codec this version does not know, and changes nothing', async () => {
    const manifestPath = join(dir(), 'catalog.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as CatalogManifest
    const unknown = {
      ...manifest,
      entities: {
        ...manifest.entities,
        works: {
          ...manifest.entities.works,
          recordStore: { ...manifest.entities.works.recordStore, codec: 'brotli' },
        },
      },
    }
    writeFileSync(manifestPath, JSON.stringify(unknown))
    const error = await ingestInto('unknown-codec', [work(9, '2024-03-01T10:00:00')]).catch(
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).code).toBe('catalog-invalid')
    expect((error as IngestError).message).toContain('uses codec "brotli"')
    expect(readFileSync(manifestPath, 'utf8')).toBe(JSON.stringify(unknown))
    writeFileSync(manifestPath, JSON.stringify(manifest))
  })

  it('is written with zstd (abstracts packed as words) when built again from a snapshot alone', async () => {
    await ingestInto('deflated-replaced', [work(4, '2024-03-01T10:00:00', { title: 'four' })], {
      mode: 'replace',
    })
    expect(await storeOf()).toStrictEqual({ codec: 'zstd+dictionary+abstract-words', titles: { W4: 'four' } })
  })
})

describe('updating a catalog written with columns this version no longer writes', () => {
  const dir = () => join(root, 'wider-catalog')
  const ingestInto = (name: string, works: readonly FixtureRecord[]) => ingestWorksInto(dir(), name, works)

  const readWider = <T>(use: (catalog: CatalogInspector) => Promise<T>) => read(use, dir())

  it('reads the kept rows by today’s columns and writes only those (the link tables’ record lists until format 7)', async () => {
    await copyOfTwoWorks(dir())
    // As format 7 wrote works.parquet: its tables as files, the works' with the record's list of the ids
    // `works-referenced-works` holds.
    await keepTablesAsFiles(dir())
    const works = join(dir(), 'entities', 'works.parquet')
    await readWider((inspector) =>
      inspector.rows(
        `COPY (SELECT *, CASE WHEN id = 'W2' THEN ['https://openalex.org/W5'] ELSE CAST([] AS VARCHAR[]) END AS json__referenced_works FROM read_parquet($1)) TO $2 (FORMAT parquet)`,
        [works, `${works}.wider`],
      ),
    )
    renameSync(`${works}.wider`, works)
    // The works' table as a file: the catalog's own, or the one written from the serving database since the
    // update.
    const columnsIn = async (catalog: CatalogInspector) =>
      (
        await catalog.rows('SELECT name FROM parquet_schema($1)', [catalog.file('entities/works.parquet')])
      ).map((row) => row.name)
    expect(await readWider(columnsIn)).toContain('json__referenced_works')

    await ingestInto('wider-update', [work(6, '2024-02-01T10:00:00', { title: 'six' })])
    // Read through one inspector (opening one writes the catalog's tables out as files).
    const updated = await readWider(async (catalog) => ({
      columns: await columnsIn(catalog),
      ids: await catalog.rows('SELECT id FROM read_parquet($1) ORDER BY id', [
        catalog.file('entities/works.parquet'),
      ]),
      titles: await titlesOf(catalog),
      links: await catalog.rows('SELECT key, work_id FROM read_parquet($1)', [
        catalog.file('links/works-referenced-works.parquet'),
      ]),
    }))
    expect(updated.columns).not.toContain('json__referenced_works')
    expect(updated.ids).toEqual([{ id: 'W2' }, { id: 'W5' }, { id: 'W6' }])
    expect(updated.titles).toEqual({ W2: 'two', W5: 'five', W6: 'six' })
    // The kept work's references still answer from its link rows.
    expect(updated.links).toEqual([{ key: 'W5', work_id: 'W2' }])
  }, 120_000) // a build and an update of it: past the 30 s default on a loaded machine
})

describe('an update its catalog’s serving database cannot take in place', () => {
  /** The build steps the ingest reported. */
  const ingestInto = async (
    dir: string,
    name: string,
    works: readonly FixtureRecord[],
    options: Partial<IngestOptions> = {},
  ) => {
    const steps = new Set<string>()
    await ingestWorksInto(dir, name, works, {
      ...options,
      onProgress: (event) => {
        if (event.step !== null) steps.add(event.step)
      },
    })
    return steps
  }

  // Sorted at once, and (a sort budget of one byte) a work a range, the kept works read into their ranges.
  it.each([
    ['at once', 'reordered', {}],
    ['in id ranges', 'reordered-ranges', { sortBatchBytes: 1 }],
  ] as const)(
    'writes its tables whole after its changes, sorted %s, and builds the serving database of them: a new id before the last',
    async (_, name, options) => {
      const dir = join(root, `${name}-catalog`)
      await copyOfTwoWorks(dir)
      const steps = await ingestInto(
        dir,
        `${name}-update`,
        [
          work(3, '2024-02-01T10:00:00', { title: 'three', referenced_works: ['https://openalex.org/W2'] }),
          work(5, '2024-02-01T10:00:00', { title: 'five, revised' }),
        ],
        options,
      )
      // W3 is new and sorts before W5, the catalog's last: its rows could not keep their numbers in id order.
      expect([...steps].filter((step) => step.startsWith('catalog.duckdb (built whole'))).toStrictEqual([
        "catalog.duckdb (built whole: 1 new works ids sort before the catalog's last (rows are numbered in id order))",
      ])
      const ranges = [...steps].filter((step) => step.startsWith('entities/works.parquet (sorting id range'))
      expect(ranges.length).toBe('sortBatchBytes' in options ? 3 : 0)
      // Read through one inspector (opening one writes the catalog's tables out as files).
      const { titles: titled, ...tables } = await read(
        async (catalog) => ({
          ...(await worksAndCitations(catalog)),
          rows: catalog.manifest().entities.works.rowCount,
          links: catalog.manifest().links['works-referenced-works']?.rowCount,
          titles: await titlesOf(catalog),
        }),
        dir,
      )
      expect(tables).toStrictEqual({
        works: [{ id: 'W2' }, { id: 'W3' }, { id: 'W5' }],
        cited: [
          { key: 'W2', work_id: 'W3' },
          { key: 'W5', work_id: 'W2' },
        ],
        rows: 3,
        links: 2,
      })
      expect(titled).toEqual({ W2: 'two', W3: 'three', W5: 'five, revised' })
    },
    120_000,
  )

  it('keeps the catalog as it was when the update sorted in ranges keeps none of its own records', async () => {
    const dir = join(root, 'stale-ranges-catalog')
    await copyOfTwoWorks(dir)
    // A write-ahead log beside the serving database (a run that stopped): the tables are written whole, the
    // kept works read into their ranges, where the update's one work, older than the catalog's, has none.
    writeFileSync(join(dir, 'catalog.duckdb.wal'), '')
    const steps = await ingestInto(
      dir,
      'stale-ranges-update',
      [work(5, '2023-06-01T10:00:00', { title: 'five, an older version' })],
      { sortBatchBytes: 1 },
    )
    expect([...steps].some((step) => step.startsWith('entities/works.parquet (sorting id range'))).toBe(true)
    const tables = await read(
      async (catalog) => ({
        ...(await worksAndCitations(catalog)),
        titles: await titlesOf(catalog),
      }),
      dir,
    )
    expect(tables).toStrictEqual({
      works: [{ id: 'W2' }, { id: 'W5' }],
      cited: [{ key: 'W5', work_id: 'W2' }],
      titles: { W2: 'two', W5: 'five' },
    })
  }, 120_000)
})

describe('the table files of an update (--table-files)', () => {
  it('are every row of the updated catalog, written from it, where the update itself wrote its changes alone', async () => {
    const dir = join(root, 'table-files-catalog')
    const ingestInto = (name: string, works: readonly FixtureRecord[], tableFilesDir?: string) =>
      ingestWorksInto(dir, name, works, tableFilesDir === undefined ? {} : { tableFilesDir })
    await copyOfTwoWorks(dir)
    const files = join(root, 'table-files')
    const summary = await ingestInto(
      'table-files-update',
      [
        work(5, '2024-02-01T10:00:00', { title: 'five, revised' }),
        work(6, '2024-02-01T10:00:00', { title: 'six', referenced_works: ['https://openalex.org/W2'] }),
      ],
      files,
    )
    expect(summary.warnings).toStrictEqual([])
    const tables = await read(
      async (catalog) => ({
        works: await catalog.rows('SELECT id FROM read_parquet($1)', [
          join(files, 'entities', 'works.parquet'),
        ]),
        cited: await catalog.rows('SELECT key, work_id FROM read_parquet($1)', [
          join(files, 'links', 'works-referenced-works.parquet'),
        ]),
        rows: catalog.manifest().entities.works.rowCount,
      }),
      dir,
    )
    expect(tables).toStrictEqual({
      works: [{ id: 'W2' }, { id: 'W5' }, { id: 'W6' }],
      cited: [
        { key: 'W2', work_id: 'W6' },
        { key: 'W5', work_id: 'W2' },
      ],
      rows: 3,
    })
    // Nothing of the build's own files is left in the catalog.
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toStrictEqual([])
  }, 120_000)
})
