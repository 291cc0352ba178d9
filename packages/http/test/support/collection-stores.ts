// The collection stores the HTTP collection tests run against: the embedded (file-backed) store, and the
// Redis store when a Redis answers. With OQLKIT_REQUIRE_REDIS=1 (CI) a missing Redis fails the run
// instead of skipping, as the adapter's own tests do.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  connectRedis,
  createRedisCollectionStore,
  DEFAULT_REDIS_URL,
  probeRedis,
} from '@oqlkit/adapter-redis'
import type { CollectionCaller, CollectionStore } from '@oqlkit/engine'
import { openFileCollectionStore } from '@oqlkit/file-stores'
import { fixedKeyCallers } from '@oqlkit/http'
import { afterAll } from 'vitest'

export interface StoreKind {
  readonly name: string
  /** Skipped (with the reason printed) when its server is not there. */
  readonly skip: boolean
  /** A new, empty store; closed and removed after the file's tests. */
  readonly open: () => Promise<CollectionStore>
}

const redisUrl = process.env.OQLKIT_REDIS_URL ?? DEFAULT_REDIS_URL
const redis = await probeRedis(redisUrl)
if (!redis.reachable) {
  const required = process.env.OQLKIT_REQUIRE_REDIS === '1' || process.env.OQLKIT_REQUIRE_REDIS === 'true'
  if (required)
    throw new Error(
      `Redis is required (OQLKIT_REQUIRE_REDIS=1) but ${redisUrl} did not answer: ${redis.reason}.`,
    )
  console.warn(`Skipping the Redis collection-store runs: ${redisUrl} did not answer (${redis.reason}).`)
}

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-http-collections-'))
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  rmSync(scratch, { recursive: true, force: true })
})

let opened = 0
const runPrefix = `oqlkit-test:http-collections-${process.pid}-${Date.now().toString(36)}:`

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'embedded store',
    skip: false,
    open: async () => {
      const store = await openFileCollectionStore({ dir: join(scratch, `store-${++opened}`) })
      cleanups.push(() => store.close())
      return store
    },
  },
  {
    name: 'Redis store',
    skip: !redis.reachable,
    open: async () => {
      const client = await connectRedis(redisUrl)
      const prefix = `${runPrefix}${++opened}:`
      cleanups.push(async () => {
        const keys = await client.keys(`${prefix}*`)
        if (keys.length > 0) await client.del(...keys)
        client.disconnect()
      })
      return createRedisCollectionStore({ client, prefix })
    },
  },
]

/** The keys of the tests: two users, an admin, and one more user who owns nothing. */
export const KEYS = {
  ann: 'key-ann-0000000000000001',
  bob: 'key-bob-0000000000000002',
  admin: 'key-admin-00000000000003',
  eve: 'key-eve-0000000000000004',
} as const

export const CALLERS: Readonly<Record<string, CollectionCaller>> = {
  [KEYS.ann]: { userId: 'ann', admin: false },
  [KEYS.bob]: { userId: 'bob', admin: false },
  [KEYS.admin]: { userId: 'root', admin: true },
  [KEYS.eve]: { userId: 'eve', admin: false },
}

export const testCallers = fixedKeyCallers(CALLERS)

export interface Answer<T = Record<string, unknown>> {
  readonly status: number
  readonly headers: Headers
  readonly body: T
}

/** Sends a request to an app (`key` as a Bearer header), parsing the JSON body. */
export const send = async <T = Record<string, unknown>>(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  method: string,
  path: string,
  options: {
    key?: string
    body?: unknown
    rawBody?: string | Uint8Array
    headers?: Record<string, string>
  } = {},
): Promise<Answer<T>> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`
  let body: string | Uint8Array | undefined = options.rawBody
  if (options.body !== undefined && method !== 'GET' && method !== 'HEAD') {
    body = JSON.stringify(options.body)
    headers['content-type'] = 'application/json'
  }
  const response = await app.fetch(
    new Request(`http://localhost${path}`, { method, headers, ...(body === undefined ? {} : { body }) }),
  )
  const text = await response.text()
  let parsed: T
  try {
    parsed = JSON.parse(text) as T
  } catch {
    throw new Error(
      `${method} ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    )
  }
  return { status: response.status, headers: response.headers, body: parsed }
}
