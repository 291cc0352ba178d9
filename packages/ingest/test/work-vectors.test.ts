// The vectors ingest builds: every work with a title or an abstract gets one, the held-out works are not
// trained on, and the same catalog and seed give byte-identical files (model, vectors and list index), another
// seed another model. Built with `indexCatalogVectors` on a catalog without vectors.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { VectorIndexManifest } from '@oqlkit/catalog'
import {
  CATALOG_MANIFEST_FILE,
  isHeldOut,
  readCatalogManifest,
  VECTORS_DIR,
  vectorIndexOf,
} from '@oqlkit/catalog'
import { readLsaModel, seededIdFraction, textFromInvertedIndex, textTerms } from '@oqlkit/text-models'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indexCatalogVectors } from '../src/vectors/catalog-vector-indexer.ts'
import { readSampleRecords } from './support/sample-snapshot-records.ts'
import { copyOfSampleCatalog } from './support/shared-sample-catalog.ts'

let catalogDir: string
let dispose: (() => void) | undefined
beforeAll(async () => {
  // A copy of the run's sample catalog with its vectors taken out, as an ingest without vectors leaves it
  // (ingesting the sample again for this file cost ~6 s of CPU; the vectors read only the works' records).
  const copy = await copyOfSampleCatalog()
  catalogDir = copy.catalogDir
  dispose = copy.dispose
  const manifestPath = join(catalogDir, CATALOG_MANIFEST_FILE)
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    extensions: Record<string, unknown>
    files: { path: string }[]
  }
  delete manifest.extensions.vectors
  manifest.files = manifest.files.filter((file) => !file.path.startsWith(`${VECTORS_DIR}/`))
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  rmSync(join(catalogDir, VECTORS_DIR), { recursive: true, force: true })
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok || vectorIndexOf(read.manifest) !== undefined)
    throw new Error(`the copy of the sample catalog in ${catalogDir} still has vectors, or no manifest`)
}, 240_000)
afterAll(() => dispose?.())

const filesOf = (vectors: VectorIndexManifest) =>
  Object.fromEntries(vectors.files.map((file) => [file.path, readFileSync(join(catalogDir, file.path))]))

