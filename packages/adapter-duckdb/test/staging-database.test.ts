// The staging database streams a big result while an appender writes on its main connection: what the record
// store build does (records out, offsets in). DuckDB's appender flushes every 204,800 rows; a flush on the
// connection of a pending streamed result ended that stream early, without an error.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { StagingDatabase } from '../src/ingest/staging-database.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-staging-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('StagingDatabase.stream', () => {
  it('yields every row while an appender flushes on the main connection', async () => {
    const db = await StagingDatabase.open(scratch, { threads: 1 })
    try {
      await db.run('CREATE TABLE source AS SELECT range AS n FROM range(500000)')
      await db.run('CREATE TABLE sink (n BIGINT)')
      const appender = await db.appender('sink')
      let streamed = 0
      for await (const chunk of db.stream('SELECT n FROM source')) {
        for (const [n] of chunk) {
          appender.appendBigInt(BigInt(n as bigint))
          appender.endRow()
        }
        streamed += chunk.length
      }
      appender.closeSync()
      expect(streamed).toBe(500_000)
      const [sink] = await db.rows('SELECT count(*) AS rows, sum(n) AS total FROM sink')
      expect(Number(sink!.rows)).toBe(500_000)
      expect(BigInt(String(sink!.total))).toBe(BigInt((499_999 * 500_000) / 2))
    } finally {
      db.close()
    }
  })
})
