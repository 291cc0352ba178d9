// The plan compiler without a database: which tier each column compiles to (a catalog column, a link table,
// the JSON record), how values are normalised into parameters, the typed errors for plans it cannot run, and
// the adapter's result shaping over a fake driver.

import type { CompiledRowsQuery, SqlParam } from '@oqlkit/catalog'
import { searchMatchOfText } from '@oqlkit/catalog'
import {
  type FilterNode,
  FilterNodes,
  isUnsupportedPlanError,
  planQuery,
  type QueryPlan,
  type UnsupportedPlanError,
} from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { positionalToAnonymous } from '../src/query/catalog-search.ts'
import { duckDbAdapterOver } from '../src/query/duckdb-adapter.ts'
import type { DuckDbConnectionLike, DuckDbRow } from '../src/query/duckdb-driver.ts'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'

const compiler = new DuckDbPlanCompiler({ newSampleSeed: () => 'fixed' })

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const rowsOf = (oqo: Oqo, view = {}): CompiledRowsQuery => compiler.compileRows(planOf(oqo, view))
const works = (...filter_rows: Oqo['filter_rows'] & object): Oqo => ({ get_rows: 'works', filter_rows })
const placeholders = (sql: string): number => (sql.match(/\?/g) ?? []).length

const expectUnsupported = (run: () => unknown, reason: UnsupportedPlanError['reason']) => {
  try {
    run()
  } catch (error) {
    expect(isUnsupportedPlanError(error)).toBe(true)
    expect((error as UnsupportedPlanError).reason).toBe(reason)
    return
  }
  throw new Error(`expected an UnsupportedPlanError (${reason})`)
}

