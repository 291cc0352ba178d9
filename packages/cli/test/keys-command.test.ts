import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectRedis, createRedisKeyStore } from '@oqlkit/adapter-redis'
import { redisForTests } from '@oqlkit/adapter-redis/test-support'
import { runCli } from '@oqlkit/cli'
import { hashApiKey, isWellFormedApiKey } from '@oqlkit/engine'
import { openFileKeyStore } from '@oqlkit/file-stores'
import { afterAll, describe, expect, it } from 'vitest'

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
    const store = await openFileKeyStore({ dir: state })
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
    const store = await openFileKeyStore({ dir: state })
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
      [['keys', 'create', '--user'], /--user needs a user id/],
      [['keys', 'create', '--user', ''], /--user must be a non-empty string/],
      [['keys', 'create', '--user', 'u', '--daily-budget-usd', 'lots'], /--daily-budget-usd needs an amount/],
      [['keys', 'create', '--user', 'u', '--prepaid-usd', '-3'], /--prepaid-usd needs an amount/],
      [
        ['keys', 'create', '--user', 'u', '--prepaid-expires-at', 'soon'],
        /--prepaid-expires-at must be an ISO 8601/,
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
      expect(result.stderr).toContain('oqlkit keys list')
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

const silent = (progress: string[] = []) => ({
  readStdin: async () => '',
  writeProgress: (text: string) => progress.push(text),
  interactive: false,
})

interface Listed {
  readonly key_id: string
  readonly user_id: string
  readonly admin: boolean
  readonly daily_budget_usd: number | null
  readonly prepaid_usd: number
  readonly prepaid_expires_at: string | null
  readonly revoked_at: string | null
}

/** list, update and revoke on one store, named by its command-line options. */
const describeKeyActions = (name: string, store: () => readonly string[], skip = false) =>
  describe.skipIf(skip)(`oqlkit keys list, update and revoke (${name})`, () => {
    const keys = async (...argv: string[]) => runCli(['keys', ...argv, ...store()], silent())
    const listed = async (): Promise<Listed[]> => {
      const result = await keys('list', '--format', 'json')
      expect(result.exitCode, result.stderr).toBe(0)
      return JSON.parse(result.stdout ?? '')
    }

    it('lists keys by id, never the key or its hash, with grants and revocation', async () => {
      expect((await keys('list')).stdout).toMatch(/^No keys in /)
      const alice = (await keys('create', '--user', 'alice', '--prepaid-usd=5')).stdout?.trim() ?? ''
      const bob =
        (await keys('create', '--user=bob', '--admin', '--daily-budget-usd', '2')).stdout?.trim() ?? ''
      const hashes = [await hashApiKey(alice), await hashApiKey(bob)]
      const table = await keys('list')
      expect(table.exitCode, table.stderr).toBe(0)
      const lines = (table.stdout ?? '').trimEnd().split('\n')
      expect(lines[0]).toMatch(
        /^key id\s+user\s+admin\s+daily\s+prepaid\s+prepaid expires\s+created\s+revoked$/,
      )
      expect(lines).toHaveLength(3)
      expect(lines[1]).toMatch(
        new RegExp(
          `^${hashes[0]!.slice(0, 12)}\\s+alice\\s+no\\s+default\\s+\\$5\\.00\\s+never\\s+\\S+\\s+no$`,
        ),
      )
      expect(lines[2]).toMatch(
        new RegExp(`^${hashes[1]!.slice(0, 12)}\\s+bob\\s+yes\\s+\\$2\\.00\\s+\\$0\\.00\\s+never`),
      )
      for (const secret of [alice, bob, ...hashes]) expect(table.stdout).not.toContain(secret)
      const json = await keys('list', '--format=json')
      for (const secret of [alice, bob, ...hashes]) expect(json.stdout).not.toContain(secret)
      expect(await listed()).toMatchObject([
        { key_id: hashes[0]!.slice(0, 12), user_id: 'alice', admin: false, prepaid_usd: 5, revoked_at: null },
        {
          key_id: hashes[1]!.slice(0, 12),
          user_id: 'bob',
          admin: true,
          daily_budget_usd: 2,
          revoked_at: null,
        },
      ])
    })

    it('updates budgets and expiry by key id or by key, and changes nothing on a bad input', async () => {
      const key = (await keys('create', '--user', 'carol')).stdout?.trim() ?? ''
      const id = (await hashApiKey(key)).slice(0, 12)
      const updated = await keys(
        'update',
        '--key-id',
        id,
        '--daily-budget-usd=4.5',
        '--prepaid-usd',
        '20',
        '--prepaid-expires-at',
        '2031-06-01T00:00:00Z',
      )
      expect(updated.exitCode, updated.stderr).toBe(0)
      const expected = {
        key_id: id,
        user_id: 'carol',
        daily_budget_usd: 4.5,
        prepaid_usd: 20,
        prepaid_expires_at: '2031-06-01T00:00:00.000Z',
      }
      expect(JSON.parse(updated.stdout ?? '')).toMatchObject(expected)
      expect((await listed()).find((record) => record.key_id === id)).toMatchObject(expected)
      const before = await listed()
      for (const [argv, message] of [
        [['update', '--key-id', id, '--prepaid-usd', 'lots'], /--prepaid-usd needs an amount/],
        [
          ['update', '--key-id', id, '--prepaid-expires-at', 'soon'],
          /--prepaid-expires-at needs an ISO 8601/,
        ],
        [['update', '--key-id', id], /nothing to change/],
        [['update', '--prepaid-usd', '1'], /say which key/],
        [['update', '--key-id', 'xyz', '--prepaid-usd', '1'], /--key-id needs 8 to 64 hex digits/],
        [['update', '--key-id', id, '--key', key, '--prepaid-usd', '1'], /give one/],
        [['update', '--key-id', id, '--admin'], /unknown option --admin/],
      ] as const) {
        const refused = await keys(...argv)
        expect(refused.exitCode, argv.join(' ')).toBe(2)
        expect(refused.stderr).toMatch(message)
      }
      const missing = await keys('update', '--key-id', '00000000', '--prepaid-usd', '1')
      expect(missing.exitCode).toBe(1)
      expect(missing.stderr).toContain('no key with id 00000000')
      expect(await listed()).toEqual(before)
      // `default` and `never` hand back the server's default budget and lift the expiry, named by the key.
      const reset = await keys(
        'update',
        '--key',
        key,
        '--daily-budget-usd',
        'default',
        '--prepaid-expires-at=never',
      )
      expect(reset.exitCode, reset.stderr).toBe(0)
      expect((await listed()).find((record) => record.key_id === id)).toMatchObject({
        daily_budget_usd: null,
        prepaid_usd: 20,
        prepaid_expires_at: null,
      })
    })

    it('revokes a key, lists it as revoked, refuses to update it, and revokes once', async () => {
      const key = (await keys('create', '--user', 'dave')).stdout?.trim() ?? ''
      const id = (await hashApiKey(key)).slice(0, 12)
      const progress: string[] = []
      const revoked = await runCli(['keys', 'revoke', `--key-id=${id}`, ...store()], silent(progress))
      expect(revoked.exitCode, revoked.stderr).toBe(0)
      expect(revoked.stdout).toBe(`${id}\n`)
      expect(progress.join('')).toContain('refuses it (401)')
      const record = (await listed()).find((listedRecord) => listedRecord.key_id === id)
      expect(record?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect((await keys('list')).stdout).toMatch(new RegExp(`${id}\\s+dave.*${record?.revoked_at}`))
      const again = await keys('revoke', '--key', key)
      expect(again.exitCode).toBe(0)
      expect((await listed()).find((listedRecord) => listedRecord.key_id === id)?.revoked_at).toBe(
        record?.revoked_at,
      )
      const update = await keys('update', '--key-id', id, '--prepaid-usd', '1')
      expect(update.exitCode).toBe(1)
      expect(update.stderr).toContain('was revoked')
      expect((await keys('revoke')).stderr).toMatch(/say which key/)
    })
  })

describeKeyActions('embedded', () => ['--state', join(scratch, 'state-actions')])
const actionsPrefix = `oqlkit-test:keys-actions-${process.pid}-${Date.now().toString(36)}:`
describeKeyActions('Redis', () => ['--redis', redis.url, '--redis-prefix', actionsPrefix], !redis.reachable)
afterAll(async () => {
  if (!redis.reachable) return
  const client = await connectRedis(redis.url)
  const written = await client.keys(`${actionsPrefix}*`)
  if (written.length > 0) await client.del(...written)
  client.disconnect()
})
