// The loader against the real PostgreSQL of this machine, over the bundled sample snapshot (skipped, saying
// so, when no server answers: postgres-test-server.ts).
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  connectPostgres,
  type LoadedDatabase,
  loadSnapshotIntoPostgres,
  snapshotParts,
} from './postgres-snapshot-loader.ts'
import {
  postgresReachable,
  SAMPLE_SNAPSHOT as SAMPLE,
  TEST_POSTGRES as server,
} from './postgres-test-server.ts'

const available = await postgresReachable('the PostgreSQL loader test')

const sampleWorks = snapshotParts(SAMPLE, 'works').flatMap((file) =>
  gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { id: string; authorships: { institutions: unknown[] }[] }),
)

describe.runIf(available)('loadSnapshotIntoPostgres over the bundled sample', () => {
  let loaded: LoadedDatabase

  beforeAll(async () => {
    loaded = await loadSnapshotIntoPostgres({ server, snapshotDir: SAMPLE })
  })
  afterAll(async () => {
    await loaded?.drop()
  })

  it('loads every work once, and says how many rows each table got', async () => {
    const [row] = await loaded.sql`SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM works`
    expect(row).toEqual({ n: sampleWorks.length, ids: sampleWorks.length })
    expect(loaded.rows.works).toBe(sampleWorks.length)
    expect(loaded.copyMs).toBeGreaterThan(0)
  })

  it('writes one authorship row per author and institution', async () => {
    const expected = sampleWorks.reduce(
      (sum, work) =>
        sum +
        work.authorships.reduce((rows, authorship) => rows + Math.max(1, authorship.institutions.length), 0),
      0,
    )
    const [row] = await loaded.sql`SELECT count(*)::int AS n FROM works_authorships`
    // Institutions repeated within one authorship are kept once, so at most the raw product.
    expect(row!.n).toBeLessThanOrEqual(expected)
    expect(row!.n).toBeGreaterThan(sampleWorks.length)
  })

  it('adds the primary keys, the indexes and the full-text column', async () => {
    const indexes = (await loaded.sql`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`).map(
      (row) => row.indexname as string,
    )
    expect(indexes).toEqual(
      expect.arrayContaining([
        'works_pkey',
        'works_referenced_works_pkey',
        'works_authorships_author_id_idx',
        'works_referenced_works_referenced_work_id_idx',
        'works_search_vector_idx',
      ]),
    )
    const plan = (await loaded.sql`EXPLAIN SELECT * FROM works WHERE id = ${sampleWorks[0]!.id}`).map((row) =>
      String(row['QUERY PLAN']),
    )
    expect(plan.join('\n')).not.toContain('Seq Scan')
  })

  it('drops its database', async () => {
    const name = loaded.database
    await loaded.drop()
    const admin = connectPostgres(server, 'postgres')
    try {
      const [row] = await admin`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${name}`
      expect(row!.n).toBe(0)
    } finally {
      await admin.end({ timeout: 2 })
    }
  })
})
