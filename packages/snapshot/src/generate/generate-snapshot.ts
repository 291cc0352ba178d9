// `generateSnapshot`: a synthetic OpenAlex snapshot of N works in the legacy layout, shaped and skewed like
// the bundled sample (see sample-profile.ts), deterministic for a seed, in bounded memory:
//   1. pools: topics, institutions, sources, publishers, funders, keywords, concepts (small, decided up front)
//      and authors (recomputed on demand);
//   2. pass 1, citations: every work's references (to earlier works, preferential attachment) to a spool file;
//      per work only the citation count and per-year citations stay in memory;
//   3. pass 2, works: each work record from its own random stream plus the graph, streamed into gzip parts;
//      (entity, work) links go to spool files;
//   4. entities: the spooled links read back per entity give each record its exact counts and stats;
//      then the vocabulary records.
// Output: <outDir>/data/<entity>/{manifest, updated_date=…/part_NNN.gz}, and <outDir>/oqlkit-generate.json
// with the parameters. Temporary files live in <outDir>/.oqlkit-generate-tmp and are removed at the end.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { constants } from 'node:zlib'
import { vocabularyOf } from '@oqlkit/oqo-schema'
import type { WrittenEntity } from '../sample/legacy-snapshot-writer.ts'
import {
  type JsonObject,
  VOCABULARY_ENTITIES,
  type VocabularyEntity,
} from '../sample/openalex-id-classifier.ts'
import type { VocabularyValue } from '../sample/sample-source-reader.ts'
import { buildVocabularyRecords, TopicHierarchy } from '../sample/vocabulary-record-builder.ts'
import { AuthorPool } from './author-pool.ts'
import { buildCitationGraph } from './citation-graph-builder.ts'
import { CitationNormalizer, NO_FIELD } from './citation-normalizer.ts'
import { AffinePermutation, WeightedPicker } from './distribution-samplers.ts'
import { EntityRecordBuilder } from './entity-record-builder.ts'
import { EntityStatisticsCalculator, NO_TOPIC } from './entity-statistics.ts'
import { EntityWorkLinks } from './entity-work-links.ts'
import type {
  GeneratedEntitySummary,
  GenerateProgress,
  GenerateProgressListener,
  GenerateSummary,
} from './generate-progress.ts'
import {
  asOfDate,
  type PoolSizes,
  poolSizes,
  RECORDS_PER_PART,
  worksPartitions,
  YearLayout,
} from './generation-plan.ts'
import { OrganizationPools } from './organization-pools.ts'
import { EntityPartWriter, type PartWriterOptions } from './part-file-writer.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import { normalizeSeed, RandomStream, SeededRandom } from './seeded-random.ts'
import { TermPools } from './term-pools.ts'
import { TextGenerator } from './text-generator.ts'
import { TopicPool } from './topic-pool.ts'
import { Uint32SpoolReader } from './uint32-spool.ts'
import { VocabularyCounter } from './vocabulary-counter.ts'
import { WorkLinks, WorkRecordBuilder, WorkTopicChooser } from './work-record-builder.ts'

export interface GenerateOptions {
  /** How many works (at least 1, at most 2^31). */
  readonly works: number
  readonly outDir: string
  /** Any integer; the same seed and works give byte-identical files. Default 1. */
  readonly seed?: number
  readonly onProgress?: GenerateProgressListener
  /** Replace an existing `data/` folder in outDir (default: refuse to). */
  readonly overwrite?: boolean
  /** gzip level of the part files; default 1 (fastest: the generator is CPU-bound on compression). */
  readonly gzipLevel?: number
  readonly recordsPerPart?: number
}

export type GenerateErrorCode = 'invalid-works' | 'output-exists'

/** Thrown for options the generator cannot run with; the message says what to change. */
export class GenerateError extends Error {
  readonly code: GenerateErrorCode

  constructor(code: GenerateErrorCode, message: string) {
    super(message)
    this.code = code
  }

  override get name(): string {
    return 'GenerateError'
  }
}

