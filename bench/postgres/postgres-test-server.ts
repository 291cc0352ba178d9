// The PostgreSQL of this machine as the bench's tests reach it (127.0.0.1:5432), and the bundled sample
// snapshot they load. Like the Redis tests, a test skips and says so when no server answers, unless
// OQLKIT_REQUIRE_POSTGRES=1 (set by .ci/run) makes a missing server a failure.
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { connectPostgres, type PostgresServer } from './postgres-snapshot-loader.ts'

export const SAMPLE_SNAPSHOT = SAMPLE_SNAPSHOT_DIR

export const TEST_POSTGRES: PostgresServer = { host: '127.0.0.1', port: 5432, user: 'postgres' }

/** Whether the server answers; `what` names the skipped test in the warning. */
export async function postgresReachable(what: string): Promise<boolean> {
  const probe = connectPostgres(TEST_POSTGRES, 'postgres')
  try {
    await probe`SELECT 1`
    return true
  } catch (error) {
    if (process.env.OQLKIT_REQUIRE_POSTGRES === '1')
      throw new Error(
        `PostgreSQL is required (OQLKIT_REQUIRE_POSTGRES=1) but did not answer: ${String(error)}`,
      )
    console.warn(`Skipping ${what}: ${TEST_POSTGRES.host}:${TEST_POSTGRES.port} did not answer.`)
    return false
  } finally {
    await probe.end({ timeout: 2 })
  }
}
