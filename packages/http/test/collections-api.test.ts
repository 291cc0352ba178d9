import type { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS, STORE_KINDS, send } from './support/collection-stores.ts'
import { collectionsApp } from './support/collections-app.ts'

// The collection-management API, endpoint by endpoint and rule by rule, against each store.

interface Collection {
  id: string
  user_id: string
  entity_type: string
  display_name: string
  description: string
  entity_count: number
  created_at: string
  updated_at: string
}

interface Page {
  meta: { page: number; per_page: number; total_count: number; total_pages: number }
  results: Collection[]
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/
const works = (from: number, count: number) => Array.from({ length: count }, (_, i) => `W${from + i}`)

describe.each(STORE_KINDS)('the collections API on the $name', (kind) => {
  const faults: unknown[] = []
  let app: H3
  beforeAll(async () => {
    if (!kind.skip) app = collectionsApp(await kind.open(), faults)
  })
  afterAll(() => expect(faults).toEqual([]))

  let names = 0
  const create = async (key: string, body: Record<string, unknown> = {}) => {
    const answer = await send<Collection>(app, 'POST', '/me/collections', {
      key,
      body: { display_name: `List ${++names}`, entity_type: 'works', ...body },
    })
    if (answer.status !== 201) throw new Error(`create: ${answer.status} ${JSON.stringify(answer.body)}`)
    return answer.body
  }
  const errorOf = async (method: string, path: string, options: Parameters<typeof send>[3]) => {
    const { status, body } = await send<{ code: string; message: string }>(app, method, path, options)
    return { status, code: body.code, message: body.message }
  }

  describe.skipIf(kind.skip)('creating and reading', () => {
    it('creates a collection (201) with the resource shape, ids normalised', async () => {
      const answer = await send<Collection>(app, 'POST', '/me/collections', {
        key: KEYS.ann,
        body: {
          display_name: '  Climate papers ',
          entity_type: 'works',
          description: 'To read',
          entity_ids: ['https://openalex.org/W2741809807', 'w1775749144', 'W2741809807'],
        },
      })
      expect(answer.status).toBe(201)
      expect(answer.headers.get('content-type')).toContain('application/json')
      const collection = answer.body
      expect(collection).toEqual({
        id: expect.stringMatching(/^col_[A-Za-z0-9]{10}$/),
        user_id: 'ann',
        entity_type: 'works',
        display_name: 'Climate papers',
        description: 'To read',
        entity_count: 2,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: collection.created_at,
      })
      expect((await send(app, 'GET', `/collections/${collection.id}`, { key: KEYS.ann })).body).toEqual(
        collection,
      )
      const entities = await send(app, 'GET', `/collections/${collection.id}/entities`, { key: KEYS.ann })
      expect(entities.status).toBe(200)
      expect(entities.body).toEqual({
        ...collection,
        entity_ids: ['https://openalex.org/W2741809807', 'https://openalex.org/W1775749144'],
        meta: { page: 1, per_page: 100, total_count: 2, total_pages: 1 },
      })
    })

    it('takes the key as api_key= too', async () => {
      const answer = await send(app, 'GET', `/me/collections?api_key=${KEYS.ann}`)
      expect(answer.status).toBe(200)
    })

    it('allows an empty collection of each type', async () => {
      for (const entityType of [
        'authors',
        'sources',
        'institutions',
        'topics',
        'sdgs',
        'funders',
        'publishers',
        'keywords',
        'concepts',
      ])
        expect((await create(KEYS.bob, { entity_type: entityType })).entity_count).toBe(0)
    })

    it("lists the caller's own collections, newest first, in pages of at most 100", async () => {
      const made = [await create(KEYS.eve), await create(KEYS.eve), await create(KEYS.eve)]
      const all = await send<Page>(app, 'GET', '/me/collections', { key: KEYS.eve })
      expect(all.body.meta).toEqual({ page: 1, per_page: 25, total_count: 3, total_pages: 1 })
      expect(all.body.results.map((c) => c.id)).toEqual(made.map((c) => c.id).reverse())
      const second = await send<Page>(app, 'GET', '/me/collections?per_page=2&page=2', { key: KEYS.eve })
      expect(second.body.meta).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 })
      expect(second.body.results.map((c) => c.id)).toEqual([made[0]!.id])
      expect((await send<Page>(app, 'GET', '/me/collections?per_page=100', { key: KEYS.eve })).status).toBe(
        200,
      )
      for (const query of ['per_page=101', 'per_page=0', 'per_page=x', 'page=0', 'page=-1'])
        expect((await errorOf('GET', `/me/collections?${query}`, { key: KEYS.eve })).status).toBe(400)
      expect(await errorOf('GET', '/me/collections?sort=name', { key: KEYS.eve })).toMatchObject({
        status: 400,
        code: 'unknown_parameter',
      })
    })

    it('filters the list by a member, in any id form', async () => {
      const holder = await create(KEYS.ann, { entity_ids: ['W42424242'] })
      await create(KEYS.ann, { entity_ids: ['W1'] })
      for (const form of ['W42424242', 'w42424242', 'https://openalex.org/W42424242']) {
        const page = await send<Page>(app, 'GET', `/me/collections?entity_id=${encodeURIComponent(form)}`, {
          key: KEYS.ann,
        })
        expect(page.body.results.map((c) => c.id)).toEqual([holder.id])
      }
      // Bob holds nothing with it; another user's collection never shows.
      expect(
        (await send<Page>(app, 'GET', '/me/collections?entity_id=W42424242', { key: KEYS.bob })).body.meta
          .total_count,
      ).toBe(0)
      expect(await errorOf('GET', '/me/collections?entity_id=nonsense', { key: KEYS.ann })).toMatchObject({
        status: 400,
        code: 'entity_id_invalid',
      })
    })

    it('collects keyword ids as K… (the letter the API description gives keywords) and as slugs, any form', async () => {
      const keywords = await create(KEYS.ann, {
        entity_type: 'keywords',
        entity_ids: [
          'K123',
          'https://openalex.org/K456',
          'https://openalex.org/keywords/K789',
          'k0123',
          'keywords/cardiac-imaging',
          'https://openalex.org/keywords/machine-learning',
        ],
      })
      expect(keywords.entity_count).toBe(5)
      const members = await send<{ entity_ids: string[] }>(
        app,
        'GET',
        `/collections/${keywords.id}/entities`,
        {
          key: KEYS.ann,
        },
      )
      expect(members.body.entity_ids).toEqual([
        'https://openalex.org/K123',
        'https://openalex.org/K456',
        'https://openalex.org/K789',
        'https://openalex.org/keywords/cardiac-imaging',
        'https://openalex.org/keywords/machine-learning',
      ])
      for (const form of ['K456', 'https://openalex.org/K456', 'keywords/K456'])
        expect(
          (
            await send<Page>(app, 'GET', `/me/collections?entity_id=${encodeURIComponent(form)}`, {
              key: KEYS.ann,
            })
          ).body.results.map((c) => c.id),
        ).toEqual([keywords.id])
      // A keyword is no work: K ids are typed by their letter like every other id.
      expect(
        await errorOf('POST', '/me/collections', {
          key: KEYS.ann,
          body: { display_name: 'not works', entity_type: 'works', entity_ids: ['W1', 'K1'] },
        }),
      ).toMatchObject({ status: 400, code: 'entity_id_wrong_type' })
    })

    it('pages members by at most 200', async () => {
      const big = await create(KEYS.ann, { entity_ids: works(1, 450) })
      const page = await send<{ entity_ids: string[]; meta: Page['meta'] }>(
        app,
        'GET',
        `/collections/${big.id}/entities?per_page=200&page=3`,
        { key: KEYS.ann },
      )
      expect(page.body.meta).toEqual({ page: 3, per_page: 200, total_count: 450, total_pages: 3 })
      expect(page.body.entity_ids).toEqual(works(401, 50).map((id) => `https://openalex.org/${id}`))
      expect(
        (await errorOf('GET', `/collections/${big.id}/entities?per_page=201`, { key: KEYS.ann })).code,
      ).toBe('invalid_per_page')
    })

    it('answers an unknown collection with a JSON 404', async () => {
      for (const path of [
        '/collections/col_AAAAAAAAAA',
        '/collections/col_AAAAAAAAAA/entities',
        '/collections/nonsense',
      ])
        expect(await errorOf('GET', path, { key: KEYS.ann })).toMatchObject({
          status: 404,
          code: 'collection_not_found',
          // The engine names the id; the route to one's own collections is the HTTP layer's addition.
          message: expect.stringMatching(
            /^No collection has the id '.+'\. GET \/me\/collections lists yours\.$/,
          ),
        })
      for (const [method, path] of [
        ['PATCH', '/me/collections/col_AAAAAAAAAA'],
        ['DELETE', '/me/collections/col_AAAAAAAAAA'],
        ['POST', '/me/collections/col_AAAAAAAAAA/entities'],
        ['DELETE', '/me/collections/col_AAAAAAAAAA/entities'],
        ['DELETE', '/me/collections/col_AAAAAAAAAA/entities/W1'],
      ] as const)
        expect(
          await errorOf(method, path, { key: KEYS.ann, body: { display_name: 'x', entity_ids: ['W1'] } }),
        ).toMatchObject({
          status: 404,
        })
    })

    it('answers other methods and paths of the collections API with JSON 405 and 404', async () => {
      const put = await send(app, 'PUT', '/me/collections', { key: KEYS.ann })
      expect(put.status).toBe(405)
      expect(put.headers.get('allow')).toBe('GET, POST')
      expect((await send(app, 'POST', '/collections/col_AAAAAAAAAA', { key: KEYS.ann })).status).toBe(405)
      expect((await send(app, 'GET', '/me/things', { key: KEYS.ann })).status).toBe(404)
    })
  })

