// The kept baseline database against the real PostgreSQL of this machine, over the bundled sample snapshot:
// loaded once, found again by the next run, loaded anew when its load never finished. Skips and says so when
// no server answers, unless OQLKIT_REQUIRE_POSTGRES=1 makes a missing server a failure.
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { keptDatabaseName, openOrLoadKeptDatabase } from './kept-postgres-database.ts'
import { connectPostgres, dropDatabase, type PostgresServer } from './postgres-snapshot-loader.ts'

const SAMPLE = fileURLToPath(new URL('../../data/sample-snapshot', import.meta.url))
const server: PostgresServer = { host: '127.0.0.1', port: 5432, user: 'postgres' }

const reachable = async (): Promise<boolean> => {
  const probe = connectPostgres(server, 'postgres')
  try {
    await probe`SELECT 1`
    return true
  } catch (error) {
    if (process.env.OQLKIT_REQUIRE_POSTGRES === '1')
      throw new Error(
        `PostgreSQL is required (OQLKIT_REQUIRE_POSTGRES=1) but did not answer: ${String(error)}`,
      )
    console.warn(`Skipping the kept-database test: ${server.host}:${server.port} did not answer.`)
    return false
  } finally {
    await probe.end({ timeout: 2 })
  }
}
const available = await reachable()

describe('keptDatabaseName', () => {
  it('names the database after the snapshot folder, as a plain identifier', () => {
    expect(keptDatabaseName('snapshot-w1000000-s1-g1')).toBe('oqlkit_bench_kept_w1000000_s1_g1')
  })
})

describe.runIf(available)('openOrLoadKeptDatabase over the bundled sample', () => {
  const database = `oqlkit_bench_kept_test_${process.pid}`
  afterAll(async () => {
    await dropDatabase(server, database)
  })

  it('loads a missing database, finds it finished on the next run, and reloads one whose load stopped', async () => {
    const first = await openOrLoadKeptDatabase({ server, snapshotDir: SAMPLE, database })
    expect(first.reused).toBe(false)
    const [works] = await first.sql`SELECT count(*)::int AS n FROM works`
    expect(works!.n).toBe(first.rows.works)
    await first.close()

    const second = await openOrLoadKeptDatabase({ server, snapshotDir: SAMPLE, database })
    expect(second.reused).toBe(true)
    expect(second.rows).toEqual(first.rows)
    expect(second.sizeBytes).toBe(first.sizeBytes)
    // A load stopped before its end never wrote the marker.
    await second.sql`DROP TABLE oqlkit_bench_load`
    await second.close()

    const third = await openOrLoadKeptDatabase({ server, snapshotDir: SAMPLE, database })
    expect(third.reused).toBe(false)
    const [again] = await third.sql`SELECT count(*)::int AS n FROM works`
    expect(again!.n).toBe(first.rows.works)
    await third.close()
  }, 120_000)
})
