import {
  createMemoryCollectionStore,
  createMemoryKeyStore,
  generateApiKey,
  keyRecordOf,
} from '@oqlkit/engine'
import { createCollectionsApp, keyStoreCallers } from '@oqlkit/http'
import { beforeAll, describe, expect, it } from 'vitest'

// Collections without metering: callers are the holders of the keys a key store knows, looked up by
// the key's hash. This is how `oqlkit serve --no-metering` and the collections port tell who calls.

const key = generateApiKey()
const adminKey = generateApiKey()
let app: ReturnType<typeof createCollectionsApp>

beforeAll(async () => {
  const now = new Date()
  const keys = createMemoryKeyStore([
    await keyRecordOf(key, { userId: 'ann' }, now),
    await keyRecordOf(adminKey, { userId: 'root', admin: true }, now),
  ])
  app = createCollectionsApp({ store: createMemoryCollectionStore(), callers: keyStoreCallers(keys) })
})

const request = async (path: string, init: RequestInit = {}) => {
  const response = await app.fetch(new Request(`http://localhost${path}`, init))
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

// Names are unique per user, and the profanity filter reads digits as letters (a random number was refused
// about 3 times in 2,000): each create takes the next of a fixed sequence of plain words.
const TOPICS = ['Climate', 'Ocean', 'Forest', 'River', 'Desert', 'Glacier', 'Meadow', 'Harbor']
const KINDS = ['reading', 'papers', 'sources', 'studies', 'notes', 'reviews', 'surveys', 'methods']
let created = 0
const nextName = (): string => {
  const index = created++
  if (index >= TOPICS.length * KINDS.length) throw new Error('the test ran out of collection names')
  return `${TOPICS[index % TOPICS.length]} ${KINDS[Math.floor(index / TOPICS.length)]}`
}

const create = (headers: Readonly<Record<string, string>>, path = '/me/collections') =>
  request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ display_name: nextName(), entity_type: 'works' }),
  })

describe('keyStoreCallers', () => {
  it('knows the holder of a stored key, by Bearer token or api_key', async () => {
    const byHeader = await create({ authorization: `Bearer ${key}` })
    expect(byHeader.status).toBe(201)
    expect(byHeader.body.user_id).toBe('ann')
    const byQuery = await create({}, `/me/collections?api_key=${key}`)
    expect(byQuery.status).toBe(201)
    expect(byQuery.body.user_id).toBe('ann')
    const byApiKeyHeader = await create({ api_key: key })
    expect(byApiKeyHeader.status).toBe(201)
    expect(byApiKeyHeader.body.user_id).toBe('ann')
  })

  it('refuses an empty key in any transport with a 401 that says so, not as a missing key', async () => {
    const before = await request('/me/collections', { headers: { authorization: `Bearer ${key}` } })
    for (const [headers, path] of [
      [{ authorization: '' }, '/me/collections'],
      [{ authorization: 'Bearer ' }, '/me/collections'],
      [{ api_key: '' }, '/me/collections'],
      [{}, '/me/collections?api_key='],
      // An empty key beside a valid one is still refused: the client meant to send something there.
      [{ authorization: `Bearer ${key}` }, '/me/collections?api_key='],
    ] as const) {
      const answer = await create(headers, path)
      expect(answer.status).toBe(401)
      expect(answer.body).toMatchObject({
        code: 'invalid_api_key',
        message: expect.stringMatching(/^The API key is empty/),
      })
    }
    const after = await request('/me/collections', { headers: { authorization: `Bearer ${key}` } })
    expect(after.body.meta).toEqual(before.body.meta)
  })

  it('refuses two different keys with 400, whichever transports carry them', async () => {
    for (const [headers, path] of [
      [{ api_key: key }, `/me/collections?api_key=${adminKey}`],
      [{ api_key: key, authorization: `Bearer ${adminKey}` }, '/me/collections'],
    ] as const) {
      const answer = await create(headers, path)
      expect(answer.status).toBe(400)
      expect(answer.body.code).toBe('conflicting_api_keys')
    }
  })

  it('carries the admin flag of the key', async () => {
    expect(
      (await request('/admin/collections', { headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(403)
    const admin = await request('/admin/collections?owner_id=ann', {
      headers: { authorization: `Bearer ${adminKey}` },
    })
    expect(admin.status).toBe(200)
    expect((admin.body.results as unknown[]).length).toBeGreaterThanOrEqual(2)
  })

  it('refuses no key, an unknown key and a malformed one with 401, changing nothing', async () => {
    const before = await request('/me/collections', { headers: { authorization: `Bearer ${key}` } })
    for (const headers of [
      {},
      { authorization: `Bearer ${generateApiKey()}` },
      { authorization: 'Bearer a b' },
    ]) {
      const answer = await create(headers)
      expect(answer.status).toBe(401)
      expect(answer.body.code).toBeTypeOf('string')
    }
    const junk = await create({}, `/me/collections?api_key=${'%00'.repeat(20)}`)
    expect(junk.status).toBe(401)
    const after = await request('/me/collections', { headers: { authorization: `Bearer ${key}` } })
    expect(after.body.meta).toEqual(before.body.meta)
  })
})
