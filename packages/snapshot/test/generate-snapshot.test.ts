// Generates small snapshots and checks them as data, reading the files without the generator's code:
// the legacy layout and its manifests, byte-for-byte determinism, a closed id graph, citation counts that
// agree with the references and distributions close to the sample's. That ingest reads the result is
// packages/adapter-duckdb/test/ingest-generated-snapshot.test.ts.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GenerateProgress, GenerateSummary } from '../src/generate/generate-progress.ts'
import { GenerateError, generateSnapshot } from '../src/generate/generate-snapshot.ts'
import { SAMPLE_PROFILE } from '../src/generate/sample-profile.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonRecord = { [key: string]: Json }

const N = 2_000
const SEED = 7
const URL_PREFIX = 's3://openalex/data/'

let root: string
let summary: GenerateSummary
let events: GenerateProgress[]
const records = new Map<string, JsonRecord[]>()

/** Every file under a folder, by relative path with `/` separators. */
function listFiles(dir: string): string[] {
  const files: string[] = []
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) walk(path)
      else files.push(relative(dir, path).split(sep).join('/'))
    }
  }
  walk(dir)
  return files.sort()
}

function readRecords(dataDir: string, entity: string): JsonRecord[] {
  const out: JsonRecord[] = []
  for (const file of listFiles(join(dataDir, entity)).filter((path) => path.endsWith('.gz'))) {
    const text = gunzipSync(readFileSync(join(dataDir, entity, file))).toString('utf8')
    for (const line of text.split('\n')) if (line !== '') out.push(JSON.parse(line) as JsonRecord)
  }
  return out
}

const asList = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : [])
const asObject = (value: Json | undefined): JsonRecord =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
const asObjects = (value: Json | undefined): JsonRecord[] => asList(value).map(asObject)
const works = () => records.get('works')!
const idsOf = (entity: string) => new Set(records.get(entity)!.map((record) => record.id as string))
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const shareOf = <T>(values: readonly T[], match: (value: T) => boolean) =>
  values.filter(match).length / values.length
/** The sample's share of a label among the labels `keep` accepts (the generator's vocabulary filter). */
const sampleShare = (
  histogram: ReadonlyArray<readonly [string | null, number]>,
  label: string,
  keep: (value: string | null) => boolean = () => true,
) => {
  const kept = histogram.filter(([value]) => keep(value))
  return (kept.find(([value]) => value === label)?.[1] ?? 0) / kept.reduce((sum, [, count]) => sum + count, 0)
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-generate-'))
  events = []
  summary = await generateSnapshot({
    works: N,
    outDir: join(root, 'a'),
    seed: SEED,
    onProgress: (event) => events.push(event),
  })
  for (const entity of readdirSync(summary.dataDir)) records.set(entity, readRecords(summary.dataDir, entity))
}, 60_000)

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true })
})

