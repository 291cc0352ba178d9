// @oqlkit/adapter-redis's test fixtures, for the tests of other packages (`@oqlkit/adapter-redis/test-support`,
// an export of the source condition only: it is never published): the gate that finds a Redis to test with.
export { redisForTests, redisTargetsForTests, removeRedisKeys } from '../redis-test-gate.ts'
