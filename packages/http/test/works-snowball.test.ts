// GET /works/snowball: from seed works, the works they cite and the works citing them, one or two steps out,
// with every citation between the works found; checked against the sample's records read straight from its
// files. Also select, JSON Lines, seeds that find nothing, the node limit, the price and the refusals.
import {
  createMemoryKeyStore,
  createMemoryMeterStore,
  DEFAULT_METERING_LIMITS,
  isSnowballTooLargeError,
  MAX_SNOWBALL_SEEDS,
  type MeteringLimits,
  type SnowballDirection,
  snowballWorks,
} from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { afterAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'
import { records } from './support/sample-oracle.ts'
import { type Row, shortOf } from './support/sample-records.ts'

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

interface SnowballBody {
  readonly meta: Record<string, unknown>
  readonly seeds_not_found: readonly { input: string; error: string; message: string }[]
  readonly works: readonly { id: string; depth: number; record: Row }[]
  readonly citations: readonly { citing: string; cited: string }[]
}

const send = async (query: string, headers: Record<string, string> = {}) => {
  const response = await sample.app.fetch(
    new Request(`http://localhost/works/snowball?${query}`, { headers }),
  )
  return { status: response.status, headers: response.headers, text: await response.text() }
}

const snowball = async (query: string) => {
  const response = await send(query)
  expect(response.status, response.text).toBe(200)
  return JSON.parse(response.text) as SnowballBody
}

// The expected side: the works the sample serves (merged and deleted ones left out), who cites whom, from the files.
const works = records('works')
const held = new Map(works.map((work) => [shortOf(work.id), work]))
const referencesOf = (id: string): string[] =>
  ((held.get(id)?.referenced_works as string[] | undefined) ?? []).map(shortOf)
const citersOf = new Map<string, string[]>()
for (const id of held.keys())
  for (const cited of new Set(referencesOf(id))) citersOf.set(cited, [...(citersOf.get(cited) ?? []), id])

/** The works a snowball reaches (id -> depth) and its citations (`citing>cited`), worked out from the records. */
const expectedSnowball = (seeds: readonly string[], direction: SnowballDirection, depth: number) => {
  const reached = new Map<string, number>(seeds.map((id) => [id, 0]))
  let frontier = [...seeds]
  for (let step = 1; step <= depth; step++) {
    const next: string[] = []
    for (const id of frontier) {
      const neighbours = [
        ...(direction === 'citing' ? [] : referencesOf(id)),
        ...(direction === 'cited' ? [] : (citersOf.get(id) ?? [])),
      ]
      for (const neighbour of neighbours)
        if (held.has(neighbour) && !reached.has(neighbour)) {
          reached.set(neighbour, step)
          next.push(neighbour)
        }
    }
    frontier = next
  }
  const citations = new Set<string>()
  for (const id of reached.keys())
    for (const cited of referencesOf(id))
      if (reached.has(cited) && cited !== id) citations.add(`${id}>${cited}`)
  return { reached, citations }
}

const reachedOf = (body: SnowballBody) => new Map(body.works.map((work) => [shortOf(work.id), work.depth]))
const citationsOf = (body: SnowballBody) =>
  new Set(body.citations.map(({ citing, cited }) => `${shortOf(citing)}>${shortOf(cited)}`))

// Seeds that both cite held works and are cited by them, so every direction reaches something.
const seeds = [...held.keys()]
  .filter((id) => referencesOf(id).some((cited) => held.has(cited)) && (citersOf.get(id)?.length ?? 0) > 0)
  .slice(0, 3)

describe('GET /works/snowball', () => {
  it('has seeds that reach works both ways (the sample must have citations)', () => {
    expect(seeds).toHaveLength(3)
  })

  for (const direction of ['both', 'cited', 'citing'] as const)
    for (const depth of [1, 2])
      it(`reaches the works and citations the records say: direction=${direction}, depth=${depth}`, async () => {
        const body = await snowball(`ids=${seeds.join('|')}&direction=${direction}&depth=${depth}`)
        const expected = expectedSnowball(seeds, direction, depth)
        expect(reachedOf(body)).toEqual(expected.reached)
        expect(citationsOf(body)).toEqual(expected.citations)
        expect(body.citations).toHaveLength(expected.citations.size)
        // Seeds first, in the order given; each work with its whole record.
        expect(body.works.slice(0, 3).map((work) => shortOf(work.id))).toEqual(seeds)
        for (const work of body.works) expect(work.record).toEqual(held.get(shortOf(work.id)))
        expect(body.meta).toEqual({
          count: expected.reached.size,
          citations_count: expected.citations.size,
          seeds_found: 3,
          direction,
          depth,
          cited_not_held: expect.any(Number),
          cost_usd: 0.0001,
        })
      })

  it('counts the cited works it could not reach because the catalog does not hold them', async () => {
    const [seed] = seeds
    const notHeld = new Set(referencesOf(seed!).filter((id) => !held.has(id))).size
    expect(notHeld).toBeGreaterThan(0)
    const body = await snowball(`ids=${seed}&direction=cited`)
    expect(body.meta.cited_not_held).toBe(notHeld)
  })

  it('takes seeds of any kind a work path takes, and lists the ones that find nothing', async () => {
    const withDoi = works.find((work) => typeof work.doi === 'string' && seeds.includes(shortOf(work.id)))
    const doiSeed = withDoi === undefined ? seeds[0]! : String(withDoi.doi)
    const body = await snowball(
      `ids=${encodeURIComponent(`${doiSeed}|W1|A5063410350|not an id|https://openalex.org/${seeds[1]}`)}`,
    )
    expect(body.seeds_not_found.map(({ input, error }) => [input, error])).toEqual([
      ['W1', 'not_found'],
      ['A5063410350', 'other_entity'],
      ['not an id', 'not_an_id'],
    ])
    for (const miss of body.seeds_not_found) expect(miss.message).toMatch(/\S/)
    expect(body.meta.seeds_found).toBe(2)
    const expected = expectedSnowball(
      [withDoi === undefined ? seeds[0]! : shortOf(withDoi.id), seeds[1]!],
      'both',
      1,
    )
    expect(reachedOf(body)).toEqual(expected.reached)
  })

  it('keeps the selected fields of each work', async () => {
    const body = await snowball(`ids=${seeds[0]}&select=id,display_name`)
    expect(body.works.length).toBeGreaterThan(1)
    for (const work of body.works)
      expect(work.record).toEqual({
        id: held.get(shortOf(work.id))!.id,
        display_name: held.get(shortOf(work.id))!.display_name,
      })
    expect(body.citations.length).toBeGreaterThan(0)
  })

  it('answers JSON Lines when asked: seeds not found, then works, then citations, one a line', async () => {
    const query = `ids=${seeds.join('|')}|W1&select=id`
    const json = await snowball(query)
    for (const [label, response] of [
      ['format=', await send(`${query}&format=jsonl`)],
      ['Accept', await send(query, { accept: 'application/x-ndjson' })],
    ] as const) {
      expect(response.status, label).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/)
      expect(response.text.endsWith('\n')).toBe(true)
      const lines = response.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(lines.map((line) => line.type)).toEqual([
        'seed_not_found',
        ...json.works.map(() => 'work'),
        ...json.citations.map(() => 'citation'),
      ])
      expect(lines.slice(1, 1 + json.works.length)).toEqual(
        json.works.map((work) => ({ type: 'work', ...work })),
      )
    }
  })

  it('answers an empty snowball when no seed is found', async () => {
    const body = await snowball('ids=W1|W2')
    expect(body.works).toEqual([])
    expect(body.citations).toEqual([])
    // At least a list call, charged before it runs.
    expect(body.meta).toMatchObject({ count: 0, seeds_found: 0, cost_usd: 0.0001 })
  })

  it('refuses what it cannot read with a 400 that says what to send', async () => {
    const cases: [string, string, RegExp][] = [
      ['', 'invalid_snowball', /seed works: give their ids/],
      ['ids=%7C%7C', 'invalid_snowball', /give their ids/],
      [`ids=W1&depth=3`, 'invalid_snowball', /use 1 .* or 2/],
      [`ids=W1&depth=1.5`, 'invalid_snowball', /depth=1.5 is not a depth/],
      [`ids=W1&direction=up`, 'invalid_snowball', /cited .* citing .* both/],
      [`ids=W1&format=xml`, 'invalid_snowball', /json .* jsonl/],
      [`ids=W1&select=nope`, 'invalid_select', /nope/],
      [`ids=W1&per_page=5`, 'unknown_parameter', /Valid parameters: ids, direction, depth/],
      [`ids=W1&ids=W2`, 'repeated_parameter', /separated by \|/],
      [
        `ids=${Array.from({ length: MAX_SNOWBALL_SEEDS + 1 }, (_, at) => `W${at + 1}`).join('|')}`,
        'invalid_snowball',
        /at most 500/,
      ],
    ]
    for (const [query, code, message] of cases) {
      const response = await send(query)
      expect(response.status, query).toBe(400)
      const body = JSON.parse(response.text) as { code: string; message: string; errors?: unknown[] }
      expect(body.code, query).toBe(code)
      expect(body.message, query).toMatch(message)
    }
    // Only works have citations: elsewhere `snowball` is read as an id, which it is not.
    expect((await sample.app.fetch(new Request('http://localhost/authors/snowball?ids=A1'))).status).toBe(400)
    expect((await sample.app.fetch(new Request('http://localhost/nothings/snowball?ids=W1'))).status).toBe(
      404,
    )
  })

  it('answers HEAD with the headers of its GET and no body, and lets the answer go', async () => {
    const query = `ids=${seeds.join('|')}&direction=both`
    const response = await sample.app.fetch(
      new Request(`http://localhost/works/snowball?${query}`, { method: 'HEAD' }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await response.text()).toBe('')
  })

  it('stops at its node limit with an error that names the step (engine, a limit of 3 on the sample)', async () => {
    const seedRecords = seeds.map((id) => held.get(id)!)
    const expected = expectedSnowball(seeds, 'both', 1)
    expect(expected.reached.size).toBeGreaterThan(3)
    const refused = await snowballWorks(
      sample.adapter,
      { seeds: seedRecords, direction: 'both', depth: 1 },
      {},
      3,
    )
      .then(() => undefined)
      .catch((error: unknown) => error)
    expect(isSnowballTooLargeError(refused)).toBe(true)
    expect(refused).toMatchObject({ depth: 1, limit: 3 })
    expect((refused as { reached: number }).reached).toBeGreaterThan(3)
    // At the size it reaches, the same snowball is answered.
    const answered = await snowballWorks(
      sample.adapter,
      { seeds: seedRecords, direction: 'both', depth: 1 },
      {},
      expected.reached.size,
    )
    expect(answered.nodes).toHaveLength(expected.reached.size)
  })
})

describe('GET /works/snowball, metered', () => {
  const meteredApp = (limits: MeteringLimits) =>
    createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      logError: (error) => sample.faults.push(error),
      metering: { keys: createMemoryKeyStore(), meter: createMemoryMeterStore(), limits },
    })
  const usedToday = async (app: ReturnType<typeof createApp>) =>
    (
      (await (await app.fetch(new Request('http://localhost/rate-limit'))).json()) as {
        rate_limit: { daily_used_usd: number }
      }
    ).rate_limit.daily_used_usd

  it('charges a list call per 1,000 works answered, at least one and that before it runs', async () => {
    const app = meteredApp(DEFAULT_METERING_LIMITS)
    const paid = await app.fetch(
      new Request(`http://localhost/works/snowball?ids=${seeds.join('|')}&select=id`),
    )
    expect(paid.status).toBe(200)
    expect(Number(paid.headers.get('x-ratelimit-credits-used'))).toBeCloseTo(0.0001, 10)
    expect(await usedToday(app)).toBeCloseTo(0.0001, 10)
    const failed = await app.fetch(new Request('http://localhost/works/snowball?ids=W1&depth=9'))
    expect(failed.status).toBe(400)
    expect(await usedToday(app)).toBeCloseTo(0.0001, 10)
    // A budget short of a list call: 429 before the snowball runs, and nothing taken.
    const poor = meteredApp({ ...DEFAULT_METERING_LIMITS, anonymousDailyBudgetUsd: 0.00005 })
    const refused = await poor.fetch(new Request(`http://localhost/works/snowball?ids=${seeds.join('|')}`))
    expect(refused.status).toBe(429)
    expect(await refused.json()).toMatchObject({ code: 'budget_exhausted' })
    expect(await usedToday(poor)).toBe(0)
  })
})
