// Full-text search through the catalog's search index (`src/search`): the adapter finds the index in
// catalog.json, filters and scores with it, sorts by relevance (with keyset paging), and refuses what it cannot
// search with typed errors.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { withSearchIndex } from '@oqlkit/catalog'
import {
  encodeCursor,
  isUnsupportedPlanError,
  planQuery,
  QueryInterruptedError,
  type QueryPlan,
  type UnsupportedPlanError,
  type ViewParameters,
} from '@oqlkit/engine'
import { buildSearchIndex } from '@oqlkit/ingest'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { positionalToAnonymous } from '../src/query/catalog-search.ts'
import { createDuckDbAdapter, type DuckDbAdapter, pageThenCount } from '../src/query/duckdb-adapter.ts'
import { openDuckDbDatabase } from '../src/query/duckdb-driver.ts'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { compileSearch, expansionLimitOf } from '../src/search/search-compiler.ts'
import { ingestSampleCatalog, readSampleRecords } from './query-sample-fixture.ts'

// The same searches over both ways of holding a catalog: tables in memory (small catalogs), and narrow tables
// beside the views (large ones), where matches join to the rows by their number in the index.
const LOADS = ['tables', 'narrow'] as const
const adapters = new Map<(typeof LOADS)[number], DuckDbAdapter>()
let dispose: () => void
let catalogDir: string
const catalogDirOf = (): string => catalogDir
const works = readSampleRecords('works')

beforeAll(async () => {
  const catalog = await ingestSampleCatalog()
  dispose = catalog.dispose
  catalogDir = catalog.catalogDir
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  const index = await buildSearchIndex({
    connection,
    catalogDir: catalog.catalogDir,
    entities: ['works', 'authors'],
  })
  connection.closeSync()
  instance.closeSync()
  const manifestPath = join(catalog.catalogDir, 'catalog.json')
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'))
  await writeFile(manifestPath, JSON.stringify(withSearchIndex(manifest, index)))
  for (const load of LOADS)
    adapters.set(load, await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load }))
})
afterAll(async () => {
  for (const adapter of adapters.values()) await adapter.close()
  dispose?.()
})

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const search = (column_id: string, value: string, extra = {}): Oqo['filter_rows'] & object => [
  { column_id, value, operator: 'has', ...extra },
]
/** Titles split into lower-case words, as a reader would (the words used here are plain ASCII). */
const titleWords = (record: Record<string, unknown>): Set<string> =>
  new Set(
    String(record.display_name ?? '')
      .toLowerCase()
      .split(/[^a-z0-9]+/),
  )

