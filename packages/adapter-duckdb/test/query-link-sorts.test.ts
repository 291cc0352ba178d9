// Sorting works by a column a link table holds (`referenced_works`, `authorships.author.id`, …): in `narrow`
// mode the page is ordered by the link extremes `works__narrow` holds (each work's smallest and largest key),
// and must be the page the in-memory tables give, which take each work's extreme from its link rows; by
// cursor as by offset. A serving database built before the extremes sorts the same way from the link rows.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { LINK_TABLES, linkExtremeColumnsOf, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { encodeCursor, planQuery, type SortTerm } from '@oqlkit/engine'
import { propertiesRegistry } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDuckDbAdapter, type DuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { columnSourceOf } from '../src/query/duckdb-column-map.ts'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

/** Every sortable works column whose values a link table holds (cited_by reads the referenced works). */
const LINKED_SORTS = propertiesRegistry
  .columnsOf('works')
  .filter((column) => column.kind !== null && column.actions.includes('sort'))
  .filter((column) => {
    const source = columnSourceOf('works', { id: column.id, kind: column.kind! })
    return source.kind === 'link' || source.kind === 'cited-by'
  })
  .map((column) => column.id)

/** A column of link extremes in `works__narrow` (`linkExtremeColumnsOf`), as the SQL names it. */
const EXTREME_COLUMN = /"__(lo|hi)_/

const pageOf = async (
  adapter: DuckDbAdapter,
  sort: SortTerm,
  perPage = 12,
  cursor?: string,
  select?: readonly string[],
) => {
  const planned = planQuery(
    { get_rows: 'works' },
    {
      sort: [sort],
      perPage,
      ...(cursor === undefined ? {} : { cursor }),
      ...(select === undefined ? {} : { select: [...select] }),
    },
  )
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  const result = await adapter.queryRows(planned.plan)
  return {
    ids: result.rows.map((row) => row.id),
    next: result.nextAfter === null ? null : encodeCursor(planned.sortSignature, result.nextAfter),
    sql: adapter.compile(planned.plan).sql,
  }
}

/**
 * Every id of the works sorted by `sort`, page after page by cursor. Only the ids are selected: the order and
 * the cursors are the same whatever the rows hold, and reading and parsing every work's whole record (its
 * abstract unpacked) twice per sort was most of this file's time.
 */
const byCursor = async (adapter: DuckDbAdapter, sort: SortTerm): Promise<unknown[]> => {
  const ids: unknown[] = []
  let cursor: string | null = '*'
  for (let guard = 0; cursor !== null && guard < 100; guard++) {
    const page = await pageOf(adapter, sort, 100, cursor, ['id'])
    ids.push(...page.ids)
    cursor = page.next
  }
  return ids
}

let catalog: { catalogDir: string; dispose: () => void }
let withoutExtremes: { catalogDir: string; dispose: () => void }
let narrow: DuckDbAdapter
let tables: DuckDbAdapter
let older: DuckDbAdapter

beforeAll(async () => {
  catalog = await ingestSampleCatalog()
  withoutExtremes = await ingestSampleCatalog()
  // As a serving database built before the extremes: the same, without them.
  const instance = await createDuckDbInstance(join(withoutExtremes.catalogDir, SERVING_DATABASE_FILE))
  const connection = await instance.connect()
  const extremes = LINK_TABLES.flatMap((spec) => Object.values(linkExtremeColumnsOf(spec.name)))
  // One thread: the copy keeps the rows' order, which the other tables refer to by row number.
  await connection.run('SET threads = 1')
  await connection.run(
    `CREATE TABLE works__older AS SELECT * EXCLUDE (${extremes.map((name) => `"${name}"`).join(', ')}) FROM works__narrow`,
  )
  await connection.run('DROP TABLE works__narrow')
  await connection.run('ALTER TABLE works__older RENAME TO works__narrow')
  await connection.run('CREATE INDEX works__narrow_id ON works__narrow ("id")')
  connection.closeSync()
  instance.closeSync()
  narrow = await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'narrow', threads: 1 })
  tables = await createDuckDbAdapter({ catalogDir: catalog.catalogDir, load: 'tables', threads: 1 })
  older = await createDuckDbAdapter({ catalogDir: withoutExtremes.catalogDir, load: 'narrow', threads: 1 })
}, 240_000)

afterAll(async () => {
  await narrow?.close()
  await tables?.close()
  await older?.close()
  catalog?.dispose()
  withoutExtremes?.dispose()
})

describe('sorting works by a column a link table holds', () => {
  it('covers every such column the registry lets a caller sort by', () => {
    expect(LINKED_SORTS).toContain('referenced_works')
    expect(LINKED_SORTS).toContain('cited_by')
    expect(LINKED_SORTS).toContain('authorships.author.id')
    expect(LINKED_SORTS.length).toBeGreaterThanOrEqual(14)
  })

  it.each(
    LINKED_SORTS.flatMap((field) => [
      { field, direction: 'asc' as const },
      { field, direction: 'desc' as const },
    ]),
  )(
    '$field:$direction: the narrow page reads the extremes and equals the tables’ page, by offset and by cursor',
    async (sort) => {
      const fromExtremes = await pageOf(narrow, sort)
      expect(fromExtremes.sql).toMatch(EXTREME_COLUMN)
      const fromLinkRows = await pageOf(tables, sort)
      expect(fromLinkRows.sql).not.toMatch(EXTREME_COLUMN)
      expect(fromExtremes.ids).toStrictEqual(fromLinkRows.ids)
      expect(fromExtremes.ids.length).toBe(12)
      // Page 2 by offset, and every page by cursor (keyset bounds on the extremes), agree as well.
      const second = async (adapter: DuckDbAdapter) => {
        const planned = planQuery({ get_rows: 'works' }, { sort: [sort], perPage: 12, page: 2 })
        if (!planned.ok) throw new Error('plan')
        return (await adapter.queryRows(planned.plan)).rows.map((row) => row.id)
      }
      expect(await second(narrow)).toStrictEqual(await second(tables))
      const cursorIds = await byCursor(narrow, sort)
      expect(cursorIds).toStrictEqual(await byCursor(tables, sort))
      // The ids-only pages start with the whole rows' first page, and name every work once.
      expect(cursorIds.slice(0, 12)).toStrictEqual(fromExtremes.ids)
      expect(new Set(cursorIds).size).toBe(cursorIds.length)
    },
    60_000,
  )

  it('sorts as before from a serving database built before the extremes', async () => {
    expect(existsSync(join(withoutExtremes.catalogDir, SERVING_DATABASE_FILE))).toBe(true)
    for (const sort of [
      { field: 'referenced_works', direction: 'desc' },
      { field: 'authorships.author.id', direction: 'asc' },
      { field: 'keywords.id', direction: 'desc' },
    ] as const) {
      const page = await pageOf(older, sort)
      expect(page.sql).not.toMatch(EXTREME_COLUMN)
      expect(page.ids).toStrictEqual((await pageOf(narrow, sort)).ids)
    }
  })
})
