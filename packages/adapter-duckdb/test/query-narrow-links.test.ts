// The link tables of the serving database (`narrow` mode): every link row kept, in (key, work_row) order
// without a sort, and DuckDB given back its threads afterwards. The serving database is attached in memory
// here, so that the test can mark works as the expansion corpus's before the link tables copy the flag.

import { LINK_TABLES, linkViewOf, narrowLinkTableOf, quoteIdentifier } from '@oqlkit/catalog'
import { planQuery, type SortTerm } from '@oqlkit/engine'
import { keepTablesAsFiles } from '@oqlkit/ingest/test-support'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogViewStatements } from '../src/query/catalog-view-statements.ts'
import { SERVING_DATABASE_NAME, servingDatabaseStatements } from '../src/query/catalog-views.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase, runOnOneThread } from '../src/query/duckdb-driver.ts'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

let db: DuckDbConnectionLike
let dispose: () => void
let statements: string[]

beforeAll(async () => {
  const catalog = await ingestSampleCatalog()
  dispose = catalog.dispose
  // The serving database is made here, in memory, from the tables' files.
  const manifest = { manifest: await keepTablesAsFiles(catalog.catalogDir) }
  db = await openDuckDbDatabase({ threads: 2, connections: 1 })
  await db.all(`ATTACH ':memory:' AS ${SERVING_DATABASE_NAME}`)
  await db.all(`SET search_path = 'memory.main,${SERVING_DATABASE_NAME}.main'`)
  for (const statement of catalogViewStatements(catalog.catalogDir, manifest.manifest, 'views'))
    await db.all(statement)
  const steps = servingDatabaseStatements(manifest.manifest)
  // The narrow link tables (the steps bound to one thread) come last.
  const linkTablesFrom = steps.findIndex((step) => step.threadBound)
  for (const { statement } of steps.slice(0, linkTablesFrom)) await db.all(statement)
  // The sample holds no works of the expansion corpus: a third of them join it here, before the link tables
  // copy the flag, so that both corpora have works to count.
  await db.all('UPDATE "works__narrow" SET is_xpac = TRUE WHERE "__row_number" % 3 = 0')
  const last = steps.slice(linkTablesFrom)
  statements = last.filter((step) => step.threadBound).map((step) => step.statement)
  await runOnOneThread(db, statements)
  for (const { statement } of last.filter((step) => !step.threadBound)) await db.all(statement)
}, 60_000)
afterAll(async () => {
  await db?.close()
  dispose?.()
})

describe('narrow link tables', () => {
  it('sorts the small link tables and copies the references, many per work, in file order', () => {
    const references = statements.find((statement) =>
      statement.includes(narrowLinkTableOf('works-referenced-works')),
    )
    expect(references).not.toContain('ORDER BY')
    expect(statements.filter((statement) => statement.includes('ORDER BY')).length).toBeGreaterThan(0)
  })

  it('gives DuckDB back the threads it had', async () => {
    const [setting] = await db.all("SELECT current_setting('threads') AS threads")
    expect(Number(setting?.threads)).toBe(2)
  })

  it.each(LINK_TABLES.map((spec) => [spec.name]))(
    '%s: every link, by row number, in key order',
    async (name) => {
      const view = quoteIdentifier(linkViewOf(name))
      const narrow = quoteIdentifier(narrowLinkTableOf(name))
      const [counts] = await db.all(
        `SELECT (SELECT count(*) FROM ${view}) AS links, (SELECT count(*) FROM ${narrow}) AS narrow`,
      )
      expect(Number(counts?.narrow)).toBe(Number(counts?.links))
      // A sorted copy is in the order of its keys as held (numbers for ids); one copied in file order is in the
      // file's, the keys' text order.
      const sorted = statements.find((statement) => statement.includes(narrow))!.includes('ORDER BY')
      const key = sorted ? 'key' : 'CAST(key AS VARCHAR)'
      const [order] = await db.all(
        `SELECT count(*) FILTER (WHERE key < previous_key OR (key = previous_key AND work_row <= previous_row)) AS out_of_order
       FROM (SELECT ${key} AS key, work_row, lag(${key}) OVER (ORDER BY rowid) AS previous_key, lag(work_row) OVER (ORDER BY rowid) AS previous_row FROM ${narrow})`,
      )
      expect(Number(order?.out_of_order)).toBe(0)
    },
  )

  it('names each work by its row in the narrow works table', async () => {
    const [mismatches] = await db.all(
      `SELECT count(*) AS n FROM ${quoteIdentifier(narrowLinkTableOf('works-authors'))} AS l
       JOIN ${quoteIdentifier(linkViewOf('works-authors'))} AS v ON v.key = 'A' || CAST(l.key AS VARCHAR)
       JOIN "works__narrow" AS w ON w."__row_number" = l.work_row
       WHERE NOT EXISTS (SELECT 1 FROM ${quoteIdentifier(linkViewOf('works-authors'))} AS x WHERE x.key = v.key AND x.work_id = w."id")`,
    )
    expect(Number(mismatches?.n)).toBe(0)
  })
})

