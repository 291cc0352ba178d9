// The metered app for the metering tests: the sample catalog's adapter (from `useSampleApp`) behind
// `createApp` with metering on, over either store: the embedded one (a fresh state folder) or Redis (a
// fresh key prefix, deleted afterwards; skipped, or failed under OQLKIT_REQUIRE_REDIS=1, without Redis).
// The clock is the test's: budgets, midnight and rate windows follow `clock.now`.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectRedis, createRedisKeyStore, createRedisMeterStore } from '@oqlkit/adapter-redis'
import { redisForTests } from '@oqlkit/adapter-redis/test-support'
import {
  generateApiKey,
  type KeyGrant,
  type KeyStore,
  keyRecordOf,
  type MeteringLimits,
  type MeterStore,
} from '@oqlkit/engine'
import { openFileKeyStore, openFileMeterStore } from '@oqlkit/file-stores'
import { createApp } from '@oqlkit/http'
import { afterAll, beforeAll } from 'vitest'
import type { SampleApp } from './sample-app.ts'

export interface MeteringStores {
  readonly keys: KeyStore
  readonly meter: MeterStore
  /** How many key records the store holds: a refused request must never add one. */
  readonly storedKeyCount: () => Promise<number>
  readonly dispose: () => Promise<void>
}

export interface StoreKind {
  readonly name: string
  readonly skip: boolean
  readonly open: () => Promise<MeteringStores>
}

const redis = await redisForTests()

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'embedded store',
    skip: false,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'oqlkit-metering-http-'))
      const keys = await openFileKeyStore({ dir })
      const meter = await openFileMeterStore({ dir })
      return {
        keys,
        meter,
        storedKeyCount: async () => {
          try {
            return readFileSync(join(dir, 'keys.log'), 'utf8')
              .split('\n')
              .filter((line) => line !== '').length
          } catch {
            return 0
          }
        },
        dispose: async () => {
          await meter.close()
          await keys.close()
          rmSync(dir, { recursive: true, force: true })
        },
      }
    },
  },
  {
    name: 'Redis store',
    skip: !redis.reachable,
    open: async () => {
      const client = await connectRedis(redis.url)
      const prefix = `oqlkit-test:http-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`
      return {
        keys: createRedisKeyStore({ client, prefix }),
        meter: createRedisMeterStore({ client, prefix, clock: 'caller' }),
        storedKeyCount: async () => (await client.keys(`${prefix}apikey:*`)).length,
        dispose: async () => {
          const written = await client.keys(`${prefix}*`)
          if (written.length > 0) await client.del(...written)
          client.disconnect()
        },
      }
    },
  },
]

export interface MeteredApp {
  readonly app: ReturnType<typeof createApp>
  readonly stores: MeteringStores
  /** The app's clock (epoch ms); tests move it. */
  readonly clock: { now: number }
  /** Issues a key with a grant into the store; returns the key. */
  readonly provision: (grant: KeyGrant) => Promise<string>
}

/** Noon UTC on a fixed day: 43,200 seconds to the budgets' reset. */
export const NOON = Date.UTC(2030, 0, 10, 12)

/** Opens the metered app of a store kind for the calling file; fields are set once `beforeAll` ran. */
export function useMeteredApp(
  kind: StoreKind,
  sample: SampleApp,
  options: { readonly limits?: MeteringLimits; readonly trustProxy?: boolean } = {},
): MeteredApp {
  const opened = { clock: { now: NOON } } as {
    app: ReturnType<typeof createApp>
    stores: MeteringStores
    clock: { now: number }
    provision: (grant: KeyGrant) => Promise<string>
  }
  beforeAll(async () => {
    if (kind.skip) return
    opened.stores = await kind.open()
    opened.app = createApp({
      adapter: sample.adapter,
      tagger: sample.tagger,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      logError: (error) => {
        sample.faults.push(error)
      },
      metering: {
        keys: opened.stores.keys,
        meter: opened.stores.meter,
        clock: () => opened.clock.now,
        trustProxy: options.trustProxy ?? true,
        ...(options.limits === undefined ? {} : { limits: options.limits }),
      },
    })
    opened.provision = async (grant) => {
      const key = generateApiKey()
      await opened.stores.keys.putKey(await keyRecordOf(key, grant, new Date(opened.clock.now)))
      return key
    }
  }, 60_000)
  afterAll(async () => {
    await opened.stores?.dispose()
  })
  return opened
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
}

/** One request through `app.fetch`; the body parsed as JSON. */
export async function call(
  metered: MeteredApp,
  path: string,
  init: RequestInit & { readonly address?: string } = {},
): Promise<Answer> {
  const headers = new Headers(init.headers)
  if (init.address !== undefined) headers.set('x-forwarded-for', init.address)
  const response = await metered.app.fetch(
    new Request(`http://localhost${path}`, { redirect: 'manual', ...init, headers }),
  )
  const text = await response.text()
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    throw new Error(`${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`)
  }
  return { status: response.status, headers: response.headers, body }
}

export interface RateLimitReport {
  readonly api_key: string | null
  readonly rate_limit: {
    readonly daily_budget_usd: number
    readonly daily_used_usd: number
    readonly daily_remaining_usd: number
    readonly prepaid_balance_usd: number
    readonly prepaid_remaining_usd: number
    readonly prepaid_expires_at: string | null
    readonly resets_at: string
    readonly resets_in_seconds: number
    readonly endpoint_costs_usd: Record<string, number>
  }
}

/** `GET /rate-limit` for a key (as api_key=) or an address. */
export async function rateLimitOf(
  metered: MeteredApp,
  who: { readonly key?: string; readonly address?: string },
): Promise<RateLimitReport> {
  const answer = await call(
    metered,
    who.key === undefined ? '/rate-limit' : `/rate-limit?api_key=${who.key}`,
    who.address === undefined ? {} : { address: who.address },
  )
  if (answer.status !== 200)
    throw new Error(`/rate-limit answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body as unknown as RateLimitReport
}
