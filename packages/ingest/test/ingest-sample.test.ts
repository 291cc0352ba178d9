// Ingests the committed sample snapshot (legacy layout) and checks the catalog against the snapshot itself:
// every record comes back as it was written, the derived columns, link tables and external ids say what the
// records say, and the merged ids of the sample are recorded.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  anyLetterId,
  CATALOG_ENTITY_NAMES,
  CATALOG_FORMAT_VERSION,
  type CatalogEntity,
  type CatalogManifest,
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  normalizeExternalId,
  RecordStoreReader,
} from '@oqlkit/catalog'
import { compareEntityIds } from '@oqlkit/oqo-schema'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IngestProgress, IngestSummary } from '../src/ingest-progress.ts'
import { connectionSession } from '../src/texts/build-session.ts'
import { RecordTextsFiles, TEXT_KEYS } from '../src/texts/record-texts-file.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import { sharedSampleIngest } from './support/shared-sample-catalog.ts'
import { zstdCommandForTests } from './support/zstd-command-gate.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonRecord = { [key: string]: Json }

const snapshotDir = SAMPLE_SNAPSHOT_DIR

interface SampleLine {
  readonly entity: string
  /** The line as the part file has it. */
  readonly text: string
  readonly record: JsonRecord
}

/** Every line of every part file of the sample, read without the code under test. */
function readSample(): SampleLine[] {
  const lines: SampleLine[] = []
  for (const entity of readdirSync(snapshotDir)) {
    const entityDir = join(snapshotDir, entity)
    if (entity === 'merged_ids' || !statSync(entityDir).isDirectory()) continue
    for (const partition of readdirSync(entityDir).filter((name) => name.startsWith('updated_date='))) {
      for (const part of readdirSync(join(entityDir, partition))) {
        const text = gunzipSync(readFileSync(join(entityDir, partition, part))).toString('utf8')
        for (const line of text.split('\n').filter((line) => line !== '')) {
          lines.push({ entity, text: line, record: JSON.parse(line) as JsonRecord })
        }
      }
    }
  }
  return lines
}

const shortId = (id: string): string =>
  anyLetterId(id) ?? decodeURIComponent(id.slice(id.lastIndexOf('/') + 1))

const asObject = (value: Json | undefined): JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
const asList = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : [])
const asText = (value: Json | undefined): string | null => (typeof value === 'string' ? value : null)

const hasZstd = zstdCommandForTests()
let catalogDir: string
let summary: IngestSummary
let events: IngestProgress[]
let sample: SampleLine[]
let catalog: CatalogInspector

beforeAll(async () => {
  // The run's shared sample catalog is this very ingest (the whole sample into a new folder); its summary and
  // progress events are kept beside it. Read only: a test that changes a catalog takes a copy.
  const shared = await sharedSampleIngest()
  catalogDir = shared.catalogDir
  events = [...shared.events]
  summary = shared.summary
  sample = readSample()
  catalog = await CatalogInspector.open(catalogDir)
})

afterAll(() => {
  catalog?.close()
})