  describe.skipIf(kind.skip)('validation codes', () => {
    const refusal = async (body: unknown, key: string = KEYS.ann) =>
      errorOf('POST', '/me/collections', { key, body })

    it.each<[string, Record<string, unknown>]>([
      ['entity_type_invalid', { display_name: 'x' }],
      ['entity_type_invalid', { display_name: 'x', entity_type: 'awards' }],
      ['display_name_invalid', { entity_type: 'works' }],
      ['display_name_invalid', { display_name: '   ', entity_type: 'works' }],
      ['display_name_invalid', { display_name: 'two\nlines', entity_type: 'works' }],
      ['display_name_invalid', { display_name: 'https://example.org/list', entity_type: 'works' }],
      ['display_name_invalid', { display_name: 'fuck', entity_type: 'works' }],
      ['display_name_too_long', { display_name: 'x'.repeat(31), entity_type: 'works' }],
      ['description_invalid', { display_name: 'x', entity_type: 'works', description: 7 }],
      ['description_invalid', { display_name: 'x', entity_type: 'works', description: 'd'.repeat(501) }],
      [
        'description_invalid',
        { display_name: 'x', entity_type: 'works', description: 'see www.example.org' },
      ],
      ['entity_id_invalid', { display_name: 'x', entity_type: 'works', entity_ids: ['W1', 'bogus'] }],
      ['entity_id_wrong_type', { display_name: 'x', entity_type: 'works', entity_ids: ['W1', 'A2', 'S3'] }],
      ['collection_full', { display_name: 'x', entity_type: 'works', entity_ids: works(1, 1001) }],
    ])('refuses with 400 %s (case %#), creating nothing', async (code, body) => {
      const before = (await send<Page>(app, 'GET', '/me/collections', { key: KEYS.ann })).body.meta
        .total_count
      expect(await refusal(body)).toMatchObject({ status: 400, code: code })
      expect((await send<Page>(app, 'GET', '/me/collections', { key: KEYS.ann })).body.meta.total_count).toBe(
        before,
      )
    })

    it('names the first id of the wrong type', async () => {
      const { message } = await refusal({
        display_name: 'x',
        entity_type: 'works',
        entity_ids: ['W1', 'A2', 'S3'],
      })
      expect(message).toContain('"A2"')
      expect(message).not.toContain('S3')
    })

    it('refuses a display name the user already has, in any case, but not one another user has', async () => {
      await create(KEYS.ann, { display_name: 'Unique Name' })
      expect(await refusal({ display_name: 'UNIQUE name', entity_type: 'authors' })).toMatchObject({
        status: 400,
        code: 'display_name_duplicate',
      })
      expect((await create(KEYS.bob, { display_name: 'unique name' })).display_name).toBe('unique name')
    })

    it('refuses collection 101 of a user', async () => {
      const key = KEYS.admin
      const { body } = await send<Page>(app, 'GET', '/me/collections', { key })
      for (let index = body.meta.total_count; index < 100; index++) await create(key)
      expect(await refusal({ display_name: 'One too many', entity_type: 'works' }, key)).toMatchObject({
        status: 400,
        code: 'too_many_collections',
      })
    })
  })

