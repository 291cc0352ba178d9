// `oqlkit keys revoke` and `update` against a running `oqlkit serve` (a real process): the key is refused
// (401) and the new budget reported without a restart, on the embedded store and on Redis.
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectRedis } from '@oqlkit/adapter-redis'
import { redisForTests } from '@oqlkit/adapter-redis/test-support'
import { runCli } from '@oqlkit/cli'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServerProcess } from './support/server-process.ts'

const redis = await redisForTests()
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-keys-revocation-'))
const catalogDir = join(scratch, 'catalog')
const prefix = `oqlkit-test:revocation-${process.pid}-${Date.now().toString(36)}:`

beforeAll(async () => {
  cpSync(await sharedSampleCatalog(), catalogDir, { recursive: true })
}, 180_000)
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  if (!redis.reachable) return
  const client = await connectRedis(redis.url)
  const written = await client.keys(`${prefix}*`)
  if (written.length > 0) await client.del(...written)
  client.disconnect()
})

/** The status and reported daily budget of `/rate-limit` for a key, once `accept` takes it (or after 5 s). */
const rateLimitUntil = async (
  url: string,
  key: string,
  accept: (status: number, budget: number | undefined) => boolean,
): Promise<{ status: number; budget: number | undefined }> => {
  const started = Date.now()
  for (;;) {
    const response = await fetch(`${url}/rate-limit`, { headers: { authorization: `Bearer ${key}` } })
    const body = (await response.json()) as { rate_limit?: { daily_budget_usd: number } }
    const seen = { status: response.status, budget: body.rate_limit?.daily_budget_usd }
    if (accept(seen.status, seen.budget) || Date.now() - started > 5000) return seen
    await new Promise((done) => setTimeout(done, 100))
  }
}

const describeRevocation = (name: string, store: readonly string[], skip = false) =>
  describe.skipIf(skip)(`keys changed while oqlkit serve runs (${name})`, () => {
    it('takes an update and a revocation on the key’s next use, with no restart', async () => {
      const created = await runCli(['keys', 'create', '--user', 'erin', '--daily-budget-usd', '2', ...store])
      expect(created.exitCode, created.stderr).toBe(0)
      const key = created.stdout?.trim() ?? ''
      const other = (await runCli(['keys', 'create', '--user', 'frank', ...store])).stdout?.trim() ?? ''
      // Budgets are metered only when asked for (--redis asks by itself; a --state store does not).
      const server = await startServerProcess(catalogDir, [...store, '--metering'])
      try {
        expect(await rateLimitUntil(server.url, key, () => true)).toEqual({ status: 200, budget: 2 })
        const updated = await runCli(['keys', 'update', '--key', key, '--daily-budget-usd', '7', ...store])
        expect(updated.exitCode, updated.stderr).toBe(0)
        expect(await rateLimitUntil(server.url, key, (_, budget) => budget === 7)).toEqual({
          status: 200,
          budget: 7,
        })
        const revoked = await runCli(['keys', 'revoke', '--key', key, ...store])
        expect(revoked.exitCode, revoked.stderr).toBe(0)
        const refused = await rateLimitUntil(server.url, key, (status) => status === 401)
        expect(refused.status).toBe(401)
        const works = await fetch(`${server.url}/works?per_page=1`, {
          headers: { authorization: `Bearer ${key}` },
        })
        expect(works.status).toBe(401)
        // Another key of the same store is untouched.
        expect((await rateLimitUntil(server.url, other, () => true)).status).toBe(200)
      } finally {
        expect(await server.stop()).toBe(0)
      }
    }, 120_000)
  })

describeRevocation('embedded', ['--state', join(scratch, 'state')])
describeRevocation('Redis', ['--redis', redis.url, '--redis-prefix', prefix], !redis.reachable)
