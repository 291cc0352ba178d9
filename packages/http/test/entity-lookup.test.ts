// POST /{entities}/lookup: many ids of any kind at once, one result per id in the order sent, misses with
// their reason, merged ids followed, select, JSON Lines, and the refusals of bad bodies.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import {
  createMemoryKeyStore,
  createMemoryMeterStore,
  DEFAULT_METERING_LIMITS,
  MAX_LOOKUP_IDS,
  type MeteringLimits,
  type StorageAdapter,
} from '@oqlkit/engine'
import { createApp, RequestLimits } from '@oqlkit/http'
import { ingestCoreFixture, partsOf, readSampleMergedAuthors, work } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'
import { type Row, sampleRecords, shortOf } from './support/sample-records.ts'

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

interface LookupResultBody {
  readonly input: string
  readonly record: Row | null
  readonly merged_into?: string
  readonly error?: string
  readonly message?: string
}

const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await sample.app.fetch(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const lookup = async (path: string, body: unknown) => {
  const response = await post(path, body)
  const parsed = JSON.parse(response.text) as { meta: Record<string, unknown>; results: LookupResultBody[] }
  return { ...response, ...parsed }
}

const works = sampleRecords('works')
const withDoi = works.filter((work) => typeof work.doi === 'string')
/** The sample's merged author ids, each with the id it was merged into at last. */
const mergedAuthors = readSampleMergedAuthors().map(({ oldId, newId }) => ({ from: oldId, to: newId }))
const authorIds = new Set(sampleRecords('authors').map((author) => shortOf(author.id)))

describe('POST /{entities}/lookup', () => {
  it('answers each id in the order sent, whatever its kind, with the reason for each miss', async () => {
    const [a, b, c] = withDoi
    const ids = [
      String(b!.doi),
      shortOf(a!.id),
      'W1',
      String(c!.doi).replace('https://doi.org/', 'doi:'),
      'A5063410350',
      'not an id at all',
      shortOf(a!.id).toLowerCase(),
      `https://openalex.org/${shortOf(c!.id)}`,
    ]
    const response = await lookup('/works/lookup', { ids })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(response.results.map((result) => result.input)).toEqual(ids)
    expect(response.results.map((result) => result.record?.id ?? result.error)).toEqual([
      b!.id,
      a!.id,
      'not_found',
      c!.id,
      'other_entity',
      'not_an_id',
      a!.id,
      c!.id,
    ])
    // Each record whole, as a singleton gives it.
    expect(response.results[0]!.record).toEqual(b)
    expect(response.results[4]!.message).toContain('POST /authors/lookup')
    expect(response.meta).toEqual({ count: 8, found: 5, missing: 3, cost_usd: 0.0001 })
  })

  it('answers a merged id whose record the catalog does not hold with why', async () => {
    // The sample keeps the merge table but none of the survivors' records (the fixture catalog below has one).
    const lost = mergedAuthors.find((merge) => !authorIds.has(merge.to))!
    const response = await lookup('/authors/lookup', { ids: [lost.from] })
    expect(response.results).toEqual([
      {
        input: lost.from,
        record: null,
        error: 'not_found',
        message: `${lost.from} was merged into ${lost.to}, which this catalog does not hold.`,
      },
    ])
  })

  it('finds vocabulary codes in any case and sources by ISSN', async () => {
    const source = sampleRecords('sources').find((record) => typeof record.issn_l === 'string')!
    const sources = await lookup('/sources/lookup', { ids: [`issn:${source.issn_l}`] })
    expect(sources.results[0]!.record?.id).toBe(source.id)
    const countries = await lookup('/countries/lookup', { ids: ['us', 'FR', 'zz'] })
    expect(countries.results.map((result) => result.record?.id ?? result.error)).toEqual([
      'https://openalex.org/countries/US',
      'https://openalex.org/countries/FR',
      'not_found',
    ])
  })

  it('keeps the selected fields, from the query or the body', async () => {
    const [work] = withDoi
    for (const [path, body] of [
      ['/works/lookup?select=id,doi', { ids: [String(work!.doi)] }],
      ['/works/lookup', { ids: [String(work!.doi)], select: ['id', 'doi'] }],
    ] as const) {
      const response = await lookup(path, body)
      expect(response.results[0]!.record).toEqual({ id: work!.id, doi: work!.doi })
    }
  })

  it('answers JSON Lines, one result a line, when asked by format= or Accept', async () => {
    const ids = [shortOf(works[0]!.id), 'W1']
    for (const [path, headers] of [
      ['/works/lookup?format=jsonl&select=id', {}],
      ['/works/lookup?select=id', { accept: 'application/x-ndjson' }],
    ] as const) {
      const response = await post(path, { ids }, headers)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
      const lines = response.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as LookupResultBody)
      expect(lines.map((line) => line.record?.id ?? line.error)).toEqual([works[0]!.id, 'not_found'])
    }
  })

  it('sends a large answer as it is read, a chunk at a time, while cheap requests are answered', async () => {
    // Every work of the sample whole: about 2 MB of JSON Lines, more than one chunk.
    const ids = works.map((work) => shortOf(work.id))
    const response = await sample.app.fetch(
      new Request('http://localhost/works/lookup?format=jsonl', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids }),
      }),
    )
    expect(response.status).toBe(200)
    // A stream: its length is not known before it is sent.
    expect(response.headers.get('content-length')).toBeNull()
    const reader = response.body!.getReader()
    const chunks: Uint8Array[] = [(await reader.read()).value!]
    // Part of the answer is read and the rest waits for the client: another request is answered meanwhile.
    const single = await sample.app.fetch(new Request(`http://localhost/works/${ids[1]}`))
    expect(single.status).toBe(200)
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      chunks.push(next.value)
    }
    expect(chunks.length).toBeGreaterThan(2)
    const lines = new TextDecoder()
      .decode(Buffer.concat(chunks))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LookupResultBody)
    expect(lines.map((line) => line.record?.id)).toEqual(works.map((work) => work.id))
    expect(lines.map((line) => line.input)).toEqual(ids)
  })

  it('keeps a shutdown waiting while a large answer flows, and the answer arrives whole', async () => {
    const limits = new RequestLimits()
    const app = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      limits,
    })
    const ids = works.map((work) => shortOf(work.id))
    const response = await app.fetch(
      new Request('http://localhost/works/lookup?format=jsonl', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids }),
      }),
    )
    const reader = response.body!.getReader()
    const chunks: Uint8Array[] = [(await reader.read()).value!]
    let stopped = false
    const stopping = limits.shutdown(10_000).then(() => {
      stopped = true
    })
    await new Promise((done) => setTimeout(done, 50))
    expect(stopped).toBe(false)
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      chunks.push(next.value)
    }
    await stopping
    expect(stopped).toBe(true)
    expect(new TextDecoder().decode(Buffer.concat(chunks)).trimEnd().split('\n')).toHaveLength(ids.length)
  })

  it('answers hostile ids one by one, at once: very long, unpaired surrogates, random', async () => {
    const long = `doi:10.1/${'/'.repeat(400_000)}x`
    const started = performance.now()
    const response = await lookup('/works/lookup', {
      ids: [long, 'doi:10.1/\ud800x', '\udc00', 'random', shortOf(works[0]!.id)],
    })
    // The id readers' patterns grow faster than an id's length: a 400 KB id is refused before them.
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(response.status).toBe(200)
    expect(response.results.map((result) => result.record?.id ?? result.error)).toEqual([
      'not_an_id',
      'not_found',
      'not_an_id',
      'not_an_id',
      works[0]!.id,
    ])
    expect(response.results[0]!.message).toContain('at most 2,048 characters')
    expect(response.results[3]!.message).toContain('GET /works/random')
  })

  it('prices a list call per thousand ids, started', async () => {
    const ids = Array.from({ length: 1001 }, (_, at) => `W${at + 1}`)
    expect((await lookup('/works/lookup?select=id', { ids })).meta.cost_usd).toBeCloseTo(0.0002, 10)
    expect((await lookup('/works/lookup', { ids: [] })).meta).toEqual({
      count: 0,
      found: 0,
      missing: 0,
      cost_usd: 0,
    })
  })

  it('refuses a body it cannot read with a 400 that says what to send, and changes nothing', async () => {
    const refusals: [unknown, RegExp][] = [
      [{}, /no list of ids/],
      [{ ids: 'W1' }, /no list of ids/],
      [{ ids: ['W1', 2, null] }, /ids\[1\], ids\[2\] are not/],
      [{ ids: ['W1'], filter: 'x' }, /'filter', which a lookup does not take/],
      [{ ids: ['W1'], select: 'id,no_such_field' }, /no_such_field/],
      [{ ids: ['W1'], select: 3 }, /select must be/],
      [{ ids: Array.from({ length: MAX_LOOKUP_IDS + 1 }, () => 'W1') }, /at most 10,000/],
      ['[1,2]', /must be a JSON object/],
      ['{"ids": [', /not valid JSON/],
    ]
    for (const [body, message] of refusals) {
      const response = await post('/works/lookup', body)
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(JSON.parse(response.text).message).toMatch(message)
    }
    const plain = await post('/works/lookup', 'W1', { 'content-type': 'text/plain' })
    expect(plain.status).toBe(400)
    expect(JSON.parse(plain.text).message).toMatch(/Content-Type: application\/json/)
    for (const path of ['/works/lookup?per_page=5', '/works/lookup?format=csv']) {
      const response = await post(path, { ids: ['W1'] })
      expect(response.status, path).toBe(400)
    }
    const wrongMethod = await sample.app.fetch(
      new Request('http://localhost/works/lookup', { method: 'PUT' }),
    )
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('POST')
    expect((await post('/nothings/lookup', { ids: ['W1'] })).status).toBe(404)
  })
})

