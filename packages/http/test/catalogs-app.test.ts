// A server of several catalogs (`createCatalogsApp`): `data_version=` (a name or a fingerprint) picks the catalog a
// request is answered from, the default without it; every other parameter, the body and the answer are the
// chosen catalog's own. Two real catalogs: the shared sample and a three-work catalog ingested here.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import type { StorageAdapter } from '@oqlkit/engine'
import { createApp, createCatalogsApp, DATA_VERSION_HEADER, type DataVersion } from '@oqlkit/http'
import { ingestCoreFixture, partsOf, readSampleMergedAuthors, work } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useSampleApp } from './support/sample-app.ts'

const sample = useSampleApp()
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-catalogs-'))
let small: StorageAdapter
let app: ReturnType<typeof createCatalogsApp>

const current: DataVersion = { name: 'current', snapshotDate: '2025-01-20', fingerprint: 'aaaaaaaaaaaa' }
const older: DataVersion = { name: 'older', snapshotDate: '2026-01-01', fingerprint: 'bbbbbbbbbbbb' }

beforeAll(async () => {
  const catalogDir = await ingestCoreFixture(
    scratch,
    partsOf('works', [work(1, '2026-01-01'), work(2, '2026-01-01'), work(3, '2026-01-01')]),
  )
  small = await createDuckDbAdapter({ catalogDir, threads: 1 })
  const versions = [current, older]
  const appOf = (adapter: StorageAdapter, version: DataVersion) =>
    createApp({
      adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {}, version, versions },
      logError: (error) => sample.faults.push(error),
    })
  app = createCatalogsApp({
    catalogs: [
      { version: current, app: appOf(sample.adapter, current) },
      { version: older, app: appOf(small, older) },
    ],
    logError: (error) => sample.faults.push(error),
  })
}, 120_000)
afterAll(async () => {
  await small?.close()
  rmSync(scratch, { recursive: true, force: true })
  expect(sample.faults).toEqual([])
})

const countOf = async (query: string) => {
  const response = await app.fetch(new Request(`http://localhost/works?${query}`))
  const body = (await response.json()) as {
    meta: { count: number; per_page: number; data_version: { name: string } }
  }
  return { status: response.status, header: response.headers.get(DATA_VERSION_HEADER), meta: body.meta }
}

describe('several catalogs, one server', () => {
  it('answers from the default without data_version, and from the one it names (or fingerprints) with it', async () => {
    const byDefault = await countOf('per_page=1')
    expect(byDefault.meta.data_version.name).toBe('current')
    expect(byDefault.meta.count).toBeGreaterThan(3)
    expect(byDefault.header).toMatch(/^current; /)
    for (const pick of [
      'data_version=older&per_page=2',
      'per_page=2&data_version=bbbbbbbbbbbb',
      'data-version=older&per-page=2',
    ]) {
      const picked = await countOf(pick)
      expect(picked.status, pick).toBe(200)
      expect(picked.meta, pick).toMatchObject({ count: 3, per_page: 2, data_version: { name: 'older' } })
      expect(picked.header, pick).toMatch(/^older; /)
    }
  })

  it('forwards a body, and lists every version at /, the default first', async () => {
    const lookup = await app.fetch(
      new Request('http://localhost/works/lookup?data_version=older&select=id', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"ids": ["W2", "W4"]}',
      }),
    )
    expect(lookup.status).toBe(200)
    expect(((await lookup.json()) as { meta: Record<string, unknown> }).meta).toMatchObject({
      found: 1,
      missing: 1,
    })
    const root = (await (await app.fetch(new Request('http://localhost/'))).json()) as {
      data_versions: unknown[]
    }
    expect(root.data_versions).toEqual([
      { name: 'current', snapshot_date: '2025-01-20', fingerprint: 'aaaaaaaaaaaa', default: true },
      { name: 'older', snapshot_date: '2026-01-01', fingerprint: 'bbbbbbbbbbbb', default: false },
    ])
  })

  it("keeps the version asked for in a merged id's redirect", async () => {
    // The sample's merged authors are in the default catalog, here asked for by name.
    const [merge] = readSampleMergedAuthors()
    const merged = await app.fetch(
      new Request(`http://localhost/authors/${merge!.oldId}?select=id&data_version=current`),
    )
    expect(merged.status).toBe(301)
    expect(merged.headers.get('location')).toBe(`/authors/${merge!.newId}?select=id&data_version=current`)
  })

  it('refuses a version it does not hold, or two, saying which it holds', async () => {
    const unknown = await app.fetch(new Request('http://localhost/works?data_version=2019'))
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toMatchObject({
      code: 'unknown_data_version',
      message: expect.stringContaining('give one of current, older'),
    })
    const twice = await app.fetch(
      new Request('http://localhost/works?data_version=older&data_version=current'),
    )
    expect(twice.status).toBe(400)
    expect(await twice.json()).toMatchObject({ code: 'repeated_parameter' })
  })
})
