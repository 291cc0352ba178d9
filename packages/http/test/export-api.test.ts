// GET /{entities}/export over the sample catalog, through app.fetch: every format streams the rows the list
// pages give (checked against the sample's records read from the snapshot files), select shapes them, bad
// requests are 400s naming the parameter, and the export is metered per 1,000 rows at the list price.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDuckDbDatabase, writeJsonLinesAsParquet } from '@oqlkit/adapter-duckdb'
import {
  createMemoryKeyStore,
  createMemoryMeterStore,
  DEFAULT_METERING_LIMITS,
  type MeteringLimits,
} from '@oqlkit/engine'
import { createApp, RequestLimits } from '@oqlkit/http'
import { describe, expect, it } from 'vitest'
import { get, useSampleApp } from './support/sample-app.ts'
import { coreWorks } from './support/sample-records.ts'

const sample = useSampleApp()

const appOf = (metering?: { limits: MeteringLimits }) =>
  createApp({
    adapter: sample.adapter,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    writeParquet: writeJsonLinesAsParquet,
    logError: (error) => sample.faults.push(error),
    ...(metering === undefined
      ? {}
      : {
          metering: {
            keys: createMemoryKeyStore(),
            meter: createMemoryMeterStore(),
            limits: metering.limits,
          },
        }),
  })

const fetchExport = async (app: ReturnType<typeof createApp>, path: string) => {
  const response = await app.fetch(new Request(`http://localhost${path}`))
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  }
}
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** The ids of a list query read page by page with a cursor, as a client of the list endpoint reads them. */
const listedIds = async (query: string): Promise<string[]> => {
  const ids: string[] = []
  let cursor = '*'
  for (let guard = 0; guard < 100; guard++) {
    const page = await get<{ meta: { next_cursor: string | null }; results: { id: string }[] }>(
      sample,
      `/works?${query}&per_page=200&cursor=${encodeURIComponent(cursor)}`,
    )
    expect(page.status).toBe(200)
    ids.push(...page.body.results.map((work) => work.id))
    if (page.body.meta.next_cursor === null) return ids
    cursor = page.body.meta.next_cursor
  }
  throw new Error('the list did not end')
}

const works2020 = () => coreWorks().filter((work) => work.publication_year === 2020)

