import { type ClickHouseClient, createClient } from '@clickhouse/client'
import type { ClickHouseTarget } from './clickhouse-target.ts'

/**
 * A client of the official ClickHouse driver for a target. Requests that outlive `requestTimeoutMs` fail
 * rather than hang; statements are time-bound by the server too (`max_execution_time`, set per query).
 */
export const connectClickHouse = (
  target: ClickHouseTarget,
  options: { readonly requestTimeoutMs?: number } = {},
): ClickHouseClient =>
  createClient({
    url: target.endpoint,
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    request_timeout: options.requestTimeoutMs ?? 300_000,
    application: 'oqlkit',
  })