describe('DuckDbPlanCompiler', () => {
  it('reads multi-valued ids from their link table, never from the records', () => {
    const query = rowsOf(
      works({ column_id: 'authorships.author.id', value: 'https://openalex.org/a5063410350' }),
    )
    expect(query.count.sql).toContain('"id" IN (SELECT work_id FROM "link_works_authors" WHERE key IN (?))')
    expect(query.count.sql).not.toContain('json_extract')
    expect(query.count.params).toEqual(['A5063410350'])
  })

  it('reads derived columns directly and the rest from the record-path column of the column path', () => {
    const year = rowsOf(works({ column_id: 'publication_year', value: 2020, operator: '>=' }))
    // Outside a NOT a comparison stays bare, so DuckDB can push it into the scan.
    expect(year.count.sql).toContain('AND "publication_year" >= ?')
    expect(year.count.sql).not.toContain('coalesce("publication_year"')
    const nested = rowsOf(works({ column_id: 'authorships.institutions.type', value: 'Education' }))
    expect(nested.count.sql).toContain('list_transform("json__authorships__institutions__type", lambda __x:')
    expect(nested.count.params).toEqual(['education'])
    const scalar = rowsOf(works({ column_id: 'apc_list.value_usd', value: 1000, operator: '>' }))
    expect(scalar.count.sql).toContain(`TRY_CAST("json__apc_list__value_usd" AS DOUBLE) > ?`)
  })

  it('normalises values to the stored form: ids, DOIs, enums, booleans, dates', () => {
    expect(rowsOf(works({ column_id: 'doi', value: 'https://doi.org/10.1234/ABC' })).count.params).toEqual([
      '10.1234/abc',
    ])
    expect(rowsOf(works({ column_id: 'type', value: 'Book-Chapter' })).count.params).toEqual(['book-chapter'])
    expect(rowsOf(works({ column_id: 'authorships.countries', value: 'us' })).count.params).toEqual(['US'])
    expect(rowsOf(works({ column_id: 'keywords.id', value: 'keywords/Deep-Learning' })).count.params).toEqual(
      ['deep-learning'],
    )
    expect(rowsOf(works({ column_id: 'primary_location.source.id', value: 's123' })).count.params).toEqual([
      'S123',
    ])
    const date = rowsOf(works({ column_id: 'to_publication_date', value: '2020-05-17' }))
    expect(date.count.sql).toContain('"publication_date" <= CAST(TRY_CAST(? AS TIMESTAMP) AS DATE)')
    expect(rowsOf(works({ column_id: 'is_oa', value: true })).count.params).toEqual([true])
  })

  it('negates without losing rows that have no value, and writes null as missing', () => {
    const negated = rowsOf(works({ column_id: 'language', value: 'en', is_negated: true }))
    expect(negated.count.sql).toContain('(NOT coalesce(lower("language") = ?, FALSE))')
    // Every leaf under a NOT is guarded, however deep, and the leaves beside it are not.
    const nested = rowsOf(
      works({
        join: 'and',
        filters: [
          { column_id: 'publication_year', value: 2020 },
          {
            join: 'or',
            is_negated: true,
            filters: [
              { column_id: 'language', value: 'en' },
              { column_id: 'is_oa', value: true },
            ],
          },
        ],
      }),
    )
    expect(nested.count.sql).toContain('"publication_year" = ?')
    expect(nested.count.sql).not.toContain('coalesce("publication_year"')
    expect(nested.count.sql).toContain(
      '(NOT (coalesce(lower("language") = ?, FALSE) OR coalesce("is_oa" = ?, FALSE)))',
    )
    expect(rowsOf(works({ column_id: 'language', value: null })).count.sql).toContain('"language" IS NULL')
    expect(rowsOf(works({ column_id: 'authorships.author.id', value: null })).count.sql).toContain(
      '"id" NOT IN (SELECT work_id FROM "link_works_authors")',
    )
  })

  it('collapses an OR of one column into one IN list', () => {
    const query = rowsOf(
      works({
        join: 'or',
        filters: ['W1', 'W2', 'W3'].map((value) => ({ column_id: 'cites', value })),
      }),
    )
    expect(query.count.sql).toContain(
      '"id" IN (SELECT work_id FROM "link_works_referenced_works" WHERE key IN (?, ?, ?))',
    )
  })

  it('answers cited_by from the cited work’s references, and the corpus from is_xpac', () => {
    const query = rowsOf({ ...works({ column_id: 'cited_by', value: 'w9' }), corpus: 'expansion' })
    expect(query.count.sql).toContain(
      '"id" IN (SELECT key FROM "link_works_referenced_works" WHERE work_id IN (?))',
    )
    expect(query.count.sql).toContain('coalesce("is_xpac", FALSE) AND')
    expect(query.count.params).toEqual(['W9'])
    expect(rowsOf({ get_rows: 'works', corpus: 'all' }).count.sql).not.toContain('is_xpac')
  })

  it('keeps every value out of the SQL text: one placeholder per parameter', () => {
    for (const query of [
      rowsOf(works({ column_id: 'display_name', value: 'x' }), {
        sort: [{ field: 'publication_year', direction: 'desc' }],
      }),
      rowsOf(works({ column_id: 'authorships.author.id', value: 'A1' }), { cursor: '*', perPage: 10 }),
      rowsOf({ get_rows: 'works', sample: 10, seed: 'abc' }),
    ]) {
      expect(placeholders(query.sql)).toBe(query.params.length)
      expect(placeholders(query.count.sql)).toBe(query.count.params.length)
    }
  })

  it('orders by each key with nulls last, then the id, and pages by keyset after a cursor', () => {
    const planned = planQuery(
      { get_rows: 'works' },
      { sort: [{ field: 'fwci', direction: 'desc' }], cursor: '*' },
    )
    if (!planned.ok) throw new Error('plan')
    const first = compiler.compileRows(planned.plan)
    // The id orders by its number, then its text (a letter id; `entity-id-order.ts`).
    expect(first.sql).toContain(
      'ORDER BY "fwci" DESC NULLS LAST, e."id_num" ASC NULLS LAST, e."id" ASC NULLS LAST LIMIT ?',
    )
    expect(first.params.at(-1)).toBe(26)
    const next = compiler.compileRows({
      ...planned.plan,
      page: { kind: 'cursor', after: [1.5, 'W10'], perPage: 25 },
    })
    // The cursor carries the id; its number is read from it as ingest reads it.
    const idNumber = 'TRY_CAST(substr(?, 2) AS BIGINT)'
    expect(next.sql).toContain(
      `((("fwci" < TRY_CAST(? AS DOUBLE) OR "fwci" IS NULL)) OR (coalesce("fwci" = TRY_CAST(? AS DOUBLE), FALSE) AND (e."id_num" > ${idNumber} OR e."id_num" IS NULL)) OR (coalesce("fwci" = TRY_CAST(? AS DOUBLE), FALSE) AND coalesce(e."id_num" = ${idNumber}, FALSE) AND (e."id" > ? OR e."id" IS NULL)))`,
    )
    expect(next.params.slice(0, 6)).toEqual([1.5, 1.5, 'W10', 1.5, 'W10', 'W10'])
    // After a null key only rows with the same null key and a later id remain.
    const afterNull = compiler.compileRows({
      ...planned.plan,
      page: { kind: 'cursor', after: [null, 'W10'], perPage: 25 },
    })
    expect(afterNull.sql).toContain(
      `(("fwci" IS NULL AND (e."id_num" > ${idNumber} OR e."id_num" IS NULL)) OR ("fwci" IS NULL AND coalesce(e."id_num" = ${idNumber}, FALSE) AND (e."id" > ? OR e."id" IS NULL)))`,
    )
    // A catalog of format 7 or earlier is in the ids' text order: the id orders by its text alone.
    const byText = new DuckDbPlanCompiler({ idOrder: 'by-text' }).compileRows(planned.plan)
    expect(byText.sql).toContain('ORDER BY "fwci" DESC NULLS LAST, e."id" ASC NULLS LAST LIMIT ?')
    expectUnsupported(
      () => compiler.compileRows({ ...planned.plan, page: { kind: 'cursor', after: ['W10'], perPage: 25 } }),
      'invalid_cursor',
    )
  })

  it('samples by a seeded hash of the id, sliced by page', () => {
    const query = rowsOf({ get_rows: 'works', sample: 30, seed: 42 }, { perPage: 25, page: 2 })
    expect(query.sql).toContain('ORDER BY hash(e."id" || \'/\' || ?), e."id" LIMIT ? OFFSET ?')
    expect(query.params).toEqual(['42', 5, 25])
    expect(query.sortKeyCount).toBe(0)
  })

  it('groups lists by unnesting them and link tables by joining, one row per work and key', () => {
    const plan = planOf(
      {
        get_rows: 'works',
        group_by: [{ column_id: 'authorships.institutions.type' }, { column_id: 'authorships.author.id' }],
      },
      { includeUnknown: ['authorships.institutions.type'] },
    )
    const query = compiler.compileGroups(plan)
    expect(query.sql).toContain('unnest(CASE WHEN len(__base.__d0) = 0 THEN [NULL] ELSE __base.__d0 END)')
    expect(query.sql).toContain('LEFT JOIN "link_works_authors" AS __l1 ON __l1.work_id = __base.__id')
    // One row per work and key combination without a DISTINCT: lists are list_distinct'ed, link pairs distinct.
    expect(query.sql).toContain('__keys AS (SELECT __g0, __l1.key AS __g1 FROM __base')
    expect(query.sql).not.toContain('DISTINCT __')
    expect(query.sql).toContain('list_distinct(')
    expect(query.sql).toContain('WHERE __g1 IS NOT NULL')
    expect(query.sql).toContain('ORDER BY __n DESC, __g0 ASC NULLS LAST, __g1 ASC NULLS LAST')
    expect(query.keyFormats[1]!('A5')).toBe('https://openalex.org/A5')
    // Without a link table to join, the rows carry their keys alone.
    const scalar = compiler.compileGroups(planOf({ get_rows: 'works', group_by: [{ column_id: 'type' }] }))
    expect(scalar.sql).not.toContain('__id')
    expect(query.keyFormats[0]!('education')).toBe('education')
    expect(query.keyFormats[0]!(null)).toBeNull()
    expectUnsupported(
      () => compiler.compileGroups({ ...plan, page: { kind: 'cursor', after: ['x'], perPage: 25 } }),
      'group_cursor',
    )
  })

  it('prints vocabulary group keys as full OpenAlex ids', () => {
    const query = compiler.compileGroups(
      planOf({ get_rows: 'works', group_by: [{ column_id: 'sustainable_development_goals.id' }] }),
    )
    expect(query.keyFormats[0]!('3')).toBe('https://openalex.org/sdgs/3')
    const fields = compiler.compileGroups(
      planOf({ get_rows: 'works', group_by: [{ column_id: 'primary_topic.field.id' }] }),
    )
    expect(fields.keyFormats[0]!('17')).toBe('https://openalex.org/fields/17')
  })

  it('refuses what it cannot run, with a typed error', () => {
    const base = planOf({ get_rows: 'works' })
    const column = { id: 'collection', kind: 'collection' as const }
    const withFilter = (filter: FilterNode): QueryPlan => ({ ...base, filter })
    expectUnsupported(
      () => compiler.compile(withFilter(FilterNodes.collection(column, 'col_1'))),
      'collection',
    )
    const search = (id: string, mode: 'stemmed' | 'semantic') =>
      FilterNodes.search({ id, kind: 'search' }, 'title_and_abstract', mode, 'climate')
    expectUnsupported(
      () => compiler.compile(withFilter(search('title_and_abstract.search', 'stemmed'))),
      'full_text_search',
    )
    expectUnsupported(
      () => compiler.compile(withFilter(search('title_and_abstract.search.semantic', 'semantic'))),
      'semantic_search',
    )
    expectUnsupported(() => compiler.compile({ ...base, entity: 'locations' }), 'entity')
  })
})

