// Semantic search over HTTP (`search.semantic=`, OQL `is similar to`, OQO `.search.semantic`) on the bundled
// sample, whose catalog ingest builds with vectors of the built-in LSA model: the ranking, how filters,
// paging, cursors, sorting and groups work on the (at most 50) nearest works, every bad input, the cost, a
// catalog without vectors, and a catalog whose vectors came from an embeddings server (a real local server
// speaking the OpenAI API stands in for one) — including that server going down.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CatalogOpenError, createDuckDbAdapter, type DuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { ENDPOINT_COSTS_USD, SEMANTIC_SEARCH_LIMITS, toMicroUsd } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { indexCatalogVectors } from '@oqlkit/ingest'
import { createOpenAiEmbedder, textFromInvertedIndex } from '@oqlkit/text-models'
import { type StandInServer, startStandInServer } from '@oqlkit/text-models/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, NOON, rateLimitOf, STORE_KINDS, useMeteredApp } from './support/metered-app.ts'
import { getJson, post } from './support/query-requests.ts'
import { useSampleApp } from './support/sample-app.ts'
import { coreWorks, type Row } from './support/sample-records.ts'

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

interface Work {
  readonly id: string
  readonly relevance_score?: number
  readonly publication_year?: number
}
interface Envelope {
  readonly meta: {
    count: number
    next_cursor?: string | null
    cost_usd: number
    groups_count?: number | null
  }
  readonly results: Work[]
  readonly group_by: { key: string; count: number }[]
}
interface Refusal {
  readonly code: string
  readonly message: string
  readonly parameter?: string
}

const get = (path: string) => getJson<Envelope>(sample.app, path)
const refusal = (body: unknown) => body as Refusal
const semantic = (text: string, rest = '') => `/works?search.semantic=${encodeURIComponent(text)}${rest}`

/** The text a work is embedded from: title, blank line, abstract. */
const textOf = (work: Row): string => {
  const title = String(work.display_name ?? '').trim()
  const abstract = textFromInvertedIndex(work.abstract_inverted_index).trim()
  return abstract === '' ? title : `${title}\n\n${abstract}`
}
const withAbstracts = coreWorks().filter(
  (work) => textFromInvertedIndex(work.abstract_inverted_index).split(' ').length > 40,
)
const QUERY = 'coral reef conservation and marine protected areas'

