// Bad snapshots are reported as an IngestError that names the file and the line, and a failed ingest leaves
// the catalog it was updating byte for byte as it was, with nothing half-written beside it.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { constants, gunzipSync, gzipSync } from 'node:zlib'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IngestError, ingestErrorDetails } from '../src/ingest-error.ts'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { folderFingerprint } from './support/catalog-inspector.ts'
import {
  type FixturePart,
  partsOf,
  work,
  writeJsonl2026Snapshot,
  writeLegacySnapshot,
  writeParquet2026Snapshot,
} from './support/snapshot-fixtures.ts'

// Bad input is refused before anything is built, and a good ingest's catalog is the fingerprint to keep:
// core ingests (no search index, vectors or tag model) say both at half the cost.
const core = { searchIndex: false, vectors: false, textTagger: false } as const

let root: string
let catalogDir: string
let fingerprint: Map<string, string>

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-ingest-bad-'))
  const good = join(root, 'good')
  writeLegacySnapshot(
    good,
    partsOf('works', [work(1, '2024-01-01T00:00:00'), work(2, '2024-01-02T00:00:00')]),
  )
  catalogDir = join(root, 'out', 'catalog')
  await ingestSnapshot({ snapshotDir: good, outDir: catalogDir, ...core })
  fingerprint = folderFingerprint(catalogDir)
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

/** Ingests the snapshot into the existing catalog and returns the error it must fail with. */
async function failure(snapshotDir: string): Promise<IngestError> {
  const error = await ingestSnapshot({ snapshotDir, outDir: catalogDir, ...core }).then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(IngestError)
  expect(folderFingerprint(catalogDir)).toStrictEqual(fingerprint)
  expect(readdirSync(join(root, 'out'))).toStrictEqual(['catalog'])
  return error as IngestError
}

function legacy(name: string, parts: readonly FixturePart[]): string {
  const dir = join(root, name)
  writeLegacySnapshot(dir, parts)
  return dir
}

const partPath = (dir: string, date: string) => join(dir, 'works', `updated_date=${date}`, 'part_000.gz')

/** The 1-based line at which the entry for `relative` sits in a manifest file. */
const manifestLine = (text: string, relative: string) =>
  text.slice(0, text.indexOf(relative)).split('\n').length

