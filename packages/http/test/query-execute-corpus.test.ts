import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import type { StorageAdapter } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { ingestSnapshot } from '@oqlkit/ingest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getJson, post } from './support/query-requests.ts'
import { sampleRecords, shortOf } from './support/sample-records.ts'

// Rule 7: the OQO `corpus` picks which works a query runs over: `core` (the default: works outside the
// expansion set, is_xpac false), `expansion`, or `all`; the classic form takes `corpus=`. The bundled sample
// has no expansion works, so this file builds a small catalog from sample works, a third marked is_xpac.

interface Envelope {
  meta: { count: number; cost_usd: number; x_query: { oql: string | null; url: string | null } }
  results: { id: string }[]
}

const works = sampleRecords('works')
  .slice(0, 15)
  .map((work, index): Record<string, unknown> & { is_xpac: boolean } => ({
    ...work,
    is_xpac: index % 3 === 0,
  }))
const idsWhere = (keep: (work: (typeof works)[number]) => boolean) =>
  works
    .filter(keep)
    .map((work) => shortOf(work.id))
    .sort()

let folder: string
let adapter: StorageAdapter
let app: ReturnType<typeof createApp>

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'oqlkit-query-corpus-'))
  const part = join(folder, 'snapshot', 'works', 'updated_date=2026-01-01')
  mkdirSync(part, { recursive: true })
  const gz = gzipSync(`${works.map((work) => JSON.stringify(work)).join('\n')}\n`)
  writeFileSync(join(part, 'part_000.gz'), gz)
  const meta = { content_length: gz.byteLength, record_count: works.length }
  writeFileSync(
    join(folder, 'snapshot', 'works', 'manifest'),
    JSON.stringify({
      entries: [{ url: 's3://openalex/data/works/updated_date=2026-01-01/part_000.gz', meta }],
      meta,
    }),
  )
  await ingestSnapshot({
    snapshotDir: join(folder, 'snapshot'),
    outDir: join(folder, 'catalog'),
    mode: 'replace',
    // The corpus is a filter of the works table: no search index, vectors or tag model is read here.
    searchIndex: false,
    vectors: false,
    textTagger: false,
    threads: 1,
  })
  adapter = await createDuckDbAdapter({ catalogDir: join(folder, 'catalog'), threads: 1 })
  app = createApp({ adapter, catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} } })
}, 120_000)

afterAll(async () => {
  await adapter?.close()
  rmSync(folder, { recursive: true, force: true })
})

const idsOf = (body: Envelope) => body.results.map((row) => shortOf(row.id)).sort()

const answer = async (request: Promise<{ status: number; body: Envelope }>) => {
  const { status, body } = await request
  expect(status, JSON.stringify(body)).toBe(200)
  return body
}

describe('the corpus of a works query', () => {
  const cases = [
    ['core', undefined, (work: (typeof works)[number]) => work.is_xpac === false],
    ['core', 'core', (work: (typeof works)[number]) => work.is_xpac === false],
    ['expansion', 'expansion', (work: (typeof works)[number]) => work.is_xpac === true],
    ['all', 'all', () => true],
  ] as const

  it('the catalog has works of both corpora', () => {
    expect(idsWhere((work) => work.is_xpac).length).toBe(5)
    expect(idsWhere((work) => !work.is_xpac).length).toBe(10)
  })

  it.each(cases)('%s (corpus %s) through the OQO, OQL and the classic form', async (_, corpus, keep) => {
    const oqo = corpus === undefined ? { get_rows: 'works' } : { get_rows: 'works', corpus }
    const expected = idsWhere(keep)
    const oql =
      corpus === undefined || corpus === 'core'
        ? 'works'
        : corpus === 'all'
          ? 'works (all corpora)'
          : 'works (expansion corpus)'
    const classic = `/works?per_page=100${corpus === undefined ? '' : `&corpus=${corpus}`}`
    const bodies = [
      await answer(post(app, '/', { oqo, per_page: 100 })),
      await answer(getJson(app, `/?oqo=${encodeURIComponent(JSON.stringify(oqo))}&per_page=100`)),
      await answer(post(app, '/', { oql, per_page: 100 })),
      await answer(getJson(app, classic)),
    ]
    for (const body of bodies) {
      expect(body.meta.count).toBe(expected.length)
      expect(idsOf(body)).toEqual(expected)
    }
    // The classic URL of an OQO carries its corpus (core is the default and is not written).
    const url = bodies[0]!.meta.x_query.url ?? ''
    if (corpus === 'expansion' || corpus === 'all') expect(url).toContain(`corpus=${corpus}`)
    else expect(url).not.toContain('corpus')
  })

  it('include_xpac=true is the older name of corpus=all', async () => {
    const body = await answer(getJson(app, '/works?include_xpac=true&per_page=100'))
    expect(idsOf(body)).toEqual(idsWhere(() => true))
  })

  it('an unknown corpus is refused', async () => {
    const response = await post(app, '/', { oqo: { get_rows: 'works', corpus: 'everything' } })
    expect(response.status).toBe(400)
    const classic = await getJson(app, '/works?corpus=everything')
    expect(classic.status).toBe(400)
  })
})
