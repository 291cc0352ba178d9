// Singletons on ClickHouse, the bundled sample catalog loaded into ClickHouse itself (chdb) behind the test
// stand-in for a server's HTTP interface: the conformance suite's singleton expectations, and hostile ids.
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import type { LookupResult } from '@oqlkit/engine'
import { readSampleMergedAuthors, readSampleRecords } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogVersionsStatements, publishVersion, servedVersion } from '../src/catalog-versions.ts'
import {
  findEntityByExternalId,
  findEntityById,
  findRandomEntity,
  type SingletonSource,
} from '../src/clickhouse-singletons.ts'
import { ServedVersionCache } from '../src/served-version-cache.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

let client: ClickHouseClient
let source: SingletonSource
const works = readSampleRecords('works')
const authors = readSampleRecords('authors')
const shortOf = (record: Record<string, unknown>) => String(record.id).replace('https://openalex.org/', '')

beforeAll(async () => {
  const sample = await sharedClickHouseSample()
  client = createClient({ url: sample.url })
  // A catalog of this file's own on the shared server, which holds the sample loaded once: no version at
  // first, then the sample's version published as a load publishes its own, read by the same cache.
  const versions = new ServedVersionCache(client, 'singletons')
  await expect(versions.database()).rejects.toThrow(
    /no loaded version of the catalog singletons: load one with oqlkit load/,
  )
  const loaded = await servedVersion(client, sample.catalog)
  if (loaded === undefined) throw new Error('the shared sample is not served')
  for (const statement of catalogVersionsStatements('singletons')) await client.command({ query: statement })
  await publishVersion(client, 'singletons', loaded)
  source = { client, database: await versions.database() }
  expect(source.database).toBe(sample.database)
}, 240_000)
afterAll(async () => {
  await client?.close()
})

const expectFound = (result: LookupResult, record: Record<string, unknown>) => {
  expect(result.status).toBe('found')
  if (result.status !== 'found') return
  expect(result.record).toEqual(record)
  expect(JSON.parse(new TextDecoder().decode(result.jsonBytes))).toEqual(record)
}

onChdb('singletons on ClickHouse (chdb behind the test stand-in for its HTTP interface)', () => {
  it('finds a work by its id in any form and case, as stored', async () => {
    const work = works[0]!
    const short = shortOf(work)
    for (const form of [short, short.toLowerCase(), `https://openalex.org/${short}`])
      expectFound(await findEntityById(source, 'works', form), work)
  })

  it('answers missing ids, ids of another entity, merged ids, and vocabulary codes in any case', async () => {
    expect(await findEntityById(source, 'works', 'W1')).toEqual({ status: 'missing' })
    expect(await findEntityById(source, 'works', shortOf(authors[0]!))).toEqual({ status: 'missing' })
    const merged = readSampleMergedAuthors()
    expect(merged.length).toBeGreaterThan(0)
    for (const { oldId, newId } of merged)
      expect(await findEntityById(source, 'authors', oldId)).toEqual({ status: 'merged', id: newId })
    const article = await findEntityById(source, 'types', 'ARTICLE')
    expect(article.status === 'found' && article.record.display_name).toBe('article')
  })

  it('finds works by DOI (URL or bare, any case) and authors by ORCID', async () => {
    const counts = new Map<string, number>()
    for (const work of works)
      if (typeof work.doi === 'string') counts.set(work.doi, (counts.get(work.doi) ?? 0) + 1)
    const doi = [...counts].find(([, count]) => count === 1)![0]
    const work = works.find((record) => record.doi === doi)!
    for (const form of [doi, doi.replace(/^https:\/\/doi\.org\//, ''), doi.toUpperCase()])
      expectFound(await findEntityByExternalId(source, 'works', 'doi', form), work)
    expect(await findEntityByExternalId(source, 'works', 'doi', '10.0000/not-in-this-catalog')).toEqual({
      status: 'missing',
    })
    const author = authors.find((record) => typeof record.orcid === 'string')!
    const bare = String(author.orcid).replace(/^https:\/\/orcid\.org\//, '')
    expectFound(await findEntityByExternalId(source, 'authors', 'orcid', bare), author)
  })

  it('draws random works of the catalog', async () => {
    const ids = new Set(works.map(shortOf))
    const drawn = new Set<string>()
    for (let i = 0; i < 12; i++) {
      const found = await findRandomEntity(source, 'works')
      expect(found.status).toBe('found')
      if (found.status === 'found') {
        expect(ids.has(shortOf(found.record))).toBe(true)
        drawn.add(shortOf(found.record))
      }
    }
    expect(drawn.size).toBeGreaterThan(1)
  })

  it('treats hostile ids as ids that are not there, and changes nothing', async () => {
    for (const hostile of [
      "W1' OR 1=1 --",
      "W1'); DROP TABLE works; --",
      '%',
      '\\',
      'W'.repeat(10_000),
      '\u0000',
      '😀',
    ])
      for (const entity of ['works', 'types'] as const)
        expect(await findEntityById(source, entity, hostile), hostile).toEqual({ status: 'missing' })
    expect(await findEntityByExternalId(source, 'works', 'doi', "10.1/x' OR '1'='1")).toEqual({
      status: 'missing',
    })
    expectFound(await findEntityById(source, 'works', shortOf(works[0]!)), works[0]!)
  })

  it('stops at its signal', async () => {
    const controller = new AbortController()
    controller.abort('shutdown')
    await expect(
      findEntityById(source, 'works', shortOf(works[0]!), { signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'QueryInterruptedError', reason: 'shutdown' })
  })
})
