import { describe, expect, it } from 'vitest'
import { lookupEntities } from '../adapter/bulk-lookup.ts'
import type { EntityRecord, LookupKey, LookupResult } from '../adapter/storage-adapter.ts'
import { snowballWorks } from '../snowball/citation-snowball.ts'
import { isSnowballTooLargeError } from '../snowball/snowball-graph.ts'
import { type ConformanceSuite, frequencies } from './conformance-suite.ts'
import { shortIdOf } from './reference-evaluator.ts'

export function describeSingletonCases(suite: ConformanceSuite): void {
  const { fixture, works, context } = suite
  describe('singletons', () => {
    // A found record, and its stored JSON text when the adapter gives it: the same record.
    const expectFound = (result: LookupResult, record: EntityRecord) => {
      expect(result.status).toBe('found')
      if (result.status !== 'found') return
      expect(result.record).toEqual(record)
      if (result.jsonBytes !== undefined)
        expect(JSON.parse(new TextDecoder().decode(result.jsonBytes))).toEqual(record)
    }

    it('finds a work by its id in any form and case, as stored', async () => {
      const work = works[0]!
      const short = shortIdOf(work)
      for (const form of [short, short.toLowerCase(), `https://openalex.org/${short}`]) {
        expectFound(await suite.adapter.findById('works', form), work)
      }
    })

    it('answers missing ids, ids of another entity, merged ids', async () => {
      expect(await suite.adapter.findById('works', 'W1')).toEqual(
        context.byId.has('W1') ? expect.objectContaining({ status: 'found' }) : { status: 'missing' },
      )
      expect(await suite.adapter.findById('works', 'A5063410350')).toEqual({ status: 'missing' })
      for (const merged of fixture.mergedIds)
        expect(await suite.adapter.findById(merged.entity, merged.oldId)).toEqual({
          status: 'merged',
          id: merged.newId,
        })
    })

    it('finds works by DOI (URL or bare, any case) and authors by ORCID', async () => {
      const dois = frequencies(works, 'doi').filter(([, count]) => count === 1)
      const doi = String(dois[0]![0])
      const work = works.find((record) => record.doi === doi)!
      for (const form of [doi, doi.replace(/^https:\/\/doi\.org\//, ''), doi.toUpperCase()])
        expectFound(await suite.adapter.findByExternalId('works', 'doi', form), work)
      expect(await suite.adapter.findByExternalId('works', 'doi', '10.0000/not-in-this-catalog')).toEqual({
        status: 'missing',
      })
      const authors = fixture.records.authors ?? []
      const orcids = frequencies(authors, 'orcid').filter(([, count]) => count === 1)
      if (orcids.length > 0) {
        const orcid = String(orcids[0]![0])
        const author = authors.find((record) => record.orcid === orcid)!
        const bare = orcid.replace(/^https:\/\/orcid\.org\//, '')
        expectFound(await suite.adapter.findByExternalId('authors', 'orcid', bare), author)
      }
    })

    it('looks many up at once: one result per key, in order, each what a single lookup answers', async () => {
      const [first, second] = works
      const doi = frequencies(works, 'doi').find(([, count]) => count === 1)?.[0]
      const keys: LookupKey[] = [
        { kind: 'openalex', id: shortIdOf(second!) },
        { kind: 'openalex', id: `https://openalex.org/${shortIdOf(first!).toLowerCase()}` },
        { kind: 'openalex', id: 'W1' },
        { kind: 'openalex', id: 'A5063410350' },
        { kind: 'external', scheme: 'doi', value: '10.0000/not-in-this-catalog' },
        { kind: 'openalex', id: shortIdOf(second!) },
        ...(doi === undefined
          ? []
          : [{ kind: 'external', scheme: 'doi', value: String(doi).toUpperCase() } as const]),
      ]
      const single = (key: LookupKey) =>
        key.kind === 'openalex'
          ? suite.adapter.findById('works', key.id)
          : suite.adapter.findByExternalId('works', key.scheme, key.value)
      const expected = await Promise.all(keys.map(single))
      const results = await lookupEntities(suite.adapter, 'works', keys)
      expect(results).toHaveLength(keys.length)
      results.forEach((result, at) => {
        const want = expected[at]!
        if (want.status === 'found') expectFound(result, want.record)
        else expect(result, JSON.stringify(keys[at])).toEqual(want)
      })
      // Merged ids are answered as merged (the caller follows them), whatever else the list holds.
      const merged = fixture.mergedIds.filter((id) => id.entity === 'authors')
      if (merged.length > 0) {
        const answered = await lookupEntities(
          suite.adapter,
          'authors',
          merged.map((id) => ({ kind: 'openalex', id: id.oldId })),
        )
        expect(answered).toEqual(merged.map((id) => ({ status: 'merged', id: id.newId })))
      }
      expect(await lookupEntities(suite.adapter, 'works', [])).toEqual([])
      // Some fields: the same outcome for every key, each found one with (at least) those fields as stored.
      for (const fields of [['id'], ['id', 'doi', 'display_name'], ['id', 'abstract_inverted_index']]) {
        const picked = await lookupEntities(suite.adapter, 'works', keys, { fields })
        picked.forEach((result, at) => {
          const want = expected[at]!
          expect(result.status, JSON.stringify(keys[at])).toBe(want.status)
          if (want.status === 'found' && result.status === 'found')
            for (const field of fields) expect(result.record[field], field).toEqual(want.record[field])
        })
      }
    })

    it('snowballs from works each way, two steps: the works, citations and records the records say', async () => {
      const held = new Map(works.map((work) => [shortIdOf(work), work]))
      const citesOf = (id: string) =>
        ((held.get(id)?.referenced_works as string[] | undefined) ?? []).map((cited) =>
          cited.slice(cited.lastIndexOf('/') + 1),
        )
      const citersOf = new Map<string, string[]>()
      for (const id of held.keys())
        for (const cited of new Set(citesOf(id))) citersOf.set(cited, [...(citersOf.get(cited) ?? []), id])
      const seeds = [...held.keys()]
        .filter((id) => citesOf(id).some((cited) => held.has(cited)) && citersOf.has(id))
        .slice(0, 2)
      expect(seeds).toHaveLength(2)
      for (const direction of ['both', 'cited', 'citing'] as const) {
        const reached = new Map(seeds.map((id) => [id, 0]))
        let frontier = seeds
        for (const depth of [1, 2]) {
          const next: string[] = []
          for (const id of frontier)
            for (const other of [
              ...(direction === 'citing' ? [] : citesOf(id)),
              ...(direction === 'cited' ? [] : (citersOf.get(id) ?? [])),
            ])
              if (held.has(other) && !reached.has(other)) {
                reached.set(other, depth)
                next.push(other)
              }
          frontier = next
        }
        const citations = new Set(
          [...reached.keys()].flatMap((id) =>
            citesOf(id)
              .filter((cited) => reached.has(cited) && cited !== id)
              .map((cited) => `${id}>${cited}`),
          ),
        )
        for (const records of [true, false]) {
          const result = await snowballWorks(suite.adapter, {
            seeds: seeds.map((id) => held.get(id)!),
            direction,
            depth: 2,
            records,
          })
          expect(new Map(result.nodes.map((node) => [node.id, node.depth])), direction).toEqual(reached)
          expect(new Set(result.edges.map(({ citing, cited }) => `${citing}>${cited}`)), direction).toEqual(
            citations,
          )
          expect(result.edges).toHaveLength(citations.size)
          // With records, each work's is the one stored (as bytes or as an object); without, a storage with its
          // own citation lookup gives none (the records path has them anyway).
          for (const node of result.nodes)
            if (records || node.record !== undefined)
              expect(
                node.record instanceof Uint8Array
                  ? JSON.parse(new TextDecoder().decode(node.record))
                  : node.record,
              ).toEqual(held.get(node.id))
          if (!records && suite.adapter.findCitations !== undefined)
            expect(result.nodes.every((node) => node.record === undefined)).toBe(true)
        }
        // One work fewer than it reaches is too few: refused, naming the limit; exactly enough is answered.
        if (direction !== 'both') continue
        const request = { seeds: seeds.map((id) => held.get(id)!), direction, depth: 2, records: false }
        const refused = await snowballWorks(suite.adapter, request, {}, reached.size - 1).then(
          () => undefined,
          (error: unknown) => error,
        )
        expect(isSnowballTooLargeError(refused), direction).toBe(true)
        expect(refused).toMatchObject({ limit: reached.size - 1 })
        expect((await snowballWorks(suite.adapter, request, {}, reached.size)).nodes).toHaveLength(
          reached.size,
        )
      }
    })

    it('finds which of many work ids it holds, in any case, without other entities’ ids (skipped without findHeldWorks)', async (test) => {
      const findHeld = suite.adapter.findHeldWorks?.bind(suite.adapter)
      if (findHeld === undefined) return test.skip()
      const held = [...context.byId.keys()].filter((id) => id.startsWith('W')).slice(0, 5)
      expect(held).toHaveLength(5)
      const absent = 'W999999999999999'
      expect(context.byId.has(absent)).toBe(false)
      const asked = [
        ...held.map((id, at) => (at % 2 === 0 ? id.toLowerCase() : id)),
        absent,
        'A1',
        'not an id',
      ]
      expect(new Set(await findHeld(asked))).toEqual(new Set(held))
      expect(await findHeld([])).toEqual([])
    })

    it('draws a random work of the catalog', async () => {
      const found = await suite.adapter.findRandom('works')
      expect(found.status).toBe('found')
      if (found.status === 'found') expect(context.byId.has(shortIdOf(found.record))).toBe(true)
    })
  })
}
