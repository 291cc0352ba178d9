// `indexCatalogSearch`: the index built into an existing catalog, in place. The catalog's manifest and its
// `search/` folder must agree afterwards (every listed file there, nothing else), whether the catalog had an
// index before or none, and a catalog it cannot index is left as it was.
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { readCatalogManifest, SEARCH_INDEX_FORMAT_VERSION, searchIndexOf } from '@oqlkit/catalog'
import { planQuery } from '@oqlkit/engine'
import type { SearchBuildProgress } from '@oqlkit/ingest'
import { buildSearchIndex, CatalogIndexError, indexCatalogSearch, StagingDatabase } from '@oqlkit/ingest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readSampleRecords } from './support/sample-snapshot-records.ts'
import { copyOfSampleCatalog } from './support/shared-sample-catalog.ts'

let catalogDir: string
let dispose: () => void
const works = readSampleRecords('works')

beforeAll(async () => {
  const catalog = await copyOfSampleCatalog()
  catalogDir = catalog.catalogDir
  dispose = catalog.dispose
})
afterAll(() => dispose?.())

/** Every file under a folder, as catalog-relative paths with `/`. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true })
    .map((name) => join(dir, String(name)))
    .filter((path) => statSync(path).isFile())
    .map((path) => relative(catalogDir, path).split(sep).join('/'))
    .sort()

async function expectManifestMatchesDisk(): Promise<void> {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  const index = searchIndexOf(read.manifest)
  expect(index?.formatVersion).toBe(SEARCH_INDEX_FORMAT_VERSION)
  const listed = read.manifest.files.filter((file) => file.path.startsWith('search/'))
  expect(listed.map((file) => file.path).sort()).toStrictEqual(filesUnder(join(catalogDir, 'search')))
  for (const file of listed) expect(statSync(join(catalogDir, file.path)).size).toBe(file.bytes)
  expect(readdirSync(catalogDir).filter((name) => name.startsWith('.search-build-'))).toStrictEqual([])
}

const countMatches = async (word: string): Promise<number> => {
  const adapter = await createDuckDbAdapter({ catalogDir })
  try {
    const planned = planQuery({
      get_rows: 'works',
      filter_rows: [{ column_id: 'display_name.search.exact', value: word, operator: 'has' }],
    })
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    return (await adapter.queryRows(planned.plan)).count ?? -1
  } finally {
    await adapter.close()
  }
}
const titlesWith = (word: string): number =>
  works.filter((work) =>
    String(work.display_name ?? '')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .includes(word),
  ).length

type SearchFiles = NonNullable<
  Awaited<ReturnType<typeof indexCatalogSearch>>['index']['entities']['works']
>['files']

/** Each mode's postings and terms of the works' index, as rows in order: from the postings files in bucket order, whole. */
async function worksIndexRows(files: SearchFiles): Promise<Record<string, string | number>> {
  const instance = await DuckDBInstance.create(':memory:')
  const db = await instance.connect()
  try {
    const path = (file: string) => `'${join(catalogDir, ...file.split('/'))}'`
    const read = async (sql: string) => JSON.stringify((await db.runAndReadAll(sql)).getRowsJson())
    const rows: Record<string, string | number> = {}
    for (const mode of ['exact', 'stemmed'] as const) {
      rows[`${mode} buckets`] = files[mode].postings.length
      // Every posting in order, as one text of a JSON object a line written by DuckDB: the same rows as
      // reading them out one by one, which took ~0.35 s of CPU a mode and a build.
      rows[`${mode} postings`] = String(
        (
          await db.runAndReadAll(
            `SELECT string_agg(to_json(p)::VARCHAR, chr(10) ORDER BY term, field, doc) FROM (SELECT term, field, doc, tf, len, positions FROM read_parquet([${files[mode].postings.map(path).join(', ')}])) AS p`,
          )
        ).getRows()[0]?.[0],
      )
      rows[`${mode} terms`] = await read(`SELECT * FROM read_parquet(${path(files[mode].terms)})`)
    }
    return rows
  } finally {
    db.closeSync()
    instance.closeSync()
  }
}

/**
 * The rebuild in place of every entity's index in segments of 200 documents and buckets of 20,000 rows, once
 * (its works' rows read right after it): the first test checks the rebuild, the second compares the works'
 * split into buckets with a build that fits one. The works' index does not depend on which other entities are
 * built with it; a build of the works alone for the second test cost ~2 s of CPU.
 */
