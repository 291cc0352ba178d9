// A list interrupted while its records are read (the last statement of a page: a deadline or a shutdown that
// fires once the ids are known) rejects with the engine's QueryInterruptedError, which the API answers 503,
// not with the ClickHouse client's bare abort error, which it answered 500 (the ClickHouse fuzz found it on
// exports, whose batches of 1,000 records are the longest reads). The client here is a stand-in that answers
// the served-version questions, the count and the page, then aborts the records' read as the real client does
// when its signal fires mid-request: the moment cannot be timed against a real server.
import type { ClickHouseClient } from '@clickhouse/client'
import { planQuery } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { rowsAnswer, servedVersionAnswer } from './support/served-version-stand-in.ts'

type QueryArguments = { readonly query: string; readonly query_params?: Record<string, unknown> }

/** A client stand-in whose records' read is aborted by `controller` once it has begun. */
const abortingRecordsClient = (controller: AbortController): ClickHouseClient => {
  const query = async (asked: QueryArguments) => {
    const answer = servedVersionAnswer(asked)
    if (answer !== undefined) return answer
    const { query } = asked
    if (query.includes('AS __id')) return rowsAnswer([{ __id: 'W1' }])
    if (query.includes('count() AS n')) return rowsAnswer([{ n: '1' }])
    throw new Error(`the stand-in does not answer: ${query}`)
  }
  const exec = async () => {
    controller.abort('deadline')
    // What @clickhouse/client rejects with when its abort_signal fires during a request.
    throw new Error('The user aborted a request.')
  }
  return { query, exec, close: async () => {} } as unknown as ClickHouseClient
}

describe('a ClickHouse list interrupted while its records are read (a client stand-in)', () => {
  it('rejects with the QueryInterruptedError of its signal', async () => {
    const controller = new AbortController()
    const adapter = createClickHouseAdapter({ client: abortingRecordsClient(controller), catalog: 'sample' })
    const planned = planQuery({ get_rows: 'works' })
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    await expect(adapter.queryRows(planned.plan, { signal: controller.signal })).rejects.toMatchObject({
      name: 'QueryInterruptedError',
      reason: 'deadline',
    })
  })
})
