// Checks the committed sample snapshot (packages/snapshot/sample-snapshot) as data: manifests against the part files,
// records against their partitions, the closure of the works' references, the README's counts, and, when the
// shared OpenAlex sample is on disk, that a rebuild gives the same bytes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { SAMPLE_SNAPSHOT_DIR } from '../src/sample/bundled-sample-location.ts'
import { buildSampleSnapshot } from '../src/sample/sample-snapshot-builder.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonRecord = { [key: string]: Json }

const snapshotDir = SAMPLE_SNAPSHOT_DIR
const sourceDir =
  process.env.OQLKIT_SAMPLE_SOURCE ??
  fileURLToPath(new URL('../../../../shared/data/openalex-sample/', import.meta.url))
const URL_PREFIX = 's3://openalex/data/'
const OPENALEX = 'https://openalex.org/'

// Which ids each entity directory may hold, written out independently of the builder's classifier.
const ID_PATTERNS: Record<string, RegExp> = {
  works: /^https:\/\/openalex\.org\/W\d+$/,
  authors: /^https:\/\/openalex\.org\/A\d+$/,
  sources: /^https:\/\/openalex\.org\/S\d+$/,
  institutions: /^https:\/\/openalex\.org\/I\d+$/,
  publishers: /^https:\/\/openalex\.org\/P\d+$/,
  funders: /^https:\/\/openalex\.org\/F\d+$/,
  topics: /^https:\/\/openalex\.org\/T\d+$/,
  concepts: /^https:\/\/openalex\.org\/C\d+$/,
  keywords: /^https:\/\/openalex\.org\/keywords\/[^/]+$/,
  domains: /^https:\/\/openalex\.org\/domains\/\d+$/,
  fields: /^https:\/\/openalex\.org\/fields\/\d+$/,
  subfields: /^https:\/\/openalex\.org\/subfields\/\d+$/,
  countries: /^https:\/\/openalex\.org\/countries\/[A-Z]{2}$/,
  continents: /^https:\/\/openalex\.org\/continents\/Q\d+$/,
  languages: /^https:\/\/openalex\.org\/languages\/[a-z]{2}$/,
  'work-types': /^https:\/\/openalex\.org\/types\/[a-z-]+$/,
  'source-types': /^https:\/\/openalex\.org\/source-types\/[a-z%0-9]+$/,
  'institution-types': /^https:\/\/openalex\.org\/institution-types\/[a-z]+$/,
  licenses: /^https:\/\/openalex\.org\/licenses\/[a-z0-9-]+$/,
  sdgs: /^https:\/\/openalex\.org\/sdgs\/\d+$/,
  'oa-statuses': /^https:\/\/openalex\.org\/oa-statuses\/[a-z]+$/,
  indexes: /^https:\/\/openalex\.org\/indexes\/[a-z]+$/,
}
const NATIVE = new Set([
  'works',
  'authors',
  'sources',
  'institutions',
  'publishers',
  'funders',
  'topics',
  'concepts',
  'keywords',
])

interface Manifest {
  entries: Array<{ url: string; meta: { content_length: number; record_count: number } }>
  meta: { content_length: number; record_count: number }
}

interface SnapshotRecord {
  readonly entity: string
  readonly partition: string
  readonly record: JsonRecord
}

interface Snapshot {
  readonly entities: string[]
  readonly manifests: Map<string, Manifest>
  /** Relative path (with `/`) of every part file, with its bytes. */
  readonly parts: Map<string, Buffer>
  readonly records: SnapshotRecord[]
  readonly byId: Map<string, SnapshotRecord>
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

const toPosix = (path: string): string => path.split(sep).join('/')

function loadSnapshot(dir: string): Snapshot {
  const entities = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'merged_ids')
    .map((entry) => entry.name)
    .sort()
  const manifests = new Map<string, Manifest>()
  const parts = new Map<string, Buffer>()
  const records: SnapshotRecord[] = []
  for (const entity of entities) {
    manifests.set(entity, JSON.parse(readFileSync(join(dir, entity, 'manifest'), 'utf8')) as Manifest)
    for (const file of listFiles(join(dir, entity)).sort()) {
      const path = toPosix(relative(dir, file))
      if (!path.endsWith('.gz')) continue
      const bytes = readFileSync(file)
      parts.set(path, bytes)
      const partition = /updated_date=(\d{4}-\d{2}-\d{2})\//.exec(path)?.[1] ?? ''
      for (const line of gunzipSync(bytes).toString('utf8').split('\n')) {
        if (line !== '') records.push({ entity, partition, record: JSON.parse(line) as JsonRecord })
      }
    }
  }
  const byId = new Map<string, SnapshotRecord>()
  for (const entry of records) byId.set(entry.record.id as string, entry)
  return { entities, manifests, parts, records, byId }
}

