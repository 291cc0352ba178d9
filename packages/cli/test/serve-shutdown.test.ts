// SIGTERM to a real `oqlkit serve` with long requests in flight (100-word OR searches, group-bys, a semantic
// search, exports whose clients read nothing): on DuckDB and on ClickHouse (chdb behind the test stand-in for
// its HTTP interface), the process exits 0 within 10 s and every request it took has a status line, a 503
// `shutting_down` for those it stopped (an export already streaming ends without its last chunk).
// RELIABILITY.md, "Shutdown under load"; `npm run sigterm-under-load` measures the same over several runs.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chdbInstalled, sharedClickHouseSample } from '@oqlkit/adapter-clickhouse/test-support'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServerProcess } from './support/server-process.ts'
import { type ShutdownRun, sigtermUnderLoad } from './support/shutdown-under-load.ts'

// The servers run as the `oqlkit` command runs them (16 libuv threads: two heavy slots, six connections),
// so that several long requests run at once rather than wait in line. They inherit this process's variables.
process.env.UV_THREADPOOL_SIZE = '16'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-serve-shutdown-'))
let catalogDir: string
beforeAll(async () => {
  catalogDir = await sharedSampleCatalog()
}, 240_000)
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true })
})

const SERVE_ARGS = ['--no-metering', '--no-collections', '--access-log', 'off']

const expectCleanShutdown = (run: ShutdownRun): void => {
  const seen = JSON.stringify(run.outcomes.map(({ at: _, ...outcome }) => outcome))
  expect(run.exitCode, seen).toBe(0)
  expect(run.exitMs, seen).toBeLessThan(10_000)
  expect(run.stopped, seen).toBe(true)
  for (const outcome of run.outcomes) expect(outcome.status, `${outcome.kind}: ${seen}`).toBeDefined()
  // The exports' clients read nothing: they were in flight at the SIGTERM, and the shutdown stopped them.
  const exports = run.outcomes.filter((outcome) => outcome.kind === 'export')
  for (const stopped of exports)
    expect(stopped.error === 'shutting_down' || stopped.cutOff === true, seen).toBe(true)
  // Whatever else it stopped, it answered 503 shutting_down; what it let finish, 200.
  for (const outcome of run.outcomes.filter((outcome) => outcome.kind !== 'export'))
    expect([200, 503], seen).toContain(outcome.status)
}

describe('oqlkit serve, SIGTERM with long requests in flight', () => {
  it('on DuckDB: exits 0 within 10 s and answers every request it took', async () => {
    const server = await startServerProcess(catalogDir, [
      ...SERVE_ARGS,
      '--state',
      join(scratch, 'state-duckdb'),
    ])
    expectCleanShutdown(await sigtermUnderLoad(server))
  }, 150_000)

  it.skipIf(!chdbInstalled())(
    'on ClickHouse: exits 0 within 10 s and answers every request it took',
    async () => {
      // The sample loaded once into the worker's shared stand-in; the server only reads it.
      const clickhouse = await sharedClickHouseSample()
      const server = await startServerProcess(undefined, [
        '--clickhouse',
        `${clickhouse.url}/${clickhouse.catalog}`,
        ...SERVE_ARGS,
        '--state',
        join(scratch, 'state-clickhouse'),
      ])
      expectCleanShutdown(await sigtermUnderLoad(server))
    },
    150_000,
  )
})
