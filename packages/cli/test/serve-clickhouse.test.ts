// `oqlkit serve --clickhouse URL`: the API served from a catalog loaded into ClickHouse (`oqlkit load`), as a
// real process, answering as a server of the same catalog folder on DuckDB does. ClickHouse is the engine
// itself (chdb) behind the test stand-in for its HTTP interface, in this test's process; two servers share
// it, as any number may share one ClickHouse.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  chdbInstalled,
  type SharedClickHouseSample,
  sharedClickHouseSample,
} from '@oqlkit/adapter-clickhouse/test-support'
import { runCli } from '@oqlkit/cli'
import { ingestCoreFixture, partsOf, sharedSampleCatalog, work } from '@oqlkit/ingest/test-support'
import { startStandInServer } from '@oqlkit/text-models/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServerProcess, startServerProcess } from './support/server-process.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-serve-clickhouse-'))
let clickhouse: SharedClickHouseSample
let duckdb: ServerProcess
let served: ServerProcess[] = []

beforeAll(async () => {
  const catalogDir = join(scratch, 'catalog')
  cpSync(await sharedSampleCatalog(), catalogDir, { recursive: true })
  // The sample in the worker's shared stand-in (loaded once per run); the servers only read it.
  clickhouse = await sharedClickHouseSample()
  duckdb = await startServerProcess(catalogDir, ['--no-collections'])
  served = await Promise.all(
    [1, 2].map((n) =>
      startServerProcess(undefined, [
        '--clickhouse',
        `${clickhouse.url}/${clickhouse.catalog}`,
        '--state',
        join(scratch, `state-${n}`),
      ]),
    ),
  )
}, 240_000)
afterAll(async () => {
  for (const server of [duckdb, ...served]) await server?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

const json = async (url: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(url)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** A JSON answer of the API, as far as the comparisons read it. */
interface Answer {
  readonly meta?: { readonly count?: number }
  readonly results?: unknown
  readonly error?: string
  readonly [key: string]: unknown
}

/** Result rows with their relevance rounded to 6 digits: the engines sum a record's scores in their own order. */
const scoresRounded = (results: unknown): unknown =>
  ((results ?? []) as { relevance_score?: number }[]).map((row) =>
    row.relevance_score === undefined
      ? row
      : { ...row, relevance_score: Math.round(row.relevance_score * 1e6) },
  )

onChdb('oqlkit serve --clickhouse (chdb behind the test stand-in for its HTTP interface)', () => {
  it('says what it serves', () => {
    expect(served[0]!.output()).toMatch(
      /oqlkit serving the catalog sample in ClickHouse at http:\/\/127\.0\.0\.1:\d+ \(sample__v\d{8}_\d{6}_\w{4}\)/,
    )
  })

  it('answers lists, pages, groups and singletons as the DuckDB server of the same catalog does', async () => {
    const paths = [
      '/works?filter=publication_year:2020&sort=cited_by_count:desc&per_page=5',
      '/works?filter=authorships.institutions.country_code:US,open_access.is_oa:true&per_page=3&page=2',
      '/works?group_by=type',
      '/works?group_by=authorships.institutions.country_code&per_page=5',
      '/authors?sort=works_count:desc&per_page=5&select=id,display_name,works_count',
      '/works?filter=publication_year:>2018&cursor=*&per_page=4',
    ]
    for (const path of paths) {
      const [fromDuckDb, ...fromClickHouse] = await Promise.all(
        [duckdb, ...served].map((server) => json(`${server.url}${path}`)),
      )
      expect(fromDuckDb!.status, path).toBe(200)
      for (const answer of fromClickHouse) {
        expect(answer.status, path).toBe(200)
        const { db_response_time_ms: _a, ...metaClickHouse } = answer.body.meta as Record<string, unknown>
        const { db_response_time_ms: _b, ...metaDuckDb } = fromDuckDb!.body.meta as Record<string, unknown>
        expect(metaClickHouse.count, path).toBe(metaDuckDb.count)
        expect(answer.body.results, path).toEqual(fromDuckDb!.body.results)
        expect(answer.body.group_by, path).toEqual(fromDuckDb!.body.group_by)
      }
    }
    const [firstWork] = (await json(`${duckdb.url}/works?per_page=1`)).body.results as { id: string }[]
    const short = firstWork!.id.replace('https://openalex.org/', '')
    for (const server of served) {
      const single = await json(`${server.url}/works/${short.toLowerCase()}`)
      expect(single.status).toBe(200)
      expect(single.body).toEqual((await json(`${duckdb.url}/works/${short}`)).body)
      expect((await fetch(`${server.url}/works/W1`)).status).toBe(404)
    }
  }, 120_000)

  it('answers full-text search as the DuckDB server of the same catalog does, scores and refusals alike', async () => {
    const paths = [
      '/works?search=climate%20change&per_page=10',
      '/works?search=%22machine%20learning%22&sort=relevance_score:desc&per_page=5&select=id,relevance_score',
      '/works?filter=title.search:cancer,publication_year:%3E2010&sort=publication_year:desc',
      '/works?filter=abstract.search:health|children&per_page=5&page=2',
      '/works?search=health&group_by=type',
      '/authors?search=john&per_page=5',
      '/works?search=clim*&filter=default.search.no_stem:clim*',
      '/works?search=a*',
      `/works?search=${'word%20'.repeat(101)}`,
    ]
    for (const path of paths) {
      const [fromDuckDb, ...fromClickHouse] = await Promise.all(
        [duckdb, ...served].map((server) => json(`${server.url}${path}`)),
      )
      for (const answer of fromClickHouse) {
        expect(answer.status, path).toBe(fromDuckDb!.status)
        if (fromDuckDb!.status !== 200) {
          expect(answer.body.code, path).toBe(fromDuckDb!.body.code)
          continue
        }
        expect((answer.body.meta as { count: number }).count, path).toBe(
          (fromDuckDb!.body.meta as { count: number }).count,
        )
        expect(answer.body.group_by, path).toEqual(fromDuckDb!.body.group_by)
        expect(scoresRounded(answer.body.results), path).toEqual(scoresRounded(fromDuckDb!.body.results))
      }
    }
    const server = served[0]!
    expect((await fetch(`${server.url}/works?per_page=1`)).status).toBe(200)
    // Autocomplete does without the search index: by a scan of the names, ranked as DuckDB ranks them.
    for (const path of [
      '/autocomplete/works?q=lea',
      '/autocomplete/authors?q=j',
      '/autocomplete/works?q=the%20eff',
    ]) {
      const [fromClickHouse, fromDuckDb] = await Promise.all([
        json(`${server.url}${path}`),
        json(`${duckdb.url}${path}`),
      ])
      expect(fromClickHouse.status, path).toBe(200)
      const ids = (answer: { body: Record<string, unknown> }) =>
        (answer.body.results as { id: string }[]).map((r) => r.id)
      expect(ids(fromClickHouse).length, path).toBeGreaterThan(0)
      expect(ids(fromClickHouse), path).toEqual(ids(fromDuckDb))
    }
  })

  it('answers semantic search and /text tagging as the DuckDB server of the same catalog does', async () => {
    const semantic = [
      '/works?search.semantic=coral%20reef%20bleaching%20and%20ocean%20warming',
      '/works?search.semantic=neural%20networks%20for%20image%20recognition&per_page=10&page=2',
      '/works?search.semantic=cancer%20treatment&filter=publication_year:%3E2015&per_page=50',
      '/works?search.semantic=climate%20change&sort=relevance_score:desc&per_page=5&select=id,display_name',
      '/works?search.semantic=climate%20change&group_by=publication_year',
      '/works?search.semantic=qqqzzzx',
    ]
    for (const path of semantic) {
      const [fromDuckDb, ...fromClickHouse] = await Promise.all(
        [duckdb, ...served].map((server) => json(`${server.url}${path}`)),
      )
      expect(fromDuckDb!.status, path).toBe(200)
      const expected = (fromDuckDb!.body.results ?? []) as { id: string; relevance_score?: number }[]
      for (const answer of fromClickHouse) {
        expect(answer.status, path).toBe(200)
        expect((answer.body.meta as { count: number }).count, path).toBe(
          (fromDuckDb!.body.meta as { count: number }).count,
        )
        expect(answer.body.group_by, path).toEqual(fromDuckDb!.body.group_by)
        const results = (answer.body.results ?? []) as { id: string; relevance_score?: number }[]
        expect(
          results.map((work) => work.id),
          path,
        ).toEqual(expected.map((work) => work.id))
        // The same cosines, to the last digits a float64 sum in another order may change.
        for (const [index, work] of results.entries()) {
          const score = expected[index]!.relevance_score
          if (score === undefined) expect(work.relevance_score, path).toBeUndefined()
          else expect(work.relevance_score, path).toBeCloseTo(score, 6)
        }
        expect(
          results.map(({ relevance_score: _, ...rest }) => rest),
          path,
        ).toEqual(expected.map(({ relevance_score: _, ...rest }) => rest))
      }
    }
    const title = encodeURIComponent('Deep learning for protein structure prediction')
    for (const path of [
      `/text?title=${title}`,
      `/text/topics?title=${title}`,
      `/text/keywords?title=${title}`,
    ]) {
      const [fromDuckDb, ...fromClickHouse] = await Promise.all(
        [duckdb, ...served].map((server) => json(`${server.url}${path}`)),
      )
      expect(fromDuckDb!.status, path).toBe(200)
      for (const answer of fromClickHouse) {
        expect(answer.status, path).toBe(200)
        const { meta: _a, ...tagsClickHouse } = answer.body
        const { meta: _b, ...tagsDuckDb } = fromDuckDb!.body
        expect(tagsClickHouse, path).toEqual(tagsDuckDb)
      }
    }
  }, 120_000)

  it('refuses a bad semantic search or text with the 4xx the DuckDB server gives', async () => {
    const long = 'word '.repeat(500)
    for (const path of [
      '/authors?search.semantic=coral%20reefs',
      '/works?search.semantic=',
      `/works?search.semantic=${encodeURIComponent(long)}`,
      '/works?search.semantic=coral&search=reef',
      '/works?filter=search.semantic:coral,search.semantic:reef',
      '/text?title=short',
      '/text/topics?title=x&abstract=y',
    ]) {
      const [fromDuckDb, fromClickHouse] = await Promise.all([
        json(`${duckdb.url}${path}`),
        json(`${served[0]!.url}${path}`),
      ])
      expect(fromDuckDb.status, path).toBeGreaterThanOrEqual(400)
      expect(fromDuckDb.status, path).toBeLessThan(500)
      expect(fromClickHouse.status, path).toBe(fromDuckDb.status)
      expect(fromClickHouse.body, path).toEqual(fromDuckDb.body)
    }
  })

  it('takes --embeddings-url, and refuses a server whose model did not make the vectors, as with a folder', async () => {
    const embeddings = await startStandInServer(8)
    const serveWith = (url: string) =>
      runCli([
        'serve',
        '--clickhouse',
        `${clickhouse.url}/${clickhouse.catalog}`,
        '--no-metering',
        '--no-collections',
        '--embeddings-url',
        url,
        '--embeddings-model',
        'stand-in',
      ])
    try {
      const mismatch = await serveWith(embeddings.url)
      expect(mismatch.exitCode).toBe(1)
      expect(mismatch.stderr).toMatch(
        /vectors were made by lsa-\d+:[0-9a-f]{16} .* but queries would be embedded by openai-compatible:stand-in/,
      )
    } finally {
      await embeddings.close()
    }
    const gone = await serveWith(embeddings.url)
    expect(gone.exitCode).toBe(1)
    expect(gone.stderr).toMatch(/could not be reached/)
  }, 60_000)

  it('answers every example URL of the API description as the DuckDB server of the same catalog does', async () => {
    const examples = JSON.parse(
      readFileSync(new URL('../../../spec/conformance/api-example-urls.json', import.meta.url), 'utf8'),
    ) as string[]
    const paths = [...new Set(examples.map((url) => url.replace('https://api.openalex.org', '') || '/'))]
    expect(paths.length).toBeGreaterThan(200)
    const server = served[0]!
    // One at a time: the stand-in runs ClickHouse in this test's process, and a server under more requests
    // than it admits at once would answer 503 for some, which is not what is compared here.
    for (const path of paths) {
      const [fromDuckDb, fromClickHouse] = await Promise.all(
        [duckdb, server].map(async (target) => {
          const response = await fetch(`${target.url}${path}`)
          const text = await response.text()
          // Every answer of these URLs is JSON but the root's, whose text is compared as it is.
          const body: Answer = text.startsWith('{') ? (JSON.parse(text) as Answer) : { text }
          return { status: response.status, body }
        }),
      )
      expect(fromClickHouse!.status, path).toBe(fromDuckDb!.status)
      if (fromDuckDb!.status !== 200) {
        expect(fromClickHouse!.body.code, path).toBe(fromDuckDb!.body.code)
        continue
      }
      const { meta: duckMeta, results: duckResults, ...duckRest } = fromDuckDb!.body
      const { meta: houseMeta, results: houseResults, ...houseRest } = fromClickHouse!.body
      // A sample or a random record is drawn by each engine's own hash: the same size and shape, not the
      // same records.
      const drawn = /[?&]sample=|\/random(?:\?|$)/.test(path)
      if (duckMeta !== undefined) expect(houseMeta?.count, path).toBe(duckMeta.count)
      if (Array.isArray(duckResults)) {
        expect(houseResults, path).toHaveLength(duckResults.length)
        if (!drawn) expect(scoresRounded(houseResults), path).toEqual(scoresRounded(duckResults))
      }
      // A random record: one of the same entity (the id's letters), whichever fields that record has.
      const entityOf = (rest: Record<string, unknown>) => String(rest.id).replace(/\d+$/, '')
      if (!drawn) expect(houseRest, path).toEqual(duckRest)
      else if (duckResults === undefined) expect(entityOf(houseRest), path).toBe(entityOf(duckRest))
      else expect(Object.keys(houseRest).sort(), path).toEqual(Object.keys(duckRest).sort())
    }
  }, 240_000)

  it('serves each version a load keeps as a data version, the newest by default, switching at a load', async () => {
    // Two tiny core catalogs (20 and 21 works) loaded into a catalog of their own in the shared ClickHouse.
    const tinyCatalog = (works: number) =>
      ingestCoreFixture(
        join(scratch, `tiny-${works}`),
        partsOf(
          'works',
          Array.from({ length: works }, (_, at) => work(at + 1, '2025-01-01T00:00:00')),
        ),
      )
    const twenty = await tinyCatalog(20)
    const twentyOne = await tinyCatalog(21)
    const into = `${clickhouse.url}/pinned`
    const load = async (catalogDir: string): Promise<string> => {
      const loaded = await runCli(['load', '--catalog', catalogDir, '--into', into])
      expect(loaded.exitCode, loaded.stderr).toBe(0)
      return /database (pinned__v\w+),/.exec(loaded.stdout ?? '')?.[1] ?? 'no database named'
    }
    const older = await load(twenty)
    const newer = await load(twentyOne)
    const server = await startServerProcess(undefined, ['--clickhouse', into, '--no-metering'])
    try {
      const versionsListed = async () =>
        ((await json(`${server.url}/`)).body.data_versions as { name: string; default: boolean }[]).map(
          ({ name, default: first }) => [name, first],
        )
      const countIn = async (query: string) => {
        const { status, body } = await json(`${server.url}/works?per_page=1${query}`)
        const meta = body.meta as { count: number; data_version: { name: string } } | undefined
        return [status, meta?.count, meta?.data_version.name]
      }
      expect(await versionsListed()).toEqual([
        [newer, true],
        [older, false],
      ])
      expect(await countIn('')).toEqual([200, 21, newer])
      expect(await countIn(`&data_version=${older}`)).toEqual([200, 20, older])
      // A load while it runs: served by default within a second, the one before it kept, the oldest dropped.
      const newest = await load(twenty)
      await new Promise((done) => setTimeout(done, 1_100))
      expect(await versionsListed()).toEqual([
        [newest, true],
        [newer, false],
      ])
      expect(await countIn('')).toEqual([200, 20, newest])
      expect(await countIn(`&data_version=${newer}`)).toEqual([200, 21, newer])
      const gone = await json(`${server.url}/works?data_version=${older}`)
      expect([gone.status, gone.body.code]).toEqual([400, 'unknown_data_version'])
      expect(String(gone.body.message)).toContain(`give one of ${newest}, ${newer}`)
    } finally {
      await server.stop()
    }
  }, 180_000)

  it('refuses to start without a loaded catalog, or with --catalog beside --clickhouse, saying why', async () => {
    const missing = await runCli(['serve', '--clickhouse', `${clickhouse.url}/never_loaded`, '--port', '0'])
    expect(missing.exitCode).toBe(1)
    expect(missing.stderr).toContain(
      'holds no loaded version of the catalog never_loaded: load one with oqlkit load',
    )
    const both = await runCli([
      'serve',
      '--clickhouse',
      `${clickhouse.url}/${clickhouse.catalog}`,
      '--catalog',
      scratch,
    ])
    expect(both.exitCode).toBe(2)
    expect(both.stderr).toContain('--clickhouse serves the catalog loaded into ClickHouse')
  })
})