/** Every string value in `value` that is an OpenAlex id URL. */
function openAlexStrings(value: Json, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith(OPENALEX) && value.length > OPENALEX.length) out.push(value)
  } else if (Array.isArray(value)) {
    for (const item of value) openAlexStrings(item, out)
  } else if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) openAlexStrings(child, out)
  }
  return out
}

/** References of a record other than itself and other works (citations and versions leave the sample). */
function references(record: JsonRecord): string[] {
  return openAlexStrings(record).filter((id) => id !== record.id && !ID_PATTERNS.works!.test(id))
}

const isDerived = (record: JsonRecord): boolean => !('created_date' in record)
const objects = (value: Json | undefined): JsonRecord[] =>
  Array.isArray(value)
    ? value.filter(
        (item): item is JsonRecord => item !== null && typeof item === 'object' && !Array.isArray(item),
      )
    : []

interface ReadmeRow {
  realReferenced: number
  realUnreferenced: number
  derived: number
  vocabulary: number
  total: number
  parts: number
  bytes: number
}

function readReadme(dir: string): { rows: Map<string, ReadmeRow>; outOfVocabulary: string[] } {
  const text = readFileSync(join(dir, 'README.md'), 'utf8')
  const rows = new Map<string, ReadmeRow>()
  for (const match of text.matchAll(
    /^\| ([a-z-]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$/gm,
  )) {
    const [, entity, ...numbers] = match
    const [realReferenced, realUnreferenced, derived, vocabulary, total, parts, bytes] = numbers.map(Number)
    rows.set(entity!, {
      realReferenced: realReferenced!,
      realUnreferenced: realUnreferenced!,
      derived: derived!,
      vocabulary: vocabulary!,
      total: total!,
      parts: parts!,
      bytes: bytes!,
    })
  }
  const line =
    text.split('\n').find((l) => l.startsWith('* Values the works use that the vocabularies do not list')) ??
    ''
  const outOfVocabulary = [...line.matchAll(/`(https:\/\/openalex\.org\/[^`]+)`/g)].map((m) => m[1]!)
  return { rows, outOfVocabulary }
}

const snapshot = loadSnapshot(snapshotDir)
const works = snapshot.records.filter((entry) => entry.entity === 'works').map((entry) => entry.record)

describe('the committed sample snapshot', () => {
  it('holds every entity directory the legacy layout and the vocabularies call for', () => {
    expect(snapshot.entities).toEqual(Object.keys(ID_PATTERNS).sort())
  })

  it('has manifests that list exactly the part files, with their real sizes and line counts', () => {
    for (const entity of snapshot.entities) {
      const manifest = snapshot.manifests.get(entity)!
      const listed = manifest.entries.map((entry) => {
        expect(entry.url.startsWith(URL_PREFIX)).toBe(true)
        return entry.url.slice(URL_PREFIX.length)
      })
      const onDisk = [...snapshot.parts.keys()].filter((path) => path.startsWith(`${entity}/`))
      expect([...listed].sort()).toEqual(onDisk.sort())
      for (const entry of manifest.entries) {
        const path = entry.url.slice(URL_PREFIX.length)
        const bytes = snapshot.parts.get(path)!
        const text = gunzipSync(bytes).toString('utf8')
        expect(entry.meta.content_length, path).toBe(bytes.length)
        expect(entry.meta.content_length, path).toBe(statSync(join(snapshotDir, path)).size)
        expect(text.endsWith('\n'), path).toBe(true)
        expect(entry.meta.record_count, path).toBe(text.split('\n').length - 1)
      }
      expect(manifest.meta.record_count).toBe(
        manifest.entries.reduce((sum, e) => sum + e.meta.record_count, 0),
      )
      expect(manifest.meta.content_length).toBe(
        manifest.entries.reduce((sum, e) => sum + e.meta.content_length, 0),
      )
    }
  })

  it('writes gzip members with a fixed header (mtime 0), so rebuilds can be byte-identical', () => {
    for (const [path, bytes] of snapshot.parts) {
      expect(bytes.readUInt32LE(4), path).toBe(0)
      expect(bytes[3], path).toBe(0) // no FNAME, FCOMMENT or FEXTRA
    }
  })

  it('has records that parse, carry an id of their entity, are unique and sit in their updated_date partition', () => {
    expect(snapshot.byId.size).toBe(snapshot.records.length)
    for (const { entity, partition, record } of snapshot.records) {
      expect(typeof record.id, entity).toBe('string')
      expect(record.id, entity).toMatch(ID_PATTERNS[entity]!)
      expect(typeof record.updated_date, String(record.id)).toBe('string')
      expect((record.updated_date as string).slice(0, 10), String(record.id)).toBe(partition)
    }
  })

  it('is closed: every entity id a work or a derived record mentions has a record', () => {
    const missing = new Set<string>()
    for (const { record } of snapshot.records) {
      if (record.id !== undefined && (ID_PATTERNS.works!.test(record.id as string) || isDerived(record))) {
        for (const id of references(record)) if (!snapshot.byId.has(id)) missing.add(id)
      }
    }
    expect([...missing].sort()).toEqual([])
  })

  it('has a vocabulary record for every coded value the works use, except those the README lists', () => {
    const used = new Set<string>()
    const add = (segment: string, code: Json | undefined): void => {
      if (typeof code === 'string' && code !== '')
        used.add(`${OPENALEX}${segment}/${encodeURIComponent(code)}`)
    }
    for (const work of works) {
      add('types', work.type)
      add('languages', work.language)
      const openAccess = work.open_access as JsonRecord | null
      add('oa-statuses', openAccess?.oa_status)
      for (const index of (work.indexed_in as Json[] | undefined) ?? []) add('indexes', index)
      for (const authorship of objects(work.authorships)) {
        for (const country of (authorship.countries as Json[] | undefined) ?? []) add('countries', country)
        for (const institution of objects(authorship.institutions)) add('institution-types', institution.type)
      }
      for (const location of objects(work.locations)) {
        const source = location.source as JsonRecord | null
        add('source-types', source?.type)
        add('licenses', location.license)
      }
    }
    const missing = [...used].filter((id) => !snapshot.byId.has(id)).sort()
    expect(missing).toEqual([...readReadme(snapshotDir).outOfVocabulary].sort())
  })

  it('matches the README table: totals, real and derived counts, part files and bytes', () => {
    const { rows } = readReadme(snapshotDir)
    expect([...rows.keys()].sort()).toEqual(snapshot.entities)
    // "Referenced" real records: a work or a derived (native) record points at them.
    const referenced = new Set<string>()
    for (const { entity, record } of snapshot.records) {
      if (entity === 'works' || (NATIVE.has(entity) && isDerived(record))) {
        for (const id of references(record)) referenced.add(id)
      }
    }
    for (const entity of snapshot.entities) {
      const row = rows.get(entity)!
      const manifest = snapshot.manifests.get(entity)!
      const records = snapshot.records.filter((entry) => entry.entity === entity).map((entry) => entry.record)
      const real = records.filter((record) => !isDerived(record))
      const derived = records.filter(isDerived)
      expect(row.total, entity).toBe(records.length)
      expect(row.total, entity).toBe(manifest.meta.record_count)
      expect(row.parts, entity).toBe(manifest.entries.length)
      expect(row.bytes, entity).toBe(manifest.meta.content_length)
      expect(row.realReferenced + row.realUnreferenced, entity).toBe(real.length)
      const realReferenced = real.filter((r) => entity === 'works' || referenced.has(r.id as string)).length
      expect(row.realReferenced, entity).toBe(realReferenced)
      if (NATIVE.has(entity)) {
        expect(row.derived, entity).toBe(derived.length)
        expect(row.vocabulary, entity).toBe(0)
      } else {
        expect(row.vocabulary, entity).toBe(derived.length)
        expect(row.derived + real.length, entity).toBe(0)
      }
    }
    expect(rows.get('works')!.derived).toBe(0)
  })

  it('gives derived records only keys that real records of the same entity have', () => {
    for (const entity of NATIVE) {
      const records = snapshot.records.filter((entry) => entry.entity === entity).map((entry) => entry.record)
      const realKeys = new Set(records.filter((r) => !isDerived(r)).flatMap((r) => Object.keys(r)))
      const derivedKeys = new Set(records.filter(isDerived).flatMap((r) => Object.keys(r)))
      expect(
        [...derivedKeys].filter((key) => !realKeys.has(key)),
        entity,
      ).toEqual([])
    }
  })

  it('computes the counts of derived records over the sample works', () => {
    const links: Record<string, (work: JsonRecord) => Json[]> = {
      authors: (work) => objects(work.authorships).map((a) => (a.author as JsonRecord).id ?? null),
      topics: (work) => objects(work.topics).map((t) => t.id ?? null),
      keywords: (work) => objects(work.keywords).map((k) => k.id ?? null),
      concepts: (work) => objects(work.concepts).map((c) => c.id ?? null),
      sources: (work) => [
        ((work.primary_location as JsonRecord | null)?.source as JsonRecord | null)?.id ?? null,
      ],
      institutions: (work) =>
        objects(work.authorships).flatMap((a) => objects(a.institutions).map((i) => i.id ?? null)),
    }
    for (const [entity, link] of Object.entries(links)) {
      const expected = new Map<string, { works: number; citedBy: number }>()
      for (const work of works) {
        for (const id of new Set(link(work))) {
          if (typeof id !== 'string') continue
          const count = expected.get(id) ?? { works: 0, citedBy: 0 }
          count.works += 1
          count.citedBy += work.cited_by_count as number
          expected.set(id, count)
        }
      }
      const derived = snapshot.records.filter((entry) => entry.entity === entity && isDerived(entry.record))
      expect(derived.length, entity).toBeGreaterThan(0)
      for (const { record } of derived) {
        const count = expected.get(record.id as string) ?? { works: 0, citedBy: 0 }
        expect([record.works_count, record.cited_by_count], String(record.id)).toEqual([
          count.works,
          count.citedBy,
        ])
      }
    }
  })

  it('ships the real merged author ids', () => {
    const dir = join(snapshotDir, 'merged_ids', 'authors')
    const files = readdirSync(dir).filter((name) => name.endsWith('.csv'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const lines = readFileSync(join(dir, file), 'utf8').trim().split('\n')
      expect(lines[0]).toBe('merge_date,id,merge_into_id')
      for (const line of lines.slice(1)) expect(line).toMatch(/^\d{4}-\d{2}-\d{2},A\d+,A\d+$/)
    }
  })
})

// Outside CI the rebuild checks need the shared sample and skip without it. CI clones the repository with
// shared/ beside it (../shared/data/openalex-sample), so there a missing sample is a broken setup: it fails
// here, naming the path, instead of passing with two checks quietly skipped.
const hasSharedSample = existsSync(join(sourceDir, 'records', 'works.jsonl'))
const inCi = !['', '0', 'false'].includes(process.env.CI ?? '')

describe.runIf(inCi)('the shared sample in CI', () => {
  it('is on disk, so the rebuild checks run', () => {
    expect(
      hasSharedSample,
      `CI is set but the shared OpenAlex sample is missing: no ${join(sourceDir, 'records', 'works.jsonl')} ` +
        '(expected shared/ beside the clone, or OQLKIT_SAMPLE_SOURCE)',
    ).toBe(true)
  })
})

describe.skipIf(!hasSharedSample)('rebuilding from the shared sample', () => {
  it('keeps every real record byte for byte', () => {
    const realLines = new Set<string>()
    for (const file of readdirSync(join(sourceDir, 'records')).filter((name) => name.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(sourceDir, 'records', file), 'utf8').split('\n')) {
        if (line.trim() !== '') realLines.add(line)
      }
    }
    let real = 0
    for (const bytes of snapshot.parts.values()) {
      for (const line of gunzipSync(bytes).toString('utf8').split('\n')) {
        if (line === '' || isDerived(JSON.parse(line) as JsonRecord)) continue
        expect(realLines.has(line)).toBe(true)
        real += 1
      }
    }
    expect(real).toBe(realLines.size)
  })

  it('produces byte-identical files', () => {
    const outDir = mkdtempSync(join(tmpdir(), 'oqlkit-sample-snapshot-'))
    try {
      buildSampleSnapshot({ sourceDir, outDir })
      const rebuilt = listFiles(outDir)
        .map((file) => toPosix(relative(outDir, file)))
        .sort()
      const committed = listFiles(snapshotDir)
        .map((file) => toPosix(relative(snapshotDir, file)))
        .sort()
      expect(rebuilt).toEqual(committed)
      for (const path of committed) {
        const before = readFileSync(join(snapshotDir, path))
        const after = readFileSync(join(outDir, path))
        if (path.endsWith('.gz') && !before.equals(after)) {
          // Tell a content change apart from a different zlib build compressing the same lines differently.
          expect(gunzipSync(after).equals(gunzipSync(before)), `${path}: content differs`).toBe(true)
        }
        expect(after.equals(before), `${path} differs from the rebuild`).toBe(true)
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true })
    }
  })
})