describe('ingest of the committed sample snapshot (legacy layout)', () => {
  it('reads every record and writes one per id', () => {
    expect(summary.layout).toBe('legacy')
    expect(summary.mode).toBe('created')
    expect(summary.recordsRead).toBe(sample.length)
    expect(summary.recordsWritten).toBe(sample.length)
    const perEntity = new Map<string, number>()
    for (const line of sample) perEntity.set(line.entity, (perEntity.get(line.entity) ?? 0) + 1)
    for (const [entity, count] of perEntity) {
      expect(summary.entities[entity as keyof IngestSummary['entities']]).toMatchObject({
        recordsRead: count,
        recordsWritten: count,
        superseded: 0,
      })
    }
    expect(summary.entities.awards.recordsWritten).toBe(0)
    expect(summary.relevanceScoresDropped).toBe(
      sample.filter((line) => 'relevance_score' in line.record).length,
    )
  })

  it('stores every record so that it parses back deep-equal to the ingested line (without relevance_score)', async () => {
    const entities = [...new Set(sample.map((line) => line.entity))]
    const texts = new Map<string, Map<string, { openalexId: string; text: string }>>()
    for (const entity of entities) texts.set(entity, await catalog.recordTexts(entity))
    const mismatched: string[] = []
    const notVerbatim: string[] = []
    for (const line of sample) {
      const { relevance_score: _dropped, ...expected } = line.record
      const stored = texts.get(line.entity)!.get(shortId(line.record.id as string))
      if (
        stored === undefined ||
        stored.openalexId !== line.record.id ||
        !isDeepStrictEqual(JSON.parse(stored.text), expected)
      )
        mismatched.push(`${line.entity} ${line.record.id}`)
      // A record without relevance_score is kept as the very text of its line (numbers as written: 4.0
      // stays 4.0), since the API serves the stored bytes as they are.
      else if (!('relevance_score' in line.record) && stored.text !== line.text)
        notVerbatim.push(`${line.entity} ${line.record.id}`)
    }
    expect(mismatched).toStrictEqual([])
    expect(notVerbatim).toStrictEqual([])
    // One stored record per line: the store gives back no record the snapshot does not have.
    for (const entity of entities)
      expect(texts.get(entity)!.size, entity).toBe(sample.filter((line) => line.entity === entity).length)
    expect(sample.filter((line) => !('relevance_score' in line.record)).length).toBeGreaterThan(1000)
    const first = sample[0]!
    expect(JSON.parse(texts.get(first.entity)!.get(shortId(first.record.id as string))!.text)).toStrictEqual(
      first.record,
    )
    const abstracts = sample.filter(
      (line) => line.entity === 'works' && line.record.abstract_inverted_index !== null,
    )
    expect(abstracts.length).toBeGreaterThan(100)
  })

  it('keeps every record in the record store, at the offset its row states, compressed alone', async () => {
    const manifest = JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as CatalogManifest
    const reader = new RecordStoreReader(catalogDir, manifest)
    const bySample = new Map(sample.map((line) => [`${line.entity} ${line.record.id}`, line]))
    try {
      let worksText = 0
      let worksStored = 0
      for (const entity of new Set(sample.map((line) => line.entity))) {
        expect(manifest.entities[entity as CatalogEntity].recordStore).toStrictEqual({
          file: `records/${entity}.records`,
          dictionary: `records/${entity}.dict`,
          codec: 'zstd+dictionary+abstract-words',
        })
        const rows = await catalog.rows(
          'SELECT id, openalex_id, record_offset, record_bytes FROM read_parquet($1) ORDER BY record_offset',
          [catalog.file(`entities/${entity}.parquet`)],
        )
        const stored = await reader.read(
          entity as CatalogEntity,
          rows.map((row) => ({ offset: Number(row.record_offset), bytes: Number(row.record_bytes) })),
        )
        const decoder = new TextDecoder('utf-8', { fatal: true })
        // Each row's bytes decompress to the record of that row's id, as the snapshot has it.
        const expected = rows.map((row) => {
          const line = bySample.get(`${entity} ${row.openalex_id}`)
          if (line === undefined) throw new Error(`${entity} ${row.id} is not in the sample`)
          const { relevance_score: _dropped, ...record } = line.record
          return record
        })
        expect(stored.map((bytes) => JSON.parse(decoder.decode(bytes)))).toStrictEqual(expected)
        // Out of order, every other one (gaps between the reads), and the first asked again: each location
        // still gets its own record, whichever reads it shares.
        const scattered = [...rows.keys()].reverse().filter((at) => at % 2 === 0)
        scattered.push(0)
        const again = await reader.read(
          entity as CatalogEntity,
          scattered.map((at) => ({
            offset: Number(rows[at]!.record_offset),
            bytes: Number(rows[at]!.record_bytes),
          })),
        )
        expect(again.map((bytes) => JSON.parse(decoder.decode(bytes)))).toStrictEqual(
          scattered.map((at) => expected[at]),
        )
        // No two records share bytes, and every one lies inside the file.
        const size = statSync(catalog.file(`records/${entity}.records`)).size
        const overlapping = rows.filter(
          (row, at) =>
            at > 0 &&
            Number(row.record_offset) <
              Number(rows[at - 1]!.record_offset) + Number(rows[at - 1]!.record_bytes),
        )
        expect(overlapping.map((row) => row.id)).toStrictEqual([])
        expect(rows.every((row) => Number(row.record_bytes) > 0)).toBe(true)
        const last = rows[rows.length - 1]!
        expect(Number(last.record_offset) + Number(last.record_bytes)).toBeLessThanOrEqual(size)
        // The store holds every version read (a superseded one stays in the file), so it is at least the
        // kept records; the sample supersedes, merges and deletes none of its records, so here it is
        // exactly them, one after the other.
        const kept = rows.reduce((total, row) => total + Number(row.record_bytes), 0)
        expect(size).toBeGreaterThanOrEqual(kept)
        expect(summary.entities[entity as CatalogEntity].recordsRead).toBe(rows.length)
        expect(size).toBe(kept)
        expect(manifest.files).toContainEqual({
          path: `records/${entity}.records`,
          bytes: size,
          rows: rows.length,
        })
        if (entity === 'works') {
          worksText = stored.reduce((total, bytes) => total + bytes.length, 0)
          worksStored = kept
        }
      }
      // A dictionary of typical records is what makes one record compressed alone small: works shrink by
      // more than a factor 4 (the JSON text of the decoded records vs their compressed bytes).
      expect(worksStored).toBeGreaterThan(0)
      expect(worksText / worksStored).toBeGreaterThan(4)
    } finally {
      await reader.close()
    }
  })

  it.skipIf(!hasZstd)(
    'compresses the works with a dictionary zstd trained on them, and warns of nothing',
    () => {
      // The sample's 565 works are enough to train on; a trained dictionary starts with zstd's magic number.
      const dictionary = readFileSync(join(catalogDir, 'records', 'works.dict'))
      expect(dictionary.subarray(0, 4).toString('hex')).toBe('37a430ec')
      expect(summary.warnings).toStrictEqual([])
    },
  )

  it('keeps no text or record column in the entity files, and no texts folder after the build', async () => {
    for (const entity of new Set(sample.map((line) => line.entity))) {
      const file = catalog.file(`entities/${entity}.parquet`)
      const columns = (await catalog.rows('SELECT name FROM parquet_schema($1)', [file])).map(
        (row) => row.name,
      )
      expect(columns).not.toContain('texts')
      expect(columns).not.toContain('record')
      expect(columns).toContain('record_offset')
    }
    // The builders' texts files (the search index, vectors and tagger were built) are gone before the swap.
    expect(readdirSync(catalogDir).filter((name) => name.startsWith('.'))).toStrictEqual([])
  })

  // The sample's entities are below the rows from which worker threads read; the second case makes the
  // works (565, with abstracts stored as words) and the authors (2,705, the most batches) read on two workers,
  // in batches of 50 rows, so that batches alternate between the workers. It reads only those two: each entity
  // read on workers starts two of them, a second of CPU each from TypeScript source, and the other four of
  // 500 rows or more took the case from 7 to 19 s in the suite without reaching another path.
  it.each([
    ['on the main thread', undefined, undefined],
    [
      'on two worker threads, in many batches',
      { workers: 2, workersFromRows: 500, batchRows: 50 },
      new Set<CatalogEntity>(['works', 'authors']),
    ],
  ] as const)(
    'gives the builders the text fields of each record from the record store, in id order, read %s',
    async (_, threads, only) => {
      const byId = new Map(sample.map((line) => [`${line.entity} ${line.record.id}`, line.record]))
      const instance = await createDuckDbInstance()
      const connection = await instance.connect()
      const workDir = mkdtempSync(join(tmpdir(), 'oqlkit-texts-'))
      let withAbstract = 0
      try {
        const texts = await RecordTextsFiles.ofCatalog(
          connectionSession(connection),
          catalogDir,
          workDir,
          threads,
        )
        for (const entity of new Set(sample.map((line) => line.entity)) as Set<CatalogEntity>) {
          if (only !== undefined && !only.has(entity)) continue
          const file = await texts.of(entity)
          const rows = (
            await connection.runAndReadAll('SELECT id, id_num, display_name, texts FROM read_parquet($1)', [
              file,
            ])
          ).getRowObjectsJson()
          const entityRows = await catalog.rows(
            'SELECT id, id_num, display_name, openalex_id FROM read_parquet($1)',
            [catalog.file(`entities/${entity}.parquet`)],
          )
          // Row for row the entity file's ids, names and order (id order), each with its record's texts.
          expect(
            rows.map(({ id, id_num, display_name }) => ({ id, id_num, display_name })),
            entity,
          ).toStrictEqual(entityRows.map(({ id, id_num, display_name }) => ({ id, id_num, display_name })))
          for (const [index, row] of rows.entries()) {
            const openalexId = entityRows[index]!.openalex_id
            const record = byId.get(`${entity} ${openalexId}`)!
            const expected = Object.fromEntries(
              TEXT_KEYS.filter((key) => Object.hasOwn(record, key)).map((key) => [key, record[key]]),
            )
            expect(JSON.parse(row.texts as string), `${entity} ${openalexId}`).toStrictEqual(expected)
            if (entity === 'works' && record.abstract_inverted_index !== null) withAbstract++
          }
        }
      } finally {
        connection.closeSync()
        instance.closeSync()
        rmSync(workDir, { recursive: true, force: true })
      }
      expect(withAbstract).toBeGreaterThan(100)
    },
  )

  it.each([
    ['on the main thread', undefined],
    ['on worker threads', { workers: 2, workersFromRows: 0, batchRows: 7 }],
  ] as const)(
    'says which record store is short when its records are read %s, and writes no texts file',
    async (_, threads) => {
      const copy = mkdtempSync(join(tmpdir(), 'oqlkit-short-store-'))
      const instance = await createDuckDbInstance()
      const connection = await instance.connect()
      try {
        cpSync(catalogDir, copy, { recursive: true })
        const store = join(copy, 'records', 'works.records')
        truncateSync(store, Math.floor(statSync(store).size / 2))
        const workDir = join(copy, '.texts')
        const texts = await RecordTextsFiles.ofCatalog(connectionSession(connection), copy, workDir, threads)
        await expect(texts.of('works')).rejects.toThrow(/record store of works is shorter than its rows say/)
        expect(existsSync(join(workDir, 'works.texts.parquet'))).toBe(false)
      } finally {
        connection.closeSync()
        instance.closeSync()
        rmSync(copy, { recursive: true, force: true })
      }
    },
  )

  it('writes catalog.json with the format version, counts and every file', () => {
    const manifest = JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as CatalogManifest
    expect(manifest.format).toBe('oqlkit-catalog')
    expect(manifest.formatVersion).toBe(CATALOG_FORMAT_VERSION)
    expect(manifest.sourceLayout).toBe('legacy')
    expect(Object.keys(manifest.entities).sort()).toStrictEqual([...CATALOG_ENTITY_NAMES].sort())
    expect(manifest.entities.works.rowCount).toBe(sample.filter((line) => line.entity === 'works').length)
    expect(manifest.entities.works.latestPartitionDate).toBe('2026-03-02')
    for (const file of manifest.files) {
      expect(statSync(join(catalogDir, file.path)).size, file.path).toBe(file.bytes)
    }
    // The tables are kept in the serving database alone: no table lists a file, and no table file is left.
    expect(manifest.files.map((file) => file.path)).toContain('catalog.duckdb')
    expect(manifest.entities.works.files).toStrictEqual([])
    expect(manifest.links['works-authors']?.files).toStrictEqual([])
    expect(manifest.externalIds.files).toStrictEqual([])
    for (const dir of ['entities', 'links', 'ids', '.tables'])
      expect(existsSync(join(catalogDir, dir)), dir).toBe(false)
    expect(
      manifest.files.filter(
        (file) => file.path.endsWith('.parquet') && !/^(search|vectors)\//.test(file.path),
      ),
    ).toStrictEqual([])
    // The full-text search index, the text-tagging model and the works' vectors are built with the catalog.
    expect(Object.keys(manifest.extensions).sort()).toStrictEqual(['search', 'textTagger', 'vectors'])
    expect(manifest.files.map((file) => file.path)).toContain('vectors/works.parquet')
    expect(existsSync(join(catalogDir, '.staging'))).toBe(false)
    // Nothing of the build is left beside the catalog either (its build folder and lock are `.<name>.*`).
    expect(readdirSync(dirname(catalogDir)).filter((name) => name.startsWith('.'))).toStrictEqual([])
  })

  it('writes zstd Parquet sorted in id order: letter ids by number', async () => {
    const codecs = await catalog.rows('SELECT DISTINCT compression FROM parquet_metadata($1)', [
      catalog.file('entities/works.parquet'),
    ])
    expect(codecs).toStrictEqual([{ compression: 'ZSTD' }])
    const ids = (
      await catalog.rows('SELECT id FROM read_parquet($1)', [catalog.file('entities/works.parquet')])
    ).map((row) => row.id as string)
    expect(ids).toStrictEqual([...ids].sort((a, b) => compareEntityIds('works', a, b)))
    // The sample's works have ids of 8 to 10 digits: as text, the shortest would not come first.
    expect(ids[0]!.length).toBeLessThan(ids.at(-1)!.length)
    const countries = (
      await catalog.rows('SELECT id FROM read_parquet($1)', [catalog.file('entities/countries.parquet')])
    ).map((row) => row.id as string)
    expect(countries.length).toBeGreaterThan(100)
    expect(countries).toStrictEqual([...countries].sort())
  })

  it('derives the works columns from the records', async () => {
    const rows = await catalog.rows(
      'SELECT id, publication_year, CAST(publication_date AS VARCHAR) AS publication_date, type, language, is_oa, oa_status, is_retracted, doi, has_doi, primary_source_id, primary_topic_id, fwci, is_xpac, authors_count, openalex_id FROM read_parquet($1)',
      [catalog.file('entities/works.parquet')],
    )
    const works = new Map(
      sample.filter((line) => line.entity === 'works').map((line) => [line.record.id, line.record]),
    )
    expect(rows).toHaveLength(works.size)
    for (const row of rows) {
      const record = works.get(row.openalex_id as string)!
      const doi = asText(record.doi) ?? asText(asObject(record.ids).doi)
      const sourceId = asText(asObject(asObject(record.primary_location).source).id)
      const topicId = asText(asObject(record.primary_topic).id)
      expect(row, row.id as string).toStrictEqual({
        id: shortId(record.id as string),
        publication_year: record.publication_year,
        publication_date: record.publication_date,
        type: record.type,
        language: record.language,
        is_oa: asObject(record.open_access).is_oa,
        oa_status: asObject(record.open_access).oa_status,
        is_retracted: record.is_retracted,
        doi: doi ? normalizeExternalId('doi', doi) : null,
        has_doi: doi !== null,
        primary_source_id: sourceId ? shortId(sourceId) : null,
        primary_topic_id: topicId ? shortId(topicId) : null,
        fwci: record.fwci ?? null,
        is_xpac: record.is_xpac ?? false,
        authors_count: record.authors_count ?? asList(record.authorships).length,
        openalex_id: record.id,
      })
    }
  })

  it('links works to their authors, institutions (with lineage) and cited works', async () => {
    const links = async (name: string) =>
      new Set(
        (
          await catalog.rows('SELECT key, work_id FROM read_parquet($1)', [
            catalog.file(`links/${name}.parquet`),
          ])
        ).map((row) => `${row.key} ${row.work_id}`),
      )
    const expected = {
      authors: new Set<string>(),
      institutions: new Set<string>(),
      lineage: new Set<string>(),
      cites: new Set<string>(),
    }
    const addInstitutions = (work: string, institutions: Json | undefined) => {
      for (const institution of asList(institutions).map(asObject)) {
        if (typeof institution.id === 'string')
          expected.institutions.add(`${shortId(institution.id)} ${work}`)
        for (const id of [institution.id, ...asList(institution.lineage)]) {
          if (typeof id === 'string') expected.lineage.add(`${shortId(id)} ${work}`)
        }
      }
    }
    for (const { record } of sample.filter((line) => line.entity === 'works')) {
      const work = shortId(record.id as string)
      for (const authorship of asList(record.authorships).map(asObject)) {
        const authorId = asText(asObject(authorship.author).id)
        if (authorId) expected.authors.add(`${shortId(authorId)} ${work}`)
        addInstitutions(work, authorship.institutions)
      }
      addInstitutions(work, record.institutions)
      for (const cited of asList(record.referenced_works))
        expected.cites.add(`${shortId(cited as string)} ${work}`)
    }
    expect(await links('works-authors')).toStrictEqual(expected.authors)
    expect(await links('works-institutions')).toStrictEqual(expected.institutions)
    expect(await links('works-institution-lineage')).toStrictEqual(expected.lineage)
    expect(expected.lineage.size).toBeGreaterThan(expected.institutions.size)
    expect(await links('works-referenced-works')).toStrictEqual(expected.cites)
  })

  it('records every external id the records state, normalised as normalizeExternalId does', async () => {
    const expected = new Set<string>()
    const at = (record: JsonRecord, path: string): Json | undefined =>
      path
        .slice(2)
        .replace('[*]', '')
        .split('.')
        .reduce<Json | undefined>(
          (value, key) =>
            value && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined,
          record,
        )
    for (const { entity, record } of sample) {
      for (const spec of EXTERNAL_ID_SCHEMES) {
        for (const source of spec.sources) {
          if (source.entities && !source.entities.includes(entity as never)) continue
          const value = at(record, source.path)
          const values = source.list ? (Array.isArray(value) ? value : []) : [value]
          for (const raw of values) {
            if (raw === null || raw === undefined) continue
            const normalised = normalizeExternalId(spec.scheme as ExternalIdScheme, String(raw))
            if (normalised)
              expected.add(`${entity} ${spec.scheme} ${normalised} ${shortId(record.id as string)}`)
          }
        }
      }
    }
    const rows = await catalog.rows('SELECT entity, scheme, value, id FROM read_parquet($1)', [
      catalog.file('ids/external-ids.parquet'),
    ])
    expect(new Set(rows.map((row) => `${row.entity} ${row.scheme} ${row.value} ${row.id}`))).toStrictEqual(
      expected,
    )
    expect(rows.length).toBe(expected.size)
  })

  it('resolves a DOI and an ORCID of the sample to their records', async () => {
    const work = sample.find((line) => line.entity === 'works' && typeof line.record.doi === 'string')!.record
    const person = sample.find(
      (line) => line.entity === 'authors' && typeof line.record.orcid === 'string',
    )!.record
    const resolve = async (scheme: ExternalIdScheme, raw: string) =>
      catalog.rows('SELECT entity, id FROM read_parquet($1) WHERE scheme = $2 AND value = $3', [
        catalog.file('ids/external-ids.parquet'),
        scheme,
        normalizeExternalId(scheme, raw)!,
      ])
    // The DOI as people type it (upper case, doi.org prefix) finds the work.
    expect(await resolve('doi', (work.doi as string).toUpperCase())).toStrictEqual([
      { entity: 'works', id: shortId(work.id as string) },
    ])
    expect(await resolve('orcid', (person.orcid as string).replace('https://orcid.org/', ''))).toStrictEqual([
      { entity: 'authors', id: shortId(person.id as string) },
    ])
  })

  it('records the merged ids of the sample', async () => {
    const rows = await catalog.rows(
      'SELECT entity, old_id, new_id, CAST(merge_date AS VARCHAR) AS merge_date FROM read_parquet($1) ORDER BY old_id',
      [catalog.file('ids/merged-ids.parquet')],
    )
    const expected = readdirSync(join(snapshotDir, 'merged_ids', 'authors'))
      .flatMap((name) =>
        readFileSync(join(snapshotDir, 'merged_ids', 'authors', name), 'utf8')
          .trim()
          .split('\n')
          .slice(1),
      )
      .map((line) => line.split(','))
      .map(([date, id, into]) => ({ entity: 'authors', old_id: id, new_id: into, merge_date: date }))
      .sort((a, b) => (a.old_id! < b.old_id! ? -1 : 1))
    expect(rows).toStrictEqual(expected)
    expect(summary.mergedIds).toBe(expected.length)
  })

  it('reports progress: every file read, then the build steps, then done', () => {
    const reads = events.filter((event) => event.phase === 'read')
    expect(reads.at(-1)).toMatchObject({ filesDone: summary.filesRead, filesTotal: summary.filesRead })
    expect(reads.at(-1)!.bytesDone).toBe(reads.at(-1)!.bytesTotal)
    expect(reads.at(-1)!.recordsRead).toBe(summary.recordsRead)
    const filesDone = reads.map((event) => event.filesDone)
    expect(filesDone).toStrictEqual([...filesDone].sort((a, b) => a - b))
    expect(events.filter((event) => event.phase === 'build').map((event) => event.step)).toContain(
      'entities/works.parquet',
    )
    expect(events.at(-1)?.phase).toBe('done')
  })
})