describe('POST /{entities}/lookup, metered', () => {
  const meteredApp = (limits: MeteringLimits) =>
    createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      logError: (error) => sample.faults.push(error),
      metering: { keys: createMemoryKeyStore(), meter: createMemoryMeterStore(), limits },
    })
  const send = (app: ReturnType<typeof createApp>, body: unknown) =>
    app.fetch(
      new Request('http://localhost/works/lookup?select=id', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    )
  const usedToday = async (app: ReturnType<typeof createApp>) =>
    (
      (await (await app.fetch(new Request('http://localhost/rate-limit'))).json()) as {
        rate_limit: { daily_used_usd: number }
      }
    ).rate_limit.daily_used_usd

  it('charges a list call per 1,000 ids begun, and refuses with 429 what the budget cannot pay', async () => {
    const ids = Array.from({ length: 2500 }, (_, at) => `W${at + 1}`)
    const app = meteredApp(DEFAULT_METERING_LIMITS)
    const paid = await send(app, { ids })
    expect(paid.status).toBe(200)
    expect(Number(paid.headers.get('x-ratelimit-credits-used'))).toBeCloseTo(0.0003, 10)
    expect(await usedToday(app)).toBeCloseTo(0.0003, 10)
    // A budget short of the price: 429 before the lookup, and nothing taken.
    const poor = meteredApp({ ...DEFAULT_METERING_LIMITS, anonymousDailyBudgetUsd: 0.00025 })
    const refused = await send(poor, { ids })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ code: 'budget_exhausted' })
    expect(await usedToday(poor)).toBe(0)
    // A refused body costs nothing either.
    const failed = await send(poor, { ids: 'W1' })
    expect(failed.status).toBe(400)
    expect(failed.headers.get('x-ratelimit-credits-used')).toBe('0')
    expect(await usedToday(poor)).toBe(0)
  })
})