describe('generateSnapshot: layout', () => {
  it('writes every entity in the legacy layout with manifests that agree with the files', () => {
    const dataDir = summary.dataDir
    expect(readdirSync(dataDir).sort()).toEqual(
      [
        'authors',
        'concepts',
        'continents',
        'countries',
        'domains',
        'fields',
        'funders',
        'indexes',
        'institution-types',
        'institutions',
        'keywords',
        'languages',
        'licenses',
        'oa-statuses',
        'publishers',
        'sdgs',
        'source-types',
        'sources',
        'subfields',
        'topics',
        'work-types',
        'works',
      ].sort(),
    )
    for (const entity of readdirSync(dataDir)) {
      const manifest = JSON.parse(readFileSync(join(dataDir, entity, 'manifest'), 'utf8')) as {
        entries: Array<{ url: string; meta: { content_length: number; record_count: number } }>
        meta: { content_length: number; record_count: number }
      }
      const parts = listFiles(join(dataDir, entity)).filter((path) => path !== 'manifest')
      expect(manifest.entries.map((entry) => entry.url)).toEqual(
        parts.map((path) => `${URL_PREFIX}${entity}/${path}`),
      )
      let records = 0
      let bytes = 0
      for (const entry of manifest.entries) {
        const file = join(dataDir, entry.url.slice(URL_PREFIX.length))
        expect(entry.url).toMatch(/\/updated_date=\d{4}-\d{2}-\d{2}\/part_\d{3}\.gz$/)
        expect(entry.meta.content_length).toBe(statSync(file).size)
        const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n')
        expect(lines.pop()).toBe('')
        expect(entry.meta.record_count).toBe(lines.length)
        expect(lines.length).toBeLessThanOrEqual(100_000)
        records += entry.meta.record_count
        bytes += entry.meta.content_length
      }
      expect(manifest.meta).toEqual({ content_length: bytes, record_count: records })
    }
    expect(works()).toHaveLength(N)
    expect(summary.entities.find((entity) => entity.entity === 'works')?.records).toBe(N)
  })

  it('puts each record in the partition of its updated_date, with generated ids and DOIs', () => {
    const misplaced: string[] = []
    for (const file of listFiles(join(summary.dataDir, 'works')).filter((path) => path.endsWith('.gz'))) {
      const date = /updated_date=(\d{4}-\d{2}-\d{2})/.exec(file)![1]!
      const text = gunzipSync(readFileSync(join(summary.dataDir, 'works', file))).toString('utf8')
      for (const line of text.split('\n').filter((l) => l !== '')) {
        const record = JSON.parse(line) as JsonRecord
        if (!(record.updated_date as string).startsWith(`${date}T`)) misplaced.push(record.id as string)
      }
    }
    expect(misplaced).toEqual([])
    const badIds = works().filter((work) => {
      const number = Number(/^https:\/\/openalex\.org\/W(\d+)$/.exec(work.id as string)?.[1])
      return (
        !(number >= 9_000_000_000) ||
        (work.doi !== null && work.doi !== `https://doi.org/10.5555/oqlkit.${number}`)
      )
    })
    expect(badIds).toEqual([])
    for (const entity of [
      'authors',
      'institutions',
      'sources',
      'publishers',
      'funders',
      'topics',
      'concepts',
    ]) {
      expect([...idsOf(entity)].filter((id) => !(Number(/\d+$/.exec(id)?.[0]) >= 9_000_000_000))).toEqual([])
    }
  })

  it('writes works with the keys of the newest real work records', () => {
    const sampleKeys = [
      'id',
      'doi',
      'title',
      'display_name',
      'publication_year',
      'publication_date',
      'ids',
      'language',
      'primary_location',
      'type',
      'indexed_in',
      'open_access',
      'authorships',
      'institutions',
      'countries_distinct_count',
      'institutions_distinct_count',
      'corresponding_author_ids',
      'corresponding_institution_ids',
      'apc_list',
      'apc_paid',
      'fwci',
      'has_fulltext',
      'cited_by_count',
      'citation_normalized_percentile',
      'cited_by_percentile_year',
      'biblio',
      'is_retracted',
      'is_paratext',
      'is_xpac',
      'primary_topic',
      'topics',
      'keywords',
      'concepts',
      'mesh',
      'locations_count',
      'locations',
      'best_oa_location',
      'sustainable_development_goals',
      'grants',
      'awards',
      'funders',
      'has_content',
      'content_urls',
      'referenced_works_count',
      'referenced_works',
      'related_works',
      'abstract_inverted_index',
      'counts_by_year',
      'updated_date',
      'created_date',
    ]
    const expected = sampleKeys.join(',')
    expect(works().filter((work) => Object.keys(work).join(',') !== expected)).toEqual([])
  })
})

/** Asserts two generated folders hold the same files with the same bytes. */
function expectSameFiles(dir: string, expected: string): void {
  const files = listFiles(expected)
  expect(listFiles(dir)).toEqual(files)
  for (const file of files) {
    expect(readFileSync(join(dir, file)).equals(readFileSync(join(expected, file))), file).toBe(true)
  }
}

