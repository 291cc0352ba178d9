// Checks the committed real-text sample (packages/snapshot/real-sample-snapshot) as data: its manifest against the
// part files, every record a work in the partition of its updated_date with none of the measurements' fields,
// and, when the shared real works are on disk, that they are all there and a rebuild gives the same bytes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { REAL_SAMPLE_SNAPSHOT_DIR } from '../src/sample/bundled-sample-location.ts'
import { buildRealSampleSnapshot } from '../src/sample/real-sample-builder.ts'

const sourceFile = fileURLToPath(
  new URL('../../../../shared/data/real-works/works.jsonl.gz', import.meta.url),
)
const worksDir = join(REAL_SAMPLE_SNAPSHOT_DIR, 'works')

interface Manifest {
  readonly entries: { url: string; meta: { content_length: number; record_count: number } }[]
  readonly meta: { content_length: number; record_count: number }
}

const manifest = JSON.parse(readFileSync(join(worksDir, 'manifest'), 'utf8')) as Manifest
const parts = readdirSync(worksDir)
  .filter((name) => name.startsWith('updated_date='))
  .flatMap((partition) => readdirSync(join(worksDir, partition)).map((part) => `${partition}/${part}`))
const recordsByPart = new Map<string, Record<string, unknown>[]>()
const recordsOf = (part: string): Record<string, unknown>[] => {
  let records = recordsByPart.get(part)
  if (records === undefined) {
    records = gunzipSync(readFileSync(join(worksDir, ...part.split('/'))))
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    recordsByPart.set(part, records)
  }
  return records
}

describe('the bundled real-text sample', () => {
  it('has a manifest that states each part file and the totals', () => {
    expect(manifest.entries.map((entry) => entry.url).sort()).toEqual(
      parts.map((part) => `s3://openalex/data/works/${part}`).sort(),
    )
    for (const entry of manifest.entries) {
      const part = entry.url.replace('s3://openalex/data/works/', '')
      expect(entry.meta.content_length, part).toBe(statSync(join(worksDir, ...part.split('/'))).size)
      expect(entry.meta.record_count, part).toBe(recordsOf(part).length)
    }
    expect(manifest.meta.record_count).toBe(4431)
    expect(manifest.meta.content_length).toBe(
      manifest.entries.reduce((sum, entry) => sum + entry.meta.content_length, 0),
    )
  })

  it('holds works only, each in its updated_date partition, with no field of the measurements', () => {
    const ids = new Set<string>()
    for (const part of parts)
      for (const record of recordsOf(part)) {
        expect(String(record.id)).toMatch(/^https:\/\/openalex\.org\/W\d+$/)
        expect(part.startsWith(`updated_date=${String(record.updated_date).slice(0, 10)}/`)).toBe(true)
        expect(record).not.toHaveProperty('_review')
        expect(record).toHaveProperty('abstract_inverted_index')
        ids.add(String(record.id))
      }
    expect(ids.size).toBe(4431)
    expect(readdirSync(REAL_SAMPLE_SNAPSHOT_DIR).sort()).toEqual(['LICENSE', 'README.md', 'works'])
  })

  it.skipIf(!existsSync(sourceFile))(
    'is rebuilt byte for byte from the shared real works (when on disk)',
    () => {
      const out = mkdtempSync(join(tmpdir(), 'oqlkit-real-sample-'))
      try {
        buildRealSampleSnapshot({ sourceFile, outDir: out })
        const rebuilt = join(out, 'works')
        expect(readFileSync(join(rebuilt, 'manifest'), 'utf8')).toBe(
          readFileSync(join(worksDir, 'manifest'), 'utf8'),
        )
        for (const part of parts)
          expect(
            readFileSync(join(rebuilt, ...part.split('/'))).equals(
              readFileSync(join(worksDir, ...part.split('/'))),
            ),
            part,
          ).toBe(true)
      } finally {
        rmSync(out, { recursive: true, force: true })
      }
    },
  )
})
