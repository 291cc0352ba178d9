// Closing the DuckDB driver while statements run (a server's shutdown): the running statements are
// interrupted and settle, then the connections close. Closed under a running statement, a connection left
// that statement unsettled for good, and whoever awaited it (a request, a server's shutdown) with it.
// Real DuckDB; the long statement counts over a range too large to finish within the test.
import { isQueryInterruptedError } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import { openDuckDbDatabase } from '../src/query/duckdb-driver.ts'

/** Minutes of work for one core: it ends only when interrupted. */
const ENDLESS = 'SELECT count(*) AS n FROM range(1000000000000) r WHERE r.range % 7 = 3'

const outcome = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => 'finished',
    (error: unknown) => error,
  )

/** `work`'s outcome, or 'unsettled' when it has none within `ms`. */
const within = async (work: Promise<unknown>, ms: number): Promise<unknown> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve('unsettled'), ms)
  })
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

describe('closing the DuckDB driver under running statements', () => {
  it('interrupts them, waits for them to settle, then closes; later statements are refused', async () => {
    const db = await openDuckDbDatabase({ threads: 1, connections: 3 })
    // One statement without a signal, one whose signal never fires, and one waiting for a connection.
    const quiet = outcome(db.all(ENDLESS))
    const signalled = outcome(db.all(ENDLESS, [], new AbortController().signal))
    const third = outcome(db.all(ENDLESS))
    const waiting = outcome(db.all('SELECT 1 AS one'))
    // Let them start.
    await new Promise((started) => setTimeout(started, 300))
    const started = performance.now()
    await db.close()
    const closedAfter = performance.now() - started
    const [a, b, c, d] = await Promise.all([quiet, signalled, third, waiting].map((s) => within(s, 5_000)))
    for (const stopped of [a, b, c]) expect(stopped).toBeInstanceOf(Error)
    expect(isQueryInterruptedError(a)).toBe(false)
    expect(String(a)).toMatch(/interrupt/i)
    expect(String(d)).toContain('The DuckDB database is closed')
    expect(closedAfter).toBeLessThan(5_000)
    expect(String(await outcome(db.all('SELECT 2 AS two')))).toContain('The DuckDB database is closed')
    // A second close is the first one.
    await db.close()
  })
})