describe('generateSnapshot: determinism', () => {
  // Fewer works than the checks of the data use: three of the generator's 512-work batches (the last one
  // short), enough for three threads to finish them out of order.
  const WORKS = 1_100

  it('writes the same bytes for the same seed with 0, 1 or 3 worker threads, also when parts split inside a batch', async () => {
    // The run the other checks read built every record on the calling thread (the default for so few works).
    expect(summary.workers).toBe(0)
    // 150 records per part: the works' part boundaries fall inside the generator's batches.
    const run = (workers: number) =>
      generateSnapshot({
        works: WORKS,
        outDir: join(root, `w${workers}`),
        seed: SEED,
        workers,
        recordsPerPart: 150,
      })
    const inline = await run(0)
    expect(inline.workers).toBe(0)
    expect(inline.entities.find((entity) => entity.entity === 'works')!.parts).toBeGreaterThan(8)
    // One worker (the batches in order off the main thread) and three (more than the cores, finishing out of
    // order); two added nothing to what these cover, at ~4 s.
    for (const workers of [1, 3]) {
      const threaded = await run(workers)
      expect(threaded.workers).toBe(workers)
      expectSameFiles(threaded.outDir, inline.outDir)
    }
  }, 90_000)

  it('writes different works for another seed', async () => {
    // One batch of works is enough to tell the seeds apart (the share of titles in common is what is checked).
    const OTHER = 300
    const other = await generateSnapshot({ works: OTHER, outDir: join(root, 'other-seed'), seed: SEED + 1 })
    const otherWorks = readRecords(other.dataDir, 'works')
    expect(otherWorks).toHaveLength(OTHER)
    const titles = new Set(works().map((work) => work.title))
    expect(otherWorks.filter((work) => titles.has(work.title)).length).toBeLessThan(OTHER / 10)
  }, 60_000)
})

