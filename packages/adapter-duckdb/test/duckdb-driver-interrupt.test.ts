// A statement's time budget, enforced in the driver: when the caller's signal fires, a running statement is
// interrupted inside DuckDB, one waiting for a connection leaves the line, and the connection serves the next
// statement. Real DuckDB; the long statement counts over a range too large to finish within the test.
import { isQueryInterruptedError, QueryInterruptedError } from '@oqlkit/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DuckDbConnectionLike, openDuckDbDatabase, withSignal } from '../src/query/duckdb-driver.ts'

/** Minutes of work for one core: it ends only when interrupted. */
const ENDLESS = 'SELECT count(*) AS n FROM range(1000000000000) r WHERE r.range % 7 = 3'

let db: DuckDbConnectionLike
beforeAll(async () => {
  db = await openDuckDbDatabase({ threads: 1, connections: 1 })
})
afterAll(async () => {
  await db.close()
})

const rejection = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => new Error('the statement finished'),
    (error: unknown) => error,
  )

describe('the DuckDB driver under a signal', () => {
  it('interrupts a running statement when its signal fires, and the connection answers the next one', async () => {
    const started = performance.now()
    const error = await rejection(db.all(ENDLESS, [], AbortSignal.timeout(200)))
    const elapsed = performance.now() - started
    expect(isQueryInterruptedError(error), String(error)).toBe(true)
    expect((error as QueryInterruptedError).reason).toBe('deadline')
    expect(elapsed).toBeLessThan(5_000)
    expect(await db.all('SELECT 42 AS answer')).toEqual([{ answer: 42 }])
  })

  it('takes a statement waiting for a busy connection out of the line when its signal fires', async () => {
    const running = new AbortController()
    const long = rejection(db.all(ENDLESS, [], running.signal))
    const waiting = new AbortController()
    const queued = rejection(db.all('SELECT 1 AS one', [], waiting.signal))
    waiting.abort('shutdown')
    const error = await queued
    expect(isQueryInterruptedError(error)).toBe(true)
    expect((error as QueryInterruptedError).reason).toBe('shutdown')
    // The long statement still holds the only connection; stopping it frees the connection for others.
    running.abort()
    expect(isQueryInterruptedError(await long)).toBe(true)
    expect(await db.all('SELECT 2 AS two')).toEqual([{ two: 2 }])
  })

  it('runs nothing for a signal that fired before the call', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await rejection(db.all('SELECT 3 AS three', [], controller.signal))
    expect(isQueryInterruptedError(error)).toBe(true)
  })

  it('leaves statements without a signal, and those that finish in time, alone', async () => {
    const signal = AbortSignal.timeout(10_000)
    expect(await db.all('SELECT 4 AS four', [], signal)).toEqual([{ four: 4 }])
    expect(await withSignal(db, signal).all('SELECT 5 AS five')).toEqual([{ five: 5 }])
    expect(await db.all('SELECT 6 AS six')).toEqual([{ six: 6 }])
  })

  it('gives a statement the signal of the connection it runs on', async () => {
    const error = await rejection(withSignal(db, AbortSignal.timeout(200)).all(ENDLESS))
    expect(error).toBeInstanceOf(QueryInterruptedError)
    expect(await db.all('SELECT 7 AS seven')).toEqual([{ seven: 7 }])
  })
})
