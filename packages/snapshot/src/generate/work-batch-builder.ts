// Pass 2 in batches: the work records of a run of WORK_BATCH consecutive works, encoded as UTF-8 lines, with
// what the main thread needs to write and count them (each record's partition, its entity links, its OA flag
// and primary topic). A batch is a function of (seed, N, the citation graph, batch index) alone, so batches
// can be built in any thread and in any order: the main thread writes them in index order, and the files are
// the same bytes whatever the number of threads (see work-batch-pool.ts).
// Topic, keyword and vocabulary totals are summed per builder and merged at the end (whole numbers: the
// sums do not depend on which builder counted which work).

import { CitationYearCounts, type SharedYearCounts } from './citation-graph-builder.ts'
import { CitationNormalizer, type SharedNormalizer } from './citation-normalizer.ts'
import { AffinePermutation } from './distribution-samplers.ts'
import { NO_TOPIC } from './entity-statistics.ts'
import { worksPartitions } from './generation-plan.ts'
import type { GenerationPools } from './generation-pools.ts'
import { JsonByteWriter } from './json-byte-writer.ts'
import { TextGenerator } from './text-generator.ts'
import { Uint32SpoolReader } from './uint32-spool.ts'
import { VocabularyCounter, type VocabularyTally } from './vocabulary-counter.ts'
import { WorkLinks, WorkTopicChooser } from './work-build-context.ts'
import { WorkRecordBuilder } from './work-record-builder.ts'

/**
 * Works per batch: about 8 MB of JSON (16 kB a work), small enough that a few batches in flight per thread
 * cost little memory, large enough that the per-message cost (a few hundred microseconds) is noise.
 */
export const WORK_BATCH = 512

/** What pass 1 leaves for pass 2, in SharedArrayBuffers (no copy per thread) plus the spool on disk. */
export interface SharedWorkGraph {
  readonly cited: Uint32Array
  readonly citationsByYear: SharedYearCounts
  /** Field index of each work's primary topic, NO_FIELD without one. */
  readonly fieldOfWork: Uint8Array
  readonly fieldCount: number
  readonly normalizer: SharedNormalizer
  readonly spoolPath: string
  /** checkpoints[k]: the spool word where batch k begins. */
  readonly checkpoints: Float64Array
}

/** The built records of works [first, first + count). Every array has its own buffer, to be transferred. */
export interface WorkBatch {
  readonly index: number
  readonly first: number
  readonly count: number
  /**
   * The records, each a JSON line with its newline: the start of the text buffer build() was given, or of a
   * larger one when they did not fit.
   */
  readonly bytes: Uint8Array
  /** ends[k]: where record k ends in `bytes` (it starts where record k - 1 ends). */
  readonly ends: Uint32Array
  /** partitions[k]: record k's partition, an index into worksPartitions(). */
  readonly partitions: Uint8Array
  readonly isOa: Uint8Array
  /** The primary topic's index, NO_TOPIC without one. */
  readonly primaryTopic: Uint16Array
  /**
   * Per record, in order: author count and indexes, institution count and indexes, source + 1 (0: none),
   * publisher + 1, funder count and indexes, concept count and indexes.
   */
  readonly links: Uint32Array
}

/** Sums over the works a builder built. */
export interface WorkTotals {
  readonly topicWorks: Float64Array
  readonly topicCited: Float64Array
  readonly keywordWorks: Float64Array
  readonly keywordCited: Float64Array
  readonly vocabulary: readonly VocabularyTally[]
}

/**
 * Room for a batch's text: 32 kB a work, twice the mean record; a batch that needs more gets a larger buffer
 * (see JsonByteWriter).
 */
export const BATCH_TEXT_BYTES = WORK_BATCH * 32 * 1024
const sum = (arrays: readonly Float64Array[]): Float64Array => {
  const total = new Float64Array(arrays[0]!.length)
  for (const array of arrays) for (let k = 0; k < array.length; k++) total[k]! += array[k]!
  return total
}

/** The totals of several builders (each built other works) as one. */
export function mergeWorkTotals(parts: readonly WorkTotals[]): WorkTotals {
  return {
    topicWorks: sum(parts.map((part) => part.topicWorks)),
    topicCited: sum(parts.map((part) => part.topicCited)),
    keywordWorks: sum(parts.map((part) => part.keywordWorks)),
    keywordCited: sum(parts.map((part) => part.keywordCited)),
    vocabulary: parts.flatMap((part) => part.vocabulary),
  }
}
const NEWLINE = 0x0a