describe('search text and placeholders', () => {
  it('reads words, phrases, list proximity and phrase slop', () => {
    expect(searchMatchOfText('climate change')).toEqual({
      kind: 'and',
      operands: [
        { kind: 'word', text: 'climate' },
        { kind: 'word', text: 'change' },
      ],
    })
    expect(searchMatchOfText('"climate change"')).toEqual({ kind: 'phrase', text: 'climate change' })
    expect(searchMatchOfText('"smart"~3~"phone"~"app*"')).toEqual({
      kind: 'proximity',
      within: 3,
      operands: ['smart', 'phone', 'app*'],
    })
    expect(searchMatchOfText('"smart phone"~2')).toEqual({
      kind: 'proximity',
      within: 2,
      operands: ['smart', 'phone'],
    })
    expect(searchMatchOfText('  ')).toBeUndefined()
    expect(searchMatchOfText('climate -- &')).toEqual({ kind: 'word', text: 'climate' })
  })

  it('turns $n placeholders into ? in order, leaving quoted text alone', () => {
    expect(positionalToAnonymous("SELECT $2, '$1', $1, $2 ESCAPE '\\'", ['a', 'b'])).toEqual({
      sql: "SELECT ?, '$1', ?, ? ESCAPE '\\'",
      params: ['b', 'a', 'b'],
    })
  })
})