let split:
  | Promise<{
      result: Awaited<ReturnType<typeof indexCatalogSearch>>
      progress: SearchBuildProgress[]
      worksRows: Record<string, string | number>
    }>
  | undefined
const splitBuild = () => {
  split ??= (async () => {
    const progress: SearchBuildProgress[] = []
    const result = await indexCatalogSearch({
      catalogDir,
      segmentDocs: 200,
      bucketRows: 20_000,
      onProgress: (event) => progress.push(event),
    })
    return { result, progress, worksRows: await worksIndexRows(result.index.entities.works!.files) }
  })()
  return split
}

/**
 * The works indexed with the default bounds, once: how many segments the build made and the digest of every
 * file under search/ after it. The test of a catalog without an index builds it; the test of a small memory
 * limit compares its own build with it (the same build on the same records again cost ~2 s of CPU).
 */
let unboundedWorks: Promise<{ segments: number; contents: Map<string, string> }> | undefined
const unboundedWorksBuild = () => {
  unboundedWorks ??= (async () => {
    const segments = await worksSegmentsOf()
    return { segments, contents: searchContents() }
  })()
  return unboundedWorks
}

/** Each file under search/ by its digest: vitest compares Buffers element by element, 20 s for the sample's index files. */
const searchContents = (): Map<string, string> =>
  new Map(
    filesUnder(join(catalogDir, 'search')).map((path) => [
      path,
      createHash('sha256')
        .update(readFileSync(join(catalogDir, path)))
        .digest('hex'),
    ]),
  )

/** Indexes the works within `bounds`; returns the number of segments the build reported. */
const worksSegmentsOf = async (
  bounds: { memoryLimit?: string; segmentDocs?: number } = {},
): Promise<number> => {
  let segments = 0
  await indexCatalogSearch({
    catalogDir,
    entities: ['works'],
    ...bounds,
    onProgress: ({ step }) => {
      const total = /^segment \d+\/(\d+)$/.exec(step)?.[1]
      if (total !== undefined) segments = Number(total)
    },
  })
  return segments
}

