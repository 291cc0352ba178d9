import {
  API_KEY_PATTERN,
  createMemoryKeyStore,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyGrantProblems,
  keyRecordOf,
  layerKeyStores,
  maskApiKey,
  readKeysFile,
} from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'

const NOW = new Date('2030-01-01T00:00:00.000Z')

describe('API keys', () => {
  it('issues keys with 256 random bits that match the key pattern', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey))
    expect(keys.size).toBe(50)
    for (const key of keys) {
      expect(key).toMatch(/^oqk_[A-Za-z0-9_-]{43}$/)
      expect(isWellFormedApiKey(key)).toBe(true)
    }
  })

  it('hashes with SHA-256 (hex), so the stored handle reveals nothing of the key', async () => {
    expect(await hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    const key = generateApiKey()
    expect(await hashApiKey(key)).not.toContain(key.slice(4, 12))
  })

  it('refuses keys of the wrong length or alphabet before any lookup', () => {
    for (const bad of [
      '',
      'short',
      'a'.repeat(129),
      'has space in it!!',
      'key\u0000withnullbyte',
      'ключ-ключ-ключ-ключ',
      "x' OR '1'='1' --xx",
    ])
      expect(isWellFormedApiKey(bad), bad).toBe(false)
    expect(API_KEY_PATTERN.test('123e4567-e89b-12d3-a456-426614174000')).toBe(true)
  })

  it('masks all but the first and last four characters', () => {
    expect(maskApiKey('oqk_abcdefghijklmnopqrstuvwxyz')).toBe('oqk_…wxyz')
    expect(maskApiKey('12345678')).toBe('********')
  })
})

describe('key grants and the keys file', () => {
  it('reads a keys file into hashed records, with defaults for what an entry leaves out', async () => {
    const key = 'test-key-0000000000000001'
    const reading = await readKeysFile(
      [
        {
          key,
          user_id: 'alice',
          admin: true,
          daily_budget_usd: 2.5,
          prepaid_usd: 10,
          prepaid_expires_at: '2031-01-01',
        },
        { key: 'test-key-0000000000000002', user_id: 'bob' },
      ],
      NOW,
    )
    expect(reading.ok).toBe(true)
    if (!reading.ok) return
    expect(reading.records[0]).toEqual({
      keyHash: await hashApiKey(key),
      userId: 'alice',
      admin: true,
      dailyBudgetUsd: 2.5,
      prepaidUsd: 10,
      prepaidExpiresAt: '2031-01-01T00:00:00.000Z',
      createdAt: NOW.toISOString(),
      maskedKey: 'test…0001',
    })
    expect(reading.records[1]).toMatchObject({
      userId: 'bob',
      admin: false,
      dailyBudgetUsd: null,
      prepaidUsd: 0,
    })
    expect(JSON.stringify(reading.records)).not.toContain(key)
  })

  it('reports every problem of a keys file by entry, and provisions nothing then', async () => {
    const reading = await readKeysFile(
      [
        { key: 'short', user_id: 'a' },
        { key: 'test-key-0000000000000003', user_id: '', daily_budget_usd: -1 },
        { key: 'test-key-0000000000000004', user_id: 'c', prepaid_usd: 'lots', colour: 'red' },
        { key: 'test-key-0000000000000004', user_id: 'c', prepaid_expires_at: 'someday' },
        'not an object',
      ],
      NOW,
    )
    expect(reading.ok).toBe(false)
    if (reading.ok) return
    expect(reading.problems).toEqual([
      "entry 0: key must be 16 to 128 characters of A-Z, a-z, 0-9, '_' and '-'",
      'entry 1: user_id must be a non-empty string (was "")',
      'entry 1: daily_budget_usd must be a number of US dollars from 0 to 1000000000 (was -1)',
      'entry 2: unknown field(s) colour; valid fields: key, user_id, admin, daily_budget_usd, prepaid_usd, prepaid_expires_at',
      'entry 2: prepaid_usd must be a number of US dollars from 0 to 1000000000 (was "lots")',
      'entry 3: the same key appears twice',
      'entry 3: prepaid_expires_at must be an ISO 8601 timestamp or null (was "someday")',
      'entry 4: must be an object',
    ])
    expect((await readKeysFile({ key: 'x' }, NOW)).ok).toBe(false)
  })

  it('checks grants as the CLI gives them', () => {
    expect(keyGrantProblems({ userId: 'u' })).toEqual([])
    expect(keyGrantProblems({ userId: 'u\nv', prepaidUsd: Number.NaN })).toHaveLength(2)
  })
})

describe('key stores in memory', () => {
  it('finds keys by hash, and lets provisioned keys override stored ones', async () => {
    const stored = await keyRecordOf('stored-key-00000000001', { userId: 'stored' }, NOW)
    const provisioned = await keyRecordOf('stored-key-00000000001', { userId: 'provisioned' }, NOW)
    const persistent = createMemoryKeyStore([stored])
    const layered = layerKeyStores(createMemoryKeyStore([provisioned]), persistent)
    expect((await layered.findKey(stored.keyHash))?.userId).toBe('provisioned')
    const other = await keyRecordOf('other-key-000000000001', { userId: 'other' }, NOW)
    await layered.putKey(other)
    expect(await persistent.findKey(other.keyHash)).toEqual(other)
    expect(await layered.findKey('0'.repeat(64))).toBeUndefined()
  })
})
