// The version of a catalog's data (`catalogVersionOf`): what each ingest records of the snapshot it read (the
// newest partition's date, a digest of the manifests) gives the same version for the same snapshot wherever it
// lies and is built, and a new one after an update.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CatalogManifest, catalogVersionOf } from '@oqlkit/catalog'
import { afterAll, describe, expect, it } from 'vitest'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { planSnapshot } from '../src/plan/snapshot-planner.ts'
import { snapshotVersionOf } from '../src/plan/snapshot-version.ts'
import { partsOf, work, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

const root = mkdtempSync(join(tmpdir(), 'oqlkit-catalog-version-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const core = { searchIndex: false, vectors: false, textTagger: false } as const
const manifestOf = (catalogDir: string) =>
  JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as CatalogManifest

describe('catalog versions', () => {
  it('names the same snapshot alike wherever it lies, and an update anew', async () => {
    const first = join(root, 'first')
    writeLegacySnapshot(first, partsOf('works', [work(1, '2025-01-18'), work(2, '2025-01-20')]))
    const moved = join(root, 'moved')
    cpSync(first, moved, { recursive: true })
    await ingestSnapshot({ snapshotDir: first, outDir: join(root, 'a'), ...core })
    const a = manifestOf(join(root, 'a'))
    expect(a.ingests[0]?.snapshot).toEqual({
      date: '2025-01-20',
      manifestsDigest: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    const version = catalogVersionOf(a)
    expect(version).toEqual({
      snapshotDate: '2025-01-20',
      fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/),
    })
    // What an ingest of the same snapshot elsewhere records (its plan, without building a catalog again).
    expect(await snapshotVersionOf(await planSnapshot(moved))).toEqual(a.ingests[0]?.snapshot)

    // A newer snapshot ingested over it: a newer date and another fingerprint.
    const next = join(root, 'next')
    writeLegacySnapshot(next, partsOf('works', [work(2, '2025-02-03'), work(3, '2025-02-03')]))
    await ingestSnapshot({ snapshotDir: next, outDir: join(root, 'a'), mode: 'update', ...core })
    const updated = catalogVersionOf(manifestOf(join(root, 'a')))
    expect(updated.snapshotDate).toBe('2025-02-03')
    expect(updated.fingerprint).not.toBe(version.fingerprint)
  })

  it('gives a catalog built before snapshots were recorded a version of its ingests', () => {
    const manifest = {
      ingests: [
        { at: '2026-01-01T00:00:00.000Z', snapshotDir: '/s', layout: 'legacy', filesRead: 2, recordsRead: 5 },
      ],
    } as unknown as CatalogManifest
    const version = catalogVersionOf(manifest)
    expect(version.snapshotDate).toBeNull()
    expect(version.fingerprint).toMatch(/^[0-9a-f]{12}$/)
    expect(catalogVersionOf(manifest)).toEqual(version)
  })
})
