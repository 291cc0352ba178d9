// The page's pure parts, without a browser: how values, statuses, links and year series are written.
import { describe, expect, it } from 'vitest'
import {
  idsOf,
  idsProblem,
  type LookupBody,
  type SnowballBody,
  snowballFrom,
} from '../src/id-batch-runner.ts'
import { lookupRows, lookupStatusText, snowballRows, snowballStatusText } from '../src/id-batch-view.ts'
import type { ListEnvelope } from '../src/list-envelope.ts'
import {
  DEFAULT_PER_PAGE,
  entityPageLink,
  exportLink,
  linkFor,
  normalizeSelect,
  readLinkState,
} from '../src/playground-link-state.ts'
import { formatUsd, runCostUsd, runStatusText } from '../src/run-status-format.ts'
import { shortId, summarizeValue } from '../src/value-summary-format.ts'
import { yearPoints } from '../src/year-series-format.ts'

describe('summarizeValue', () => {
  it('shows scalars as they are and an empty value as a dash', () => {
    expect(summarizeValue('Capital')).toBe('Capital')
    expect(summarizeValue(2020)).toBe('2020')
    expect(summarizeValue(false)).toBe('false')
    expect(summarizeValue(null)).toBe('—')
    expect(summarizeValue([])).toBe('—')
  })

  it('names an entity by its display name, or by the one entity it wraps', () => {
    expect(summarizeValue({ id: 'https://openalex.org/T1', display_name: 'Finance', score: 0.9 })).toBe(
      'Finance',
    )
    expect(
      summarizeValue({ author_position: 'first', author: { id: 'x', display_name: 'David Harvey' } }),
    ).toBe('David Harvey')
    expect(summarizeValue({ id: 'https://openalex.org/S42' })).toBe('S42')
  })

  it('lists the first three items of a list and says how many more there are', () => {
    const authors = ['A', 'B', 'C', 'D', 'E'].map((name) => ({ author: { display_name: name } }))
    expect(summarizeValue(authors)).toBe('A; B; C; +2 more')
    expect(summarizeValue(['en', 'fr'])).toBe('en; fr')
  })

  it('writes a small object of scalars as its non-empty fields, and cuts a long text to a line', () => {
    expect(summarizeValue({ volume: '3', issue: null, first_page: '14' })).toBe('volume: 3, first_page: 14')
    const long = summarizeValue('x'.repeat(500))
    expect(long).toHaveLength(160)
    expect(long.endsWith('…')).toBe(true)
    expect(summarizeValue({ a: { b: { c: 1 } } })).toBe('a: b: …')
  })

  it('takes the short id from the end of an entity URL', () => {
    expect(shortId('https://openalex.org/W1511186454')).toBe('W1511186454')
    expect(shortId('https://openalex.org/types/article')).toBe('article')
  })
})

