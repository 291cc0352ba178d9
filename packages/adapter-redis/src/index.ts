// The public API of @oqlkit/adapter-redis. The metering and collection stores arrive with the keys
// and collections issue; for now it offers the connection probe the stores and tests share.
export { DEFAULT_REDIS_URL, probeRedis, type RedisAvailability } from './redis-availability.ts'