describe('indexCatalogSearch', () => {
  it('rebuilds an index in place: new buckets, the old files gone, the manifest in step', async () => {
    const { result, progress } = await splitBuild()
    expect(result.index.entities.works?.files.stemmed.postings.length).toBeGreaterThan(2)
    expect(result.bytes).toBeGreaterThan(0)
    await expectManifestMatchesDisk()
    expect(progress.some((event) => event.entity === 'works' && event.step.startsWith('segment'))).toBe(true)
    // The copy into the buckets says so, rather than leaving the step before it on screen.
    expect(progress.some((event) => /^stemmed postings into \d+ buckets$/.test(event.step))).toBe(true)
    const last = progress.at(-1)
    expect(last?.done).toBeCloseTo(last?.total ?? -1, 6)
    expect(await countMatches('climate')).toBe(titlesWith('climate'))
    // Each dictionary, counted bucket by bucket and joined, is in (term, field) order and says what the
    // postings of all the buckets say.
    const index = result.index.entities.works!
    for (const mode of ['exact', 'stemmed'] as const) {
      const files = index.files[mode]
      const db = await (await DuckDBInstance.create(':memory:')).connect()
      try {
        const path = (file: string) => `'${join(catalogDir, ...file.split('/'))}'`
        const read = async (sql: string) => (await db.runAndReadAll(sql)).getRowObjectsJson()
        const [order] =
          await read(`SELECT count(*) FILTER (WHERE NOT (lag_term < term OR (lag_term = term AND lag_field < field))) AS disorder
          FROM (SELECT term, field, lag(term) OVER () AS lag_term, lag(field) OVER () AS lag_field FROM read_parquet(${path(files.terms)}))
          WHERE lag_term IS NOT NULL`)
        expect(order?.disorder, mode).toBe('0')
        const [differ] = await read(`SELECT count(*) AS rows FROM (
          (SELECT term, field, df, cf FROM read_parquet(${path(files.terms)})
           EXCEPT ALL SELECT term, field, count(*), sum(tf) FROM read_parquet([${files.postings.map(path).join(', ')}]) GROUP BY ALL)
          UNION ALL
          (SELECT term, field, count(*), sum(tf) FROM read_parquet([${files.postings.map(path).join(', ')}]) GROUP BY ALL
           EXCEPT ALL SELECT term, field, df, cf FROM read_parquet(${path(files.terms)})))`)
        expect(differ?.rows, mode).toBe('0')
      } finally {
        db.closeSync()
      }
    }
  })

  it('writes postings that fit one bucket straight from the segments: what the split into buckets holds', async () => {
    const steps: string[] = []
    const result = await indexCatalogSearch({
      catalogDir,
      entities: ['works'],
      segmentDocs: 200,
      onProgress: ({ step }) => steps.push(step),
    })
    const one = await worksIndexRows(result.index.entities.works!.files)
    // No split: the step that copies postings into bucket folders never ran.
    expect(steps.filter((step) => step.includes('into'))).toStrictEqual([])
    const { worksRows: split } = await splitBuild()
    expect([one['exact buckets'], one['stemmed buckets']]).toStrictEqual([1, 1])
    expect(split['stemmed buckets']).toBeGreaterThan(2)
    for (const key of ['exact postings', 'exact terms', 'stemmed postings', 'stemmed terms'])
      expect(one[key], key).toBe(split[key])
    expect(String(one['stemmed postings']).split('\n').length).toBeGreaterThan(1_000)
    await expectManifestMatchesDisk()
  })

  it('indexes a catalog that has no index', async () => {
    const manifestPath = join(catalogDir, 'catalog.json')
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
    manifest.extensions = {}
    manifest.files = manifest.files.filter((file: { path: string }) => !file.path.startsWith('search/'))
    await writeFile(manifestPath, JSON.stringify(manifest))
    await rm(join(catalogDir, 'search'), { recursive: true })

    // The works with the default bounds (what the small memory limit's build is compared with below).
    await unboundedWorksBuild()
    await expectManifestMatchesDisk()
    expect(await countMatches('health')).toBe(titlesWith('health'))
  })

  it('builds under a small memory limit, spilling, the same files as under the default one', async () => {
    // The works: the most text of the sample, several segments under the small limit (the other entities take
    // the same path with less to do, and each index build of them all took ~20 s in the suite).
    const { segments: segmentsUnbounded, contents: unbounded } = await unboundedWorksBuild()
    // Segments, threads and the texts file's parts are sized from the limit; none of them changes a file. (The
    // sample is too small to run out of memory under the old sizes: 100k generated works did, under 768 MB.)
    // Its works fit one segment even under 96 MB, so the segments are asked for, four of them.
    const small = await worksSegmentsOf({ memoryLimit: '96MB', segmentDocs: Math.ceil(works.length / 4) })
    expect([segmentsUnbounded, small]).toStrictEqual([1, 4])
    await expectManifestMatchesDisk()
    expect(searchContents()).toStrictEqual(unbounded)
  })

  it('refuses a folder that is not a catalog, and one an ingest is replacing, changing nothing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'oqlkit-indexer-'))
    try {
      const notCatalog = join(root, 'empty')
      mkdirSync(notCatalog)
      await expect(indexCatalogSearch({ catalogDir: notCatalog })).rejects.toBeInstanceOf(CatalogIndexError)
      expect(readdirSync(notCatalog)).toStrictEqual([])

      const lock = join(catalogDir, '..', `.${'catalog'}.ingest-lock`)
      writeFileSync(lock, '1')
      try {
        await expect(indexCatalogSearch({ catalogDir })).rejects.toThrow(/ingest/)
      } finally {
        rmSync(lock)
      }
      await expectManifestMatchesDisk()
      expect(existsSync(join(catalogDir, 'search', 'works'))).toBe(true)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})

describe('buildSearchIndex on a session it is given', () => {
  it('leaves the session’s settings as they were, threads lowered for its memory limit included', async () => {
    // An ingest builds the index on its staging session and goes on using it (vectors, the tagger): what the
    // index changes for itself must not outlive it. 300 MB fits one thread of the three the session has.
    const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-index-session-'))
    const session = await StagingDatabase.open(join(scratch, 'staging'), { threads: 3, memoryLimit: '300MB' })
    const settings = async () =>
      (
        await session.rows(
          "SELECT current_setting('threads') AS threads, current_setting('preserve_insertion_order') AS ordered, current_setting('partitioned_write_flush_threshold') AS flush",
        )
      )[0]
    try {
      const before = await settings()
      expect(Number(before!.threads)).toBe(3)
      const index = await buildSearchIndex({
        connection: session,
        catalogDir,
        outDir: join(scratch, 'out'),
        workDir: join(scratch, 'work'),
        entities: ['sources'],
      })
      expect(index.entities.sources?.docs).toBeGreaterThan(0)
      expect(await settings()).toStrictEqual(before)
    } finally {
      session.close()
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})