describe('runStatusText', () => {
  const list: ListEnvelope = {
    meta: { count: 52, db_response_time_ms: 12, cost_usd: 0.0001, x_query: { oqo: { get_rows: 'works' } } },
    results: [],
    group_by: [],
  }

  it('says the count, the page’s time with the database’s share, and the cost', () => {
    expect(runStatusText({ body: list, clientMs: 34, costUsd: 0.0001 })).toBe(
      '52 results in 34 ms (database 12 ms) · $0.0001',
    )
    expect(
      runStatusText({ body: { ...list, meta: { ...list.meta, count: 1 } }, clientMs: 5, costUsd: null }),
    ).toBe('1 result in 5 ms (database 12 ms)')
  })

  it('names the data the answer comes from, with its snapshot date when known', () => {
    const versioned = (snapshot: string | null): ListEnvelope => ({
      ...list,
      meta: { ...list.meta, data_version: { name: '2025-01', snapshot_date: snapshot, fingerprint: 'f' } },
    })
    expect(runStatusText({ body: versioned('2025-01-20'), clientMs: 34, costUsd: 0.0001 })).toBe(
      '52 results in 34 ms (database 12 ms) · $0.0001 · data 2025-01 (2025-01-20)',
    )
    expect(runStatusText({ body: versioned(null), clientMs: 34, costUsd: null })).toBe(
      '52 results in 34 ms (database 12 ms) · data 2025-01',
    )
  })

  it('counts the groups of a grouping, and of what', () => {
    const groups: ListEnvelope = {
      meta: { ...list.meta, count: 565, groups_count: 15 },
      group_by: [{ key: 'a', count: 1 }],
    }
    expect(runStatusText({ body: groups, clientMs: 20, costUsd: 0.0001 })).toBe(
      '15 groups of 565 works in 20 ms (database 12 ms) · $0.0001',
    )
  })

  it('takes the cost from X-RateLimit-Credits-Used when the server meters, else from meta.cost_usd', () => {
    expect(runCostUsd(new Headers({ 'X-RateLimit-Credits-Used': '0.001' }), list)).toBe(0.001)
    expect(runCostUsd(new Headers({ 'X-RateLimit-Credits-Used': '0' }), list)).toBe(0)
    expect(runCostUsd(new Headers(), list)).toBe(0.0001)
    expect(runCostUsd(new Headers({ 'X-RateLimit-Credits-Used': 'n/a' }), list)).toBe(0.0001)
    expect(runCostUsd(new Headers(), { meta: {} })).toBeNull()
  })

  it('writes dollars without rounding a cheap call away', () => {
    expect(formatUsd(0.0001)).toBe('$0.0001')
    expect(formatUsd(0.01)).toBe('$0.01')
    expect(formatUsd(0)).toBe('$0')
  })
})

describe('the page link', () => {
  const page = new URL('http://127.0.0.1:8080/playground')

  it('carries the query and the view it differs in, and reads back to the same state', () => {
    const state = { q: 'works where year is 2020', page: 2, perPage: 50, select: ' id, display_name ' }
    const link = linkFor(page, state)
    expect(link.searchParams.get('q')).toBe('works where year is 2020')
    expect(link.searchParams.get('select')).toBe('id,display_name')
    expect(readLinkState(link.search)).toEqual({
      ...state,
      select: 'id,display_name',
      hasQuery: true,
      entity: null,
    })
    expect(linkFor(page, { q: 'works', page: 1, perPage: DEFAULT_PER_PAGE, select: '' }).search).toBe(
      '?q=works',
    )
  })

  it('reads a link without a query, or with nonsense numbers, as the defaults', () => {
    expect(readLinkState('?page=-3&per_page=lots')).toEqual({
      entity: null,
      hasQuery: false,
      q: '',
      page: 1,
      perPage: DEFAULT_PER_PAGE,
      select: '',
    })
    expect(readLinkState('?q=works&per_page=1000').perPage).toBe(100)
  })

  it("reads an entity page's address, and nothing that is not one", () => {
    const link = entityPageLink(page, 'works/W2741809807')
    expect(link.search).toBe('?entity=works%2FW2741809807')
    expect(readLinkState(link.search).entity).toBe('works/W2741809807')
    expect(readLinkState('?entity=work-types%2Farticle').entity).toBe('work-types/article')
    for (const bad of [
      'works',
      '../works/W1',
      'works/W1/extra',
      'works/<script>',
      '',
      'properties/works',
      'query/spec',
      'works/export',
      'planets/P1',
    ])
      expect(readLinkState(`?entity=${encodeURIComponent(bad)}`).entity, bad).toBeNull()
  })

  it('points the downloads at the export endpoint of the query', () => {
    const link = exportLink(new URL('http://127.0.0.1:8080/'), 'works where year is 2020', 'csv', 'id, title')
    expect(link.pathname).toBe('/export')
    expect([...link.searchParams]).toEqual([
      ['oql', 'works where year is 2020'],
      ['format', 'csv'],
      ['select', 'id,title'],
    ])
    expect(normalizeSelect(' , ')).toBe('')
  })
})

describe('yearPoints', () => {
  it('gives every year from the first to the last, in order, a missing year as 0', () => {
    expect(
      yearPoints([
        { key: '2020', count: 52 },
        { key: '2017', count: 5 },
        { key: '2019', count: 8 },
      ]),
    ).toEqual([
      { x: 2017, y: 5 },
      { x: 2018, y: 0 },
      { x: 2019, y: 8 },
      { x: 2020, y: 52 },
    ])
    expect(yearPoints([{ key: 'unknown', count: 3 }])).toEqual([])
  })
})