describe('generateSnapshot: a closed, consistent graph', () => {
  it('references only generated works, and earlier ones', () => {
    const byId = new Map(works().map((work) => [work.id as string, work]))
    const problems: string[] = []
    let references = 0
    for (const work of works()) {
      const ids = asList(work.referenced_works) as string[]
      references += ids.length
      if (work.referenced_works_count !== ids.length) problems.push(`${work.id} count`)
      if (new Set(ids).size !== ids.length) problems.push(`${work.id} repeats a reference`)
      for (const id of ids) {
        const cited = byId.get(id)
        if (cited === undefined) problems.push(`${work.id} -> missing ${id}`)
        else if ((cited.publication_year as number) > (work.publication_year as number))
          problems.push(`${work.id} -> later ${id}`)
      }
      for (const id of asList(work.related_works) as string[])
        if (!byId.has(id)) problems.push(`related ${id}`)
    }
    expect(problems).toEqual([])
    expect(references).toBe(summary.references)
    expect(references).toBeGreaterThan(10 * N)
  })

  it('gives every work the cited_by_count and counts_by_year its citing works make', () => {
    const citing = new Map<string, number[]>()
    for (const work of works()) {
      for (const id of asList(work.referenced_works) as string[]) {
        const years = citing.get(id)
        if (years) years.push(work.publication_year as number)
        else citing.set(id, [work.publication_year as number])
      }
    }
    let cited = 0
    const wrong: string[] = []
    for (const work of works()) {
      const years = citing.get(work.id as string) ?? []
      if (work.cited_by_count !== years.length) wrong.push(`${work.id} cited_by_count`)
      if (years.length > 0) cited++
      const expected = new Map<number, number>()
      for (const year of years) if (year >= 2012) expected.set(year, (expected.get(year) ?? 0) + 1)
      const stated = asObjects(work.counts_by_year).map((entry) => `${entry.year}:${entry.cited_by_count}`)
      const want = [...expected.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([year, count]) => `${year}:${count}`)
      if (stated.join() !== want.join()) wrong.push(`${work.id} counts_by_year`)
    }
    expect(wrong).toEqual([])
    // Preferential attachment and fitness: a share of uncited works, and a top 1% that holds many times
    // its share of the citations (under uniform citing it would hold about 1%).
    const counts = works()
      .map((work) => work.cited_by_count as number)
      .sort((a, b) => b - a)
    const total = counts.reduce((sum, count) => sum + count, 0)
    const top = counts.slice(0, N / 100).reduce((sum, count) => sum + count, 0)
    expect(1 - cited / N).toBeGreaterThan(0.15)
    expect(1 - cited / N).toBeLessThan(0.6)
    expect(top / total).toBeGreaterThan(0.05)
  })

  it('has a record for every entity a work or a record mentions', () => {
    const check = (entity: string, ids: readonly string[]) => {
      const known = idsOf(entity)
      expect(ids.length, entity).toBeGreaterThan(0)
      expect(ids.filter((id) => !known.has(id)).map((id) => `${entity} ${id}`)).toEqual([])
    }
    const all = works()
    const authorships = all.flatMap((work) => asObjects(work.authorships))
    const institutions = authorships.flatMap((authorship) => asObjects(authorship.institutions))
    const locations = all.flatMap((work) => asObjects(work.locations))
    const sources = locations.map((location) => asObject(location.source)).filter((source) => source.id)
    const topics = all.flatMap((work) => asObjects(work.topics))
    check(
      'authors',
      authorships.map((authorship) => asObject(authorship.author).id as string),
    )
    check(
      'institutions',
      institutions.flatMap((institution) => asList(institution.lineage) as string[]),
    )
    check(
      'sources',
      sources.map((source) => source.id as string),
    )
    check(
      'publishers',
      sources.map((source) => source.host_organization as string).filter((id) => id.includes('/P')),
    )
    check(
      'institutions',
      sources.map((source) => source.host_organization as string).filter((id) => id.includes('/I')),
    )
    check(
      'funders',
      all.flatMap((work) => asObjects(work.funders).map((funder) => funder.id as string)),
    )
    check(
      'funders',
      all.flatMap((work) => asObjects(work.grants).map((grant) => grant.funder as string)),
    )
    check(
      'topics',
      topics.map((topic) => topic.id as string),
    )
    check(
      'subfields',
      topics.map((topic) => asObject(topic.subfield).id as string),
    )
    check(
      'fields',
      topics.map((topic) => asObject(topic.field).id as string),
    )
    check(
      'domains',
      topics.map((topic) => asObject(topic.domain).id as string),
    )
    check(
      'keywords',
      all.flatMap((work) => asObjects(work.keywords).map((keyword) => keyword.id as string)),
    )
    check(
      'concepts',
      all.flatMap((work) => asObjects(work.concepts).map((concept) => concept.id as string)),
    )
    check(
      'countries',
      authorships.flatMap((authorship) =>
        (asList(authorship.countries) as string[]).map((code) => `https://openalex.org/countries/${code}`),
      ),
    )
    check(
      'work-types',
      all.map((work) => `https://openalex.org/types/${work.type as string}`),
    )
    check(
      'languages',
      all
        .filter((work) => work.language !== null)
        .map((work) => `https://openalex.org/languages/${work.language as string}`),
    )
    check(
      'oa-statuses',
      all.map((work) => `https://openalex.org/oa-statuses/${asObject(work.open_access).oa_status as string}`),
    )
    check(
      'licenses',
      locations.filter((l) => l.license_id !== null).map((location) => location.license_id as string),
    )
    check(
      'institutions',
      records
        .get('authors')!
        .flatMap((author) => asObjects(author.last_known_institutions).map((i) => i.id as string)),
    )
  })

  it('states entity counts that match the works', () => {
    const authorWorks = new Map<string, number>()
    const sourceWorks = new Map<string, number>()
    for (const work of works()) {
      for (const authorship of asObjects(work.authorships)) {
        const id = asObject(authorship.author).id as string
        authorWorks.set(id, (authorWorks.get(id) ?? 0) + 1)
      }
      const source = asObject(asObject(work.primary_location).source).id
      if (typeof source === 'string') sourceWorks.set(source, (sourceWorks.get(source) ?? 0) + 1)
    }
    expect(records.get('authors')!.length).toBe(authorWorks.size)
    expect(
      records.get('authors')!.filter((author) => author.works_count !== authorWorks.get(author.id as string)),
    ).toEqual([])
    expect(
      records
        .get('sources')!
        .filter((source) => source.works_count !== (sourceWorks.get(source.id as string) ?? 0)),
    ).toEqual([])
    const articles = records
      .get('work-types')!
      .find((type) => type.id === 'https://openalex.org/types/article')!
    expect(articles.works_count).toBe(works().filter((work) => work.type === 'article').length)
  })

  it('keeps open_access consistent with the locations', () => {
    const inconsistent = works().filter((work) => {
      const access = asObject(work.open_access)
      const open = asObjects(work.locations).filter((location) => location.is_oa === true)
      return (
        access.is_oa !== (access.oa_status !== 'closed') ||
        open.length > 0 !== access.is_oa ||
        (work.best_oa_location === null) !== !access.is_oa ||
        work.locations_count !== asList(work.locations).length
      )
    })
    expect(inconsistent.map((work) => work.id)).toEqual([])
  })
})

