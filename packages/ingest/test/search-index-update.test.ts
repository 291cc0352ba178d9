// An update's search index is the index a full build of the same records has: the sample ingested, then
// updated by a newer partition (revised, new and merged works, renamed authors), then by a second one, gives
// the same dictionaries, document lengths, statistics and postings (the buckets' rows not masked, with the
// delta's) as the records built together from scratch, and every search the same works with the same
// relevance. The update indexes only the records it wrote: the works and authors get a delta, the other
// entities carry their files over; an update past the merge share builds the works' index whole again. The
// snapshots hold the sample's works, authors and sources only: the other entities would only add time.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { listValue } from '@duckdb/node-api'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import {
  type CatalogEntity,
  type CatalogManifest,
  SEARCH_MODES,
  type SearchEntityIndex,
  type SearchMode,
  searchIndexOf,
} from '@oqlkit/catalog'
import { planQuery } from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { MERGE_SHARE } from '../src/search/search-index-updater.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import {
  type Json,
  readSample,
  recordsOf,
  updateMerges,
  updateParts,
} from './support/sample-update-fixtures.ts'
import { updateWorksSearchIndex } from './support/search-delta-fixture.ts'
import { copyOfSampleCatalog } from './support/shared-sample-catalog.ts'
import { type FixturePart, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

const SECOND_PARTITION = '2026-07-01'

const hasText = (work: Json): boolean =>
  [work.display_name, work.title].some((text) => typeof text === 'string' && /[\p{L}\p{N}]/u.test(text)) ||
  (typeof work.abstract_inverted_index === 'object' &&
    work.abstract_inverted_index !== null &&
    Object.keys(work.abstract_inverted_index).length > 0)
const searchOnly = { textTagger: false, vectors: false } as const

/** A second update: two works of the first revised again, one more revised, one added. */
function secondParts(sample: readonly FixturePart[]): FixturePart[] {
  const works = recordsOf(sample, 'works')
  const revised = [0, 1, 40].map((at) => ({
    ...works[at]!,
    title: `${String(works[at]!.title)} again revised`,
    display_name: `${String(works[at]!.display_name)} again revised`,
    updated_date: `${SECOND_PARTITION}T08:00:00.000000`,
  }))
  const id = 'https://openalex.org/W9000000009'
  const added = { ...works[50]!, id, ids: { ...(works[50]!.ids as Json), openalex: id } }
  return [
    {
      entity: 'works',
      partition: SECOND_PARTITION,
      content: [...revised, { ...added, updated_date: `${SECOND_PARTITION}T09:00:00.000000` }].map((r) =>
        JSON.stringify(r),
      ),
    },
  ]
}

let root: string
/** The sample's works, read once (the tests count them). */
let sampleWorks: Json[]
let updated: string
let rebuilt: string
const steps: string[][] = [[], []]
const manifests: CatalogManifest[] = []
/** Per update: whether the works' first exact bucket is the very file it was before (linked, not copied). */
const sameBucketFile: boolean[] = []

/** The catalog's manifest, read as it is (an inspector would first write every table out as a file). */
const manifestOf = (catalogDir: string): CatalogManifest =>
  JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as CatalogManifest

function firstWorksBucketInode(catalogDir: string): number {
  const bucket = indexOf(manifestOf(catalogDir), 'works').files.exact.postings[0]!
  return statSync(join(catalogDir, ...bucket.split('/'))).ino
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-search-update-'))
  const read = readSample()
  sampleWorks = recordsOf(read.parts, 'works')
  const sample = read.parts.filter((part) => ['works', 'authors', 'sources'].includes(part.entity))
  const first = updateParts(sample)
  const merges = updateMerges(sample)
  const merged = { ...read.merged, works: { ...read.merged.works, ...merges.works } }
  const second = secondParts(sample)
  writeLegacySnapshot(join(root, 'base'), sample, read.merged)
  writeLegacySnapshot(join(root, 'update-1'), first, merges)
  writeLegacySnapshot(join(root, 'update-2'), second, {})
  writeLegacySnapshot(join(root, 'together'), [...sample, ...first, ...second], merged)
  updated = join(root, 'updated')
  await ingestSnapshot({ snapshotDir: join(root, 'base'), outDir: updated, mode: 'replace', ...searchOnly })
  for (const [at, snapshot] of ['update-1', 'update-2'].entries()) {
    const before = firstWorksBucketInode(updated)
    await ingestSnapshot({
      snapshotDir: join(root, snapshot),
      outDir: updated,
      mode: 'update',
      ...searchOnly,
      onProgress: (event) => {
        if (event.step?.startsWith('search/') === true) steps[at]!.push(event.step)
      },
    })
    manifests.push(manifestOf(updated))
    sameBucketFile.push(firstWorksBucketInode(updated) === before)
  }
  // The second delta, on the first, is compared with a full build of the records of both updates (a full build
  // after the first alone would cost the test another ingest, and any fault of the first delta shows here).
  rebuilt = join(root, 'rebuilt')
  await ingestSnapshot({
    snapshotDir: join(root, 'together'),
    outDir: rebuilt,
    mode: 'replace',
    ...searchOnly,
  })
}, 300_000)

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