describe('search.semantic on /works (built-in LSA vectors)', () => {
  it('says it can search by meaning', () => {
    expect(sample.adapter.capabilities.semanticSearch).toBe(true)
  })

  it('ranks a work first when queried with its own title and abstract', async () => {
    const probes = withAbstracts.slice(0, 12)
    expect(probes.length).toBe(12)
    for (const work of probes) {
      const { status, body } = await get(
        semantic(textOf(work).slice(0, 2000), '&per_page=3&select=id,relevance_score'),
      )
      expect(status).toBe(200)
      expect(body.results[0]!.id, `query with the text of ${work.id}`).toBe(work.id)
      // Not 1: the stored vector is int8, and a text over 2,000 characters is cut for the query.
      expect(body.results[0]!.relevance_score).toBeGreaterThan(0.5)
      expect(body.results[0]!.relevance_score).toBeGreaterThan(body.results[1]!.relevance_score!)
    }
  })

  it('returns at most 50 works, best first, relevance_score the cosine', async () => {
    const { status, body } = await get(semantic(QUERY, '&per_page=100&select=id,relevance_score'))
    expect(status).toBe(200)
    expect(body.meta.count).toBe(SEMANTIC_SEARCH_LIMITS.maxResults)
    expect(body.results).toHaveLength(50)
    expect(body.meta.cost_usd).toBe(ENDPOINT_COSTS_USD.semantic)
    const scores = body.results.map((work) => work.relevance_score!)
    for (const score of scores) expect(Math.abs(score)).toBeLessThanOrEqual(1 + 1e-6)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
    expect(new Set(body.results.map((work) => work.id)).size).toBe(50)
  })

  it('finds works about the topic asked for', async () => {
    const { body } = await get(semantic(QUERY, '&per_page=5&select=id,display_name'))
    const titles = body.results.map((work) => String((work as unknown as Row).display_name).toLowerCase())
    expect(
      titles.some((title) => /coral|reef|marine/.test(title)),
      titles.join(' | '),
    ).toBe(true)
  })

  it('takes the nearest works among those the filters keep', async () => {
    const all = await get(semantic(QUERY, '&per_page=50&select=id,relevance_score,publication_year'))
    // A year that splits the unfiltered answer: some of it passes the filter, some does not.
    const years = all.body.results.map((work) => work.publication_year ?? 0).sort((a, b) => a - b)
    const year = years[Math.floor(years.length / 2)]!
    const recent = await get(
      semantic(
        QUERY,
        `&filter=publication_year:>${year}&per_page=50&select=id,relevance_score,publication_year`,
      ),
    )
    expect(recent.status).toBe(200)
    expect(recent.body.results.length).toBeGreaterThan(0)
    for (const work of recent.body.results) expect(work.publication_year).toBeGreaterThan(year)
    // Every work of the unfiltered top 50 that passes the filter is in the filtered answer, with its score.
    const filteredScores = new Map(recent.body.results.map((work) => [work.id, work.relevance_score]))
    const kept = all.body.results.filter((work) => (work.publication_year ?? 0) > year)
    expect(kept.length).toBeGreaterThan(0)
    expect(kept.length).toBeLessThan(50)
    for (const work of kept) expect(filteredScores.get(work.id)).toBe(work.relevance_score)
    // And the filter fills the 50 from further down, when there are enough such works.
    const recentTotal = (await get(`/works?filter=publication_year:>${year}&per_page=1`)).body.meta.count
    expect(recent.body.meta.count).toBe(Math.min(50, recentTotal))
  })

  it('pages through the 50 by number and by cursor, and ends there', async () => {
    const whole = (await get(semantic(QUERY, '&per_page=50&select=id'))).body.results.map((work) => work.id)
    const second = await get(semantic(QUERY, '&per_page=25&page=2&select=id'))
    expect(second.body.results.map((work) => work.id)).toEqual(whole.slice(25, 50))
    const third = await get(semantic(QUERY, '&per_page=25&page=3&select=id'))
    expect(third.status).toBe(200)
    expect(third.body.results).toEqual([])
    expect(third.body.meta.count).toBe(50)
    const cursored: string[] = []
    let cursor: string | null | undefined = '*'
    while (cursor !== null && cursor !== undefined) {
      const page: Envelope = (
        await get(semantic(QUERY, `&per_page=20&select=id&cursor=${encodeURIComponent(cursor)}`))
      ).body
      cursored.push(...page.results.map((work) => work.id))
      cursor = page.results.length === 0 ? null : page.meta.next_cursor
    }
    expect(cursored).toEqual(whole)
  })

  it('sorts and groups the nearest works, not the catalog', async () => {
    const whole = (await get(semantic(QUERY, '&per_page=50&select=id'))).body.results.map((work) => work.id)
    const byYear = await get(
      semantic(QUERY, '&per_page=50&sort=publication_year:desc&select=id,publication_year'),
    )
    expect(byYear.status).toBe(200)
    expect(new Set(byYear.body.results.map((work) => work.id))).toEqual(new Set(whole))
    const years = byYear.body.results.map((work) => work.publication_year ?? -1)
    expect([...years].sort((a, b) => b - a)).toEqual(years)
    const groups = await get(semantic(QUERY, '&group_by=publication_year&per_page=100'))
    expect(groups.status).toBe(200)
    expect(groups.body.meta.count).toBe(50)
    expect(groups.body.group_by.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(50)
  })

  it('answers the same in OQL (is similar to), OQO and the classic URL', async () => {
    const classic = (await get(semantic(QUERY, '&per_page=10&select=id'))).body.results.map((work) => work.id)
    const oql = `works where abstract is similar to ("${QUERY}")`
    const byOql = await get(`/?oql=${encodeURIComponent(oql)}&per_page=10&select=id`)
    expect(byOql.status).toBe(200)
    expect(byOql.body.results.map((work) => work.id)).toEqual(classic)
    const oqo = {
      get_rows: 'works',
      filter_rows: [{ column_id: 'abstract.search.semantic', value: QUERY, operator: 'has' }],
    }
    const byOqo = await post<Envelope>(sample.app, '/', { oqo, per_page: 10, select: ['id'] })
    expect(byOqo.status).toBe(200)
    expect(byOqo.body.results.map((work) => work.id)).toEqual(classic)
    expect(byOqo.body.meta.cost_usd).toBe(ENDPOINT_COSTS_USD.semantic)
  })

  it('takes a query of exactly 2,000 characters', async () => {
    const text = `${QUERY} `.repeat(60).slice(0, 2000)
    expect([...text].length).toBe(2000)
    const { status, body } = await get(semantic(text, '&per_page=1&select=id'))
    expect(status).toBe(200)
    expect(body.results).toHaveLength(1)
  })

  it('answers a query with no word the model knows with no works', async () => {
    const { status, body } = await get(semantic('qzxv wjkq', '&select=id'))
    expect(status).toBe(200)
    expect(body.meta.count).toBe(0)
    expect(body.results).toEqual([])
  })
})

describe('bad semantic searches are refused with a JSON 400 that says why', () => {
  const oqoWith = (filter_rows: unknown) => ({ oqo: { get_rows: 'works', filter_rows } })
  const leaf = (value: string, column_id = 'abstract.search.semantic') => ({
    column_id,
    value,
    operator: 'has',
  })

  it.each([
    ['an empty text', semantic(''), 'empty_value', /empty/],
    ['a blank text', semantic('   '), 'empty_value', /empty/],
    ['a text over 2,000 characters', semantic('a'.repeat(2001)), 'semantic_query_too_long', /2000/],
    ['another entity', '/authors?search.semantic=cancer', 'unknown_parameter', /works only/],
    [
      'a full-text search beside it',
      semantic('cancer', '&search=tumor'),
      'invalid_semantic_search',
      /full-text/,
    ],
    [
      'a full-text filter beside it',
      semantic('cancer', '&filter=title.search:tumor'),
      'invalid_semantic_search',
      /full-text/,
    ],
  ])('%s', async (_, path, code, message) => {
    const { status, headers, body } = await get(path)
    expect(status).toBe(400)
    expect(headers.get('content-type')).toContain('application/json')
    expect(refusal(body).code).toBe(code)
    expect(refusal(body).message).toMatch(message)
  })

  it('counts characters, not bytes: 2,001 accented letters in OQL', async () => {
    const { status, body } = await post(sample.app, '/', {
      oql: `works where abstract is similar to ("${'é'.repeat(2001)}")`,
    })
    expect(status).toBe(400)
    expect(refusal(body).code).toBe('semantic_query_too_long')
    expect(refusal(body).message).toMatch(/2001 characters; at most 2000/)
  })

  it.each([
    ['negated', [{ ...leaf('cancer'), is_negated: true }]],
    ['in an OR', [{ join: 'or', filters: [leaf('cancer'), { column_id: 'publication_year', value: 2020 }] }]],
    ['twice', [leaf('cancer'), leaf('tumour growth')]],
  ])('an OQO with a semantic search %s', async (_, rows) => {
    const { status, body } = await post(sample.app, '/', oqoWith(rows))
    expect(status).toBe(400)
    const errors =
      (body as { validation?: { errors?: { code: string; message: string }[] } }).validation?.errors ?? []
    expect(errors.map((error) => error.code)).toContain('invalid_semantic_search')
  })

  it('an OQO semantic search on authors', async () => {
    const { status, body } = await post(sample.app, '/', {
      oqo: { get_rows: 'authors', filter_rows: [leaf('cancer', 'semantic.search')] },
    })
    expect(status).toBe(400)
    expect(refusal(body).code).toBe('invalid_column')
    expect(refusal(body).message).toMatch(/'semantic.search' is not a column of authors/)
  })
})

const metered = STORE_KINDS.find((kind) => !kind.skip)!
describe(`the price of a semantic search (${metered.name})`, () => {
  const app = useMeteredApp(metered, sample)

  it('charges $0.01 for a semantic search, nothing for a refused one', async () => {
    const key = await app.provision({ userId: 'semantic' })
    const used = async () => toMicroUsd((await rateLimitOf(app, { key })).rate_limit.daily_used_usd)
    const before = await used()
    const answer = await call(app, `${semantic(QUERY, '&per_page=1')}&api_key=${key}`)
    expect(answer.status).toBe(200)
    expect(toMicroUsd(Number(answer.headers.get('x-ratelimit-credits-used')))).toBe(toMicroUsd(0.01))
    expect((answer.body.meta as { cost_usd: number }).cost_usd).toBe(0.01)
    expect(await used()).toBe(before + toMicroUsd(0.01))
    const refused = await call(app, `${semantic('a'.repeat(2001))}&api_key=${key}`)
    expect(refused.status).toBe(400)
    expect(await used()).toBe(before + toMicroUsd(0.01))
  })

  it('has no per-second limit of its own: only /text has one, semantic search the general rate', async () => {
    const key = await app.provision({ userId: 'fast-semantic' })
    app.clock.now = NOON + 30_000
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(app, `${semantic(QUERY, '&per_page=1')}&api_key=${key}`)),
    )
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
    // Each was charged, in the same second.
    expect(toMicroUsd((await rateLimitOf(app, { key })).rate_limit.daily_used_usd)).toBe(4 * toMicroUsd(0.01))
  })
})