export class WorkBatchBuilder {
  readonly #works: number
  readonly #cited: Uint32Array
  readonly #checkpoints: Float64Array
  readonly #references: Uint32SpoolReader
  readonly #builder: WorkRecordBuilder
  readonly #partitionIndex: ReadonlyMap<string, number>
  readonly #links = new WorkLinks()
  readonly #totals: WorkTotals
  readonly #vocabulary = new VocabularyCounter()
  // Scratch space reused from batch to batch; each batch gets an exact-size copy it can own.
  #linkWords = new Uint32Array(WORK_BATCH * 64)
  /** Writes each batch's records into the buffer build() is given (or a larger one, when they outgrow it). */
  readonly #text: JsonByteWriter

  constructor(works: number, seed: number, pools: GenerationPools, graph: SharedWorkGraph) {
    this.#works = works
    this.#cited = graph.cited
    this.#checkpoints = graph.checkpoints
    this.#references = new Uint32SpoolReader(graph.spoolPath)
    const partitions = worksPartitions()
    this.#partitionIndex = new Map(partitions.map(([date], index) => [date, index]))
    this.#builder = new WorkRecordBuilder({
      seed,
      works,
      layout: pools.layout,
      ids: new AffinePermutation(works),
      topics: pools.topics,
      topicChooser: new WorkTopicChooser(seed, pools.topics),
      orgs: pools.orgs,
      authors: pools.authors,
      terms: pools.terms,
      text: new TextGenerator(),
      cited: graph.cited,
      citationsByYear: new CitationYearCounts(works, graph.citationsByYear),
      normalizer: new CitationNormalizer(
        graph.cited,
        pools.layout,
        graph.fieldOfWork,
        graph.fieldCount,
        graph.normalizer,
      ),
      references: this.#references,
      partitions,
    })
    this.#text = new JsonByteWriter(Buffer.alloc(0))
    this.#totals = {
      topicWorks: new Float64Array(pools.topics.topics.length),
      topicCited: new Float64Array(pools.topics.topics.length),
      keywordWorks: new Float64Array(pools.terms.keywords.length),
      keywordCited: new Float64Array(pools.terms.keywords.length),
      vocabulary: [],
    }
  }

  /** How many batches N works make. */
  static batchCount(works: number): number {
    return Math.ceil(works / WORK_BATCH)
  }

  /** Builds batch `index`, its text into `into` (see WorkBatch.bytes). */
  build(index: number, into: Buffer): WorkBatch {
    const first = index * WORK_BATCH
    const count = Math.min(WORK_BATCH, this.#works - first)
    this.#references.seek(this.#checkpoints[index]!)
    const ends = new Uint32Array(count)
    const partitions = new Uint8Array(count)
    const isOa = new Uint8Array(count)
    const primaryTopic = new Uint16Array(count)
    const links = this.#links
    const totals = this.#totals
    const text = this.#text
    text.reset(into)
    let words = 0
    for (let k = 0; k < count; k++) {
      const work = first + k
      const partition = this.#builder.build(work, links, text)
      text.byte(NEWLINE)
      ends[k] = text.length
      partitions[k] = this.#partitionIndex.get(partition)!
      isOa[k] = links.isOa ? 1 : 0
      primaryTopic[k] = links.primaryTopic === -1 ? NO_TOPIC : links.primaryTopic

      const needed =
        words +
        6 +
        links.authors.length +
        links.institutions.length +
        links.funders.length +
        links.concepts.length
      if (needed > this.#linkWords.length) this.#linkWords = grow(this.#linkWords, words, needed)
      const out = this.#linkWords
      for (const list of [links.authors, links.institutions]) {
        out[words++] = list.length
        for (const entity of list) out[words++] = entity
      }
      out[words++] = links.source + 1
      out[words++] = links.publisher + 1
      for (const list of [links.funders, links.concepts]) {
        out[words++] = list.length
        for (const entity of list) out[words++] = entity
      }

      const cited = this.#cited[work]!
      for (const topic of links.topics) {
        totals.topicWorks[topic]!++
        totals.topicCited[topic]! += cited
      }
      for (const keyword of links.keywords) {
        totals.keywordWorks[keyword]!++
        totals.keywordCited[keyword]! += cited
      }
      for (const id of links.vocabulary) this.#vocabulary.add(work, cited, id)
    }
    return {
      index,
      first,
      count,
      bytes: text.view(),
      ends,
      partitions,
      isOa,
      primaryTopic,
      links: this.#linkWords.slice(0, words),
    }
  }

  totals(): WorkTotals {
    return { ...this.#totals, vocabulary: this.#vocabulary.tallies() }
  }

  close(): void {
    this.#references.close()
  }
}

/** A larger copy of `array` (at least `needed` long) with its first `keep` items. */
function grow(array: Uint32Array<ArrayBuffer>, keep: number, needed: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(Math.max(needed, array.length * 2))
  bigger.set(array.subarray(0, keep))
  return bigger
}
