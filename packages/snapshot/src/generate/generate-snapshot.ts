// `generateSnapshot`: a synthetic OpenAlex snapshot of N works in the legacy layout, shaped and skewed like
// the bundled sample (see sample-profile.ts), deterministic for a seed, in bounded memory:
//   1. pools: topics, institutions, sources, publishers, funders, keywords, concepts (small, decided up front)
//      and authors (recomputed on demand);
//   2. pass 1, citations: every work's references (to earlier works, preferential attachment) to a spool file;
//      per work only the citation count and per-year citations stay in memory;
//   3. pass 2, works: each work record from its own random stream plus the graph, built in batches on worker
//      threads (work-batch-pool.ts) and streamed in order into gzip parts; (entity, work) links go to spool
//      files;
//   4. entities: the spooled links read back per entity give each record its exact counts and stats;
//      then the vocabulary records.
// Output: <outDir>/data/<entity>/{manifest, updated_date=…/part_NNN.gz}, and <outDir>/oqlkit-generate.json
// with the parameters. Temporary files live in <outDir>/.oqlkit-generate-tmp and are removed at the end.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { constants } from 'node:zlib'
import { vocabularyOf } from '@oqlkit/oqo-schema/registry'
import type { WrittenEntity } from '../sample/legacy-snapshot-writer.ts'
import {
  type JsonObject,
  VOCABULARY_ENTITIES,
  type VocabularyEntity,
} from '../sample/openalex-id-classifier.ts'
import type { VocabularyValue } from '../sample/sample-source-reader.ts'
import { buildVocabularyRecords, TopicHierarchy } from '../sample/vocabulary-record-builder.ts'
import { buildCitationGraph } from './citation-graph-builder.ts'
import { CitationNormalizer, NO_FIELD } from './citation-normalizer.ts'
import { WeightedPicker } from './distribution-samplers.ts'
import { EntityRecordBuilder } from './entity-record-builder.ts'
import { type EntityStatistics, EntityStatisticsCalculator } from './entity-statistics.ts'
import { EntityWorkLinks } from './entity-work-links.ts'
import type {
  GeneratedEntitySummary,
  GenerateProgress,
  GenerateProgressListener,
  GenerateSummary,
} from './generate-progress.ts'
import { asOfDate, type PoolSizes, RECORDS_PER_PART, worksPartitions } from './generation-plan.ts'
import { createGenerationPools } from './generation-pools.ts'
import { EntityPartWriter, type PartWriterOptions } from './part-file-writer.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import { normalizeSeed, RandomStream, SeededRandom } from './seeded-random.ts'
import type { TopicPool } from './topic-pool.ts'
import { VocabularyCounter } from './vocabulary-counter.ts'
import { mergeWorkTotals, WORK_BATCH } from './work-batch-builder.ts'
import { WorkBatchPool } from './work-batch-pool.ts'
import { WorkTopicChooser } from './work-build-context.ts'

/** The record of an organisation, by its index in its pool, from its works' statistics. */
type OrganisationRecord = (index: number, stats: EntityStatistics) => string

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
  /**
   * Worker threads that build the work records (pass 2); 0 builds them on the calling thread. Default: one
   * per core from THREADED_WORKS works on, none below. The files are the same bytes whatever the number.
   */
  readonly workers?: number
  /**
   * `whole` (the default) writes every topic, keyword and concept, as OpenAlex holds its whole vocabulary
   * whatever the number of works; `referenced` only those the works name (and the keywords the topics
   * written name): a snapshot of a hundred works then holds hundreds of records rather than some 8,000,
   * which is what a quick trial or a test wants to ingest.
   */
  readonly vocabulary?: GeneratedVocabulary
}

/** How much of the vocabulary a snapshot holds (`GenerateOptions.vocabulary`). */
export const GENERATED_VOCABULARIES = ['whole', 'referenced'] as const
export type GeneratedVocabulary = (typeof GENERATED_VOCABULARIES)[number]