  describe.skipIf(kind.skip)('changing', () => {
    it('renames and describes; changes the type only while empty', async () => {
      const made = await create(KEYS.ann)
      const patched = await send<Collection>(app, 'PATCH', `/me/collections/${made.id}`, {
        key: KEYS.ann,
        body: { display_name: 'Renamed', description: 'Now with a description', entity_type: 'authors' },
      })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({
        id: made.id,
        display_name: 'Renamed',
        entity_type: 'authors',
        created_at: made.created_at,
      })
      expect(patched.body.updated_at).toMatch(TIMESTAMP)
      await send(app, 'POST', `/me/collections/${made.id}/entities`, {
        key: KEYS.ann,
        body: { entity_ids: ['A1'] },
      })
      expect(
        await errorOf('PATCH', `/me/collections/${made.id}`, {
          key: KEYS.ann,
          body: { entity_type: 'works' },
        }),
      ).toMatchObject({ status: 400, code: 'entity_type_invalid' })
      for (const [body, code] of [
        [{ display_name: '' }, 'display_name_invalid'],
        [{ display_name: 'y'.repeat(31) }, 'display_name_too_long'],
        [{ description: 'a\u0000b' }, 'description_invalid'],
        [{ entity_type: 'continents' }, 'entity_type_invalid'],
        [{}, 'invalid_body'],
        [{ user_id: 'bob' }, 'invalid_body'],
      ] as const)
        expect(await errorOf('PATCH', `/me/collections/${made.id}`, { key: KEYS.ann, body })).toMatchObject({
          status: 400,
          code: code,
        })
      const other = await create(KEYS.ann, { display_name: 'Taken' })
      expect(
        await errorOf('PATCH', `/me/collections/${made.id}`, {
          key: KEYS.ann,
          body: { display_name: 'taken' },
        }),
      ).toMatchObject({ status: 400, code: 'display_name_duplicate' })
      expect(
        (await send<Collection>(app, 'GET', `/collections/${other.id}`, { key: KEYS.ann })).body.display_name,
      ).toBe('Taken')
    })

    it('adds in bulk, counting what was new and what was there; a wrong-type id fails the whole request', async () => {
      const made = await create(KEYS.ann, { entity_ids: ['W1'] })
      const path = `/me/collections/${made.id}/entities`
      expect(
        (
          await send(app, 'POST', path, {
            key: KEYS.ann,
            body: { entity_ids: ['w1', 'W2', 'https://openalex.org/W3', 'W2'] },
          })
        ).body,
      ).toEqual({
        added: 2,
        already_present: 1,
        rejected_wrong_type: 0,
      })
      const wrong = await errorOf('POST', path, { key: KEYS.ann, body: { entity_ids: ['W4', 'I5'] } })
      expect(wrong).toMatchObject({ status: 400, code: 'entity_id_wrong_type' })
      expect(wrong.message).toContain('"I5"')
      expect(
        await errorOf('POST', path, { key: KEYS.ann, body: { entity_ids: ['W4', '12'] } }),
      ).toMatchObject({
        status: 400,
        code: 'entity_id_invalid',
      })
      expect(await errorOf('POST', path, { key: KEYS.ann, body: { ids: ['W4'] } })).toMatchObject({
        code: 'invalid_body',
      })
      expect(
        (await send<Collection>(app, 'GET', `/collections/${made.id}`, { key: KEYS.ann })).body.entity_count,
      ).toBe(3)
    })

    it('refuses an addition past 1,000 members whole', async () => {
      const made = await create(KEYS.ann, { entity_ids: works(1, 998) })
      const path = `/me/collections/${made.id}/entities`
      expect(
        await errorOf('POST', path, { key: KEYS.ann, body: { entity_ids: works(2000, 3) } }),
      ).toMatchObject({
        status: 400,
        code: 'collection_full',
      })
      expect(
        (await send(app, 'POST', path, { key: KEYS.ann, body: { entity_ids: works(2000, 2) } })).body,
      ).toMatchObject({ added: 2 })
      expect(
        (await send<Collection>(app, 'GET', `/collections/${made.id}`, { key: KEYS.ann })).body.entity_count,
      ).toBe(1000)
    })

    it('removes in bulk (body) and one at a time (path, any id form)', async () => {
      const made = await create(KEYS.ann, { entity_ids: ['W1', 'W2', 'W3', 'W4'] })
      const bulk = await send(app, 'DELETE', `/me/collections/${made.id}/entities`, {
        key: KEYS.ann,
        body: { entity_ids: ['W1', 'W9'] },
      })
      expect(bulk).toMatchObject({ status: 200, body: { removed: 1, not_present: 1, entity_count: 3 } })
      const one = await send(app, 'DELETE', `/me/collections/${made.id}/entities/w2`, { key: KEYS.ann })
      expect(one.body).toEqual({ removed: 1, not_present: 0, entity_count: 2 })
      const url = await send(app, 'DELETE', `/me/collections/${made.id}/entities/https://openalex.org/W3`, {
        key: KEYS.ann,
      })
      expect(url.body).toEqual({ removed: 1, not_present: 0, entity_count: 1 })
      const encoded = await send(
        app,
        'DELETE',
        `/me/collections/${made.id}/entities/${encodeURIComponent('https://openalex.org/W4')}`,
        { key: KEYS.ann },
      )
      expect(encoded.body).toEqual({ removed: 1, not_present: 0, entity_count: 0 })
      expect(
        await errorOf('DELETE', `/me/collections/${made.id}/entities/A1`, { key: KEYS.ann }),
      ).toMatchObject({ status: 400, code: 'entity_id_wrong_type' })
    })

    it('deletes a collection with its members, and frees its name', async () => {
      const made = await create(KEYS.ann, { display_name: 'Short lived', entity_ids: ['W77777'] })
      const deleted = await send(app, 'DELETE', `/me/collections/${made.id}`, { key: KEYS.ann })
      expect(deleted).toMatchObject({ status: 200, body: { deleted_collection_id: made.id } })
      expect((await send(app, 'GET', `/collections/${made.id}`, { key: KEYS.ann })).status).toBe(404)
      expect((await send(app, 'GET', `/collections/${made.id}/entities`, { key: KEYS.ann })).status).toBe(404)
      expect(
        (await send<Page>(app, 'GET', '/me/collections?entity_id=W77777', { key: KEYS.ann })).body.meta
          .total_count,
      ).toBe(0)
      expect((await send(app, 'DELETE', `/me/collections/${made.id}`, { key: KEYS.ann })).status).toBe(404)
      await create(KEYS.ann, { display_name: 'short LIVED' })
    })
  })