describe('a group-by of a link dimension over a whole corpus', () => {
  const compiler = new DuckDbPlanCompiler({ narrowTables: true })
  const corpora = [
    ['core', 'NOT coalesce(w.is_xpac, FALSE)'],
    ['expansion', 'coalesce(w.is_xpac, FALSE)'],
    ['all', 'TRUE'],
  ] as const

  it.each(corpora)(
    'counts the link table alone, as the join of the works would (%s)',
    async (corpus, where) => {
      const oqo: Oqo = { get_rows: 'works', corpus, group_by: [{ column_id: 'authorships.countries' }] }
      const planned = planQuery(oqo, { perPage: 100 })
      if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
      const query = compiler.compileGroups(planned.plan)
      expect(query.sql).toContain('FROM "link_works_countries__narrow" AS __l WHERE')
      expect(query.sql).not.toContain('works__narrow')
      const buckets = await db.all(query.sql, query.params)
      const expected = await db.all(
        `SELECT v.key AS __g0, count(*) AS __n FROM ${quoteIdentifier(linkViewOf('works-countries'))} AS v
       JOIN "works__narrow" AS w ON w."id" = v.work_id WHERE ${where} GROUP BY v.key ORDER BY __n DESC, __g0`,
      )
      expect(expected.length).toBeGreaterThan(0)
      expect(buckets.map(({ __g0, __n }) => ({ __g0, __n }))).toEqual(expected)
    },
  )

  it('joins the works when there is a filter or an unknown bucket to count', () => {
    const cases: [Oqo, object][] = [
      [
        {
          get_rows: 'works',
          filter_rows: [{ column_id: 'type', value: 'article' }],
          group_by: [{ column_id: 'authorships.countries' }],
        },
        {},
      ],
      [
        { get_rows: 'works', group_by: [{ column_id: 'authorships.countries' }] },
        { includeUnknown: ['authorships.countries'] },
      ],
    ]
    for (const [oqo, view] of cases) {
      const planned = planQuery(oqo, view)
      if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
      expect(compiler.compileGroups(planned.plan).sql).toContain('FROM "works__narrow" AS e')
    }
  })
})

