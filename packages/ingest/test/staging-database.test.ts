// The staging database: long record texts kept compressed on disk in small row groups, DuckDB's memory limit by default, and a
// thread count lowered for one step and given back.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  defaultStagingMemoryLimit,
  STAGING_FILE,
  STAGING_MEMORY_CAP_BYTES,
  STAGING_MEMORY_SHARE,
  STAGING_ROW_GROUP_ROWS,
  StagingDatabase,
} from '../src/build/staging-database.ts'
import { withSettings } from '../src/texts/build-session.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-staging-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('StagingDatabase storage', () => {
  it('keeps long record texts zstd-compressed on disk', async () => {
    const dir = join(scratch, 'compressed')
    const db = await StagingDatabase.open(dir, { threads: 1 })
    // Records of ~6 KB of JSON, as snapshot lines are: DuckDB's default format stores strings this long as
    // they are, which made a 1M-work staging database 52.7 GB.
    const records = 20_000
    const record = (n: number): string =>
      JSON.stringify({
        id: `https://openalex.org/W${n}`,
        title: `Work number ${n}`,
        authorships: Array.from({ length: 80 }, (_, k) => ({
          author: { id: `https://openalex.org/A${n * 80 + k}`, display_name: `Author ${k} of work ${n}` },
        })),
      })
    let rawBytes = 0
    try {
      await db.run('CREATE TABLE stage (seq BIGINT, record VARCHAR)')
      const appender = await db.appender('stage')
      for (let n = 0; n < records; n++) {
        const text = record(n)
        rawBytes += text.length
        appender.appendBigInt(BigInt(n))
        appender.appendVarchar(text)
        appender.endRow()
      }
      appender.closeSync()
      await db.run('CHECKPOINT')
      const methods = await db.rows(
        "SELECT DISTINCT compression FROM pragma_storage_info('stage') WHERE column_name = 'record' AND segment_type = 'VARCHAR'",
      )
      expect(methods.map((row) => row.compression)).toEqual(['ZSTD'])
      // Row groups of 8,192 rows, not DuckDB's 122,880: a default group of staged works is 2.3 GB in memory.
      const [groups] = await db.rows(
        "SELECT count(DISTINCT row_group_id) AS n FROM pragma_storage_info('stage')",
      )
      expect(Number(groups!.n)).toBe(Math.ceil(records / STAGING_ROW_GROUP_ROWS))
      const [check] = await db.rows('SELECT count(*) AS n, max(strlen(record)) AS longest FROM stage')
      expect(Number(check!.n)).toBe(records)
      expect(Number(check!.longest)).toBeGreaterThan(5_000)
    } finally {
      db.close()
    }
    expect(statSync(join(dir, STAGING_FILE)).size).toBeLessThan(rawBytes / 4)
  })
})

describe('StagingDatabase memory', () => {
  it('gives DuckDB a share of the machine, at most 3 GB, unless told, leaving the rest to the ingest’s own work', async () => {
    const told = await StagingDatabase.open(join(scratch, 'told'), { threads: 1, memoryLimit: '512MB' })
    const untold = await StagingDatabase.open(join(scratch, 'untold'), { threads: 1 })
    try {
      // DuckDB reports the limit in its own units (`488.2 MiB`, `6.9 GiB`).
      const [toldLimit] = await told.rows("SELECT current_setting('memory_limit') AS l")
      expect(String(toldLimit!.l)).toMatch(/^488\.2 MiB$/)
      const [untoldLimit] = await untold.rows("SELECT current_setting('memory_limit') AS l")
      const [value, unit] = String(untoldLimit!.l).split(' ')
      const bytes = Number(value) * (unit === 'GiB' ? 2 ** 30 : unit === 'MiB' ? 2 ** 20 : Number.NaN)
      const expected = Math.min(totalmem() * STAGING_MEMORY_SHARE, STAGING_MEMORY_CAP_BYTES)
      expect(bytes / expected).toBeCloseTo(1, 1)
      expect(defaultStagingMemoryLimit()).toMatch(/^\d+MiB$/)
    } finally {
      told.close()
      untold.close()
    }
  })
})

describe('withSettings on the staging database', () => {
  it('runs work under the settings and gives back what the session had, also after a failure', async () => {
    // Three threads, not DuckDB's default of one per core: a RESET would not give this back on any machine here.
    const db = await StagingDatabase.open(join(scratch, 'settings'), { threads: 3 })
    const current = async () => {
      const [row] = await db.rows(
        "SELECT current_setting('threads') AS threads, current_setting('partitioned_write_flush_threshold') AS flush, current_setting('preserve_insertion_order') AS ordered",
      )
      return { threads: Number(row!.threads), flush: Number(row!.flush), ordered: row!.ordered }
    }
    try {
      const before = await current()
      expect(before.threads).toBe(3)
      const tuned = { threads: 1, partitioned_write_flush_threshold: 300, preserve_insertion_order: false }
      expect(await withSettings(db, tuned, current)).toEqual({ threads: 1, flush: 300, ordered: false })
      expect(await current()).toEqual(before)
      const failed = await withSettings(db, tuned, () => db.run('SELECT * FROM no_such_table')).catch(
        (error: unknown) => error,
      )
      expect(String(failed)).toMatch(/no_such_table/)
      expect(await current()).toEqual(before)
      await expect(withSettings(db, { 'threads = 1; DROP TABLE x': 1 }, current)).rejects.toThrow(
        /Not a DuckDB setting name/,
      )
    } finally {
      db.close()
    }
  })
})