describe('the adapter over a fake driver', () => {
  /** Answers count, page and records statements from canned rows, and records what it was asked. */
  const fakeDriver = (pageRows: DuckDbRow[], records: Record<string, object>) => {
    const calls: { sql: string; params: readonly SqlParam[] }[] = []
    const driver: DuckDbConnectionLike = {
      async all(sql, params = []) {
        calls.push({ sql, params })
        if (sql.includes('count(*) AS __count')) return [{ __count: 3 }]
        if (sql.includes('record AS __record'))
          return params.map((id) => ({ __id: id, __record: JSON.stringify(records[String(id)]) }))
        return pageRows
      },
      async close() {},
    }
    return { driver, calls }
  }

  it('reads the page, then its records by id, and returns the next cursor values', async () => {
    const { driver, calls } = fakeDriver(
      [
        { __id: 'W2', __score: null, __k0: 2020, __k1: 'W2' },
        { __id: 'W1', __score: null, __k0: 2019, __k1: 'W1' },
        { __id: 'W3', __score: null, __k0: 2018, __k1: 'W3' },
      ],
      {
        W1: { id: 'https://openalex.org/W1', a: 1, display_name: 'one' },
        W2: { id: 'https://openalex.org/W2', a: 2, display_name: 'two' },
      },
    )
    const adapter = duckDbAdapterOver(driver, compiler, {})
    const result = await adapter.queryRows(
      planOf({ get_rows: 'works' }, { sort: [{ field: 'publication_year', direction: 'desc' }], perPage: 2 }),
    )
    // Unselected and unscored: the records' bytes as stored come too, the page and no more.
    const utf8 = new TextEncoder()
    expect(result).toEqual({
      count: 3,
      rows: [
        { id: 'https://openalex.org/W2', a: 2, display_name: 'two' },
        { id: 'https://openalex.org/W1', a: 1, display_name: 'one' },
      ],
      rowsJsonBytes: [
        utf8.encode(JSON.stringify({ id: 'https://openalex.org/W2', a: 2, display_name: 'two' })),
        utf8.encode(JSON.stringify({ id: 'https://openalex.org/W1', a: 1, display_name: 'one' })),
      ],
      nextAfter: [2019, 'W1'],
    })
    expect(calls.at(-1)?.params).toEqual(['W2', 'W1'])
    const selected = await adapter.queryRows(
      planOf({ get_rows: 'works' }, { perPage: 2, select: ['cited_by_count', 'display_name'] }),
    )
    expect(selected.rows).toEqual([{ display_name: 'two' }, { display_name: 'one' }])
    // A selection changes the records: no stored bytes to send in their place.
    expect(selected.rowsJsonBytes).toBeUndefined()
  })
})