export type GenerateErrorCode = 'invalid-works' | 'invalid-workers' | 'invalid-vocabulary' | 'output-exists'

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
/** More threads than this only add start-up time and memory: the main thread's writing becomes the limit. */
export const MAX_GENERATE_WORKERS = 64
/**
 * Below this many works the default is no worker threads: a thread costs about 2 s of CPU to start (loading
 * the modules through tsx, building the pools), more than it saves on pass 2 of fewer works (a work costs
 * a few hundred microseconds of one core).
 */
export const THREADED_WORKS = 16_384
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
  const workers = options.workers ?? (n >= THREADED_WORKS ? availableParallelism() : 0)
  if (!Number.isSafeInteger(workers) || workers < 0 || workers > MAX_GENERATE_WORKERS) {
    throw new GenerateError(
      'invalid-workers',
      `workers must be a whole number from 0 to ${MAX_GENERATE_WORKERS}, got ${workers}`,
    )
  }
  const writtenVocabulary = options.vocabulary ?? 'whole'
  if (!(GENERATED_VOCABULARIES as readonly string[]).includes(writtenVocabulary)) {
    throw new GenerateError(
      'invalid-vocabulary',
      `vocabulary is whole (every topic, concept and keyword) or referenced (those the works name), got ${JSON.stringify(writtenVocabulary)}`,
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

  let pool: WorkBatchPool | undefined
  try {
    // Started first: the workers build their pools while this thread runs pass 1.
    pool = new WorkBatchPool({ works: n, seed, workers })
    // ---- pools ----
    const pools = createGenerationPools(n, seed)
    const { sizes, layout, topics, orgs, authors, terms } = pools

    // ---- pass 1: citations ----
    emit({ phase: 'citations', worksDone: 0, entity: null, entityRecords: 0 })
    const graph = buildCitationGraph({
      works: n,
      seed,
      layout,
      referenceCounts: WeightedPicker.fromHistogram(SAMPLE_PROFILE.referencedWorksPerWork),
      spoolPath: join(tmpDir, 'references.u32'),
      checkpointEvery: WORK_BATCH,
      onProgress: (done) => emit({ phase: 'citations', worksDone: done, entity: null, entityRecords: 0 }),
    })
    const topicChooser = new WorkTopicChooser(seed, topics)
    const fieldOfWork = new Uint8Array(new SharedArrayBuffer(n))
    const pair: [number, number] = [0, 0]
    for (let work = 0; work < n; work++) {
      topicChooser.choose(work, pair)
      fieldOfWork[work] = pair[0] === 0 ? NO_FIELD : topics.topics[pair[1]]!.fieldIndex
    }
    const normalizer = new CitationNormalizer(graph.cited, layout, fieldOfWork, topics.fieldCount)

    // ---- pass 2: works ----
    pool.begin(
      {
        cited: graph.cited,
        citationsByYear: graph.byYear.share(),
        fieldOfWork,
        fieldCount: topics.fieldCount,
        normalizer: normalizer.share(),
        spoolPath: graph.spoolPath,
        checkpoints: graph.checkpoints,
      },
      pools,
    )
    const spool = (entity: string, size: number) =>
      new EntityWorkLinks(entity, size, join(tmpDir, `${entity}.u32`))
    const authorLinks = spool('authors', sizes.authors)
    const institutionLinks = spool('institutions', sizes.institutions)
    const sourceLinks = spool('sources', sizes.sources)
    const publisherLinks = spool('publishers', sizes.publishers)
    const funderLinks = spool('funders', sizes.funders)
    const conceptLinks = spool('concepts', terms.concepts.length)
    const isOa = new Uint8Array(n)
    const primaryTopic = new Uint16Array(n)
    const partitions = worksPartitions().map(([date]) => date)
    const worksWriter = new EntityPartWriter(dataDir, 'works', writerOptions)
    emit({ phase: 'works', worksDone: 0, entity: null, entityRecords: 0 })
    for await (const batch of pool.batches()) {
      const { bytes, ends, links } = batch
      isOa.set(batch.isOa, batch.first)
      primaryTopic.set(batch.primaryTopic, batch.first)
      let start = 0
      let at = 0
      // Spools `count` entity indexes of `links` from `at` on (the count comes first).
      const spoolList = (target: EntityWorkLinks, work: number) => {
        for (let end = at + 1 + links[at]!, k = at + 1; k < end; k++) target.add(links[k]!, work)
        at += 1 + links[at]!
      }
      for (let k = 0; k < batch.count; k++) {
        const work = batch.first + k
        const waiting = worksWriter.writeEncoded(
          partitions[batch.partitions[k]!]!,
          bytes.subarray(start, ends[k]),
        )
        if (waiting !== undefined) await waiting
        start = ends[k]!
        spoolList(authorLinks, work)
        spoolList(institutionLinks, work)
        const source = links[at++]!
        const publisher = links[at++]!
        if (source !== 0) sourceLinks.add(source - 1, work)
        if (publisher !== 0) publisherLinks.add(publisher - 1, work)
        spoolList(funderLinks, work)
        spoolList(conceptLinks, work)
        if ((work + 1) % PROGRESS_EVERY === 0)
          emit({ phase: 'works', worksDone: work + 1, entity: null, entityRecords: 0 })
      }
    }
    const totals = mergeWorkTotals(await pool.totals())
    await pool.close()
    const { topicWorks, topicCited, keywordWorks, keywordCited } = totals
    const vocabulary = new VocabularyCounter()
    vocabulary.merge(totals.vocabulary)
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
        if (waiting !== undefined) await waiting
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
    // The organisations: a record for each one the works link to, from its works' statistics.
    const organisations: readonly (readonly [string, EntityWorkLinks, OrganisationRecord])[] = [
      ['institutions', institutionLinks, (k, stats) => records.institution(k, stats)],
      ['sources', sourceLinks, (k, stats) => records.source(k, stats)],
      ['publishers', publisherLinks, (k, stats) => records.publisher(k, stats)],
      ['funders', funderLinks, (k, stats) => records.funder(k, stats)],
    ]
    for (const [entity, links, record] of organisations)
      await writeEntity(
        entity,
        fromLinks(links, (k, works) => record(k, calculator.calculate(works))),
      )
    const referencedOnly = writtenVocabulary === 'referenced'
    await writeEntity(
      'concepts',
      fromLinks(conceptLinks, (k, works) =>
        referencedOnly && works.length === 0
          ? null
          : records.concept(k, terms.concepts[k]!, calculator.calculate(works)),
      ),
    )
    const random = new SeededRandom()
    /** The keywords the topics written name: written too, so that every keyword a record names has a record. */
    const topicKeywords = new Set<string>()
    await writeEntity(
      'topics',
      topics.topics.map((topic) => {
        if (referencedOnly && topicWorks[topic.index] === 0) return null
        random.at(seed, RandomStream.topic, 1_000_000 + topic.index)
        const keywords = [0, 1, 2].map(() => terms.keywords[terms.keywordPopularity.sample(random)]!.name)
        for (const keyword of keywords) topicKeywords.add(keyword)
        return records.topic(topic, topicWorks[topic.index]!, topicCited[topic.index]!, [
          ...new Set(keywords),
        ])
      }),
    )
    await writeEntity(
      'keywords',
      terms.keywords.map((keyword, k) =>
        referencedOnly && keywordWorks[k] === 0 && !topicKeywords.has(keyword.name)
          ? null
          : records.keyword(k, keyword, keywordWorks[k]!, keywordCited[k]!),
      ),
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
      renderGenerateManifest(n, seed, options.seed ?? 1, sizes, asOf, entities, writtenVocabulary),
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
      workers: pool.threads,
      durationMs,
      worksPerSecond: Math.round((n / Math.max(durationMs, 1)) * 1000),
    }
  } finally {
    await pool?.close()
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
  vocabulary: GeneratedVocabulary,
): string {
  const manifest = {
    generator: 'oqlkit generate',
    formatVersion: 1,
    works,
    seed: givenSeed,
    internalSeed: seed,
    asOf,
    vocabulary,
    pools,
    records: Object.fromEntries(entities.map((entity) => [entity.entity, entity.records])),
    profile: SAMPLE_PROFILE.source,
  }
  return `${JSON.stringify(manifest, null, 2)}\n`
}
