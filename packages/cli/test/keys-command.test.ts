import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEmbeddedKeyStore } from '@oqlkit/adapter-duckdb'
import { connectRedis, createRedisKeyStore } from '@oqlkit/adapter-redis'
import { runCli } from '@oqlkit/cli'
import { hashApiKey, isWellFormedApiKey } from '@oqlkit/engine'
import { afterAll, describe, expect, it } from 'vitest'
import { redisForTests } from '../../adapter-redis/test/redis-test-gate.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-keys-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const redis = await redisForTests()

describe('oqlkit keys create', () => {
  it('prints a new key once and stores only its hash, with the grant', async () => {
    const state = join(scratch, 'state-a')
    const progress: string[] = []
    const result = await runCli(
      [
        'keys',
        'create',
        '--user',
        'alice',
        '--admin',
        '--daily-budget-usd',
        '2.5',
        '--prepaid-usd',
        '10',
        '--prepaid-expires-at',
        '2031-01-01T00:00:00Z',
        '--state',
        state,
      ],
      { readStdin: async () => '', writeProgress: (text) => progress.push(text), interactive: false },
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const key = (result.stdout ?? '').trim()
    expect(isWellFormedApiKey(key)).toBe(true)
    expect(key).toMatch(/^oqk_/)
    expect(progress.join('')).toContain('shown only this once')
    expect(readFileSync(join(state, 'keys.log'), 'utf8')).not.toContain(key)
    const store = await openEmbeddedKeyStore({ dir: state })
    expect(await store.findKey(await hashApiKey(key))).toMatchObject({
      userId: 'alice',
      admin: true,
      dailyBudgetUsd: 2.5,
      prepaidUsd: 10,
      prepaidExpiresAt: '2031-01-01T00:00:00.000Z',
      maskedKey: `${key.slice(0, 4)}…${key.slice(-4)}`,
    })
  })

  it('issues a different key each time, with the defaults of a plain grant', async () => {
    const state = join(scratch, 'state-b')
    const first = (await runCli(['keys', 'create', '--user', 'bob', '--state', state])).stdout?.trim() ?? ''
    const second = (await runCli(['keys', 'create', '--user', 'bob', '--state', state])).stdout?.trim() ?? ''
    expect(first).not.toBe(second)
    const store = await openEmbeddedKeyStore({ dir: state })
    expect(await store.findKey(await hashApiKey(second))).toMatchObject({
      userId: 'bob',
      admin: false,
      dailyBudgetUsd: null,
      prepaidUsd: 0,
      prepaidExpiresAt: null,
    })
  })

  it('refuses bad command lines with exit code 2 and says what is wrong', async () => {
    const cases: [string[], RegExp][] = [
      [['keys'], /no action given/],
      [['keys', 'rotate'], /unknown action 'rotate'/],
      [['keys', 'create'], /--user is required/],
      [['keys', 'create', '--user'], /--user needs a value/],
      [['keys', 'create', '--user', ''], /user_id must be a non-empty string/],
      [['keys', 'create', '--user', 'u', '--daily-budget-usd', 'lots'], /--daily-budget-usd needs an amount/],
      [['keys', 'create', '--user', 'u', '--prepaid-usd', '-3'], /--prepaid-usd needs an amount/],
      [
        ['keys', 'create', '--user', 'u', '--prepaid-expires-at', 'soon'],
        /prepaid_expires_at must be an ISO 8601/,
      ],
      [['keys', 'create', '--user', 'u', '--colour', 'red'], /unknown option --colour/],
      [['keys', 'create', '--user', 'u', '--state', 's', '--redis', 'redis://x'], /give one/],
      [['keys', 'create', '--user', 'u', '--redis', 'http://x'], /redis:\/\/ or rediss:\/\/ URL/],
      [['keys', 'create', '--user', 'u', '--redis-prefix', 'p'], /--redis-prefix goes with --redis/],
    ]
    for (const [argv, message] of cases) {
      const result = await runCli(argv)
      expect(result.exitCode, argv.join(' ')).toBe(2)
      expect(result.stderr, argv.join(' ')).toMatch(message)
      expect(result.stderr).toContain('Usage: oqlkit keys create')
    }
  })

  it('fails with exit code 1 when Redis does not answer', async () => {
    const result = await runCli(['keys', 'create', '--user', 'u', '--redis', 'redis://127.0.0.1:1'])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('did not answer')
  })

  it.skipIf(!redis.reachable)('stores the key in Redis with --redis', async () => {
    const prefix = `oqlkit-test:keys-${process.pid}-${Date.now().toString(36)}:`
    const result = await runCli([
      'keys',
      'create',
      '--user',
      'carol',
      '--redis',
      redis.url,
      '--redis-prefix',
      prefix,
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const key = result.stdout?.trim() ?? ''
    const client = await connectRedis(redis.url)
    try {
      const store = createRedisKeyStore({ client, prefix })
      expect(await store.findKey(await hashApiKey(key))).toMatchObject({ userId: 'carol' })
      const written = await client.keys(`${prefix}*`)
      expect(written).toEqual([`${prefix}apikey:${await hashApiKey(key)}`])
      await client.del(...written)
    } finally {
      client.disconnect()
    }
  })
})
