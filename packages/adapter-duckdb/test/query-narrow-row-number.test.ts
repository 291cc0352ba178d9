// The row numbers of the serving database's narrow tables (`NARROW_ROW_COLUMN`): from 0 in id order, what the
// link tables, row locations and sorts by id refer to. A column and not DuckDB's `rowid`, which DuckDB
// gives a row anew when a list column of it is updated, and renumbers when a checkpoint vacuums deleted rows: a serving database
// changed in place must still answer right. A
// database built before the column numbers its rows by `rowid`, and answers as before.
import { join } from 'node:path'
import { CATALOG_ENTITIES, narrowLinkTableOf, quoteIdentifier, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { planQuery } from '@oqlkit/engine'
import type { Filter, Oqo } from '@oqlkit/oqo-schema'

type FilterRows = Filter[]

import { keepTablesAsFiles } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NARROW_ROW_COLUMN } from '../src/query/catalog-views.ts'
import { createDuckDbAdapter, type DuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

const ROW = quoteIdentifier(NARROW_ROW_COLUMN)
const AUTHORS_LINKS = quoteIdentifier(narrowLinkTableOf('works-authors'))

type Catalog = { catalogDir: string; dispose: () => void }
let current: Catalog
let older: Catalog
let changed: Catalog
let adapter: DuckDbAdapter
let olderAdapter: DuckDbAdapter
let changedAdapter: DuckDbAdapter
/** The works that keep their rows in `changed`. */
let kept: ReadonlySet<string>
/** The authors of most works, as link filter values (`A…`). */
let authors: string[]

/** Runs SQL on a catalog's serving database, on one thread (a copy keeps its rows' order). */
const onServingDatabase = async (catalog: Catalog, statements: readonly string[]) => {
  const instance = await createDuckDbInstance(join(catalog.catalogDir, SERVING_DATABASE_FILE))
  const connection = await instance.connect()
  try {
    await connection.run('SET threads = 1')
    const results = []
    for (const statement of statements)
      results.push((await connection.runAndReadAll(statement)).getRowObjectsJson())
    return results
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

const idsOf = async (
  on: DuckDbAdapter,
  filter_rows: FilterRows,
  options: Parameters<typeof planQuery>[1] = {},
) => {
  const planned = planQuery({ get_rows: 'works', filter_rows } as Oqo, { perPage: 200, ...options })
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return {
    ids: (await on.queryRows(planned.plan)).rows.map((row) => String(row.id)),
    sql: on.compile(planned.plan).sql,
  }
}

beforeAll(async () => {
  ;[current, older, changed] = await Promise.all([
    ingestSampleCatalog(),
    ingestSampleCatalog(),
    ingestSampleCatalog(),
  ])
  // As a serving database built before the column: the works' narrow table without it (the adapter asks the
  // works' table which way the rows are numbered), in a catalog that also kept its tables as files (format 8
  // and before), which its views read.
  await keepTablesAsFiles(older.catalogDir)
  await onServingDatabase(older, [
    `CREATE TABLE works__older AS SELECT * EXCLUDE (${ROW}) FROM works__narrow ORDER BY ${ROW}`,
    'DROP TABLE works__narrow',
    'ALTER TABLE works__older RENAME TO works__narrow',
    'CREATE INDEX works__narrow_id ON works__narrow ("id")',
  ])
  // Changed in place: two works in five revised (DuckDB updates a list column by deleting and inserting
  // the row, which gives it a new rowid; so does a checkpoint that vacuums deleted rows, in a table of
  // several row groups) and one in five deleted.
  const [lists] = await onServingDatabase(changed, [
    "SELECT column_name FROM duckdb_columns() WHERE table_name = 'works__narrow' AND data_type LIKE '%[]' ORDER BY column_name LIMIT 1",
  ])
  const list = quoteIdentifier(String(lists![0]!.column_name))
  const [survivors, moved] = await onServingDatabase(changed, [
    `UPDATE works__narrow SET ${list} = ${list} WHERE ${ROW} % 5 < 2`,
    `DELETE FROM works__narrow WHERE ${ROW} % 5 = 2`,
    'CHECKPOINT',
    `SELECT count(*) AS n FROM works__narrow WHERE rowid <> ${ROW}`,
    `SELECT "id" FROM works__narrow`,
  ]).then((results) => [results[4]!, results[3]!])
  // The narrow tables hold the short form of an id (`W123`), the answers the full one.
  kept = new Set(survivors!.map((row) => `https://openalex.org/${String(row.id)}`))
  expect(Number(moved![0]!.n), 'the rows were given new rowids').toBeGreaterThan(0)
  const [top] = await onServingDatabase(current, [
    `SELECT 'A' || CAST(key AS VARCHAR) AS author FROM ${AUTHORS_LINKS} GROUP BY key ORDER BY count(*) DESC, key LIMIT 4`,
  ])
  authors = top!.map((row) => String(row.author))
  ;[adapter, olderAdapter, changedAdapter] = (await Promise.all(
    [current, older, changed].map((catalog) =>
      createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'narrow', threads: 1 }),
    ),
  )) as [DuckDbAdapter, DuckDbAdapter, DuckDbAdapter]
}, 120_000)

afterAll(async () => {
  await Promise.all([adapter, olderAdapter, changedAdapter].map((opened) => opened?.close()))
  for (const catalog of [current, older, changed]) catalog?.dispose()
})

describe('the row numbers of the narrow tables', () => {
  it('number every entity’s rows from 0 in id order, and the link tables name works by them', async () => {
    // Id order: a letter id by its number, then its text (the sample's works have ids of 8 to 10 digits).
    const statements = CATALOG_ENTITIES.map(
      (info) =>
        `SELECT count(*) AS n, count(*) FILTER (WHERE ${ROW} IS DISTINCT FROM position) AS misnumbered FROM (SELECT ${ROW}, CAST(row_number() OVER (ORDER BY ${info.idKind === 'letter' ? 'CAST("id"[2:] AS BIGINT), ' : ''}"id") - 1 AS UINTEGER) AS position FROM ${quoteIdentifier(`${info.table}__narrow`)})`,
    )
    const results = await onServingDatabase(current, [
      ...statements,
      // Each author link row's work, found by its number, is the work the link row was made for.
      `SELECT count(*) AS n, count(w."id") AS named FROM ${AUTHORS_LINKS} AS l LEFT JOIN works__narrow AS w ON w.${ROW} = l.work_row`,
    ])
    for (const [index, { entity }] of CATALOG_ENTITIES.entries())
      expect(Number(results[index]![0]!.misnumbered), entity).toBe(0)
    expect(Number(results[0]![0]!.n)).toBeGreaterThan(100)
    const links = results.at(-1)![0]!
    expect(Number(links.n)).toBeGreaterThan(100)
    expect(Number(links.named)).toBe(Number(links.n))
  })

  it('are what link filters, missing links and sorts by id read', async () => {
    const page = await idsOf(adapter, [
      { column_id: 'authorships.author.id', value: authors[0]! },
      { column_id: 'type', value: 'article' },
    ])
    expect(page.sql).toContain(`e.${ROW} IN (SELECT work_row FROM ${AUTHORS_LINKS}`)
    expect(page.sql).not.toContain('rowid')
  })
})

describe('a serving database built before the column', () => {
  const shapes: { name: string; filter: FilterRows; options?: Parameters<typeof planQuery>[1] }[] = [
    { name: 'an author filter', filter: [{ column_id: 'authorships.author.id', value: 'AUTHOR' }] },
    {
      name: 'an author filter beside another, by citations',
      filter: [
        { column_id: 'authorships.author.id', value: 'AUTHOR' },
        { column_id: 'publication_year', value: 1900, operator: '>' },
      ],
      options: { sort: [{ field: 'cited_by_count', direction: 'desc' }] },
    },
    { name: 'works with no author', filter: [{ column_id: 'authorships.author.id', value: null }] },
    {
      name: 'a year, in id order',
      filter: [{ column_id: 'publication_year', value: 2000, operator: '>' }],
    },
  ]
  const withAuthor = (filter: FilterRows): FilterRows =>
    JSON.parse(JSON.stringify(filter).replaceAll('"AUTHOR"', JSON.stringify(authors[0])))

  it.each(shapes)('numbers its rows by rowid and answers $name as the current one does', async (shape) => {
    const before = await idsOf(olderAdapter, withAuthor(shape.filter), shape.options)
    // One link filter alone reads its page from the link table, with no works row.
    if (shape.name !== 'an author filter') expect(before.sql).toContain('e.rowid')
    expect(before.sql).not.toContain(NARROW_ROW_COLUMN)
    const now = await idsOf(adapter, withAuthor(shape.filter), shape.options)
    expect(before.ids.length).toBeGreaterThan(0)
    expect(before.ids).toStrictEqual(now.ids)
  })

  it('completes names under a filter as the current one does', async () => {
    const planned = planQuery(
      {
        get_rows: 'works',
        filter_rows: [{ column_id: 'publication_year', value: 2000, operator: '>' }],
      } as Oqo,
      {},
    )
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    const request = { entity: 'works' as const, text: 'the', limit: 8, filter: planned.plan.filter! }
    const names = async (on: DuckDbAdapter) => (await on.autocomplete!(request)).map((record) => record.id)
    expect((await names(adapter)).length).toBe(8)
    expect(await names(olderAdapter)).toStrictEqual(await names(adapter))
  })
})

describe('a serving database whose rows were revised and deleted in place', () => {
  it('still finds the works of each author, and no other, though DuckDB gave rows new rowids', async () => {
    for (const author of authors) {
      const filter: FilterRows = [
        { column_id: 'authorships.author.id', value: author },
        { column_id: 'publication_year', value: 1900, operator: '>' },
      ]
      const everyWork = (await idsOf(adapter, filter)).ids
      const answered = await idsOf(changedAdapter, filter)
      expect(answered.ids, author).toStrictEqual(everyWork.filter((id) => kept.has(id)))
      expect(everyWork.length).toBeGreaterThan(answered.ids.length)
    }
  })

  it('still lists in id order, and counts the works with no author among those kept', async () => {
    const byId = {}
    const years: FilterRows = [{ column_id: 'publication_year', value: 1900, operator: '>' }]
    const keptOfEvery = (await idsOf(adapter, years, byId)).ids.filter((id) => kept.has(id))
    expect(keptOfEvery.length).toBeGreaterThan(20)
    expect((await idsOf(changedAdapter, years, byId)).ids.slice(0, keptOfEvery.length)).toStrictEqual(
      keptOfEvery,
    )
    const none: FilterRows = [{ column_id: 'authorships.author.id', value: null }]
    const missing = (await idsOf(adapter, none)).ids
    expect((await idsOf(changedAdapter, none)).ids).toStrictEqual(missing.filter((id) => kept.has(id)))
  })
})