describe('bad input', () => {
  it('reports a truncated gzip part at the first line it cannot complete', async () => {
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify(work(i + 1, '2024-02-01T00:00:00', { n: i * 7919 })),
    )
    const whole = gzipSync(Buffer.from(lines.map((line) => `${line}\n`).join('')))
    const truncated = whole.subarray(0, Math.floor(whole.length / 2))
    const dir = legacy('truncated', [
      { entity: 'works', partition: '2024-02-01', content: truncated, manifestRecords: 300 },
    ])
    // What can be decoded of the truncated stream, worked out independently of the reader.
    const readable = gunzipSync(truncated, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8')
    const completeLines = readable.split('\n').length - 1
    expect(completeLines).toBeGreaterThan(10)
    expect(completeLines).toBeLessThan(300)

    const error = await failure(dir)
    expect(error.code).toBe('truncated-gzip')
    expect(error.file).toBe(partPath(dir, '2024-02-01'))
    expect(error.line).toBe(completeLines + 1)
    expect(error.message).toBe(
      `${partPath(dir, '2024-02-01')}:${completeLines + 1}: ${ingestErrorDetails.truncatedGzip()}`,
    )
  })

  it('reports a line that is not JSON', async () => {
    const dir = legacy('not-json', [
      {
        entity: 'works',
        partition: '2024-02-01',
        content: [
          work(10, '2024-02-01'),
          '{"id": "https://openalex.org/W11", "title": "cut',
          work(12, '2024-02-01'),
        ],
      },
    ])
    const error = await failure(dir)
    expect([error.code, error.file, error.line]).toStrictEqual([
      'invalid-json',
      partPath(dir, '2024-02-01'),
      2,
    ])
  })

  it('reports a record without an id', async () => {
    const dir = legacy('no-id', [
      {
        entity: 'works',
        partition: '2024-02-01',
        content: [work(10, '2024-02-01'), work(11, '2024-02-01'), '{"display_name": "nameless", "id": null}'],
      },
    ])
    const error = await failure(dir)
    expect([error.code, error.file, error.line]).toStrictEqual(['missing-id', partPath(dir, '2024-02-01'), 3])
    expect(error.detail).toBe(ingestErrorDetails.missingId())
  })

  it('reports a manifest whose record count disagrees with the file, at the manifest entry', async () => {
    const dir = legacy('wrong-count', [
      { entity: 'works', partition: '2024-02-01', content: [work(10, '2024-02-01')] },
      { entity: 'works', partition: '2024-02-02', content: [work(11, '2024-02-02')], manifestRecords: 2 },
    ])
    const manifest = join(dir, 'works', 'manifest')
    const text = readFileSync(manifest, 'utf8')
    const error = await failure(dir)
    expect([error.code, error.file, error.line]).toStrictEqual([
      'manifest-mismatch',
      manifest,
      manifestLine(text, 'works/updated_date=2024-02-02/part_000.gz'),
    ])
    expect(error.line).toBe(4)
    expect(error.detail).toBe(
      ingestErrorDetails.recordCountMismatch('works/updated_date=2024-02-02/part_000.gz', 2, 1),
    )
  })

  it('reports a manifest that lists a file which does not exist, at the manifest entry', async () => {
    const dir = legacy('missing-part', [
      { entity: 'works', partition: '2024-02-01', content: [work(10, '2024-02-01')], missing: true },
    ])
    const manifest = join(dir, 'works', 'manifest')
    const error = await failure(dir)
    expect([error.code, error.file, error.line]).toStrictEqual(['manifest-mismatch', manifest, 3])
    expect(error.detail).toBe(
      ingestErrorDetails.listedFileMissing('works/updated_date=2024-02-01/part_000.gz'),
    )
  })

  it('reports a bad line in a 2026 JSON Lines part and a bad row of the deletion log', async () => {
    const bad = join(root, 'bad-2026')
    writeJsonl2026Snapshot(bad, [
      {
        entity: 'works',
        partition: '2026-06-01',
        content: [work(1, '2026-06-01'), work(2, '2026-06-01'), '[1, 2]'],
      },
    ])
    const error = await failure(bad)
    expect([error.code, error.line]).toStrictEqual(['invalid-record', 3])
    expect(error.file).toBe(join(bad, 'data', 'jsonl', 'works', 'updated_date=2026-06-01', 'part_0000.gz'))

    const badLog = join(root, 'bad-log')
    writeJsonl2026Snapshot(badLog, partsOf('works', [work(1, '2026-06-01')]), {
      extraFiles: { 'works/deleted_ids.csv': 'work_id,deleted_date\nW5,2026-06-02\nA7,2026-06-02\n' },
    })
    const logError = await failure(badLog)
    expect([logError.code, logError.file, logError.line]).toStrictEqual([
      'invalid-csv',
      join(badLog, 'data', 'jsonl', 'works', 'deleted_ids.csv'),
      3,
    ])
  })

  it('reports the row of a Parquet part whose record has no id', async () => {
    const dir = join(root, 'parquet-no-id')
    await writeParquet2026Snapshot(
      dir,
      [
        {
          entity: 'works',
          partition: '2026-06-01',
          content: [work(1, '2026-06-01'), { ...work(2, '2026-06-01'), id: null as unknown as string }],
        },
      ],
      { id: 'VARCHAR', title: 'VARCHAR', updated_date: 'VARCHAR' },
    )
    const error = await failure(dir)
    expect([error.code, error.line]).toStrictEqual(['missing-id', 2])
    expect(error.file).toBe(
      join(dir, 'data', 'parquet', 'works', 'updated_date=2026-06-01', 'part_0000.parquet'),
    )
  })

  it('reports an entity folder without a manifest (a snapshot still being written)', async () => {
    const dir = legacy('no-manifest', partsOf('works', [work(10, '2024-02-01')]))
    rmSync(join(dir, 'works', 'manifest'))
    const error = await failure(dir)
    expect([error.code, error.file, error.line]).toStrictEqual([
      'manifest-missing',
      join(dir, 'works'),
      undefined,
    ])
  })

  it('refuses to run while another live ingest holds the lock, and clears a stale lock', async () => {
    const dir = legacy('locked', partsOf('works', [work(10, '2024-02-01')]))
    const lock = join(root, 'out', '.catalog.ingest-lock')
    writeFileSync(lock, String(process.pid))
    const error = await ingestSnapshot({ snapshotDir: dir, outDir: catalogDir, ...core }).catch(
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(IngestError)
    expect([(error as IngestError).code, (error as IngestError).file]).toStrictEqual(['catalog-locked', lock])
    expect(folderFingerprint(catalogDir)).toStrictEqual(fingerprint)

    rmSync(lock)

    // No process has this pid: the lock is left over from a crash and does not block.
    const other = join(root, 'out-stale', 'catalog')
    mkdirSync(join(root, 'out-stale'))
    writeFileSync(join(root, 'out-stale', '.catalog.ingest-lock'), '999999999')
    await expect(ingestSnapshot({ snapshotDir: dir, outDir: other, ...core })).resolves.toMatchObject({
      recordsWritten: 1,
    })
    expect(readdirSync(join(root, 'out-stale'))).toStrictEqual(['catalog'])
  })

  it('refuses a folder that is not a snapshot, and an output folder that is not a catalog', async () => {
    const empty = join(root, 'empty')
    mkdirSync(join(empty, 'unrelated'), { recursive: true })
    const error = await failure(empty)
    expect([error.code, error.file, error.line]).toStrictEqual(['unknown-layout', empty, undefined])

    const notCatalog = join(root, 'out-other')
    writeLegacySnapshot(notCatalog, partsOf('works', [work(1, '2024-01-01')]))
    const outError = await ingestSnapshot({
      snapshotDir: join(root, 'good'),
      outDir: notCatalog,
      ...core,
    }).catch((reason: unknown) => reason)
    expect(outError).toBeInstanceOf(IngestError)
    expect((outError as IngestError).code).toBe('output-not-catalog')
  })

  it('a build that runs out of memory says which step it was, and leaves the catalog as it was', async () => {
    // The bundled sample's works under a memory limit far too small for loading their parsed records, the
    // first step that needs DuckDB's memory: a user who meets this needs to know where it happened. Its works
    // alone (their folder copied): the works are loaded first, so the other entities' parts were parsed
    // for nothing, 0.8 of 2 s of CPU.
    const sample = join(root, 'sample-works')
    cpSync(join(SAMPLE_SNAPSHOT_DIR, 'works'), join(sample, 'works'), { recursive: true })
    const error = await ingestSnapshot({
      snapshotDir: sample,
      outDir: catalogDir,
      searchIndex: false,
      memoryLimit: '16MB',
      threads: 1,
    }).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(/^works: loading the parsed records: Out of Memory Error/)
    expect(folderFingerprint(catalogDir)).toStrictEqual(fingerprint)
  })
})
