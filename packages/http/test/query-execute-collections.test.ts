import { createApp } from '@oqlkit/http'
import type { H3 } from 'h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEYS, STORE_KINDS, send, testCallers } from './support/collection-stores.ts'
import { useSampleApp } from './support/sample-app.ts'
import { coreWorks, shortOf, valuesAt } from './support/sample-records.ts'

// The execute endpoint resolves collection filters for its caller as the classic lists do: the same rows
// for `work is in collection (col_…)` by POST / as for /works?filter=collection:col_…, and the same refusals.

interface Envelope {
  meta: { count: number; cost_usd: number }
  results: { id: string }[]
}

const sample = useSampleApp()
const faults: unknown[] = []
let app: H3
const made: Record<string, string> = {}

const works = coreWorks()
const WORK_IDS = works.map((work) => shortOf(work.id)).slice(2, 9)
const AUTHOR_IDS = [
  ...new Set(works.flatMap((work) => valuesAt(work, 'authorships.author.id').map(shortOf))),
].slice(0, 3)

beforeAll(async () => {
  const embedded = STORE_KINDS.find((kind) => !kind.skip)!
  app = createApp({
    adapter: sample.adapter,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    collections: { store: await embedded.open(), callers: testCallers },
    logError: (error) => {
      faults.push(error)
    },
  })
  for (const [name, entityType, ids] of [
    ['works', 'works', WORK_IDS],
    ['authors', 'authors', AUTHOR_IDS],
  ] as const) {
    const answer = await send<{ id: string }>(app, 'POST', '/me/collections', {
      key: KEYS.ann,
      body: { display_name: `query ${name}`, entity_type: entityType, entity_ids: ids },
    })
    if (answer.status !== 201) throw new Error(JSON.stringify(answer.body))
    made[name] = answer.body.id
  }
})
afterAll(() => expect(faults).toEqual([]))

const idsOf = (body: Envelope) => body.results.map((row) => shortOf(row.id)).sort()

describe('collection filters through GET /?oql= and POST /', () => {
  it('the same rows as the classic list, for the owner', async () => {
    for (const [oql, classic] of [
      [
        `works where work is in collection (${made.works})`,
        `/works?filter=collection:${made.works}&per_page=100`,
      ],
      [
        `works where work is in collection (not ${made.works})`,
        `/works?filter=collection:!${made.works}&per_page=100`,
      ],
      [
        `works where author is in collection (${made.authors})`,
        `/works?filter=authorships.author.id:${made.authors}&per_page=100`,
      ],
    ]) {
      const expected = await send<Envelope>(app, 'GET', classic!, { key: KEYS.ann })
      expect(expected.status, JSON.stringify(expected.body)).toBe(200)
      const posted = await send<Envelope>(app, 'POST', '/', { key: KEYS.ann, body: { oql, per_page: 100 } })
      const got = await send<Envelope>(app, 'GET', `/?oql=${encodeURIComponent(oql!)}&per_page=100`, {
        key: KEYS.ann,
      })
      for (const answer of [posted, got]) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        expect(answer.body.meta.count).toBe(expected.body.meta.count)
        expect(idsOf(answer.body)).toEqual(idsOf(expected.body))
      }
    }
    const members = await send<Envelope>(app, 'POST', '/', {
      key: KEYS.ann,
      body: { oql: `works where work is in collection (${made.works})`, per_page: 100 },
    })
    expect(idsOf(members.body)).toEqual([...WORK_IDS].sort())
  })

  it('the same refusals: 401 without a key, 403 for another user’s collection', async () => {
    const oql = `works where work is in collection (${made.works})`
    const classic = `/works?filter=collection:${made.works}`
    for (const key of [undefined, KEYS.bob]) {
      const expected = await send(app, 'GET', classic, key === undefined ? {} : { key })
      const answer = await send(app, 'POST', '/', { ...(key === undefined ? {} : { key }), body: { oql } })
      expect(expected.status).toBeGreaterThanOrEqual(401)
      expect(answer.status).toBe(expected.status)
      expect(answer.body.code).toBe(expected.body.code)
    }
  })
})
