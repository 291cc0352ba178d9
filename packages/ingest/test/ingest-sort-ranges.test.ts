// The build sorts each entity table by id a range of ids at a time when its records are too large for
// one sort within DuckDB's memory limit. Forced to sort the bundled sample in many small ranges, the
// build must write the same catalog, byte for byte, as one sort does: the run's shared sample catalog, built
// on the suite's one DuckDB thread where this build runs two.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CatalogManifest, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { CatalogInspector, folderFingerprint } from './support/catalog-inspector.ts'
import { sharedSampleCatalog } from './support/shared-sample-catalog.ts'

const SAMPLE = SAMPLE_SNAPSHOT_DIR
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-sort-ranges-'))
const ranged = join(scratch, 'ranged')
/** The ranged build's tables as files (`tableFilesDir`), one a table though the build wrote a file a range. */
const tableFiles = join(scratch, 'tables')
/** The sample as one sort builds it (the shared catalog, ingested whole). */
let whole: string

// The core catalog only: the search index, vectors and tagger are built from these files afterwards, so the
// sort cannot reach them except through the files compared here.
const CORE = { mode: 'replace', searchIndex: false, vectors: false, textTagger: false } as const
/** The entity, record-store, link and id files of a catalog's fingerprint (what a sort writes). */
const coreFiles = (fingerprint: Map<string, string>): Map<string, string> =>
  new Map([...fingerprint].filter(([path]) => /^(entities|records|links|ids)\//.test(path)))
/** The build steps the ranged build reported. */
const rangedSteps: string[] = []

beforeAll(async () => {
  whole = await sharedSampleCatalog()
  // 200 KB: a work of the sample is a few KB, so the works are sorted some dozens at a time.
  await ingestSnapshot({
    snapshotDir: SAMPLE,
    outDir: ranged,
    ...CORE,
    sortBatchBytes: 200_000,
    tableFilesDir: tableFiles,
    // Two DuckDB threads (and two parse workers) where the shared catalog was built with the suite's one:
    // the files must not depend on how many threads wrote them either.
    threads: 2,
    onProgress: (event) => {
      if (event.step !== null && rangedSteps.at(-1) !== event.step) rangedSteps.push(event.step)
    },
  })
}, 180_000)
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('sorting entity tables in id ranges', () => {
  it('sorted the works in ranges, and said so in its progress', () => {
    // Every work has some list it lacks (a null build-only column): the size that picks the ranges must
    // still count the work's texts and lists, or the works would be sorted at once.
    const ranges = rangedSteps.filter((step) => step.startsWith('entities/works.parquet (sorting id range '))
    expect(ranges.length).toBeGreaterThan(10)
    expect(ranges.at(-1)).toMatch(/range (\d+) of \1\)$/)
    // The staged rows were split in more than one slice (consecutive parts share one up to three budgets):
    // the ranges must come out whole however many slices wrote into them.
    const slices = rangedSteps.filter((step) => step.startsWith('entities/works.parquet (splitting slice '))
    expect(slices.length).toBeGreaterThan(1)
    expect(slices.at(-1)).toMatch(/slice (\d+) of \1 into id ranges\)$/)
  })

  it('writes the same entity, record-store, link and id files as a single sort', () => {
    // catalog.json records when and from where it was built, and the serving database is made from the
    // files compared here in a DuckDB file whose block layout differs from build to build (two builds from
    // the same files differ too); the shared catalog has the search index, vectors and tagger besides.
    // Every entity, record-store, link and id file must match.
    const actual = folderFingerprint(ranged)
    for (const derived of ['catalog.json', SERVING_DATABASE_FILE]) actual.delete(derived)
    expect([...actual.keys()].filter((path) => !coreFiles(actual).has(path))).toEqual([])
    expect(actual.size).toBeGreaterThan(20)
    expect(actual).toStrictEqual(coreFiles(folderFingerprint(whole)))
    // The folders the ranges waited in are gone with them.
    expect(readdirSync(ranged).filter((name) => name.startsWith('.sort-ranges'))).toEqual([])
  })

  it('keeps each table in id order (a letter id by number)', async () => {
    const inspector = await CatalogInspector.open(ranged)
    try {
      const [row] = await inspector.rows(
        'SELECT count(*) AS rows, count(*) FILTER (WHERE (id_num, id) < previous) AS out_of_order FROM (SELECT id_num, id, lag((id_num, id)) OVER () AS previous FROM read_parquet($1))',
        [inspector.file('entities/works.parquet')],
      )
      expect(Number(row!.rows)).toBeGreaterThan(50)
      expect(Number(row!.out_of_order)).toBe(0)
    } finally {
      inspector.close()
    }
  })

  it('writes the tables as files one a table, each in id order, though it wrote the works a file a range', async () => {
    // The build's range files are not the layout's: the folder is written from the catalog instead.
    const works = readdirSync(join(tableFiles, 'entities')).filter((name) => name.startsWith('works'))
    expect(works).toEqual(['works.parquet'])
    const manifest = JSON.parse(readFileSync(join(ranged, 'catalog.json'), 'utf8')) as CatalogManifest
    const inspector = await CatalogInspector.open(ranged)
    try {
      const [row] = await inspector.rows(
        'SELECT count(*) AS rows, count(*) FILTER (WHERE (id_num, id) < previous) AS out_of_order FROM (SELECT id_num, id, lag((id_num, id)) OVER () AS previous FROM read_parquet($1))',
        [join(tableFiles, 'entities', 'works.parquet')],
      )
      expect(Number(row!.rows)).toBe(manifest.entities.works.rowCount)
      expect(Number(row!.out_of_order)).toBe(0)
    } finally {
      inspector.close()
    }
  })
})