describe('generateSnapshot: distributions follow the sample', () => {
  it('matches authors per work, type, OA, abstract and year figures within tolerance', () => {
    const all = works()
    const sampleAuthors = SAMPLE_PROFILE.authorsPerWork.flatMap(([value, count]) =>
      Array.from({ length: count }, () => value),
    )
    expect(
      Math.abs(median(all.map((work) => asList(work.authorships).length)) - median(sampleAuthors)),
    ).toBeLessThanOrEqual(1)
    const notGrant = (type: string | null) => type !== null && type !== 'grant' && type !== 'journal-article'
    expect(shareOf(all, (work) => work.type === 'article')).toBeCloseTo(
      sampleShare(SAMPLE_PROFILE.types, 'article', notGrant),
      1,
    )
    expect(shareOf(all, (work) => work.type === 'book')).toBeCloseTo(
      sampleShare(SAMPLE_PROFILE.types, 'book', notGrant),
      1,
    )
    expect(shareOf(all, (work) => asObject(work.open_access).oa_status === 'closed')).toBeCloseTo(
      sampleShare(SAMPLE_PROFILE.oaStatuses, 'closed'),
      1,
    )
    const [withAbstract, of] = SAMPLE_PROFILE.shares.abstract
    expect(shareOf(all, (work) => work.abstract_inverted_index !== null)).toBeCloseTo(withAbstract / of, 1)
    expect(shareOf(all, (work) => (work.publication_year as number) >= 2000)).toBeCloseTo(
      SAMPLE_PROFILE.publicationYears
        .filter(([year]) => year >= 2000)
        .reduce((sum, [, count]) => sum + count, 0) / SAMPLE_PROFILE.works,
      1,
    )
    const xpac = shareOf(all, (work) => work.is_xpac === true)
    expect(xpac).toBeGreaterThan(0)
    expect(xpac).toBeLessThan(0.05)
  })

  it('writes abstracts as inverted indexes of real sample words', () => {
    const words = new Set(SAMPLE_PROFILE.words.map((word) => word.toLowerCase()))
    const abstracts = works().filter((work) => work.abstract_inverted_index !== null)
    expect(abstracts.length).toBeGreaterThan(N / 2)
    const problems: string[] = []
    for (const work of abstracts) {
      const index = asObject(work.abstract_inverted_index)
      const positions = Object.values(index)
        .flatMap((list) => asList(list) as number[])
        .sort((a, b) => a - b)
      if (positions.some((position, k) => position !== k)) problems.push(`${work.id} positions`)
      for (const token of Object.keys(index)) {
        if (!words.has(token.replace(/\.$/, '').toLowerCase())) problems.push(`${work.id} ${token}`)
      }
    }
    expect(problems).toEqual([])
  })
})