describe('many ids at once', () => {
  const version = { name: 'default', snapshot_date: '2025-01-20', fingerprint: 'f' }

  it('reads ids one a line, or between spaces or commas, in order, blanks dropped', () => {
    expect(idsOf(' W1\n\n10.1/abc, https://orcid.org/0000-0001\tW1 ')).toEqual([
      'W1',
      '10.1/abc',
      'https://orcid.org/0000-0001',
      'W1',
    ])
    expect(idsProblem([], 10, 'a lookup')).toBe('Give the ids a lookup, one a line.')
    expect(idsProblem(['a', 'b', 'c'], 2, 'a snowball')).toBe('3 ids: a snowball takes at most 2.')
    expect(idsProblem(['a'], 2, 'a lookup')).toBeUndefined()
  })

  it('shows a lookup as a row per id in order, the miss with its reason and the merged id with its survivor', () => {
    const body: LookupBody = {
      meta: { count: 3, found: 2, missing: 1, cost_usd: 0.0001, data_version: version },
      results: [
        { input: 'W1', record: { id: 'https://openalex.org/W1', display_name: 'One' } },
        { input: 'W9', record: null, error: 'not_found', message: 'No work W9.' },
        {
          input: 'W3',
          merged_into: 'https://openalex.org/W4',
          record: { id: 'https://openalex.org/W4', display_name: 'Four' },
        },
      ],
    }
    expect(lookupRows(body)).toEqual([
      { input: 'W1', id: 'https://openalex.org/W1', display_name: 'One', note: undefined },
      { input: 'W9', id: undefined, display_name: undefined, note: 'No work W9.' },
      { input: 'W3', id: 'https://openalex.org/W4', display_name: 'Four', note: 'merged into W4' },
    ])
    expect(lookupStatusText(body, 34)).toBe(
      '3 ids: 2 found, 1 not in 34 ms · $0.0001 · data default (2025-01-20)',
    )
  })

  it('shows a snowball as its works with the step each was reached at, and counts seeds, works and citations', () => {
    const body: SnowballBody = {
      meta: {
        count: 3,
        citations_count: 2,
        seeds_found: 1,
        direction: 'both',
        depth: 1,
        cited_not_held: 0,
        cost_usd: 0.0001,
        data_version: version,
      },
      seeds_not_found: [{ input: 'W9', message: 'No work W9.' }],
      works: [
        {
          id: 'https://openalex.org/W1',
          depth: 0,
          record: { id: 'https://openalex.org/W1', display_name: 'One' },
        },
        {
          id: 'https://openalex.org/W2',
          depth: 1,
          record: { id: 'https://openalex.org/W2', display_name: 'Two' },
        },
        { id: 'https://openalex.org/W3', depth: 1, record: { id: 'https://openalex.org/W3' } },
      ],
      citations: [
        { citing: 'https://openalex.org/W1', cited: 'https://openalex.org/W2' },
        { citing: 'https://openalex.org/W3', cited: 'https://openalex.org/W1' },
      ],
    }
    expect(snowballRows(body).map((row) => [row.depth, row.id, row.display_name])).toEqual([
      [0, 'https://openalex.org/W1', 'One'],
      [1, 'https://openalex.org/W2', 'Two'],
      [1, 'https://openalex.org/W3', undefined],
    ])
    expect(snowballStatusText(body, 48)).toBe(
      '1 seed: 2 works cited by or citing them, 2 citations among them in 48 ms · 1 seed not found · $0.0001 · data default (2025-01-20)',
    )
  })
})

describe('snowballFrom', () => {
  it('says how many seeds make a URL longer than the server reads, without sending it', async () => {
    const dois = Array.from({ length: 500 }, (_, at) => `https://doi.org/10.1234/journal.article.${at}`)
    const outcome = await snowballFrom(new URL('http://127.0.0.1:1/'), dois, 'both')
    expect(outcome.ok).toBe(false)
    if (!outcome.ok)
      expect(outcome.message).toMatch(
        /^These 500 seeds make a URL of [\d,]+ bytes, more than the server reads \(8,190\)/,
      )
  })
})
