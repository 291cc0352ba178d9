// The in-memory link copies of `narrow` mode: every link row kept, in (key, work_row) order without a sort,
// and DuckDB given back its threads afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCatalogManifest } from '../src/catalog/catalog-manifest-reader.ts'
import { LINK_TABLES } from '../src/catalog/link-tables.ts'
import { catalogViewStatements, narrowLinkTableStatements } from '../src/query/catalog-views.ts'
import { linkViewOf, narrowLinkTableOf } from '../src/query/column-sources.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase, runOnOneThread } from '../src/query/duckdb-driver.ts'
import { quoteIdentifier } from '../src/query/sql-identifier.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

let db: DuckDbConnectionLike
let dispose: () => void
let statements: string[]

beforeAll(async () => {
  const catalog = await ingestSampleCatalog()
  dispose = catalog.dispose
  const manifest = await readCatalogManifest(catalog.catalogDir)
  if (!manifest.ok) throw new Error(manifest.message)
  db = await openDuckDbDatabase({ threads: 2 })
  for (const statement of catalogViewStatements(catalog.catalogDir, manifest.manifest, 'narrow'))
    await db.all(statement)
  statements = narrowLinkTableStatements(manifest.manifest)
  await runOnOneThread(db, statements)
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
      const [order] = await db.all(
        `SELECT count(*) FILTER (WHERE key < previous_key OR (key = previous_key AND work_row <= previous_row)) AS out_of_order
       FROM (SELECT key, work_row, lag(key) OVER (ORDER BY rowid) AS previous_key, lag(work_row) OVER (ORDER BY rowid) AS previous_row FROM ${narrow})`,
      )
      expect(Number(order?.out_of_order)).toBe(0)
    },
  )

  it('names each work by its row in the narrow works table', async () => {
    const [mismatches] = await db.all(
      `SELECT count(*) AS n FROM ${quoteIdentifier(narrowLinkTableOf('works-authors'))} AS l
       JOIN ${quoteIdentifier(linkViewOf('works-authors'))} AS v ON v.key = l.key
       JOIN "works__narrow" AS w ON w.rowid = l.work_row
       WHERE NOT EXISTS (SELECT 1 FROM ${quoteIdentifier(linkViewOf('works-authors'))} AS x WHERE x.key = l.key AND x.work_id = w."id")`,
    )
    expect(Number(mismatches?.n)).toBe(0)
  })
})