/** The largest N: work indexes, ids and spool words are 32-bit. */
export const MAX_GENERATED_WORKS = 2 ** 31
export const GENERATE_MANIFEST_FILE = 'oqlkit-generate.json'
const TMP_DIR = '.oqlkit-generate-tmp'
const PROGRESS_EVERY = 10_000

export async function generateSnapshot(options: GenerateOptions): Promise<GenerateSummary> {
  const started = performance.now()
  const n = options.works
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_GENERATED_WORKS) {
    throw new GenerateError(
      'invalid-works',
      `works must be a whole number from 1 to ${MAX_GENERATED_WORKS}, got ${n}`,
    )
  }
  const outDir = resolve(options.outDir)
  const dataDir = join(outDir, 'data')
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    if (options.overwrite !== true) {
      throw new GenerateError('output-exists', `${dataDir} is not empty (pass overwrite to replace it)`)
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  const tmpDir = join(outDir, TMP_DIR)
  rmSync(tmpDir, { recursive: true, force: true })
  mkdirSync(tmpDir, { recursive: true })
  mkdirSync(dataDir, { recursive: true })

  const seed = normalizeSeed(options.seed ?? 1)
  const writerOptions: PartWriterOptions = {
    recordsPerPart: options.recordsPerPart ?? RECORDS_PER_PART,
    gzipLevel: options.gzipLevel ?? constants.Z_BEST_SPEED,
  }
  const emit = (event: Omit<GenerateProgress, 'worksTotal'>) =>
    options.onProgress?.({ ...event, worksTotal: n })

  try {
    // ---- pools ----
    const sizes = poolSizes(n)
    const layout = new YearLayout(n)
    const topics = new TopicPool(sizes.topics, seed)
    const orgs = new OrganizationPools(sizes, seed)
    const authors = new AuthorPool(sizes.authors, seed, topics, orgs)
    const terms = new TermPools(sizes.keywords, sizes.concepts, seed)

    // ---- pass 1: citations ----
    emit({ phase: 'citations', worksDone: 0, entity: null, entityRecords: 0 })
    const graph = buildCitationGraph({
      works: n,
      seed,
      layout,
      referenceCounts: WeightedPicker.fromHistogram(SAMPLE_PROFILE.referencedWorksPerWork),
      spoolPath: join(tmpDir, 'references.u32'),
      onProgress: (done) => emit({ phase: 'citations', worksDone: done, entity: null, entityRecords: 0 }),
    })
    const topicChooser = new WorkTopicChooser(seed, topics)
    const fieldOfWork = new Uint8Array(n)
    const pair: [number, number] = [0, 0]
    for (let work = 0; work < n; work++) {
      topicChooser.choose(work, pair)
      fieldOfWork[work] = pair[0] === 0 ? NO_FIELD : topics.topics[pair[1]]!.fieldIndex
    }
    const normalizer = new CitationNormalizer(graph.cited, layout, fieldOfWork, topics.fieldCount)

    // ---- pass 2: works ----
    const references = new Uint32SpoolReader(graph.spoolPath)
    const builder = new WorkRecordBuilder({
      seed,
      works: n,
      layout,
      ids: new AffinePermutation(n),
      topics,
      topicChooser,
      orgs,
      authors,
      terms,
      text: new TextGenerator(),
      cited: graph.cited,
      citationsByYear: graph.byYear,
      normalizer,
      references,
      partitions: worksPartitions(),
    })
    const spool = (entity: string, size: number) =>
      new EntityWorkLinks(entity, size, join(tmpDir, `${entity}.u32`))
    const authorLinks = spool('authors', sizes.authors)
    const institutionLinks = spool('institutions', sizes.institutions)
    const sourceLinks = spool('sources', sizes.sources)
    const publisherLinks = spool('publishers', sizes.publishers)
    const funderLinks = spool('funders', sizes.funders)
    const conceptLinks = spool('concepts', terms.concepts.length)
    const topicWorks = new Float64Array(topics.topics.length)
    const topicCited = new Float64Array(topics.topics.length)
    const keywordWorks = new Float64Array(terms.keywords.length)
    const keywordCited = new Float64Array(terms.keywords.length)
    const isOa = new Uint8Array(n)
    const primaryTopic = new Uint16Array(n).fill(NO_TOPIC)
    const vocabulary = new VocabularyCounter()
    const links = new WorkLinks()
    const worksWriter = new EntityPartWriter(dataDir, 'works', writerOptions)
    emit({ phase: 'works', worksDone: 0, entity: null, entityRecords: 0 })
    try {
      for (let work = 0; work < n; work++) {
        const built = builder.build(work, links)
        const waiting = worksWriter.write(built.partition, built.line)
        if (waiting) await waiting
        const cited = graph.cited[work]!
        for (const k of links.authors) authorLinks.add(k, work)
        for (const k of links.institutions) institutionLinks.add(k, work)
        if (links.source !== -1) sourceLinks.add(links.source, work)
        if (links.publisher !== -1) publisherLinks.add(links.publisher, work)
        for (const k of links.funders) funderLinks.add(k, work)
        for (const k of links.concepts) conceptLinks.add(k, work)
        for (const k of links.topics) {
          topicWorks[k]!++
          topicCited[k]! += cited
        }
        for (const k of links.keywords) {
          keywordWorks[k]!++
          keywordCited[k]! += cited
        }
        for (const id of links.vocabulary) vocabulary.add(work, cited, id)
        isOa[work] = links.isOa ? 1 : 0
        if (links.primaryTopic !== -1) primaryTopic[work] = links.primaryTopic
        if ((work + 1) % PROGRESS_EVERY === 0)
          emit({ phase: 'works', worksDone: work + 1, entity: null, entityRecords: 0 })
      }
    } finally {
      references.close()
    }
    const written: WrittenEntity[] = [await worksWriter.finish()]
    emit({ phase: 'works', worksDone: n, entity: null, entityRecords: 0 })

    // ---- entities ----
    const asOf = asOfDate()
    const records = new EntityRecordBuilder({ seed, asOf, topics, orgs, topicWorks })
    const calculator = new EntityStatisticsCalculator({
      cited: graph.cited,
      citationsByYear: graph.byYear,
      layout,
      isOa,
      primaryTopic,
      topicCount: topics.topics.length,
    })
    let entityRecords = 0
    const writeEntity = async (entity: string, lines: Iterable<string | null>): Promise<void> => {
      const writer = new EntityPartWriter(dataDir, entity, writerOptions)
      emit({ phase: 'entities', worksDone: n, entity, entityRecords })
      for (const line of lines) {
        if (line === null) continue
        const waiting = writer.write(asOf, line)
        if (waiting) await waiting
        if (++entityRecords % PROGRESS_EVERY === 0)
          emit({ phase: 'entities', worksDone: n, entity, entityRecords })
      }
      written.push(await writer.finish())
    }
    const fromLinks = function* (
      links: EntityWorkLinks,
      build: (index: number, works: Uint32Array) => string | null,
    ): Generator<string | null> {
      for (const [index, works] of links.grouped()) yield build(index, works)
    }
    await writeEntity(
      'authors',
      fromLinks(authorLinks, (k, works) =>
        works.length === 0 ? null : records.author(authors.author(k), calculator.calculate(works)),
      ),
    )
    await writeEntity(
      'institutions',
      fromLinks(institutionLinks, (k, works) => records.institution(k, calculator.calculate(works))),
    )
    await writeEntity(
      'sources',
      fromLinks(sourceLinks, (k, works) => records.source(k, calculator.calculate(works))),
    )
    await writeEntity(
      'publishers',
      fromLinks(publisherLinks, (k, works) => records.publisher(k, calculator.calculate(works))),
    )
    await writeEntity(
      'funders',
      fromLinks(funderLinks, (k, works) => records.funder(k, calculator.calculate(works))),
    )
    await writeEntity(
      'concepts',
      fromLinks(conceptLinks, (k, works) =>
        records.concept(k, terms.concepts[k]!, calculator.calculate(works)),
      ),
    )
    const random = new SeededRandom()
    await writeEntity(
      'topics',
      topics.topics.map((topic) => {
        random.at(seed, RandomStream.topic, 1_000_000 + topic.index)
        const keywords = [0, 1, 2].map(() => terms.keywords[terms.keywordPopularity.sample(random)]!.name)
        return records.topic(topic, topicWorks[topic.index]!, topicCited[topic.index]!, [
          ...new Set(keywords),
        ])
      }),
    )
    await writeEntity(
      'keywords',
      terms.keywords.map((keyword, k) => records.keyword(k, keyword, keywordWorks[k]!, keywordCited[k]!)),
    )
    for (const entity of VOCABULARY_ENTITIES) {
      await writeEntity(entity, vocabularyLines(entity, vocabulary.asSampleCounts(), topics, asOf))
    }

    const entities: GeneratedEntitySummary[] = written.map((entity) => ({
      entity: entity.entity,
      records: entity.recordCount,
      parts: entity.parts.length,
      bytes: entity.contentLength,
    }))
    writeFileSync(
      join(outDir, GENERATE_MANIFEST_FILE),
      renderGenerateManifest(n, seed, options.seed ?? 1, sizes, asOf, entities),
    )
    emit({ phase: 'done', worksDone: n, entity: null, entityRecords })
    const durationMs = Math.round(performance.now() - started)
    return {
      outDir,
      dataDir,
      seed: options.seed ?? 1,
      works: n,
      pools: sizes,
      references: graph.references,
      entities,
      files: entities.reduce((sum, entity) => sum + entity.parts, 0),
      bytes: entities.reduce((sum, entity) => sum + entity.bytes, 0),
      durationMs,
      worksPerSecond: Math.round((n / Math.max(durationMs, 1)) * 1000),
    }
  } finally {
    rmSync(tmpDir, { recursive: true, force: true })
  }
}

