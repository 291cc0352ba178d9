import type { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Answer, KEYS, STORE_KINDS, send } from './support/collection-stores.ts'
import { collectionsApp } from './support/collections-app.ts'

// Attempts on other users' collections through every endpoint and every filter form, and malformed or
// oversized bodies: each is refused with 400, 401 or 403 (404 for ids that were never issued), and the
// stored collections are byte for byte what they were. The app's catalog refuses every read, so a
// filter that got past the checks would show up as a fault.

interface Collection {
  id: string
  entity_count: number
}

describe.each(STORE_KINDS)('collections security on the $name', (kind) => {
  const faults: unknown[] = []
  let app: H3
  let works: Collection
  let authors: Collection
  let bobs: Collection
  beforeAll(async () => {
    if (kind.skip) return
    app = collectionsApp(await kind.open(), faults)
    const create = async (key: string, body: Record<string, unknown>) =>
      (await send<Collection>(app, 'POST', '/me/collections', { key, body })).body
    works = await create(KEYS.ann, {
      display_name: 'Private works',
      entity_type: 'works',
      entity_ids: ['W1', 'W2', 'W3'],
    })
    authors = await create(KEYS.ann, {
      display_name: 'Private authors',
      entity_type: 'authors',
      entity_ids: ['A1'],
    })
    bobs = await create(KEYS.bob, { display_name: 'Bob works', entity_type: 'works', entity_ids: ['W9'] })
  })
  afterAll(() => expect(faults).toEqual([]))

  /** Everything stored, read by the admin: every collection and every member. */
  const dump = async (): Promise<unknown> => {
    const page = await send<{ results: Collection[] }>(app, 'GET', '/admin/collections?per_page=100', {
      key: KEYS.admin,
    })
    const members = await Promise.all(
      page.body.results.map(
        async (collection) =>
          (await send(app, 'GET', `/collections/${collection.id}/entities?per_page=200`, { key: KEYS.admin }))
            .body,
      ),
    )
    return { collections: page.body.results, members }
  }

  const expectRefused = (label: string, answer: Answer, allowed: readonly number[]) => {
    expect({ label, status: answer.status }).toEqual({
      label,
      status: expect.toSatisfy((s: number) => allowed.includes(s)),
    })
    expect(answer.headers.get('content-type')).toContain('application/json')
  }

  const collectionRoutes = (id: string) =>
    [
      ['GET', `/collections/${id}`, undefined],
      ['GET', `/collections/${id}/entities`, undefined],
      ['PATCH', `/me/collections/${id}`, { display_name: 'Taken over' }],
      ['PATCH', `/me/collections/${id}`, { entity_type: 'authors' }],
      ['DELETE', `/me/collections/${id}`, undefined],
      ['POST', `/me/collections/${id}/entities`, { entity_ids: ['W100'] }],
      ['DELETE', `/me/collections/${id}/entities`, { entity_ids: ['W1'] }],
      ['DELETE', `/me/collections/${id}/entities/W1`, undefined],
      ['DELETE', `/me/collections/${id}/entities/https://openalex.org/W1`, undefined],
      ['GET', `/admin/collections/${id}`, undefined],
      ['PATCH', `/admin/collections/${id}`, { display_name: 'Taken over' }],
      ['DELETE', `/admin/collections/${id}`, undefined],
    ] as const

  it.skipIf(kind.skip)(
    "refuses another user's collection on every endpoint (403), and anonymous callers (401)",
    async () => {
      const before = await dump()
      for (const target of [works, authors])
        for (const [method, path, body] of collectionRoutes(target.id)) {
          for (const key of [KEYS.bob, KEYS.eve])
            expectRefused(
              `${key} ${method} ${path}`,
              await send(app, method, path, { key, ...(body === undefined ? {} : { body }) }),
              [403],
            )
          expectRefused(
            `anonymous ${method} ${path}`,
            await send(app, method, path, body === undefined ? {} : { body }),
            [401],
          )
          expectRefused(
            `unknown key ${method} ${path}`,
            await send(app, method, path, {
              key: 'stolen-or-guessed-key',
              ...(body === undefined ? {} : { body }),
            }),
            [401],
          )
          expectRefused(
            `api_key= of another user ${method} ${path}`,
            await send(app, method, `${path}?api_key=${KEYS.eve}`, body === undefined ? {} : { body }),
            [403],
          )
        }
      expectRefused(
        'admin search by a user',
        await send(app, 'GET', '/admin/collections?owner_id=ann', { key: KEYS.bob }),
        [403],
      )
      // A user's own list never shows another's collections, whatever it asks.
      const own = await send<{ results: Collection[] }>(app, 'GET', `/me/collections?entity_id=W1`, {
        key: KEYS.eve,
      })
      expect(own.body.results).toEqual([])
      expectRefused(
        'owner_id on /me',
        await send(app, 'GET', '/me/collections?owner_id=ann', { key: KEYS.eve }),
        [400],
      )
      expect(await dump()).toEqual(before)
    },
  )

  it.skipIf(kind.skip)(
    "refuses another user's collection in every filter form (403), and anonymous use (401)",
    async () => {
      const before = await dump()
      const filters = [
        `/works?filter=collection:${works.id}`,
        `/works?filter=collection:!${works.id}`,
        `/works?filter=collection:${works.id},publication_year:2020`,
        `/works?filter=collection:${works.id}&group_by=publication_year`,
        `/works?filter=collection:${works.id}&cursor=*`,
        `/works?filter=collection:${works.id}&sort=cited_by_count:desc&select=id`,
        `/works?filter=ids.openalex:${works.id}`,
        `/works?filter=cited_by:${works.id}`,
        `/works?filter=authorships.author.id:${authors.id}`,
        `/works?filter=authorships.author.id:!${authors.id}`,
        `/works?filter=corresponding_author_ids:${authors.id}`,
        `/works?filter=authorships.author.id:${authors.id},collection:${bobs.id}`,
        `/authors?filter=collection:${authors.id}`,
        `/authors?filter=ids.openalex:!${authors.id}`,
      ]
      for (const path of filters) {
        expectRefused(`bob ${path}`, await send(app, 'GET', path, { key: KEYS.eve }), [403])
        expectRefused(`anonymous ${path}`, await send(app, 'GET', path), [401])
        expectRefused(`unknown key ${path}`, await send(app, 'GET', `${path}&api_key=not-a-real-key`), [401])
      }
      // Misuse is refused whoever owns the collections.
      for (const path of [
        `/works?filter=collection:${works.id}|${bobs.id}`,
        `/works?filter=collection:${works.id},collection:${bobs.id}`,
        `/works?filter=publication_year:${works.id}`,
        `/works?filter=authorships.author.id:${authors.id}|A5`,
      ])
        expectRefused(`misuse ${path}`, await send(app, 'GET', path, { key: KEYS.eve }), [400, 403])
      expect(await dump()).toEqual(before)
    },
  )

  it.skipIf(kind.skip)('refuses malformed and oversized bodies with 400, changing nothing', async () => {
    const before = await dump()
    const own = works.id
    const targets = [
      ['POST', '/me/collections'],
      ['PATCH', `/me/collections/${own}`],
      ['POST', `/me/collections/${own}/entities`],
      ['DELETE', `/me/collections/${own}/entities`],
    ] as const
    const huge = `{"entity_ids": [${Array.from({ length: 40_000 }, (_, i) => `"W${i}"`).join(',')}]}`
    const raws: [string, string | Uint8Array][] = [
      ['empty', ''],
      ['not JSON', '{display_name: x}'],
      ['truncated', '{"display_name": "x", "entity_type": "wo'],
      ['an array', '[]'],
      ['a string', '"works"'],
      ['null', 'null'],
      ['a number', '42'],
      ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['deeply nested', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
      ['over 256 KB', huge],
      ['prototype pollution', '{"__proto__": {"admin": true}, "display_name": "x", "entity_type": "works"}'],
      ['owner spoofing', '{"display_name": "Mine now", "entity_type": "works", "user_id": "bob"}'],
      [
        'ids of the wrong kind',
        '{"entity_ids": [{"id": "W1"}], "display_name": "x", "entity_type": "works"}',
      ],
      [
        'control characters in ids',
        '{"entity_ids": ["W1\\r\\nDEL *"], "display_name": "y", "entity_type": "works"}',
      ],
      [
        'Redis patterns in ids',
        '{"entity_ids": ["*", "W1*", "{collections}"], "display_name": "z", "entity_type": "works"}',
      ],
    ]
    for (const [method, path] of targets)
      for (const [label, rawBody] of raws) {
        const answer = await send(app, method, path, { key: KEYS.ann, rawBody })
        expectRefused(`${label}: ${method} ${path}`, answer, [400])
      }
    // A body that claims to be small but is not, and one with a declared length far over the cap.
    const lying = await app.fetch(
      new Request('http://localhost/me/collections', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEYS.ann}`, 'content-length': '10000000' },
        body: '{}',
      }),
    )
    expect(lying.status).toBe(400)
    // Ids are case-sensitive: the same letters in other cases name no collection.
    const swapped = [...own.slice(4)]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join('')
    const otherCase = swapped === own.slice(4) ? [] : [`col_${swapped}`]
    for (const id of ['..%2F..%2Fetc%2Fpasswd', 'col_a*', 'col_%7Bcollections%7D', `${own}x`, ...otherCase])
      expect((await send(app, 'GET', `/collections/${id}`, { key: KEYS.ann })).status).toBe(404)
    expect(await dump()).toEqual(before)
  })
})