describe('generateSnapshot: progress and options', () => {
  it('reports the passes in order and ends with every work written', () => {
    const phases = events.map((event) => event.phase)
    expect(phases[0]).toBe('citations')
    expect(phases.at(-1)).toBe('done')
    expect([...new Set(phases)]).toEqual(['citations', 'works', 'entities', 'done'])
    const written = events.filter((event) => event.phase === 'works').map((event) => event.worksDone)
    expect(written).toEqual([...written].sort((a, b) => a - b))
    expect(written.at(-1)).toBe(N)
    expect(events.every((event) => event.worksTotal === N)).toBe(true)
  })

  it('rejects a bad work count, worker count or vocabulary and a non-empty output unless told to overwrite', async () => {
    await expect(generateSnapshot({ works: 0, outDir: join(root, 'x') })).rejects.toBeInstanceOf(
      GenerateError,
    )
    await expect(generateSnapshot({ works: 1.5, outDir: join(root, 'x') })).rejects.toMatchObject({
      code: 'invalid-works',
    })
    for (const workers of [-1, 1.5, 65]) {
      await expect(generateSnapshot({ works: 10, outDir: join(root, 'x'), workers })).rejects.toMatchObject({
        code: 'invalid-workers',
      })
    }
    // A vocabulary neither whole nor referenced (a JavaScript caller's typo): refused before anything is written.
    const vocabulary = 'some' as unknown as 'whole'
    await expect(
      generateSnapshot({ works: 10, outDir: join(root, 'bad-vocabulary'), vocabulary }),
    ).rejects.toMatchObject({ code: 'invalid-vocabulary', message: expect.stringContaining('"some"') })
    expect(existsSync(join(root, 'bad-vocabulary'))).toBe(false)
    mkdirSync(join(root, 'full', 'data'), { recursive: true })
    writeFileSync(join(root, 'full', 'data', 'keep.txt'), 'mine')
    await expect(generateSnapshot({ works: 10, outDir: join(root, 'full') })).rejects.toMatchObject({
      code: 'output-exists',
    })
    expect(readFileSync(join(root, 'full', 'data', 'keep.txt'), 'utf8')).toBe('mine')
    const small = await generateSnapshot({ works: 10, outDir: join(root, 'full'), overwrite: true })
    expect(existsSync(join(root, 'full', 'data', 'keep.txt'))).toBe(false)
    expect(readRecords(small.dataDir, 'works')).toHaveLength(10)
    expect(existsSync(join(root, 'full', '.oqlkit-generate-tmp'))).toBe(false)
  })
})

describe('generateSnapshot: the referenced vocabulary only', () => {
  it('writes the topics, concepts and keywords the records name, each as the whole vocabulary writes it, and every other file the same', async () => {
    const referenced = await generateSnapshot({
      works: N,
      outDir: join(root, 'referenced'),
      seed: SEED,
      vocabulary: 'referenced',
    })
    const named = (list: (work: JsonRecord) => Json | undefined, from: readonly JsonRecord[] = works()) =>
      new Set(from.flatMap((record) => asObjects(list(record)).map((entry) => entry.id as string)))
    const written = (entity: string) => readRecords(referenced.dataDir, entity)
    const ids = (list: readonly JsonRecord[]) => new Set(list.map((record) => record.id as string))
    const topics = written('topics')
    expect(ids(topics)).toEqual(named((work) => work.topics))
    expect(ids(written('concepts'))).toEqual(named((work) => work.concepts))
    // Keywords: those the works name (by id) and those the topics name (by name), and no other.
    const keywords = written('keywords')
    const byWorks = named((work) => work.keywords)
    const byTopics = new Set(topics.flatMap((topic) => asList(topic.keywords) as string[]))
    const unnamed = keywords.filter(
      (keyword) => !byWorks.has(keyword.id as string) && !byTopics.has(keyword.display_name as string),
    )
    expect(unnamed).toEqual([])
    expect([...byWorks].filter((id) => !ids(keywords).has(id))).toEqual([])
    const names = new Set(keywords.map((keyword) => keyword.display_name as string))
    expect([...byTopics].filter((name) => !names.has(name))).toEqual([])
    // Far fewer than the whole vocabulary, each record the very one the whole vocabulary has.
    for (const entity of ['topics', 'concepts', 'keywords']) {
      const whole = new Map(records.get(entity)!.map((record) => [record.id, JSON.stringify(record)]))
      const kept = written(entity)
      expect(kept.length, entity).toBeLessThan(whole.size)
      for (const record of kept) expect(JSON.stringify(record), entity).toBe(whole.get(record.id))
    }
    // Every other entity's files are the same bytes as the whole vocabulary's run of the same seed.
    for (const entity of readdirSync(summary.dataDir).filter(
      (name) => !['topics', 'concepts', 'keywords'].includes(name),
    ))
      expectSameFiles(join(referenced.dataDir, entity), join(summary.dataDir, entity))
    expect(JSON.parse(readFileSync(join(referenced.outDir, 'oqlkit-generate.json'), 'utf8'))).toMatchObject({
      vocabulary: 'referenced',
    })
  }, 60_000)
})