describe('work vectors of the built-in model', () => {
  it('are reproducible from the seed, byte for byte, embedded on worker threads or not, and another seed makes another model', async () => {
    const choice = { kind: 'lsa', seed: 7, holdOutFraction: 0.2 } as const
    // The sample is below the size that gets a list index: asked for one, so that it is compared too.
    const listIndex = { minRows: 0, maxScanShare: 1 }
    // One build embeds on the main thread in one batch, the other on two worker threads in batches of 100
    // works (each batch sent before the one before it is written, each several chunks).
    const first = (
      await indexCatalogVectors({ catalogDir, vectors: choice, listIndex, threads: 1, embeddingWorkers: 0 })
    ).vectors
    expect(first.listIndex?.file).toBe('vectors/works.ivf')
    const firstFiles = filesOf(first)
    const second = (
      await indexCatalogVectors({
        catalogDir,
        vectors: choice,
        listIndex,
        threads: 2,
        embeddingWorkers: 2,
        batchSize: 100,
      })
    ).vectors
    expect(second.embedder.modelId).toBe(first.embedder.modelId)
    const secondFiles = filesOf(second)
    expect(Object.keys(secondFiles).sort()).toEqual(Object.keys(firstFiles).sort())
    for (const [path, bytes] of Object.entries(firstFiles))
      expect(secondFiles[path]!.equals(bytes), `${path} is the same`).toBe(true)
    const other = (await indexCatalogVectors({ catalogDir, vectors: { ...choice, seed: 8 }, threads: 1 }))
      .vectors
    expect(other.embedder.modelId).not.toBe(first.embedder.modelId)
  }, 240_000)

  it('give every work with text a vector, and train on exactly the works not held out', async () => {
    const built = (
      await indexCatalogVectors({
        catalogDir,
        vectors: { kind: 'lsa', seed: 3, holdOutFraction: 0.2 },
        threads: 1,
      })
    ).vectors
    // Too few works for a list index by default: searched exactly.
    expect(built.listIndex).toBeUndefined()
    const works = readSampleRecords('works')
    const withText = works.filter(
      (work) =>
        String(work.display_name ?? '').trim() !== '' ||
        textFromInvertedIndex(work.abstract_inverted_index).trim() !== '',
    )
    expect(built.count).toBe(withText.length)
    // The int8 matrix: a row of `dimensions` bytes per work, beside the ids and norms.
    expect(readFileSync(join(catalogDir, built.matrixFile)).length).toBe(built.count * built.dimensions)
    const trained = withText.filter(
      (work) => !isHeldOut(String(work.id).replace('https://openalex.org/', ''), 3, 0.2),
    )
    expect(built.lsa?.trainingDocuments).toBe(trained.length)
    expect(trained.length).toBeLessThan(withText.length * 0.9)
    expect(built.lsa?.holdOutFraction).toBe(0.2)
    // A small catalog gets a quarter of its training works as dimensions (at most 256).
    expect(built.dimensions).toBe(Math.min(256, Math.floor(trained.length / 4)))
    const manifest = JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as {
      extensions: { vectors: VectorIndexManifest }
      files: { path: string }[]
    }
    expect(manifest.extensions.vectors.embedder.modelId).toBe(built.embedder.modelId)
    expect(manifest.files.map((file) => file.path)).toEqual(
      expect.arrayContaining(built.files.map((file) => file.path)),
    )
  }, 240_000)

  it('train on at most maxTrainingDocuments works, the seeded lowest keys of those not held out, and embed every work with a term it knows', async () => {
    const choice = { kind: 'lsa', seed: 3, holdOutFraction: 0.2, maxTrainingDocuments: 150 } as const
    const built = (await indexCatalogVectors({ catalogDir, vectors: choice, threads: 1 })).vectors
    const works = readSampleRecords('works')
    const shortId = (work: Record<string, unknown>) => String(work.id).replace('https://openalex.org/', '')
    const hasText = (work: Record<string, unknown>) =>
      String(work.display_name ?? '').trim() !== '' ||
      textFromInvertedIndex(work.abstract_inverted_index).trim() !== ''
    // Every work with a term the model knows gets a vector (a model trained on 150 works knows fewer terms).
    const { model } = await readLsaModel(
      {
        vocabulary: join(catalogDir, built.lsa!.vocabularyFile),
        projection: join(catalogDir, built.lsa!.projectionFile),
      },
      built.dimensions,
    )
    const textOf = (work: Record<string, unknown>) =>
      `${String(work.display_name ?? '')}\n\n${textFromInvertedIndex(work.abstract_inverted_index)}`
    const known = works.filter(
      (work) => hasText(work) && model.vectorizer.vectorizeTerms(textTerms(textOf(work))).termIds.length > 0,
    )
    expect(built.count).toBe(known.length)
    expect(built.count).toBeGreaterThan(works.filter(hasText).length * 0.95)
    // The 150 of lowest key among the works not held out; those without text are picked but not trained on.
    const picked = works
      .filter((work) => !isHeldOut(shortId(work), 3, 0.2))
      .map((work) => ({ work, key: seededIdFraction(`train/${shortId(work)}`, 3) }))
      .sort((a, b) => a.key - b.key)
      .slice(0, 150)
    expect(built.lsa?.trainingDocuments).toBe(picked.filter(({ work }) => hasText(work)).length)
    expect(built.lsa?.trainingDocuments).toBeGreaterThan(100)
    expect(built.dimensions).toBe(Math.floor(built.lsa!.trainingDocuments / 4))
    // The same bound and seed: the same model, byte for byte.
    const again = (await indexCatalogVectors({ catalogDir, vectors: choice, threads: 2 })).vectors
    expect(again.embedder.modelId).toBe(built.embedder.modelId)
    const all = (
      await indexCatalogVectors({ catalogDir, vectors: { ...choice, maxTrainingDocuments: 10_000 } })
    ).vectors
    expect(all.embedder.modelId).not.toBe(built.embedder.modelId)
  }, 240_000)

  it('refuses a number of embedding threads or a batch size it cannot use, saying which, and leaves the catalog as it was', async () => {
    const manifestBefore = readFileSync(join(catalogDir, CATALOG_MANIFEST_FILE), 'utf8')
    const choice = { kind: 'lsa', seed: 7 } as const
    for (const embeddingWorkers of [-1, 1.5, Number.NaN])
      await expect(indexCatalogVectors({ catalogDir, vectors: choice, embeddingWorkers })).rejects.toThrow(
        `embeddingWorkers must be a whole number of threads (0: the main thread), got ${embeddingWorkers}`,
      )
    for (const batchSize of [0, 2.5])
      await expect(indexCatalogVectors({ catalogDir, vectors: choice, batchSize })).rejects.toThrow(
        `batchSize must be a positive whole number of works, got ${batchSize}`,
      )
    expect(readFileSync(join(catalogDir, CATALOG_MANIFEST_FILE), 'utf8')).toBe(manifestBefore)
  })
})
