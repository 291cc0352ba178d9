// The public API of @oqlkit/adapter-redis: the metering stores (keys, budgets and rate limits shared by
// several server processes, atomic through Lua scripts), the collection store and the connection probe.

export { DEFAULT_REDIS_URL, probeRedis, type RedisAvailability } from './redis-availability.ts'
export {
  createRedisCollectionStore,
  migrateLegacyCollections,
  type RedisCollectionStoreOptions,
} from './redis-collection-store.ts'
export {
  connectRedis,
  DEFAULT_KEY_PREFIX,
  keyspaceNodes,
  type RedisClient,
  type RedisStoreOptions,
} from './redis-connection.ts'
export { createRedisKeyStore, type RedisKeyStoreOptions } from './redis-key-store.ts'
export { createRedisMeterStore, type RedisMeterStoreOptions } from './redis-meter-store.ts'
