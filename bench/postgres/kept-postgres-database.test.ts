// The kept baseline database against the real PostgreSQL of this machine, over the bundled sample snapshot:
// loaded once, found again by the next run, loaded anew when its load never finished (skipped, saying so,
// when no server answers: postgres-test-server.ts).
import { afterAll, describe, expect, it } from 'vitest'
import { keptDatabaseName, openOrLoadKeptDatabase } from './kept-postgres-database.ts'
import { dropDatabase } from './postgres-snapshot-loader.ts'
import {
  postgresReachable,
  SAMPLE_SNAPSHOT as SAMPLE,
  TEST_POSTGRES as server,
} from './postgres-test-server.ts'

const available = await postgresReachable('the kept-database test')

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