describe('GET /works/export', () => {
  it('streams JSON Lines, JSON and CSV with every matching row, in the order of the pages', async () => {
    const app = appOf()
    const expected = works2020().length
    expect(expected, 'the sample has works of 2020').toBeGreaterThan(10)
    const listed = await listedIds('filter=publication_year:2020&sort=cited_by_count:desc')
    expect(listed.length).toBe(expected)

    const jsonl = await fetchExport(
      app,
      '/works/export?format=jsonl&filter=publication_year:2020&sort=cited_by_count:desc',
    )
    expect(jsonl.status).toBe(200)
    expect(jsonl.headers.get('content-type')).toBe('application/jsonl; charset=utf-8')
    expect(jsonl.headers.get('content-disposition')).toBe('attachment; filename="works.jsonl"')
    expect(jsonl.headers.get('x-export-rows')).toBe(String(expected))
    const lines = text(jsonl.bytes).split('\n')
    expect(lines.pop()).toBe('')
    const records = lines.map((line) => JSON.parse(line) as { id: string; publication_year: number })
    expect(records.map((record) => record.id)).toEqual(listed)
    expect(records.every((record) => record.publication_year === 2020)).toBe(true)

    const json = await fetchExport(
      app,
      '/works/export?format=json&filter=publication_year:2020&sort=cited_by_count:desc',
    )
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect((JSON.parse(text(json.bytes)) as { id: string }[]).map((record) => record.id)).toEqual(listed)

    const csv = await fetchExport(
      app,
      '/works/export?format=csv&filter=publication_year:2020&sort=cited_by_count:desc&select=id,display_name,cited_by_count,authorships',
    )
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const db = await openDuckDbDatabase({ connections: 1 })
    const dir = mkdtempSync(join(tmpdir(), 'oqlkit-export-test-'))
    try {
      // Read back by DuckDB's own CSV reader: quoting, nested values and the header must hold up.
      writeFileSync(join(dir, 'works.csv'), csv.bytes)
      const rows = await db.all(
        'SELECT id, cited_by_count, authorships FROM read_csv(?, header = true, all_varchar = true)',
        [join(dir, 'works.csv')],
      )
      expect(rows.map((row) => row.id)).toEqual(listed)
      const byId = new Map(works2020().map((work) => [work.id, work]))
      for (const row of rows) {
        const work = byId.get(String(row.id))!
        expect(Number(row.cited_by_count)).toBe(work.cited_by_count)
        expect(JSON.parse(String(row.authorships))).toEqual(work.authorships)
      }
      expect(text(csv.bytes).split('\n')[0]).toBe('id,display_name,cited_by_count,authorships')
    } finally {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('streams a search in relevance order, and a semantic search, as their pages give them', async () => {
    const app = appOf()
    const query = 'search=cancer&sort=relevance_score:desc'
    const listed = await listedIds(query)
    expect(listed.length, 'the search finds works').toBeGreaterThan(5)
    const searched = await fetchExport(app, `/works/export?format=jsonl&${query}&select=id,relevance_score`)
    const rows = text(searched.bytes)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id: string; relevance_score: number })
    expect(rows.map((row) => row.id)).toEqual(listed)
    for (let i = 1; i < rows.length; i++)
      expect(rows[i]!.relevance_score).toBeLessThanOrEqual(rows[i - 1]!.relevance_score)

    const semantic = 'search.semantic=coronavirus%20outbreak%20in%20Wuhan'
    const page = await get<{ meta: { count: number }; results: { id: string }[] }>(
      sample,
      `/works?${semantic}&per_page=50`,
    )
    expect(page.status).toBe(200)
    const nearest = await fetchExport(app, `/works/export?format=json&${semantic}&select=id`)
    expect(nearest.headers.get('x-export-rows')).toBe(String(page.body.meta.count))
    expect((JSON.parse(text(nearest.bytes)) as { id: string }[]).map((row) => row.id)).toEqual(
      page.body.results.map((work) => work.id),
    )
  })

  it('writes Parquet with typed columns that DuckDB reads back', async () => {
    const response = await fetchExport(
      appOf(),
      '/works/export?format=parquet&filter=publication_year:2020&select=id,publication_year,open_access',
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet')
    expect(text(response.bytes.slice(0, 4))).toBe('PAR1')
    const dir = mkdtempSync(join(tmpdir(), 'oqlkit-export-test-'))
    const db = await openDuckDbDatabase({ connections: 1 })
    try {
      writeFileSync(join(dir, 'works.parquet'), response.bytes)
      const rows = await db.all(
        'SELECT id, publication_year, open_access.is_oa AS is_oa FROM read_parquet(?) ORDER BY id',
        [join(dir, 'works.parquet')],
      )
      const expected = works2020()
        .map((work) => ({
          id: work.id,
          publication_year: 2020,
          is_oa: (work.open_access as { is_oa: boolean }).is_oa,
        }))
        .sort((a, b) => String(a.id).localeCompare(String(b.id)))
      expect(rows).toEqual(expected)
      // A query with no rows still writes a file, with the selected columns.
      const empty = await fetchExport(
        appOf(),
        '/works/export?format=parquet&filter=publication_year:1000&select=id,doi',
      )
      expect(empty.headers.get('x-export-rows')).toBe('0')
      writeFileSync(join(dir, 'empty.parquet'), empty.bytes)
      const columns = await db.all('DESCRIBE SELECT * FROM read_parquet(?)', [join(dir, 'empty.parquet')])
      expect(columns.map((column) => column.column_name)).toEqual(['id', 'doi'])
    } finally {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("writes Parquet columns with the registry's types, learnt nested shapes, and typed empty files", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oqlkit-export-test-'))
    const db = await openDuckDbDatabase({ connections: 1 })
    const typesOf = async (path: string) => {
      const response = await fetchExport(appOf(), path)
      expect(response.status).toBe(200)
      const file = join(dir, 'types.parquet')
      writeFileSync(file, response.bytes)
      const columns = await db.all('DESCRIBE SELECT * FROM read_parquet(?)', [file])
      return Object.fromEntries(columns.map((column) => [column.column_name, column.column_type]))
    }
    try {
      const typed = await typesOf(
        '/works/export?format=parquet&select=id,publication_year,publication_date,fwci,corresponding_author_ids,open_access,authorships',
      )
      expect(typed).toMatchObject({
        id: 'VARCHAR',
        publication_year: 'BIGINT',
        publication_date: 'DATE',
        fwci: 'DOUBLE',
        corresponding_author_ids: 'VARCHAR[]',
      })
      expect(Object.keys(typed)).toEqual([
        'id',
        'publication_year',
        'publication_date',
        'fwci',
        'corresponding_author_ids',
        'open_access',
        'authorships',
      ])
      expect(typed.open_access).toMatch(/^STRUCT\(.*is_oa BOOLEAN/)
      expect(typed.authorships).toMatch(/^STRUCT\(.*\)\[\]$/)
      // No row to infer from: the registry's types still hold.
      expect(
        await typesOf(
          '/works/export?format=parquet&filter=publication_year:1000&select=id,publication_year,fwci',
        ),
      ).toEqual({ id: 'VARCHAR', publication_year: 'BIGINT', fwci: 'DOUBLE' })
    } finally {
      await db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('converts concurrent Parquet exports one at a time (the real writer, wrapped to count them)', async () => {
    let converting = 0
    let mostAtOnce = 0
    const countingWriter: typeof writeJsonLinesAsParquet = async (...args) => {
      mostAtOnce = Math.max(mostAtOnce, ++converting)
      try {
        return await writeJsonLinesAsParquet(...args)
      } finally {
        converting--
      }
    }
    const app = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      writeParquet: countingWriter,
      limits: new RequestLimits({ exportSlots: 3 }),
      logError: (error) => sample.faults.push(error),
    })
    const exports = await Promise.all(
      ['2018', '2019', '2020'].map((year) =>
        fetchExport(app, `/works/export?format=parquet&filter=publication_year:${year}&select=id`),
      ),
    )
    expect(exports.map((response) => response.status)).toEqual([200, 200, 200])
    for (const response of exports) expect(text(response.bytes.subarray(0, 4))).toBe('PAR1')
    expect(mostAtOnce).toBe(1)
  })

  it('exports an empty result as a header, an empty array, no lines', async () => {
    const app = appOf()
    const query = 'filter=publication_year:1000'
    expect(text((await fetchExport(app, `/works/export?format=csv&${query}&select=id,doi`)).bytes)).toBe(
      'id,doi\n',
    )
    expect(text((await fetchExport(app, `/works/export?format=json&${query}`)).bytes)).toBe('[]\n')
    expect(text((await fetchExport(app, `/works/export?format=jsonl&${query}`)).bytes)).toBe('')
  })

  it('exports a query given as OQL or OQO at /export, the rows of its classic list', async () => {
    const app = appOf()
    const listed = await fetchExport(
      app,
      '/works/export?format=jsonl&filter=publication_year:2020&sort=cited_by_count:desc&select=id',
    )
    const oql = await fetchExport(
      app,
      `/export?format=jsonl&oql=${encodeURIComponent('works where year is 2020')}&sort=cited_by_count:desc&select=id`,
    )
    expect(oql.status).toBe(200)
    expect(oql.headers.get('content-disposition')).toBe('attachment; filename="works.jsonl"')
    expect(text(oql.bytes)).toBe(text(listed.bytes))
    const oqo = await fetchExport(
      app,
      `/export?format=jsonl&oqo=${encodeURIComponent(JSON.stringify({ get_rows: 'works', filter_rows: [{ column_id: 'publication_year', value: 2020 }] }))}&sort=cited_by_count:desc&select=id`,
    )
    expect(text(oqo.bytes)).toBe(text(listed.bytes))
    expect(text(listed.bytes).split('\n').length - 1).toBe(works2020().length)

    for (const [path, parameter, code] of [
      [
        `/export?format=csv&oql=${encodeURIComponent('works where colour is blue')}`,
        'oql',
        'OQL_UNKNOWN_FIELD',
      ],
      ['/export?format=csv&oqo=%7Bnot', 'oqo', 'invalid_oqo'],
      ['/export?format=csv', 'oql', 'missing_parameter'],
      [`/export?oql=works&format=csv&page=2`, 'page', 'invalid_export'],
      [`/export?oql=${encodeURIComponent('works group by type')}&format=csv`, undefined, 'invalid_export'],
    ] as const) {
      const response = await fetchExport(app, path)
      expect(response.status, path).toBe(400)
      const body = JSON.parse(text(response.bytes)) as {
        code: string
        parameter?: string
        errors?: { code: string; parameter?: string }[]
      }
      const problems = body.errors ?? [body]
      expect(
        problems.some((problem) => problem.code === code && problem.parameter === parameter),
        `${path}: ${JSON.stringify(body)}`,
      ).toBe(true)
    }
  })

  it('answers HEAD with the row count and no rows, uncharged, holding no slot', async () => {
    const limits = new RequestLimits()
    const app = createApp({
      adapter: sample.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      limits,
      metering: { keys: createMemoryKeyStore(), meter: createMemoryMeterStore() },
    })
    const response = await app.fetch(
      new Request('http://localhost/works/export?format=csv&filter=publication_year:2020', {
        method: 'HEAD',
      }),
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('x-export-rows')).toBe(String(works2020().length))
    expect(response.headers.get('x-ratelimit-credits-used')).toBe('0')
    expect(await response.text()).toBe('')
    expect(limits.admission.load.running).toBe(0)
    expect(limits.exportAdmission.load.running).toBe(0)
    expect(limits.inFlight).toBe(0)
  })

  it('answers 400 naming the parameter for a missing or unknown format, paging and group_by', async () => {
    const app = appOf()
    for (const [path, parameter] of [
      ['/works/export?filter=publication_year:2020', 'format'],
      ['/works/export?format=xlsx', 'format'],
      ['/works/export?format=csv&format=json', 'format'],
      ['/works/export?format=csv&page=2', 'page'],
      ['/works/export?format=csv&cursor=*', 'cursor'],
      ['/works/export?format=csv&group_by=type', 'group_by'],
      ['/works/export?format=csv&filter=colour:blue', 'filter'],
    ] as const) {
      const response = await fetchExport(app, path)
      expect(response.status, path).toBe(400)
      const body = JSON.parse(text(response.bytes)) as {
        message: string
        parameter?: string
        errors?: { parameter?: string }[]
      }
      const parameters = [body.parameter, ...(body.errors ?? []).map((problem) => problem.parameter)]
      expect(parameters, path).toContain(parameter)
    }
    const unknown = await fetchExport(app, '/widgets/export?format=csv')
    expect(unknown.status).toBe(404)
    expect(sample.faults).toEqual([])
  })

  it('counts an export as one request of the rate window, though its rows are charged after the gate', async () => {
    // Two requests a minute: the export and one list fit, a third request does not.
    const app = appOf({ limits: { ...DEFAULT_METERING_LIMITS, requestsPerWindow: 2, rateWindowMs: 60_000 } })
    expect((await fetchExport(app, '/works/export?format=jsonl&select=id')).status).toBe(200)
    expect((await app.fetch(new Request('http://localhost/works?per_page=1'))).status).toBe(200)
    const third = await app.fetch(new Request('http://localhost/works?per_page=1'))
    expect(third.status).toBe(429)
    expect(await third.json()).toMatchObject({ code: 'rate_limited' })
  })

  it('charges the list price per 1,000 rows begun, before any row, and refuses with 429 what the budget cannot pay', async () => {
    const rows = coreWorks().length
    const units = Math.ceil(rows / 1000)
    const app = appOf({ limits: DEFAULT_METERING_LIMITS })
    const paid = await fetchExport(app, '/works/export?format=jsonl&select=id')
    expect(paid.status).toBe(200)
    expect(paid.headers.get('x-export-rows')).toBe(String(rows))
    expect(text(paid.bytes).split('\n').length - 1).toBe(rows)
    expect(Number(paid.headers.get('x-ratelimit-credits-used'))).toBeCloseTo(0.0001 * units, 10)
    // A search is priced as its list: the search price per 1,000 rows.
    const searched = await fetchExport(app, '/works/export?format=jsonl&select=id&search=cancer')
    expect(searched.status).toBe(200)
    const found = Number(searched.headers.get('x-export-rows'))
    expect(Number(searched.headers.get('x-ratelimit-credits-used'))).toBeCloseTo(
      0.001 * Math.max(1, Math.ceil(found / 1000)),
      10,
    )

    // A budget of less than the export's price: 429 before any row, and nothing taken from the budget.
    const tight: MeteringLimits = {
      ...DEFAULT_METERING_LIMITS,
      anonymousDailyBudgetUsd: 0.0001 * units - 0.00001,
    }
    const poor = appOf({ limits: tight })
    const refused = await fetchExport(poor, '/works/export?format=csv')
    expect(refused.status).toBe(429)
    expect(JSON.parse(text(refused.bytes))).toMatchObject({ code: 'budget_exhausted' })
    expect(refused.headers.get('x-ratelimit-credits-used')).toBe('0')
    const rate = await get({ ...sample, app: poor }, '/rate-limit')
    expect((rate.body.rate_limit as { daily_used_usd: number }).daily_used_usd).toBe(0)
    // A failed export (bad format) costs nothing either.
    const failed = await fetchExport(poor, '/works/export?format=xlsx')
    expect(failed.status).toBe(400)
    expect(failed.headers.get('x-ratelimit-credits-used')).toBe('0')
  })
})
