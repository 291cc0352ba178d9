// An update writes each link table from the catalog's kept pairs (its link file, read back) and the pairs of
// the works it staged, sorted together. With the staged pairs first in that union, DuckDB's sort of the two ran
// out of memory at 2 GB on a 1M-work catalog's referenced works (some 30M kept pairs), where the kept pairs
// alone sorted in 9 s: the update failed. The same happens here at a memory limit scaled down with the pairs
// (a million pairs at 64 MB), on the very statement the build runs.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { catalogEntityInfo, constantLiteral, LINK_TABLES } from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyLinkTableSql } from '../src/build/catalog-sql.ts'
import { StagingDatabase } from '../src/build/staging-database.ts'
import { linkColumnName } from '../src/parse/record-extractor.ts'

const KEPT_PAIRS = 1_000_000
const PAIRS_PER_WORK = 30
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-update-link-copy-'))
const oldLinks = join(scratch, 'old-links.parquet')
const written = join(scratch, 'links.parquet')
const works = catalogEntityInfo('works')!
const referenced = LINK_TABLES.find((table) => table.name === 'works-referenced-works')!
const column = linkColumnName(LINK_TABLES.indexOf(referenced))
let db: StagingDatabase

beforeAll(async () => {
  db = await StagingDatabase.open(join(scratch, 'staging'), { threads: 1 })
  // The catalog's link file: pairs sorted by key, then by the work's number, as a build writes them.
  await db.run(
    `COPY (SELECT 'W' || (i % 50000)::VARCHAR AS key, 'W' || (i // ${PAIRS_PER_WORK})::VARCHAR AS work_id FROM range(${KEPT_PAIRS}) t(i) ORDER BY key, CAST(work_id[2:] AS BIGINT), work_id) TO ${constantLiteral(oldLinks)} (FORMAT parquet)`,
  )
  const workIds = `SELECT DISTINCT work_id AS id FROM read_parquet(${constantLiteral(oldLinks)})`
  // Every 50th work was staged again (revised: its pairs come from the snapshot); a 100th is not kept
  // (merged or deleted); the rest are kept as they were.
  await db.run(
    `CREATE TABLE rows_works AS SELECT id, CASE WHEN hash(id) % 50 = 0 THEN ['W1', 'W2', 'W3'] END AS ${column} FROM (${workIds})`,
  )
  await db.run(
    `CREATE TABLE kept_previous_works AS SELECT id FROM rows_works WHERE ${column} IS NULL AND hash(id) % 100 <> 1`,
  )
  await db.run("SET memory_limit = '64MB'")
}, 60_000)

afterAll(() => {
  db?.close()
  rmSync(scratch, { recursive: true, force: true })
})

describe("an update's link table", () => {
  it('sorts the kept and the staged pairs together within a small memory limit, in key then work order', async () => {
    const rows = await db.run(
      copyLinkTableSql(referenced, works, `read_parquet(${constantLiteral(oldLinks)})`),
      [written],
    )
    await db.run("SET memory_limit = '1GB'")
    const [expected] = await db.rows(
      `SELECT (SELECT count(*) FROM read_parquet(${constantLiteral(oldLinks)}) WHERE work_id IN (SELECT id FROM kept_previous_works)) + (SELECT count(*) * 3 FROM rows_works WHERE ${column} IS NOT NULL) AS n`,
    )
    expect(rows).toBe(Number(expected!.n))
    const [order] = await db.rows(
      `SELECT count(*) FILTER (WHERE (key, CAST(work_id[2:] AS BIGINT), work_id) < previous) AS out_of_order, count(DISTINCT (key, work_id)) AS distinct_pairs, count(*) AS n FROM (SELECT key, work_id, lag((key, CAST(work_id[2:] AS BIGINT), work_id)) OVER () AS previous FROM read_parquet(${constantLiteral(written)}))`,
    )
    expect(Number(order!.out_of_order)).toBe(0)
    expect(Number(order!.distinct_pairs)).toBe(rows)
    expect(rows).toBeGreaterThan(KEPT_PAIRS * 0.9)
  }, 60_000)
})
