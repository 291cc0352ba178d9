import { readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import {
  createMemoryKeyStore,
  type KeyStore,
  layerKeyStores,
  type MeterStore,
  readKeysFile,
} from '@oqlkit/engine'
import { openFileKeyStore, openFileMeterStore } from '@oqlkit/file-stores'
import { UsageProblem } from './command-line-parser.ts'
import { DEFAULT_REDIS_PREFIX, STATE_DIR_NAME } from './store-options.ts'

/** Where keys and budgets live: a state folder (embedded, the default) or a Redis server. */
export type StoreLocation =
  | { readonly kind: 'embedded'; readonly dir: string }
  | { readonly kind: 'redis'; readonly url: string; readonly prefix: string }

export const describeLocation = (location: StoreLocation): string =>
  location.kind === 'embedded'
    ? `the embedded store in ${location.dir}`
    : `Redis at ${location.url} (key prefix ${location.prefix})`

/**
 * The store of a command line: `--state DIR` (created when missing: a first start has no state yet), or
 * `--redis URL` with `--redis-prefix P`; a problem (both given, a bad URL) as a UsageProblem.
 */
export const readStoreLocation = (
  values: { readonly state?: string; readonly redis?: string; readonly 'redis-prefix'?: string },
  defaultStateDir: string,
): StoreLocation => {
  const redis = values.redis
  if (redis !== undefined && values.state !== undefined)
    throw new UsageProblem('--state and --redis are two places for the same state: give one')
  if (redis !== undefined) {
    if (!/^rediss?:\/\//.test(redis))
      throw new UsageProblem(`--redis needs a redis:// or rediss:// URL (was ${redis})`)
    return { kind: 'redis', url: redis, prefix: values['redis-prefix'] ?? DEFAULT_REDIS_PREFIX }
  }
  if (values['redis-prefix'] !== undefined) throw new UsageProblem('--redis-prefix goes with --redis')
  return { kind: 'embedded', dir: resolve(values.state ?? defaultStateDir) }
}

/** The default state folder of a server: beside its catalog folder, so re-ingesting never touches it. */
export const defaultStateDirOf = (catalogDir: string): string =>
  join(dirname(resolve(catalogDir)), STATE_DIR_NAME)

export interface MeteringStores {
  readonly keys: KeyStore
  readonly meter: MeterStore
  readonly close: () => Promise<void>
}

/**
 * A client of the Redis at `url`, probed first so a dead one fails at once, with @oqlkit/adapter-redis's
 * stores. The adapter (and ioredis, some 70 modules) is loaded only here: a server on embedded state never
 * needs it, and every start would otherwise pay for it.
 */
export const connectedRedis = async (url: string) => {
  const redis = await import('@oqlkit/adapter-redis')
  const probe = await redis.probeRedis(url)
  if (!probe.reachable) throw new Error(`Redis at ${url} did not answer: ${probe.reason}`)
  return { ...redis, client: await redis.connectRedis(url) }
}

/**
 * Opens only the key store of a location: what `oqlkit keys` writes to, also while a server runs on
 * the same state (the embedded meter store admits one process; the key store any number).
 */
export const openKeyStore = async (
  location: StoreLocation,
): Promise<{ keys: KeyStore; close: () => Promise<void> }> => {
  if (location.kind === 'embedded') {
    const keys = await openFileKeyStore({ dir: location.dir })
    return { keys, close: () => keys.close() }
  }
  const { client, createRedisKeyStore } = await connectedRedis(location.url)
  return {
    keys: createRedisKeyStore({ client, prefix: location.prefix }),
    close: async () => {
      await client.quit().catch(() => client.disconnect())
    },
  }
}

/** Opens the key and meter stores of a location (Redis is probed first, so a dead one fails at once). */
export const openMeteringStores = async (location: StoreLocation): Promise<MeteringStores> => {
  if (location.kind === 'embedded') {
    const keys = await openFileKeyStore({ dir: location.dir })
    const meter = await openFileMeterStore({ dir: location.dir })
    return {
      keys,
      meter,
      close: async () => {
        await meter.close()
        await keys.close()
      },
    }
  }
  const { client, createRedisKeyStore, createRedisMeterStore } = await connectedRedis(location.url)
  return {
    keys: createRedisKeyStore({ client, prefix: location.prefix }),
    meter: createRedisMeterStore({ client, prefix: location.prefix }),
    close: async () => {
      await client.quit().catch(() => client.disconnect())
    },
  }
}

/** The keys of a keys file (`--keys`), in memory, and how many; none without a file. */
const readProvisionedKeys = async (
  keysFile: string | undefined,
  now: Date,
): Promise<{ readonly keys: KeyStore | undefined; readonly count: number }> => {
  if (keysFile === undefined) return { keys: undefined, count: 0 }
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(keysFile, 'utf8'))
  } catch (error) {
    throw new Error(
      `cannot read the keys file ${keysFile}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  const reading = await readKeysFile(parsed, now)
  if (!reading.ok)
    throw new Error(`the keys file ${keysFile} is not valid:\n  ${reading.problems.join('\n  ')}`)
  return { keys: createMemoryKeyStore(reading.records), count: reading.records.length }
}

/**
 * The stores of a server: those of its location, with the keys of a keys file (`--keys`) in front.
 * Provisioned keys stay in memory (every process of a deployment reads the same file), so the file
 * remains the one place they are defined, and a key there overrides a stored key of the same value.
 */
export const openServerMetering = async (
  location: StoreLocation,
  keysFile: string | undefined,
  now: Date,
): Promise<MeteringStores & { readonly provisioned: number }> => {
  const provisioned = await readProvisionedKeys(keysFile, now)
  const stores = await openMeteringStores(location)
  return {
    ...stores,
    keys: provisioned.keys === undefined ? stores.keys : layerKeyStores(provisioned.keys, stores.keys),
    provisioned: provisioned.count,
  }
}

/**
 * The keys of a server without metering, layered the same way: enough to tell who calls the
 * collections API, with no budgets kept.
 */
export const openServerKeys = async (
  location: StoreLocation,
  keysFile: string | undefined,
  now: Date,
): Promise<{
  readonly keys: KeyStore
  readonly provisioned: number
  readonly close: () => Promise<void>
}> => {
  const provisioned = await readProvisionedKeys(keysFile, now)
  const stored = await openKeyStore(location)
  return {
    keys: provisioned.keys === undefined ? stored.keys : layerKeyStores(provisioned.keys, stored.keys),
    provisioned: provisioned.count,
    close: stored.close,
  }
}
