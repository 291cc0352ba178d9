// Ingest builds the text-tagging model into the catalog: the file is listed in catalog.json, two ingests of
// the same snapshot with the same seed write byte-identical models, and the loaded tagger tags a sample
// work's own title with its labels.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadCatalogTagger, readCatalogManifest, TEXT_TAGGER_MODEL_FILE, textTaggerOf } from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { trainTextTagModel } from '../src/tagging/text-tagger-builder.ts'
import { readSampleRecords } from './support/sample-snapshot-records.ts'
import { copyOfSampleCatalog } from './support/shared-sample-catalog.ts'
import { work, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

let first: Awaited<ReturnType<typeof copyOfSampleCatalog>>
let second: Awaited<ReturnType<typeof copyOfSampleCatalog>>
beforeAll(async () => {
  first = await copyOfSampleCatalog()
  second = await copyOfSampleCatalog()
}, 240_000)
afterAll(() => {
  first?.dispose()
  second?.dispose()
})

describe('the text-tagging model built by ingest', () => {
  it('is recorded in catalog.json and listed among the files', async () => {
    const read = await readCatalogManifest(first.catalogDir)
    if (!read.ok) throw new Error(read.message)
    const entry = textTaggerOf(read.manifest)
    expect(entry).toMatchObject({
      file: TEXT_TAGGER_MODEL_FILE,
      seed: 1,
      catalogWorks: 565,
      trainedWorks: 565,
    })
    expect(entry!.labels.keywords).toBeGreaterThan(100)
    expect(entry!.labels.concepts).toBeGreaterThan(100)
    expect(read.manifest.files).toContainEqual({
      path: TEXT_TAGGER_MODEL_FILE,
      bytes: entry!.bytes,
      rows: 565,
    })
  })

  it('is byte-identical for the same snapshot and seed', () => {
    const one = readFileSync(join(first.catalogDir, TEXT_TAGGER_MODEL_FILE))
    const two = readFileSync(join(second.catalogDir, TEXT_TAGGER_MODEL_FILE))
    expect(one.length).toBeGreaterThan(100_000)
    expect(one.equals(two)).toBe(true)
  })

  it('loads as a Tagger that finds a work’s own labels from its title', async () => {
    const tagger = await loadCatalogTagger(first.catalogDir)
    expect(tagger?.kinds).toEqual(['keywords', 'concepts', 'topics'])
    const work = readSampleRecords('works').find(
      (record) => record.title === 'Harnessing Photogrammetry to Create Alternative Views in Heritage',
    )!
    const concepts = await tagger!.tag({ title: String(work.title) }, 'concepts')
    const own = new Set((work.concepts as { id: string }[]).map((concept) => concept.id))
    expect(concepts.slice(0, 5).filter((tag) => own.has(tag.id)).length).toBeGreaterThanOrEqual(2)
  })

  it('trains on exactly maxTrainingWorks works when the catalog has more, the same ones for the same seed', async () => {
    const bounded = { catalogDir: first.catalogDir, maxTrainingWorks: 200 }
    const { model, catalogWorks } = await trainTextTagModel(bounded)
    expect(catalogWorks).toBe(565)
    expect(model.trainedWorks).toBe(200)
    expect(
      Buffer.from((await trainTextTagModel(bounded)).model.serialize()).equals(
        Buffer.from(model.serialize()),
      ),
    ).toBe(true)
    const other = await trainTextTagModel({ ...bounded, seed: 2 })
    expect(other.model.trainedWorks).toBe(200)
    expect(Buffer.from(other.model.serialize()).equals(Buffer.from(model.serialize()))).toBe(false)
    // A bound above the catalog's size trains on every work: the model ingest wrote.
    const all = await trainTextTagModel({ catalogDir: first.catalogDir, maxTrainingWorks: 565 })
    expect(
      Buffer.from(all.model.serialize()).equals(readFileSync(join(first.catalogDir, TEXT_TAGGER_MODEL_FILE))),
    ).toBe(true)
  }, 120_000)

  it('is left out when ingest is told so, and the catalog then has no tagger', async () => {
    // What is asked is the option's effect, whatever the snapshot: a few works rather than the sample, whose
    // whole ingest this took 13 s.
    const root = mkdtempSync(join(tmpdir(), 'oqlkit-no-tagger-'))
    try {
      const snapshotDir = join(root, 'snapshot')
      const works = Array.from({ length: 20 }, (_, at) => work(at + 1, '2025-01-01T00:00:00'))
      writeLegacySnapshot(snapshotDir, [{ entity: 'works', partition: '2025-01-01', content: works }])
      await ingestSnapshot({
        snapshotDir,
        outDir: join(root, 'c'),
        searchIndex: false,
        vectors: false,
        textTagger: false,
      })
      const read = await readCatalogManifest(join(root, 'c'))
      if (!read.ok) throw new Error(read.message)
      expect(read.manifest.entities.works.rowCount).toBe(20)
      expect(textTaggerOf(read.manifest)).toBeUndefined()
      expect(await loadCatalogTagger(join(root, 'c'))).toBeUndefined()
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