  describe.skipIf(kind.skip)('keys, owners and admins', () => {
    it('answers every route with 401 and a Bearer challenge without a key, or with an unknown one', async () => {
      const made = await create(KEYS.ann)
      for (const [method, path] of [
        ['POST', '/me/collections'],
        ['GET', '/me/collections'],
        ['GET', `/collections/${made.id}`],
        ['GET', `/collections/${made.id}/entities`],
        ['PATCH', `/me/collections/${made.id}`],
        ['DELETE', `/me/collections/${made.id}`],
        ['POST', `/me/collections/${made.id}/entities`],
        ['DELETE', `/me/collections/${made.id}/entities`],
        ['DELETE', `/me/collections/${made.id}/entities/W1`],
        ['GET', '/admin/collections'],
        ['GET', `/admin/collections/${made.id}`],
        ['PATCH', `/admin/collections/${made.id}`],
        ['DELETE', `/admin/collections/${made.id}`],
      ] as const)
        for (const key of [undefined, 'not-a-key-of-anyone']) {
          const answer = await send<{ code: string }>(app, method, path, {
            ...(key === undefined ? {} : { key }),
            body: { display_name: 'x', entity_type: 'works', entity_ids: ['W1'] },
          })
          expect({ method, path, status: answer.status, code: answer.body.code }).toEqual({
            method,
            path,
            status: 401,
            code: 'authentication_required',
          })
          expect(answer.headers.get('www-authenticate')).toContain('Bearer')
        }
      expect(
        (await send<Collection>(app, 'GET', `/collections/${made.id}`, { key: KEYS.ann })).body.entity_count,
      ).toBe(0)
    })

    it("refuses another user's collection with 403; an admin may use anyone's", async () => {
      const made = await create(KEYS.ann, { entity_ids: ['W1'] })
      expect(await errorOf('GET', `/collections/${made.id}`, { key: KEYS.bob })).toMatchObject({
        status: 403,
        code: 'forbidden',
      })
      expect((await send(app, 'GET', `/collections/${made.id}`, { key: KEYS.admin })).status).toBe(200)
      expect((await send(app, 'GET', `/collections/${made.id}/entities`, { key: KEYS.admin })).status).toBe(
        200,
      )
      expect(
        (
          await send(app, 'POST', `/me/collections/${made.id}/entities`, {
            key: KEYS.admin,
            body: { entity_ids: ['W2'] },
          })
        ).body,
      ).toMatchObject({ added: 1 })
      const renamed = await send<Collection>(app, 'PATCH', `/me/collections/${made.id}`, {
        key: KEYS.admin,
        body: { display_name: 'Set by admin' },
      })
      expect(renamed.body).toMatchObject({ user_id: 'ann', display_name: 'Set by admin', entity_count: 2 })
    })

    it('keeps /admin for admins (403 for others, even for their own collections)', async () => {
      const made = await create(KEYS.bob)
      for (const [method, path] of [
        ['GET', '/admin/collections'],
        ['GET', `/admin/collections/${made.id}`],
        ['PATCH', `/admin/collections/${made.id}`],
        ['DELETE', `/admin/collections/${made.id}`],
        ['GET', '/admin/collections/col_AAAAAAAAAA'],
      ] as const)
        expect(await errorOf(method, path, { key: KEYS.bob, body: { display_name: 'x' } })).toMatchObject({
          status: 403,
          code: 'forbidden',
        })
    })

    it('searches every user’s collections for admins, by text, owner and type', async () => {
      const tag = `Zq${Date.now().toString(36)}`
      const a = await create(KEYS.ann, { display_name: `${tag} ann`, entity_type: 'authors' })
      const b = await create(KEYS.bob, { display_name: `${tag} bob`, entity_type: 'works' })
      const c = await create(KEYS.bob, {
        display_name: 'Other',
        description: `about ${tag.toLowerCase()}`,
        entity_type: 'works',
      })
      const search = async (query: string) =>
        (await send<Page>(app, 'GET', `/admin/collections?${query}`, { key: KEYS.admin })).body
      expect((await search(`q=${tag}`)).results.map((r) => r.id)).toEqual([c.id, b.id, a.id])
      expect((await search(`q=${tag}&owner_id=bob`)).results.map((r) => r.id)).toEqual([c.id, b.id])
      expect((await search(`q=${tag}&entity_type=authors`)).results.map((r) => r.id)).toEqual([a.id])
      const paged = await search(`q=${tag}&per_page=2&page=2`)
      expect(paged.meta).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 })
      expect((await errorOf('GET', '/admin/collections?entity_type=planets', { key: KEYS.admin })).code).toBe(
        'entity_type_invalid',
      )
      expect(
        (await send<Collection>(app, 'GET', `/admin/collections/${a.id}`, { key: KEYS.admin })).body.user_id,
      ).toBe('ann')
      expect(
        (
          await send<Collection>(app, 'PATCH', `/admin/collections/${a.id}`, {
            key: KEYS.admin,
            body: { description: 'checked' },
          })
        ).body.description,
      ).toBe('checked')
      expect((await send(app, 'DELETE', `/admin/collections/${a.id}`, { key: KEYS.admin })).body).toEqual({
        deleted_collection_id: a.id,
      })
      expect((await send(app, 'GET', `/collections/${a.id}`, { key: KEYS.ann })).status).toBe(404)
    })
  })

  describe.skipIf(kind.skip)('concurrent requests', () => {
    it('never passes 1,000 members under 50 parallel additions', async () => {
      const made = await create(KEYS.bob, { entity_ids: works(1, 900) })
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          send(app, 'POST', `/me/collections/${made.id}/entities`, {
            key: KEYS.bob,
            body: { entity_ids: works(5000 + index * 4, 4) },
          }),
        ),
      )
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(25)
      expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.code)).toEqual(
        Array.from({ length: 25 }, () => 'collection_full'),
      )
      expect(
        (await send<Collection>(app, 'GET', `/collections/${made.id}`, { key: KEYS.bob })).body.entity_count,
      ).toBe(1000)
    })

    it('never passes 100 collections or repeats a name under parallel creates', async () => {
      const key = KEYS.eve
      const owned = (await send<Page>(app, 'GET', '/me/collections', { key })).body.meta.total_count
      const answers = await Promise.all(
        Array.from({ length: 110 - owned }, (_, index) =>
          send(app, 'POST', '/me/collections', {
            key,
            body: { display_name: `Parallel ${index % 60}`, entity_type: 'works' },
          }),
        ),
      )
      const created = answers.filter((answer) => answer.status === 201)
      // 60 distinct names fit under the limit of 100: each once, the repeats refused.
      expect(created).toHaveLength(60)
      const codes = answers.filter((answer) => answer.status === 400).map((answer) => answer.body.code)
      expect(
        codes.every((code) => code === 'display_name_duplicate' || code === 'too_many_collections'),
      ).toBe(true)
      const page = await send<Page>(app, 'GET', '/me/collections?per_page=100', { key })
      const names = page.body.results.map((c) => c.display_name.toLowerCase())
      expect(new Set(names).size).toBe(names.length)
      expect(page.body.meta.total_count).toBeLessThanOrEqual(100)
      const more = await Promise.all(
        Array.from({ length: 60 }, (_, index) =>
          send(app, 'POST', '/me/collections', {
            key,
            body: { display_name: `Second wave ${index}`, entity_type: 'works' },
          }),
        ),
      )
      expect(more.filter((answer) => answer.status === 201)).toHaveLength(100 - owned - 60)
      expect((await send<Page>(app, 'GET', '/me/collections', { key })).body.meta.total_count).toBe(100)
    })
  })
})