describe('the count of a filter that is one link leaf', () => {
  const compiler = new DuckDbPlanCompiler({ narrowTables: true })

  it('counts the link table alone, as the probe of the works would, for one key or several', async () => {
    const [top] = await db.all(
      `SELECT list('A' || CAST(key AS VARCHAR) ORDER BY n DESC, key)[1:3] AS keys FROM (SELECT key, count(*) AS n FROM ${quoteIdentifier(narrowLinkTableOf('works-authors'))} GROUP BY key)`,
    )
    const keys = top?.keys as string[]
    expect(keys).toHaveLength(3)
    for (const corpus of ['core', 'expansion', 'all'] as const)
      for (const value of [keys[0]!, keys.join('|')]) {
        const leaves = value.split('|').map((key) => ({ column_id: 'authorships.author.id', value: key }))
        const filter_rows = leaves.length === 1 ? leaves : [{ join: 'or', filters: leaves }]
        const planned = planQuery({ get_rows: 'works', corpus, filter_rows } as Oqo, {})
        if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
        const query = compiler.compileRows(planned.plan)
        expect(query.count.sql).toMatch(/FROM "link_works_authors__narrow" AS __l WHERE __l\.key IN/)
        const [counted] = await db.all(query.count.sql, query.count.params)
        const where =
          corpus === 'all' ? 'TRUE' : `${corpus === 'core' ? 'NOT ' : ''}coalesce(e.is_xpac, FALSE)`
        const [probed] = await db.all(
          `SELECT count(*) AS n FROM "works__narrow" AS e WHERE ${where} AND e."__row_number" IN (SELECT work_row FROM ${quoteIdentifier(narrowLinkTableOf('works-authors'))} WHERE 'A' || CAST(key AS VARCHAR) IN (${value
            .split('|')
            .map(() => '?')
            .join(', ')}))`,
          value.split('|'),
        )
        expect(Number(counted?.__count), `${corpus} ${value}`).toBe(Number(probed?.n))
      }
  })
})

describe('link keys held as numbers', () => {
  const compiler = new DuckDbPlanCompiler({ narrowTables: true })
  const countOf = async (value: string) => {
    const planned = planQuery(
      { get_rows: 'works', corpus: 'all', filter_rows: [{ column_id: 'authorships.author.id', value }] },
      {},
    )
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    const query = compiler.compileRows(planned.plan)
    const [counted] = await db.all(query.count.sql, query.count.params)
    const page = await db.all(query.sql, query.params)
    return [Number(counted?.__count), page.length]
  }

  it('find an author by the number in its id, in any form, and nothing for another letter or too many digits', async () => {
    const [top] = await db.all(
      `SELECT key, count(*) AS n FROM ${quoteIdentifier(narrowLinkTableOf('works-authors'))} GROUP BY key ORDER BY n DESC, key LIMIT 1`,
    )
    const number = String(top?.key)
    const n = Number(top?.n)
    expect(await countOf(`A${number}`)).toEqual([n, Math.min(n, 26)])
    expect(await countOf(`https://openalex.org/a${number}`)).toEqual([n, Math.min(n, 26)])
    expect(await countOf(`W${number}`)).toEqual([0, 0])
    expect(await countOf(`A${number}123456789012345678901234`)).toEqual([0, 0])
  })
})