/** The vocabulary records, through the sample builder's record shape, with the generated works' counts. */
function vocabularyLines(
  entity: VocabularyEntity,
  counts: ReturnType<VocabularyCounter['asSampleCounts']>,
  topics: TopicPool,
  asOf: string,
): string[] {
  const vocabularies = new Map<VocabularyEntity, VocabularyValue[]>()
  for (const name of VOCABULARY_ENTITIES) {
    const segment = name === 'work-types' ? 'types' : name
    const entries = vocabularyOf(segment) ?? []
    vocabularies.set(
      name,
      entries.map((entry) => ({ id: `${segment}/${entry.code}`, display_name: entry.displayName })),
    )
  }
  const hierarchy = new TopicHierarchy()
  for (const topic of topics.topics) {
    hierarchy.addTopic({
      id: topic.id,
      display_name: topic.name,
      subfield: { ...topic.subfield },
      field: { ...topic.field },
      domain: { ...topic.domain },
    } satisfies JsonObject)
  }
  const records = buildVocabularyRecords(entity, {
    vocabularies,
    counts,
    hierarchy,
    topics: topics.topics.map((topic) => ({
      id: topic.id,
      display_name: topic.name,
      subfield: topic.subfield.id,
    })),
    asOf: `${asOf}T00:00:00`,
  })
  return records.map((record) => JSON.stringify(record))
}

function renderGenerateManifest(
  works: number,
  seed: number,
  givenSeed: number,
  pools: PoolSizes,
  asOf: string,
  entities: readonly GeneratedEntitySummary[],
): string {
  const manifest = {
    generator: 'oqlkit generate',
    formatVersion: 1,
    works,
    seed: givenSeed,
    internalSeed: seed,
    asOf,
    pools,
    records: Object.fromEntries(entities.map((entity) => [entity.entity, entity.records])),
    profile: SAMPLE_PROFILE.source,
  }
  return `${JSON.stringify(manifest, null, 2)}\n`
}