describe('POST /{entities}/lookup on a catalog that holds a merge survivor', () => {
  // A three-work core catalog ingested here: W9 was merged into W2, which it holds.
  const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-lookup-'))
  let app: ReturnType<typeof createApp>
  let adapter: StorageAdapter
  beforeAll(async () => {
    const catalogDir = await ingestCoreFixture(
      scratch,
      partsOf('works', [work(1, '2026-01-01'), work(2, '2026-01-01'), work(3, '2026-01-01')]),
      { works: { '2026-01-02.csv': 'merge_date,id,merge_into_id\n2026-01-02,W9,W2\n' } },
    )
    adapter = await createDuckDbAdapter({ catalogDir, threads: 1 })
    app = createApp({ adapter, catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} } })
  }, 120_000)
  afterAll(async () => {
    await adapter?.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('follows the merged id to its survivor and says so, beside the survivor asked for itself', async () => {
    const response = await app.fetch(
      new Request('http://localhost/works/lookup?select=id,doi', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: ['W9', 'W2', 'https://doi.org/10.1000/test.1'] }),
      }),
    )
    expect(response.status).toBe(200)
    const { results } = (await response.json()) as { results: LookupResultBody[] }
    const survivor = { id: 'https://openalex.org/W2', doi: 'https://doi.org/10.1000/TEST.2' }
    expect(results).toEqual([
      { input: 'W9', merged_into: 'https://openalex.org/W2', record: survivor },
      { input: 'W2', record: survivor },
      {
        input: 'https://doi.org/10.1000/test.1',
        record: { id: 'https://openalex.org/W1', doi: 'https://doi.org/10.1000/TEST.1' },
      },
    ])
  })
})