for (const load of LOADS)
  describe(`full-text search (${load} catalog)`, () => {
    let adapter: DuckDbAdapter
    beforeAll(() => {
      adapter = adapters.get(load)!
    })

    it('says it can search, by words and (with the vectors ingest built) by meaning', () => {
      expect(adapter.capabilities).toMatchObject({ fullTextSearch: true, semanticSearch: true })
    })

    it('finds the works whose title has the word (exact mode), with relevance scores, best first', async () => {
      const expected = works.filter((work) => titleWords(work).has('cancer')).length
      expect(expected).toBeGreaterThan(2)
      const result = await adapter.queryRows(
        planOf(
          { get_rows: 'works', filter_rows: search('display_name.search.exact', 'cancer') },
          { perPage: 100 },
        ),
      )
      expect(result.count).toBe(expected)
      const scores = result.rows.map((row) => row.relevance_score as number)
      expect(scores.every((score) => score > 0)).toBe(true)
      expect(scores).toEqual([...scores].sort((a, b) => b - a))
    })

    it('excludes the matches when negated, and combines with other filters and group-by', async () => {
      const all = (await adapter.queryRows(planOf({ get_rows: 'works' }))).count
      const positive = (
        await adapter.queryRows(planOf({ get_rows: 'works', filter_rows: search('title.search', 'climate') }))
      ).count
      const negated = await adapter.queryRows(
        planOf({ get_rows: 'works', filter_rows: search('title.search', 'climate', { is_negated: true }) }),
      )
      expect(positive).toBeGreaterThan(0)
      expect(negated.count).toBe(all - positive)
      expect(negated.rows[0]).not.toHaveProperty('relevance_score')
      const recent = await adapter.queryRows(
        planOf(
          {
            get_rows: 'works',
            filter_rows: [
              ...search('title.search', 'climate'),
              { column_id: 'publication_year', value: 2015, operator: '>' },
            ],
          },
          { sort: [{ field: 'publication_year', direction: 'desc' }] },
        ),
      )
      expect(recent.count).toBeLessThanOrEqual(positive)
      expect(recent.rows.every((row) => (row.publication_year as number) > 2015)).toBe(true)
      expect(recent.rows.every((row) => typeof row.relevance_score === 'number')).toBe(true)
      const groups = await adapter.queryGroups(
        planOf({
          get_rows: 'works',
          filter_rows: search('title.search', 'climate'),
          group_by: [{ column_id: 'type' }],
        }),
      )
      expect(groups.count).toBe(positive)
      expect(groups.groups.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(positive)
    })

    it('pages by cursor through a relevance order exactly as by offset', async () => {
      const oqo: Oqo = { get_rows: 'works', filter_rows: search('title_and_abstract.search', 'health') }
      const byOffset = await adapter.queryRows(planOf(oqo, { perPage: 100 }))
      expect(byOffset.count).toBeGreaterThan(10)
      const byCursor: unknown[] = []
      let cursor = '*'
      for (let guard = 0; guard < 50; guard++) {
        const planned = planQuery(oqo, { perPage: 7, cursor })
        if (!planned.ok) throw new Error('plan')
        const page = await adapter.queryRows(planned.plan)
        // Past the first page too, the count is of every match, not of those after the cursor.
        expect(page.count).toBe(byOffset.count)
        byCursor.push(...page.rows.map((row) => row.id))
        if (page.nextAfter === null) break
        cursor = encodeCursor(planned.sortSignature, page.nextAfter)
      }
      expect(byCursor).toEqual(byOffset.rows.map((row) => row.id))
    })

    it('searches other entities with an index (authors by name)', async () => {
      const result = await adapter.queryRows(
        planOf({ get_rows: 'authors', filter_rows: search('display_name.search', 'smith') }),
      )
      expect(result.count).toBeGreaterThan(0)
      for (const row of result.rows) expect(String(row.display_name).toLowerCase()).toMatch(/smith/)
    })

    it('runs semantic search, and refuses searches the index cannot do and entities it does not cover', async () => {
      const reasons = async (oqo: Oqo): Promise<string> => {
        try {
          await adapter.queryRows(planOf(oqo))
        } catch (error) {
          expect(isUnsupportedPlanError(error)).toBe(true)
          return (error as { reason: string }).reason
        }
        return 'ran'
      }
      expect(await reasons({ get_rows: 'works', filter_rows: search('semantic.search', 'cancer') })).toBe(
        'ran',
      )
      expect(
        await reasons({ get_rows: 'works', filter_rows: search('display_name.search.exact', '*ancer') }),
      ).toBe('invalid_search')
      expect(
        await reasons({ get_rows: 'works', filter_rows: search('raw_author_name.search', 'smith') }),
      ).toBe('full_text_search')
      expect(
        await reasons({ get_rows: 'sources', filter_rows: search('display_name.search', 'nature') }),
      ).toBe('full_text_search')
    })

    it('passes search text only as parameters', async () => {
      const payload = "climate'); DROP TABLE works; --"
      const plan = planOf({ get_rows: 'works', filter_rows: search('title.search', payload) })
      const compiled = adapter.compile(plan)
      expect(compiled.sql).not.toContain('DROP')
      expect(compiled.count.sql).not.toContain('DROP')
      await adapter.queryRows(plan)
      expect((await adapter.queryRows(planOf({ get_rows: 'works' }))).count).toBeGreaterThan(0)
    })
  })

describe('a catalog whose search index is of an earlier format', () => {
  it('refuses searches, saying to build the index again with oqlkit index', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oqlkit-old-index-'))
    try {
      cpSync(catalogDir, dir, { recursive: true })
      const manifest = JSON.parse(await readFile(join(dir, 'catalog.json'), 'utf8'))
      manifest.extensions.search.formatVersion = 2
      await writeFile(join(dir, 'catalog.json'), JSON.stringify(manifest))
      const adapter = await createDuckDbAdapter({ catalogDir: dir })
      try {
        const refused = await adapter
          .queryRows(planOf({ get_rows: 'works', filter_rows: search('title.search', 'cancer') }))
          .then(
            () => undefined,
            (error: unknown) => error,
          )
        expect(isUnsupportedPlanError(refused)).toBe(true)
        expect((refused as { reason: string }).reason).toBe('full_text_search')
        expect((refused as Error).message).toContain(
          "this catalog's search index is of an older format than this oqlkit reads (version 3); build it again with `oqlkit index <catalog>`",
        )
        // Everything else is still answered.
        const listed = await adapter.queryRows(planOf({ get_rows: 'works' }))
        expect(listed.count).toBe(works.length)
      } finally {
        await adapter.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('full-text search over narrow tables', () => {
  const queries: [string, Oqo, ViewParameters][] = [
    ['one word', { get_rows: 'works', filter_rows: search('title_and_abstract.search', 'health') }, {}],
    [
      'two words and a year',
      {
        get_rows: 'works',
        filter_rows: [
          ...search('default.search', 'cancer cells'),
          { column_id: 'publication_year', value: 2010, operator: '>' },
        ],
      },
      {},
    ],
    [
      'a search inside an OR',
      {
        get_rows: 'works',
        filter_rows: [
          {
            join: 'or',
            filters: [...search('title.search', 'climate'), { column_id: 'type', value: 'dataset' }],
          },
        ],
      },
      { sort: [{ field: 'cited_by_count', direction: 'desc' }] },
    ],
    ['authors by name', { get_rows: 'authors', filter_rows: search('display_name.search', 'smith') }, {}],
    [
      'a search and a negated one',
      {
        get_rows: 'works',
        filter_rows: [
          ...search('title_and_abstract.search', 'health'),
          ...search('title.search', 'care', { is_negated: true }),
        ],
      },
      {},
    ],
    [
      'a search and a column read from the records (the view, inside narrow mode)',
      {
        get_rows: 'works',
        filter_rows: [
          ...search('title_and_abstract.search', 'health'),
          { column_id: 'authorships.institutions.type', value: 'education' },
        ],
      },
      {},
    ],
    ['a semantic search', { get_rows: 'works', filter_rows: search('semantic.search', 'cancer cells') }, {}],
  ]

  it.each(queries)('answers %s as the tables in memory do, scores included', async (_, oqo, view) => {
    const plan = planOf(oqo, { perPage: 100, ...view })
    const [tables, narrow] = await Promise.all(LOADS.map((load) => adapters.get(load)!.queryRows(plan)))
    expect(tables!.count).toBeGreaterThan(0)
    expect(narrow!.count).toBe(tables!.count)
    expect(narrow!.rows).toEqual(tables!.rows)
  })

  it('counts the matches in the page statement, and still counts them for a page past the last', async () => {
    const oqo: Oqo = { get_rows: 'works', filter_rows: search('title_and_abstract.search', 'health') }
    const narrow = adapters.get('narrow')!
    const first = await narrow.queryRows(planOf(oqo, { perPage: 10 }))
    expect(narrow.compile(planOf(oqo, { perPage: 10 }))).toMatchObject({ countInPage: { firstPage: true } })
    expect(first.rows).toHaveLength(10)
    const beyond = await narrow.queryRows(planOf(oqo, { perPage: 10, page: Math.ceil(first.count / 10) + 1 }))
    expect(beyond.rows).toHaveLength(0)
    expect(beyond.count).toBe(first.count)
  })

  it('runs a search without hits once: an empty first page counts none', async () => {
    const oqo: Oqo = { get_rows: 'works', filter_rows: search('title.search', 'zyxwvutsq') }
    const narrow = adapters.get('narrow')!
    expect(narrow.compile(planOf(oqo, { perPage: 10 }))).toMatchObject({ countInPage: { firstPage: true } })
    expect(narrow.compile(planOf(oqo, { perPage: 10, page: 2 }))).toMatchObject({
      countInPage: { firstPage: false },
    })
    const none = await narrow.queryRows(planOf(oqo, { perPage: 10 }))
    expect(none).toMatchObject({ count: 0, rows: [] })
    // What the adapter runs for such a page: the page statement alone on the first page, the count after it
    // on a later one (the statements here are stand-ins that tell which ran).
    const db = await openDuckDbDatabase({ threads: 1 })
    const ran: string[] = []
    const recording = {
      all: (text: string, params?: readonly unknown[]) => {
        ran.push(text)
        return db.all(text, params as never)
      },
    }
    const query = {
      sql: 'SELECT 1 AS __count WHERE FALSE',
      params: [],
      count: { sql: 'SELECT 7 AS __count', params: [] },
    }
    expect(
      await pageThenCount(recording as never, { ...query, countInPage: { firstPage: true } } as never),
    ).toEqual([[{ __count: 0 }], []])
    expect(ran).toEqual([query.sql])
    expect(
      await pageThenCount(recording as never, { ...query, countInPage: { firstPage: false } } as never),
    ).toEqual([[{ __count: 7 }], []])
    expect(ran).toEqual([query.sql, query.sql, query.count.sql])
    await db.close()
  })

  it('joins the matches a query requires by their number in the index, not by id text', () => {
    const compiled = adapters
      .get('narrow')!
      .compile(planOf({ get_rows: 'works', filter_rows: search('title.search', 'climate') }))
    expect(compiled.sql).toContain('FROM "works__narrow" AS e JOIN __s0 ON __s0.doc = e."__search_doc"')
    expect(compiled.count.sql).toContain('JOIN __s0 ON __s0.doc = e."__search_doc"')
    expect(compiled.sql).not.toMatch(/IN \(SELECT doc FROM/)
  })
})

describe('search cost and its limits', () => {
  /** The distinct plain words of a work's abstract, in the order they first appear. */
  const abstractWords = (record: Record<string, unknown>): string[] => {
    const index = (record.abstract_inverted_index ?? {}) as Record<string, number[]>
    return Object.entries(index)
      .flatMap(([word, positions]) => positions.map((position) => [position, word] as const))
      .sort((a, b) => a[0] - b[0])
      .map(([, word]) => word.toLowerCase())
      .filter((word, i, all) => /^[a-z]{4,}$/.test(word) && all.indexOf(word) === i)
  }
  const wordy = works.find((work) => abstractWords(work).length >= 80)!

  it('finds a work by more words than fit the bit tags of an and (80 of its abstract)', async () => {
    expect(wordy).toBeDefined()
    const words = abstractWords(wordy).slice(0, 80)
    const adapter = adapters.get('tables')!
    const found = await adapter.queryRows(
      planOf({ get_rows: 'works', filter_rows: search('title_and_abstract.search', words.join(' ')) }),
    )
    expect(found.rows.map((row) => row.id)).toContain(wordy.id)
    // One word no record has: an and of every word matches nothing.
    const none = await adapter.queryRows(
      planOf({
        get_rows: 'works',
        filter_rows: search('title_and_abstract.search', [...words.slice(0, 79), 'zqxjvwkpl'].join(' ')),
      }),
    )
    expect(none.count).toBe(0)
  })

  it('refuses a search of more than 100 words, naming the limit', async () => {
    const words = Array.from({ length: 101 }, (_, i) => `word${i}`).join(' ')
    const error = await adapters
      .get('tables')!
      .queryRows(planOf({ get_rows: 'works', filter_rows: search('title.search', words) }))
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
    expect(isUnsupportedPlanError(error)).toBe(true)
    expect((error as UnsupportedPlanError).reason).toBe('invalid_search')
    expect((error as Error).message).toMatch(/at most 100 words \(this one has 101\)/)
  })

  it('refuses more than 10 wildcards in one search', () => {
    const words = Array.from({ length: 11 }, (_, i) => `abc${i}*`).join(' ')
    expect(() =>
      adapters
        .get('tables')!
        .compile(planOf({ get_rows: 'works', filter_rows: search('title.search.exact', words) })),
    ).toThrow(/at most 10 words with wildcards/)
  })

  it('fails a wildcard that stands for more index terms than allowed, with a message that says so', async () => {
    const catalog = adapters.get('tables')!
    // The sample's index has few terms per prefix: the limit is lowered to show the guard at work.
    const manifest = JSON.parse(await readFile(join(catalogDirOf(), 'catalog.json'), 'utf8'))
    const index = manifest.extensions.search.entities.works
    const db = await openDuckDbDatabase({ threads: 1, connections: 1 })
    const compile = (max: number) => {
      const compiled = compileSearch(
        { entity: 'works', field: 'display_name', mode: 'exact', match: { kind: 'word', text: 'inte*' } },
        { catalogDir: catalogDirOf(), index, maxWildcardExpansions: max },
      )
      if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
      return positionalToAnonymous(compiled.sql, compiled.params)
    }
    const within = compile(100)
    expect((await db.all(within.sql, within.params)).length).toBeGreaterThan(0)
    const error = await db.all(compile(1).sql, compile(1).params).then(
      () => undefined,
      (thrown: unknown) => thrown,
    )
    expect(expansionLimitOf(error)).toMatch(
      /^"inte\*" matches more than 1 words of the index; .* at most 1\./,
    )
    expect(expansionLimitOf(new Error('Binder Error: other'))).toBeUndefined()
    await db.close()
    expect(catalog.capabilities.fullTextSearch).toBe(true)
  })

  it('stops a search whose signal has fired, and answers the next one', async () => {
    const adapter = adapters.get('narrow')!
    const controller = new AbortController()
    controller.abort()
    const plan = planOf({ get_rows: 'works', filter_rows: search('title.search', 'climate') })
    await expect(adapter.queryRows(plan, { signal: controller.signal })).rejects.toBeInstanceOf(
      QueryInterruptedError,
    )
    await expect(
      adapter.queryGroups(
        { ...plan, groupBy: planOf({ get_rows: 'works', group_by: [{ column_id: 'type' }] }).groupBy },
        { signal: controller.signal },
      ),
    ).rejects.toBeInstanceOf(QueryInterruptedError)
    expect((await adapter.queryRows(plan, { signal: AbortSignal.timeout(30_000) })).count).toBeGreaterThan(0)
  })
})

describe('an OR of searches (search=a|b|…)', () => {
  type Filters = NonNullable<Oqo['filter_rows']>
  const anyOf = (filters: Filters): Filters => [{ join: 'or', filters }] as Filters
  /** Every row of a query (pages of 200), by relevance when it scores, as id → relevance score. */
  const scoresOf = async (
    adapter: DuckDbAdapter,
    filter_rows: Filters,
    scored = true,
  ): Promise<Map<string, number>> => {
    const sort = scored ? { sort: [{ field: 'relevance_score', direction: 'desc' }] } : {}
    const scores = new Map<string, number>()
    for (let page = 1; ; page++) {
      const result = await adapter.queryRows(
        planOf({ get_rows: 'works', filter_rows }, { perPage: 200, page, ...sort }),
      )
      for (const row of result.rows) scores.set(String(row.id), Number(row.relevance_score))
      if (scores.size >= result.count || result.rows.length === 0) return scores
    }
  }

  // Words, a word repeated, phrases, fields and modes, and a NOT among them.
  const terms: Filters = [
    ...search('title.search', 'cancer'),
    ...search('title.search', 'climate'),
    ...search('title.search', 'cancer'),
    ...search('title.search', '"climate change"'),
    ...search('title.search', 'mental health'),
    ...search('abstract.search', 'children'),
    ...search('display_name.search.exact', 'clim*'),
    ...search('title.search', 'neural', { is_negated: true }),
  ]

  for (const load of LOADS)
    it(`finds the union of its terms' matches, each scored by the sum of the terms it matches (${load})`, async () => {
      const adapter = adapters.get(load)!
      const union = await scoresOf(adapter, anyOf(terms))
      const expected = new Map<string, number>()
      for (const term of terms) {
        const negated = 'is_negated' in term && term.is_negated === true
        // A negated term selects without scoring: its rows have no relevance of their own.
        for (const [id, score] of await scoresOf(adapter, [term], !negated))
          expected.set(id, (expected.get(id) ?? 0) + (negated ? 0 : score))
      }
      expect(union.size).toBeGreaterThan(100)
      expect([...union.keys()].sort()).toEqual([...expected.keys()].sort())
      for (const [id, score] of union) expect(score, id).toBeCloseTo(expected.get(id)!, 6)
      const ordered = [...union.values()]
      expect(ordered).toEqual([...ordered].sort((a, b) => b - a))
    }, 60_000)

  it('scores a word repeated n times n times its own score, and one repeated 100 times too', async () => {
    const adapter = adapters.get('narrow')!
    const once = await scoresOf(adapter, search('title.search', 'cancer'))
    for (const n of [3, 100]) {
      const repeated = await scoresOf(
        adapter,
        anyOf(Array.from({ length: n }, () => search('title.search', 'cancer')[0]!)),
      )
      expect([...repeated.keys()]).toEqual([...once.keys()])
      for (const [id, score] of repeated) expect(score, id).toBeCloseTo(once.get(id)! * n, 6)
    }
  }, 60_000)

  it('is one relation of one aggregate over its terms, however many: 100 terms join as many tables as 10', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`)
    const shapeOf = (n: number) => {
      const { sql } = adapters.get('narrow')!.compile(
        planOf({
          get_rows: 'works',
          filter_rows: anyOf(words.slice(0, n).flatMap((word) => search('title.search', word))),
        }),
      )
      return {
        relations: new Set(sql.match(/__s\d+/g)).size,
        joins: sql.match(/\bJOIN\b/g)?.length ?? 0,
        aggregates: sql.match(/\bGROUP BY\b/g)?.length ?? 0,
        conditions: sql.match(/IN \(SELECT doc FROM/g)?.length ?? 0,
        branches: (sql.match(/\bUNION ALL\b/g)?.length ?? 0) + 1,
      }
    }
    const [ten, hundred] = [shapeOf(10), shapeOf(100)]
    expect(hundred).toEqual({ ...ten, branches: 100 })
    expect(ten.branches).toBe(10)
    // One relation for the whole OR, joined as a required search is: no condition per term.
    expect(hundred.relations).toBe(1)
    expect(hundred.conditions).toBe(0)
    expect(hundred.aggregates).toBeLessThanOrEqual(3)
    // Beside another alternative, the OR's searches are one condition on their relation, not one each.
    const { sql } = adapters.get('narrow')!.compile(
      planOf({
        get_rows: 'works',
        filter_rows: anyOf([
          ...words.flatMap((word) => search('title.search', word)),
          { column_id: 'publication_year', value: 2020 },
        ]),
      }),
    )
    expect(new Set(sql.match(/__s\d+/g)).size).toBe(1)
    expect(sql.match(/IN \(SELECT doc FROM/g)?.length).toBe(1)
  })

  it('checks each term alone: an invalid one is named, and the words of all terms are not summed', () => {
    const adapter = adapters.get('tables')!
    const compile = (filter_rows: Filters) => () =>
      adapter.compile(planOf({ get_rows: 'works', filter_rows }))
    expect(
      compile(
        anyOf([
          ...search('display_name.search.exact', 'cancer'),
          ...search('display_name.search.exact', '*ancer'),
        ]),
      ),
    ).toThrow(/Cannot search display_name\.search\.exact for "\*ancer": a wildcard cannot start a word/)
    // 10 terms of 20 words each: 200 words in all, each term within the 100-word limit of one search.
    const long = Array.from(
      { length: 10 },
      (_, t) => search('title.search', Array.from({ length: 20 }, (_, w) => `w${t}x${w}`).join(' '))[0]!,
    )
    expect(compile(anyOf(long))).not.toThrow()
  })
})
