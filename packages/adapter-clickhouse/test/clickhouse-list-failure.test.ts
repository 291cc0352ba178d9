// A list's count and page statements run at once; when both fail, the list must reject once and leave no
// rejection without a handler (one took `serve --clickhouse` down on a deadline). The ClickHouse client here is
// a stand-in that answers the served-version questions and fails the two statements in a set order: the page
// first, the count a moment later, which is the order that left the count's failure unhandled.
import type { ClickHouseClient } from '@clickhouse/client'
import { planQuery } from '@oqlkit/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { servedVersionAnswer } from './support/served-version-stand-in.ts'

type QueryArguments = { readonly query: string; readonly query_params?: Record<string, unknown> }

/** A client stand-in: a served version, no search index, and the page then the count failing. */
const failingStatementsClient = (): ClickHouseClient => {
  let pageFailed: () => void = () => {}
  const pageHasFailed = new Promise<void>((resolve) => {
    pageFailed = resolve
  })
  const query = async (asked: QueryArguments) => {
    const answer = servedVersionAnswer(asked)
    if (answer !== undefined) return answer
    const { query } = asked
    if (query.includes('AS __id')) {
      setTimeout(pageFailed, 0)
      throw new Error('page statement failed (stand-in)')
    }
    if (query.includes('count() AS n')) {
      await pageHasFailed
      await new Promise((resolve) => setTimeout(resolve, 20))
      throw new Error('count statement failed (stand-in)')
    }
    throw new Error(`the stand-in does not answer: ${query}`)
  }
  return { query, close: async () => {} } as unknown as ClickHouseClient
}

describe('a ClickHouse list whose statements fail (a client stand-in)', () => {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown) => unhandled.push(reason)
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled)
  })

  it('rejects with the first failure and leaves no unhandled rejection behind', async () => {
    process.on('unhandledRejection', onUnhandled)
    const adapter = createClickHouseAdapter({ client: failingStatementsClient(), catalog: 'sample' })
    const planned = planQuery({ get_rows: 'works' })
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    await expect(adapter.queryRows(planned.plan)).rejects.toThrow('page statement failed (stand-in)')
    // Long enough for the count's failure to land and for Node to report it, were it unhandled.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(unhandled).toEqual([])
  })
})