const indexOf = (manifest: CatalogManifest, entity: CatalogEntity): SearchEntityIndex => {
  const index = searchIndexOf(manifest)?.entities[entity]
  if (index === undefined) throw new Error(`no search index of ${entity}`)
  return index
}

/** The postings that count: the buckets' rows of documents not masked, and the delta's. */
function effectivePostingsSql(index: SearchEntityIndex, mode: SearchMode, at: (path: string) => string) {
  const buckets = listValue(index.files[mode].postings.map(at))
  if (index.delta === undefined)
    return { sql: 'SELECT * FROM read_parquet($1::VARCHAR[])', params: [buckets] }
  return {
    sql: `SELECT * FROM read_parquet($1::VARCHAR[]) WHERE doc NOT IN (SELECT doc FROM read_parquet($2::VARCHAR))
      UNION ALL SELECT * FROM read_parquet($3::VARCHAR)`,
    params: [buckets, at(index.delta.masked), at(index.delta[mode])],
  }
}

/** Rows of two relations that the other has not (EXCEPT ALL, both ways), at most five. */
async function differences(
  inspector: CatalogInspector,
  a: { sql: string; params: unknown[] },
  b: { sql: string; params: unknown[] },
): Promise<Record<string, unknown>[]> {
  const shift = (sql: string) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + a.params.length}`)
  const [left, right] = [a.sql, shift(b.sql)]
  return inspector.rows(
    `(SELECT 'only updated' AS side, * FROM (${left}) EXCEPT ALL SELECT 'only updated', * FROM (${right}))
     UNION ALL (SELECT 'only rebuilt', * FROM (${right}) EXCEPT ALL SELECT 'only rebuilt', * FROM (${left})) LIMIT 5`,
    [...a.params, ...b.params] as never,
  )
}

const file = (path: string) => ({ sql: 'SELECT * FROM read_parquet($1::VARCHAR)', params: [path] })

describe.each([1, 2])('after update %i', (round) => {
  it('indexed only what it wrote: a delta for the changed entities, the others carried over', () => {
    const manifest = manifests[round - 1]!
    const works = indexOf(manifest, 'works')
    expect(works.delta).toBeDefined()
    expect(works.delta!.docs).toBeGreaterThan(0)
    expect(steps[round - 1]).toContain('search/works (delta)')
    expect(steps[round - 1]).toContain('search/sources (unchanged)')
    expect(steps[round - 1]!.filter((step) => step.includes('(rebuilt)'))).toEqual([])
    // The delta counts the documents it holds postings of: a work without title or abstract has none.
    const withText = (...at: number[]) => at.filter((n) => hasText(sampleWorks[n]!)).length
    if (round === 1) {
      // 20 revised (each title now has a word) and 3 new works; 20 revised and 2 merged masked.
      expect(works.delta).toMatchObject({ docs: 20 + withText(20, 21, 22), maskedDocs: 22 })
      expect(indexOf(manifest, 'authors').delta).toMatchObject({ docs: 5, maskedDocs: 5 })
      expect(indexOf(manifest, 'sources').delta).toBeUndefined()
    } else {
      // The first update's documents (two of them revised again), one more revised, and one new.
      expect(works.delta).toMatchObject({ docs: 21 + withText(20, 21, 22, 50), maskedDocs: 23 })
    }
    // The buckets are the base build's, linked rather than copied.
    expect(sameBucketFile[round - 1]).toBe(true)
  })
})

describe('after the second update', () => {
  it('has the statistics, documents, lengths and dictionaries of a full build', async () => {
    const a = searchIndexOf(manifests[1]!)!
    const inspector = await CatalogInspector.open(updated)
    const other = await CatalogInspector.open(rebuilt)
    try {
      const b = searchIndexOf(other.manifest())!
      expect(Object.keys(a.entities).sort()).toEqual(Object.keys(b.entities).sort())
      for (const [entity, index] of Object.entries(a.entities) as [CatalogEntity, SearchEntityIndex][]) {
        const fresh = b.entities[entity]!
        expect({ entity, docs: index.docs, fields: index.fields, terms: index.terms }).toEqual({
          entity,
          docs: fresh.docs,
          fields: fresh.fields,
          terms: fresh.terms,
        })
        for (const mode of SEARCH_MODES)
          expect(index.files[mode].frequent, `${entity} ${mode}`).toEqual(fresh.files[mode].frequent)
        for (const kind of ['docs', 'docStats', 'fieldStats'] as const)
          expect(
            await differences(
              inspector,
              file(inspector.file(index.files[kind])),
              file(other.file(fresh.files[kind])),
            ),
            `${entity} ${kind}`,
          ).toEqual([])
        for (const mode of SEARCH_MODES) {
          expect(
            await differences(
              inspector,
              file(inspector.file(index.files[mode].terms)),
              file(other.file(fresh.files[mode].terms)),
            ),
            `${entity} ${mode} terms`,
          ).toEqual([])
          const counted = effectivePostingsSql(index, mode, (path) => inspector.file(path))
          if (index.delta !== undefined) {
            const [row] = await inspector.rows(
              `SELECT count(*) AS n FROM (${counted.sql})`,
              counted.params as never,
            )
            expect(index.delta.postings[mode], `${entity} ${mode} postings counted`).toBe(Number(row?.n))
          }
          expect(
            await differences(
              inspector,
              effectivePostingsSql(index, mode, (path) => inspector.file(path)),
              effectivePostingsSql(fresh, mode, (path) => other.file(path)),
            ),
            `${entity} ${mode} postings`,
          ).toEqual([])
        }
      }
    } finally {
      inspector.close()
      other.close()
    }
  }, 60_000)

  it('finds the same works with the same relevance as a full build', async () => {
    const has = (column_id: string, value: string): NonNullable<Oqo['filter_rows']>[number] => ({
      column_id,
      value,
      operator: 'has',
    })
    const searches: NonNullable<Oqo['filter_rows']>[] = [
      [has('title.search', 'revised')],
      [has('title.search', 'again')],
      [has('default.search', 'the')],
      [has('title_and_abstract.search', 'cancer')],
      [has('title.search', '"climate change"')],
      [has('display_name.search.exact', 'clim*')],
      [has('title_and_abstract.search', 'health'), has('title.search', 'revised')],
    ]
    const a = await createDuckDbAdapter({ catalogDir: updated })
    const b = await createDuckDbAdapter({ catalogDir: rebuilt })
    try {
      let found = 0
      for (const filter_rows of searches) {
        const planned = planQuery(
          { get_rows: 'works', filter_rows },
          { perPage: 200, sort: [{ field: 'relevance_score', direction: 'desc' }] },
        )
        if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
        const [left, right] = [await a.queryRows(planned.plan), await b.queryRows(planned.plan)]
        const scores = (rows: readonly Record<string, unknown>[]) =>
          rows.map((row) => [String(row.id), Number(row.relevance_score)] as const)
        expect(left.count, JSON.stringify(filter_rows)).toBe(right.count)
        const [x, y] = [scores(left.rows), scores(right.rows)]
        expect(x.map(([id]) => id).sort()).toEqual(y.map(([id]) => id).sort())
        const byId = new Map(y)
        for (const [id, score] of x) expect(score, id).toBeCloseTo(byId.get(id)!, 6)
        found += x.length
      }
      expect(found).toBeGreaterThan(100)
    } finally {
      await a.close()
      await b.close()
    }
  }, 60_000)
})

describe('an update past the merge share', () => {
  it('builds the works index whole again, without a delta', async () => {
    // The sample's catalog as an update of the last fifth of its works would leave it: past a tenth.
    const copy = await copyOfSampleCatalog()
    try {
      const works = await updateWorksSearchIndex(copy.catalogDir, 2 * MERGE_SHARE)
      expect(works.delta).toBeUndefined()
      expect(works.docs).toBe(sampleWorks.length)
      // Under it, a delta; built in a folder where a stopped run left a bucket behind (a resumed ingest's).
      const leftover = join(copy.catalogDir, 'stopped-build')
      const bucket = join(leftover, ...works.files.exact.postings[0]!.split('/'))
      mkdirSync(dirname(bucket), { recursive: true })
      writeFileSync(bucket, 'left by a stopped run')
      const updated = await updateWorksSearchIndex(copy.catalogDir, MERGE_SHARE / 4, leftover)
      expect(updated.delta).toBeDefined()
      expect(updated.docs).toBe(works.docs)
    } finally {
      copy.dispose()
    }
  }, 60_000)
})
