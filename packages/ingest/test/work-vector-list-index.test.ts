// The list index in a catalog: built with the vectors and recorded in catalog.json, used by the adapter's
// semantic search (the same works as the exact scan, or nearly), a catalog without it (built before it, or too
// small to get one) searched exactly, and a damaged index file refused: a short one when the catalog opens, a
// corrupt one on the first semantic search, each saying which file and what to do.
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import type { VectorIndexManifest } from '@oqlkit/catalog'
import { ivfIndexFileBytes } from '@oqlkit/catalog'
import { planQuery } from '@oqlkit/engine'
import { indexCatalogVectors } from '@oqlkit/ingest'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sharedSampleCatalog } from './support/shared-sample-catalog.ts'

let root: string
let catalogDir: string
let withIndex: VectorIndexManifest
let manifestText: string
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-list-index-'))
  catalogDir = join(root, 'catalog')
  cpSync(await sharedSampleCatalog(), catalogDir, { recursive: true })
  withIndex = (
    await indexCatalogVectors({
      catalogDir,
      vectors: { kind: 'lsa', seed: 1 },
      // The sample is far below the size that gets an index by default, and its few hundred vectors need
      // most of their rows scored: both limits lifted, so the index is built and used.
      listIndex: { minRows: 0, maxScanShare: 1 },
      threads: 1,
    })
  ).vectors
  manifestText = readFileSync(join(catalogDir, 'catalog.json'), 'utf8')
}, 240_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

const TEXTS = [
  'coral reef bleaching under ocean warming',
  'deep learning for protein structure prediction',
  'income inequality and economic growth',
  'tuberculosis treatment outcomes in children',
  'graphene electronic properties',
  'climate change effects on crop yields',
  'machine translation with neural networks',
  'cancer immunotherapy clinical trials',
]

type Adapter = Awaited<ReturnType<typeof createDuckDbAdapter>>

const semanticIds = async (adapter: Adapter, text: string, filter: Oqo['filter_rows'] = []) => {
  const planned = planQuery(
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'abstract.search.semantic', value: text, operator: 'has' },
        ...(filter ?? []),
      ],
    },
    { perPage: 10, select: ['id'] },
  )
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return (await adapter.queryRows(planned.plan)).rows.map((row) => String(row.id))
}

const withAdapter = async <T>(dir: string, use: (adapter: Adapter) => Promise<T>): Promise<T> => {
  const adapter = await createDuckDbAdapter({ catalogDir: dir })
  try {
    return await use(adapter)
  } finally {
    await adapter.close()
  }
}

/** The catalog as one built before the list index: no `listIndex` entry and no file. */
const withoutIndex = (): string => {
  const dir = join(root, `without-${Math.random().toString(36).slice(2)}`)
  cpSync(catalogDir, dir, { recursive: true })
  const manifest = JSON.parse(manifestText) as {
    files: { path: string }[]
    extensions: { vectors: Record<string, unknown> }
  }
  delete manifest.extensions.vectors.listIndex
  manifest.files = manifest.files.filter((file) => file.path !== withIndex.listIndex!.file)
  writeFileSync(join(dir, 'catalog.json'), JSON.stringify(manifest, null, 2))
  rmSync(join(dir, withIndex.listIndex!.file))
  return dir
}

describe('the list index in a catalog', () => {
  it('is built with the vectors, recorded in catalog.json with its calibration and its file', () => {
    const record = withIndex.listIndex!
    expect(record).toMatchObject({ kind: 'ivf', file: 'vectors/works.ivf', targetRecall: 0.97, seed: 1 })
    expect(record.recall).toBeGreaterThanOrEqual(0.97)
    expect(record.scanRows).toBeLessThanOrEqual(withIndex.count)
    const bytes = readFileSync(join(catalogDir, record.file)).length
    expect(bytes).toBe(ivfIndexFileBytes(withIndex.count, withIndex.dimensions, record.lists))
    expect(withIndex.files).toContainEqual({ path: record.file, bytes, rows: withIndex.count })
    expect(JSON.parse(manifestText).extensions.vectors.listIndex).toEqual(record)
  })

  it('finds what the exact scan of a catalog without it finds, with and without a filter', async () => {
    // A filter that keeps fewer works than a search scores: answered exactly.
    const narrow: Oqo['filter_rows'] = [{ column_id: 'publication_year', value: 2023, operator: '>' }]
    const answers = async (dir: string) =>
      withAdapter(dir, async (adapter) => {
        const found: { all: string[]; narrow: string[] }[] = []
        for (const text of TEXTS)
          found.push({
            all: await semanticIds(adapter, text),
            narrow: await semanticIds(adapter, text, narrow),
          })
        return found
      })
    const indexed = await answers(catalogDir)
    // A catalog without the index still answers, by the exact scan.
    const exact = await answers(withoutIndex())
    let shared = 0
    let total = 0
    exact.forEach((expected, index) => {
      expect(expected.all.length).toBeGreaterThan(0)
      shared += indexed[index]!.all.filter((id) => expected.all.includes(id)).length
      total += expected.all.length
      expect(indexed[index]!.narrow).toEqual(expected.narrow)
    })
    expect(shared / total).toBeGreaterThanOrEqual(0.9)
    expect(exact.some((expected) => expected.narrow.length > 0)).toBe(true)
  }, 120_000)

  it('refuses a short index file when the catalog opens, and a corrupt one on the first search', async () => {
    const shortDir = join(root, 'short')
    cpSync(catalogDir, shortDir, { recursive: true })
    truncateSync(join(shortDir, 'vectors/works.ivf'), 100)
    await expect(createDuckDbAdapter({ catalogDir: shortDir })).rejects.toThrow(
      /list index vectors\/works\.ivf holds 100 bytes where catalog\.json says \d+ lists .*build the vectors again/,
    )
    const corruptDir = join(root, 'corrupt')
    cpSync(catalogDir, corruptDir, { recursive: true })
    const bytes = readFileSync(join(corruptDir, 'vectors/works.ivf'))
    bytes.fill(0, 0, 8)
    writeFileSync(join(corruptDir, 'vectors/works.ivf'), bytes)
    await expect(withAdapter(corruptDir, (adapter) => semanticIds(adapter, TEXTS[0]!))).rejects.toThrow(
      /list index vectors\/works\.ivf does not start with OQLKIVF1; build the vectors again/,
    )
  }, 120_000)
})
