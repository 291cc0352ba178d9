import { Cluster, Redis } from 'ioredis'

/**
 * What the stores talk to: one Redis server, or a Redis Cluster. Every store keeps the keys one
 * operation touches in one hash slot (hash tags), so each operation runs on one node either way.
 */
export type RedisClient = Redis | Cluster

/** The prefix of every key a store writes unless it is given another. */
export const DEFAULT_KEY_PREFIX = 'oqlkit:'

/** What every store is given: the client, and the prefix of the keys it writes. */
export interface RedisStoreOptions {
  readonly client: RedisClient
  /** Prefix of every key the store writes (default `oqlkit:`); tests use one per run. */
  readonly prefix?: string
}

/** Fails a command after a few reconnection attempts instead of queueing it forever. */
const COMMAND_OPTIONS = { maxRetriesPerRequest: 2, connectTimeout: 2000 } as const

/**
 * A client for the stores: connects at once, and fails a command after a few reconnection attempts
 * instead of queueing it forever, so a server whose Redis is gone answers 500 rather than hanging.
 *
 * `url` names one server; when that server runs in cluster mode (`INFO cluster` says so), the client
 * becomes a Redis Cluster client seeded with it, which finds the other nodes and follows the slots as
 * they move. So the same `--redis URL` serves a single Redis and any node of a cluster.
 */
export const connectRedis = async (url: string): Promise<RedisClient> => {
  // The reply mapping is named rather than inferred from the options (ioredis 6): a Redis of an inferred mapping,
  // compared with a plain `Redis`, made the type checker compare two instantiations of its thousands of commands.
  const single = new Redis<'legacy'>(url, { lazyConnect: true, ...COMMAND_OPTIONS })
  // Connection errors reach the commands that fail because of them; unhandled, they would crash.
  single.on('error', () => {})
  await single.connect()
  let clustered: boolean
  try {
    clustered = /^cluster_enabled:1\s*$/m.test(await single.info('cluster'))
  } catch (error) {
    single.disconnect()
    throw error
  }
  if (!clustered) return single
  const { host, port, username, password, tls } = single.options
  single.disconnect()
  const cluster = new Cluster<'legacy'>([{ host, port }], {
    lazyConnect: true,
    redisOptions: {
      ...COMMAND_OPTIONS,
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
      ...(tls === undefined ? {} : { tls }),
    },
  })
  cluster.on('error', () => {})
  await cluster.connect()
  return cluster
}

/**
 * The servers holding the keyspace: every master of a cluster, or the one server. A SCAN sees only
 * the keys of the node it runs on, so a walk over all keys visits each of these.
 */
export const keyspaceNodes = (client: RedisClient): readonly Redis[] =>
  client instanceof Cluster ? client.nodes('master') : [client]
