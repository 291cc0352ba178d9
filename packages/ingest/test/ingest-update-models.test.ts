// An update keeps what was trained and embedded: the LSA model and the tag model are copied from the catalog
// it updates, the works it kept as they were keep their vectors, and only the revised and new works are
// embedded, by the kept model. The vectors it writes are those of embedding every work with that model. Past
// a share of the catalog changed (or asked to), the models are trained again. The catalog updated is the
// bundled sample's (1,130 works, 548 with a title or an abstract), the run's shared one copied; the update
// revises 20 of its works, adds 3 and merges 2 away.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  type CatalogManifest,
  loadCatalogEmbedder,
  textTaggerOf,
  type VectorIndexManifest,
  vectorIndexOf,
} from '@oqlkit/catalog'
import type { Embedder } from '@oqlkit/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stageUnchangedWorks } from '../src/build/unchanged-works.ts'
import type { IngestSummary } from '../src/ingest-progress.ts'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { type BuildSession, connectionSession } from '../src/texts/build-session.ts'
import { openCatalogEntityRows } from '../src/texts/catalog-entity-rows.ts'
import { MODEL_RETRAIN_SHARE, modelReuse } from '../src/texts/model-reuse-policy.ts'
import { buildWorkVectors } from '../src/vectors/work-vector-builder.ts'
import { readSampleRecords } from './support/sample-snapshot-records.ts'
import { sharedSampleCatalog } from './support/shared-sample-catalog.ts'
import { type FixtureRecord, partsOf, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

const UPDATE_DATE = '2026-06-01'
const REVISED = 20
const ADDED = 3
const MERGED = 2

const works = readSampleRecords('works') as unknown as FixtureRecord[]
const shortId = (work: FixtureRecord) => work.id.replace('https://openalex.org/', '')

/** The works the update from `before` (in `beforeDir`) to `after` (in `catalog`) kept as they were. */
const unchangedWorksOf = async (
  session: BuildSession,
  catalog: string,
  after: CatalogManifest,
  before: CatalogManifest,
  beforeDir: string,
) =>
  stageUnchangedWorks(
    session,
    (await openCatalogEntityRows(session, catalog, after)).of('works'),
    after.entities.works,
    {
      manifest: before,
      records: new Map(),
      outDir: beforeDir,
    },
  )

/** 20 works retitled, 3 new ones, and 2 more merged into the first. */
function writeUpdate(dir: string): void {
  const revised = works.slice(0, REVISED).map((work) => ({
    ...work,
    title: `${String(work.title)} revised`,
    display_name: `Genome sequencing of ${String(work.display_name)}`,
    updated_date: `${UPDATE_DATE}T08:00:00.000000`,
  }))
  const added = works.slice(REVISED, REVISED + ADDED).map((work, at) => {
    const id = `https://openalex.org/W900000000${at + 1}`
    return { ...work, id, ids: { openalex: id }, doi: null, updated_date: `${UPDATE_DATE}T09:00:00.000000` }
  })
  const [into, ...merged] = [0, 40, 41].map((at) => shortId(works[at]!))
  writeLegacySnapshot(dir, partsOf('works', [...revised, ...added]), {
    works: {
      [`${UPDATE_DATE}.csv`]: `merge_date,id,merge_into_id\n${merged.map((id) => `${UPDATE_DATE},${id},${into}`).join('\n')}\n`,
    },
  })
}

const manifestOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as CatalogManifest
const vectorsOf = (dir: string): VectorIndexManifest => vectorIndexOf(manifestOf(dir))!

/** `use` with a build session over a DuckDB of its own. */
async function withSession<T>(use: (session: BuildSession) => Promise<T>): Promise<T> {
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  try {
    return await use(connectionSession(connection))
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/** The vectors of every work of the catalog embedded again by `embedder`, written to `outDir`. */
const embedEveryWork = (catalogDir: string, outDir: string, embedder: Embedder, model: string) =>
  withSession((session) =>
    buildWorkVectors({
      session,
      catalogDir,
      outDir,
      vectors: { kind: 'openai-compatible', embedder, model },
      listIndex: false,
    }),
  )

let root: string
let catalog: string
let before: CatalogManifest
let after: CatalogManifest
let taggerBefore: Buffer
let updateSummary: IngestSummary
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-update-models-'))
  catalog = join(root, 'catalog')
  writeUpdate(join(root, 'update'))
  // A catalog with vectors and a tag model: the run's shared sample catalog, copied rather than built again
  // (the updates below change it). Its search index is left out by the updates (`searchIndex: false`), as
  // it is not this file's subject.
  const shared = await sharedSampleCatalog()
  cpSync(shared, catalog, { recursive: true })
  before = manifestOf(catalog)
  // The catalog as it was, for the builder-level test of kept served vectors below.
  cpSync(shared, join(root, 'before'), { recursive: true })
  taggerBefore = readFileSync(join(catalog, textTaggerOf(before)!.file))
  updateSummary = await ingestSnapshot({
    snapshotDir: join(root, 'update'),
    outDir: catalog,
    searchIndex: false,
  })
  after = manifestOf(catalog)
}, 240_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

// Revised and new works in the new catalog, revised and merged ones out of the old.
const CHANGED = REVISED + ADDED + REVISED + MERGED

/**
 * A stand-in for an embeddings server (the real client needs a server this machine cannot run): a vector from
 * the text's character codes, deterministic, and a count of the texts it was sent.
 */
function standInEmbedder(): Embedder & { sent: string[] } {
  const sent: string[] = []
  return {
    modelId: 'openai:stand-in',
    dimensions: 8,
    sent,
    embed: async (texts) => {
      sent.push(...texts)
      return texts.map((text) => {
        const vector = new Float32Array(8)
        for (let at = 0; at < text.length; at++) vector[at % 8]! += (text.charCodeAt(at) % 13) - 6
        return vector
      })
    },
  }
}

describe('vectors kept from an embeddings server (a stand-in server, the builder alone)', () => {
  it('sends the server only the revised and new works, and writes what embedding every work gives', async () => {
    const vectors = { kind: 'openai-compatible', embedder: standInEmbedder(), model: 'stand-in' } as const
    const beforeDir = join(root, 'before')
    // The catalog before the update, its vectors made by the server…
    const previous = await withSession((session) =>
      buildWorkVectors({ session, catalogDir: beforeDir, vectors, listIndex: false }),
    )
    expect(vectors.embedder.sent.length).toBe(previous.count)
    // …then the updated catalog's, starting from them.
    const embedder = standInEmbedder()
    const updated = await withSession(async (session) =>
      buildWorkVectors({
        session,
        catalogDir: catalog,
        outDir: join(root, 'served'),
        vectors: { ...vectors, embedder },
        listIndex: false,
        update: {
          catalogDir: beforeDir,
          vectors: previous,
          unchanged: await unchangedWorksOf(session, catalog, after, before, beforeDir),
        },
      }),
    )
    const withText = works
      .slice(REVISED, REVISED + ADDED)
      .filter((work) => String(work.display_name ?? '').trim() !== '' || work.abstract_inverted_index != null)
    expect(embedder.sent.length).toBe(REVISED + withText.length)
    expect(embedder.sent.filter((text) => text.startsWith('Genome sequencing of'))).toHaveLength(REVISED)

    const fresh = await embedEveryWork(catalog, join(root, 'served-fresh'), standInEmbedder(), 'stand-in')
    expect(updated.count).toBe(fresh.count)
    const matrix = readFileSync(join(root, 'served', updated.matrixFile))
    expect(matrix.equals(readFileSync(join(root, 'served-fresh', fresh.matrixFile)))).toBe(true)
  }, 120_000)
})

describe('the list index judgement of a kept model (a stand-in server, the builder alone)', () => {
  it('is kept by an update that keeps the model, and made again when the model is trained again', async () => {
    const beforeDir = join(root, 'before')
    const vectors = { kind: 'openai-compatible', embedder: standInEmbedder(), model: 'stand-in' } as const
    // No share of the rows is small enough: judged, and declined.
    const previous = await withSession((session) =>
      buildWorkVectors({
        session,
        catalogDir: beforeDir,
        vectors,
        listIndex: { minRows: 0, maxScanShare: 0 },
      }),
    )
    expect(previous.listIndex).toBeUndefined()
    expect(previous.listIndexDeclined?.scanShare).toBeGreaterThan(0)
    // Limits under which a judgement made again would build an index.
    const update = (outDir: string, retrain: boolean) =>
      withSession(async (session) =>
        buildWorkVectors({
          session,
          catalogDir: catalog,
          outDir: join(root, outDir),
          vectors: { ...vectors, embedder: standInEmbedder() },
          listIndex: { minRows: 0, maxScanShare: 1 },
          update: {
            catalogDir: beforeDir,
            vectors: previous,
            retrain,
            unchanged: await unchangedWorksOf(session, catalog, after, before, beforeDir),
          },
        }),
      )
    const kept = await update('judgement-kept', false)
    expect(kept.listIndex).toBeUndefined()
    expect(kept.listIndexDeclined).toEqual(previous.listIndexDeclined)
    const retrained = await update('judgement-again', true)
    expect(retrained.listIndexDeclined).toBeUndefined()
    expect(retrained.listIndex?.kind).toBe('ivf')
  }, 120_000)
})

describe('an update of a catalog with vectors and a tag model', () => {
  it('keeps the LSA model and records the works changed since it was trained', () => {
    const was = vectorIndexOf(before)!
    const is = vectorIndexOf(after)!
    expect(is.embedder.modelId).toBe(was.embedder.modelId)
    expect(is.lsa).toEqual({ ...was.lsa, worksChangedSince: CHANGED })
    expect(updateSummary.modelsKept).toEqual({ lsa: CHANGED, textTagger: CHANGED })
    for (const file of [was.lsa!.vocabularyFile, was.lsa!.projectionFile])
      expect(readFileSync(join(catalog, file)).length).toBe(before.files.find((f) => f.path === file)!.bytes)
  })

  it('keeps the tag model, byte for byte', () => {
    const tagger = textTaggerOf(after)!
    expect(tagger).toEqual({ ...textTaggerOf(before), worksChangedSince: CHANGED })
    expect(readFileSync(join(catalog, tagger.file)).equals(taggerBefore)).toBe(true)
  })

  it('writes the vectors that embedding every work with the kept model gives, byte for byte', async () => {
    const vectors = vectorsOf(catalog)
    const embedder = (await loadCatalogEmbedder(catalog, vectors))!
    const fresh = await embedEveryWork(catalog, join(root, 'fresh'), embedder, 'the kept LSA model')
    expect(fresh.count).toBe(vectors.count)
    const matrix = readFileSync(join(catalog, vectors.matrixFile))
    expect(matrix.equals(readFileSync(join(root, 'fresh', fresh.matrixFile)))).toBe(true)
    // The revised works' rows moved: their text changed, so their vectors did.
    const instance = await createDuckDbInstance()
    const connection = await instance.connect()
    try {
      const differing = await connection.runAndReadAll(
        `SELECT count(*) AS n FROM (SELECT id, norm FROM read_parquet($1) EXCEPT ALL SELECT id, norm FROM read_parquet($2))`,
        [join(catalog, vectors.file), join(root, 'fresh', fresh.file)],
      )
      expect(Number(differing.getRowObjectsJson()[0]!.n)).toBe(0)
    } finally {
      connection.closeSync()
      instance.closeSync()
    }
  }, 120_000)

  it('trains both models again when asked', async () => {
    writeLegacySnapshot(join(root, 'again'), partsOf('works', [{ ...works[5]!, updated_date: '2027-01-01' }]))
    const summary = await ingestSnapshot({
      snapshotDir: join(root, 'again'),
      outDir: catalog,
      searchIndex: false,
      retrainModels: true,
    })
    expect(summary.modelsKept).toEqual({})
    const manifest = manifestOf(catalog)
    expect(vectorIndexOf(manifest)!.lsa!.worksChangedSince).toBeUndefined()
    expect(vectorIndexOf(manifest)!.lsa!.trainingDocuments).toBeGreaterThan(500)
    expect(textTaggerOf(manifest)!.worksChangedSince).toBeUndefined()
  }, 120_000)
})

describe('modelReuse', () => {
  it('keeps a model until the works changed since training pass the share, counting across updates', () => {
    expect(modelReuse(undefined, 45, 1000, false)).toEqual({ worksChangedSince: 45 })
    expect(modelReuse(150, 50, 1000, false)).toEqual({ worksChangedSince: 200 })
    expect(modelReuse(150, 51, 1000, false)).toBeUndefined()
    expect(MODEL_RETRAIN_SHARE * 1000).toBe(200)
    expect(modelReuse(undefined, 1, 1000, true)).toBeUndefined()
  })
})