describe('the page of a filter that is one link leaf', () => {
  const compiler = new DuckDbPlanCompiler({ narrowTables: true })
  const authors = quoteIdentifier(narrowLinkTableOf('works-authors'))
  // Each sort as the probe of the narrow works writes it, with the id's row as the last key.
  const sorts: [readonly SortTerm[] | undefined, string][] = [
    [undefined, 'e."__row_number" ASC'],
    [
      [{ field: 'cited_by_count', direction: 'desc' }],
      'e.cited_by_count DESC NULLS LAST, e."__row_number" ASC',
    ],
    [
      [{ field: 'publication_date', direction: 'desc' }],
      'e.publication_date DESC NULLS LAST, e."__row_number" ASC',
    ],
    [
      [
        { field: 'publication_year', direction: 'asc' },
        { field: 'cited_by_count', direction: 'desc' },
      ],
      'e.publication_year ASC NULLS LAST, e.cited_by_count DESC NULLS LAST, e."__row_number" ASC',
    ],
  ]
  const corpusWhere = (corpus: string) =>
    corpus === 'all' ? 'TRUE' : `${corpus === 'core' ? 'NOT ' : ''}coalesce(e.is_xpac, FALSE)`
  const planOf = (
    keys: readonly string[],
    corpus: string,
    sort: readonly SortTerm[] | undefined,
    page = 1,
  ) => {
    const leaves = keys.map((key) => ({ column_id: 'authorships.author.id', value: key }))
    const filter_rows = leaves.length === 1 ? leaves : [{ join: 'or', filters: leaves }]
    const planned = planQuery({ get_rows: 'works', corpus, filter_rows } as Oqo, {
      perPage: 3,
      page,
      ...(sort === undefined ? {} : { sort }),
    })
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    return planned.plan
  }

  it('reads a range of the link table, in the order the probe of the works gives', async () => {
    const [top] = await db.all(
      `SELECT list('A' || CAST(key AS VARCHAR) ORDER BY n DESC, key)[1:3] AS keys FROM (SELECT key, count(*) AS n FROM ${authors} GROUP BY key)`,
    )
    const keys = top?.keys as string[]
    let compared = 0
    for (const corpus of ['core', 'expansion', 'all'] as const)
      for (const chosen of [keys.slice(0, 1), keys])
        for (const [sort, order] of sorts)
          for (const page of [1, 2]) {
            const query = compiler.compileRows(planOf(chosen, corpus, sort, page))
            expect(query.sql).toContain(`FROM ${authors} AS __l`)
            expect(query.sql).not.toContain('works__narrow')
            const rows = await db.all(query.sql, query.params)
            const keyColumns = order
              .split(', ')
              .map((term, index) => {
                const expr = term.split(' ')[0]!
                return `${expr === 'e.publication_date' ? `CAST(${expr} AS VARCHAR)` : expr} AS __k${index}`
              })
              .join(', ')
            const expected = await db.all(
              `SELECT e."__row_number" AS __row, ${keyColumns} FROM "works__narrow" AS e WHERE ${corpusWhere(corpus)} AND e."__row_number" IN (SELECT work_row FROM ${authors} WHERE 'A' || CAST(key AS VARCHAR) IN (${chosen.map(() => '?').join(', ')})) ORDER BY ${order} LIMIT 4 OFFSET ${(page - 1) * 3}`,
              chosen,
            )
            const plain = (list: readonly Readonly<Record<string, unknown>>[]) =>
              list.map((row) =>
                Object.fromEntries(
                  Object.entries(row)
                    .filter(([name]) => name.startsWith('__k') || name === '__row')
                    .map(([name, value]) => [name, typeof value === 'bigint' ? Number(value) : value]),
                ),
              )
            expect(
              plain(rows),
              `${corpus} ${chosen.length} keys, ${JSON.stringify(sort)}, page ${page}`,
            ).toEqual(plain(expected))
            compared += expected.length
          }
    expect(compared).toBeGreaterThan(50)
  })

  it('plans the page as a top-N of the key range, with no join back to the table for the rest of its columns', async () => {
    const query = compiler.compileRows(
      planOf(['A5023888391'], 'core', [{ field: 'cited_by_count', direction: 'desc' }]),
    )
    const plan = (await db.all(`EXPLAIN ${query.sql}`, query.params)).map((row) => String(row.explain_value))
    expect(plan.join('\n')).toContain('TOP_N')
    // DuckDB's late materialization would join the top rows' row ids back to a scan of the whole table.
    expect(plan.join('\n')).not.toMatch(/HASH_JOIN|SEMI/)
  })

  it('probes the works for a sort the link table lacks, a cursor past the first page, or more filters', () => {
    const key = 'A5023888391'
    const lacking = compiler.compileRows(planOf([key], 'all', [{ field: 'display_name', direction: 'asc' }]))
    expect(lacking.sql).toContain('FROM "works__narrow" AS e')
    const first = planOf([key], 'all', [{ field: 'cited_by_count', direction: 'desc' }])
    const cursor = compiler.compileRows({ ...first, page: { kind: 'cursor', perPage: 3, after: [10, 'W1'] } })
    expect(cursor.sql).toContain('FROM "works__narrow" AS e')
    const planned = planQuery(
      {
        get_rows: 'works',
        filter_rows: [
          { column_id: 'authorships.author.id', value: key },
          { column_id: 'publication_year', value: 2020 },
        ],
      },
      {},
    )
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    expect(compiler.compileRows(planned.plan).sql).toContain('FROM "works__narrow" AS e')
  })
})