describe('catalogs without usable vectors', () => {
  let scratch: string
  let server: StandInServer
  const opened: DuckDbAdapter[] = []
  const appOver = (adapter: DuckDbAdapter) => {
    opened.push(adapter)
    return createApp({ adapter, catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} } })
  }
  const copyOfSample = (name: string): string => {
    const dir = join(scratch, name)
    cpSync(sample.catalogDir, dir, { recursive: true })
    return dir
  }

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'oqlkit-semantic-'))
    server = await startStandInServer(48)
  })
  afterAll(async () => {
    for (const adapter of opened) await adapter.close()
    await server?.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('a catalog without vectors answers 501 not_supported, saying so', async () => {
    const dir = copyOfSample('no-vectors')
    const manifestPath = join(dir, 'catalog.json')
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { extensions: Record<string, unknown> }
    delete manifest.extensions.vectors
    writeFileSync(manifestPath, JSON.stringify(manifest))
    const adapter = await createDuckDbAdapter({ catalogDir: dir, threads: 1 })
    expect(adapter.capabilities.semanticSearch).toBe(false)
    const { status, body } = await getJson(appOver(adapter), semantic('frogs'))
    expect(status).toBe(501)
    expect(refusal(body).code).toBe('not_supported')
    expect(refusal(body).message).toMatch(/no vectors/)
  })

  it('vectors from an embeddings server: searched through its client, refused without it or with another model', async () => {
    const dir = copyOfSample('served')
    const embedder = await createOpenAiEmbedder({ url: server.url, model: 'stand-in', batchSize: 100 })
    const built = await indexCatalogVectors({
      catalogDir: dir,
      vectors: { kind: 'openai-compatible', embedder, model: 'stand-in' },
      threads: 1,
    })
    expect(built.vectors.embedder).toMatchObject({
      kind: 'openai-compatible',
      model: 'stand-in',
      dimensions: 48,
    })
    expect(built.vectors.count).toBeGreaterThan(400)
    // Every text went through the server, in batches of at most 100.
    expect(
      server.requests.every((request) => request.input.length <= 100 && request.model === 'stand-in'),
    ).toBe(true)

    const app = appOver(await createDuckDbAdapter({ catalogDir: dir, threads: 1, embedder }))
    const target = withAbstracts[3]!
    const found = await getJson<Envelope>(app, semantic(textOf(target), '&per_page=1&select=id'))
    expect(found.status).toBe(200)
    expect(found.body.results[0]!.id).toBe(target.id)

    // The server goes wrong: the search fails with 503, saying what happened.
    server.mode = 'error-500'
    const down = await getJson(app, semantic('coral reefs'))
    expect(down.status).toBe(503)
    expect(refusal(down.body).code).toBe('embeddings_unavailable')
    expect(refusal(down.body).message).toMatch(/refused the request with 500/)
    server.mode = 'ok'

    // Opened without a client of the server: semantic search is off, and says how to turn it on.
    const without = appOver(await createDuckDbAdapter({ catalogDir: dir, threads: 1 }))
    const off = await getJson(without, semantic('coral reefs'))
    expect(off.status).toBe(501)
    expect(refusal(off.body).message).toMatch(/--embeddings-url/)

    // Opened with a client of another model: refused at open.
    const other = await createOpenAiEmbedder({ url: server.url, model: 'other-model' })
    await expect(createDuckDbAdapter({ catalogDir: dir, threads: 1, embedder: other })).rejects.toThrow(
      CatalogOpenError,
    )
    // And a catalog of LSA vectors refuses the server's model too.
    await expect(
      createDuckDbAdapter({ catalogDir: sample.catalogDir, threads: 1, embedder }),
    ).rejects.toThrow(/were made by lsa-/)
  }, 120_000)
})
