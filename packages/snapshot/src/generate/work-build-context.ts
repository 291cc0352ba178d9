// What every work of a generated snapshot is built from (the pools, the citation graph, the layout of years and
// partitions), what a built work links to, and the draw of a work's topics, which runs on a stream of its own
// before the work is built (generate-snapshot.ts, pass 1).
import type { AuthorPool } from './author-pool.ts'
import type { CitationYearCounts } from './citation-graph-builder.ts'
import type { CitationNormalizer } from './citation-normalizer.ts'
import { type AffinePermutation, WeightedPicker } from './distribution-samplers.ts'
import type { YearLayout } from './generation-plan.ts'
import type { OrganizationPools } from './organization-pools.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import type { TermPools } from './term-pools.ts'
import type { TextGenerator } from './text-generator.ts'
import type { TopicPool } from './topic-pool.ts'
import type { Uint32SpoolReader } from './uint32-spool.ts'

/** What a work links to, for the entity and vocabulary counts (reused between works). */
export class WorkLinks {
  authors: number[] = []
  institutions: number[] = []
  source = -1
  publisher = -1
  funders: number[] = []
  topics: number[] = []
  keywords: number[] = []
  concepts: number[] = []
  /** Full ids of the vocabulary values the work links to (may repeat). */
  vocabulary: string[] = []
  primaryTopic = -1
  isOa = false

  reset(): void {
    this.authors.length = 0
    this.institutions.length = 0
    this.source = -1
    this.publisher = -1
    this.funders.length = 0
    this.topics.length = 0
    this.keywords.length = 0
    this.concepts.length = 0
    this.vocabulary.length = 0
    this.primaryTopic = -1
    this.isOa = false
  }
}

/** The topics a work has: how many, and its primary one (drawn on a stream of their own, see pass 1). */
export class WorkTopicChooser {
  readonly #seed: number
  readonly #topics: TopicPool
  readonly #random = new SeededRandom()
  readonly #counts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.topicsPerWork)

  constructor(seed: number, topics: TopicPool) {
    this.#seed = seed
    this.#topics = topics
  }

  /** Writes the topic count then the primary topic into `into`. */
  choose(work: number, into: [number, number]): void {
    const random = this.#random.at(this.#seed, RandomStream.workTopic, work)
    into[0] = this.#counts.pick(random)
    into[1] = this.#topics.popularity.sample(random)
  }
}

export interface WorkBuildContext {
  readonly seed: number
  readonly works: number
  readonly layout: YearLayout
  readonly ids: AffinePermutation
  readonly topics: TopicPool
  readonly topicChooser: WorkTopicChooser
  readonly orgs: OrganizationPools
  readonly authors: AuthorPool
  readonly terms: TermPools
  readonly text: TextGenerator
  readonly cited: Uint32Array
  readonly citationsByYear: CitationYearCounts
  readonly normalizer: CitationNormalizer
  readonly references: Uint32SpoolReader
  /** Partition dates works may go to, with weights. */
  readonly partitions: ReadonlyArray<readonly [string, number]>
}
