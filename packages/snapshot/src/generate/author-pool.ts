// The authors of a generated snapshot. There can be millions, so nothing is stored per author: an author's
// name, ORCID and institutions are recomputed from its own random stream whenever a work or the author record
// needs them. Authors are laid out in blocks, one per topic, sized by the topic's popularity; a work mostly
// picks its authors from its primary topic's block (Zipf-popular within it), so authors keep to a field and
// their records' topics mean something.
import { AffinePermutation, ZipfSampler } from './distribution-samplers.ts'
import { forgeOrcid } from './external-id-forge.ts'
import { AUTHOR_OFFSETS, GENERATED_ID_BASE, ZIPF_EXPONENTS } from './generation-plan.ts'
import type { OrganizationPools } from './organization-pools.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import type { TopicPool } from './topic-pool.ts'

/**
 * How a work's authors are drawn (modelling choices): NEWCOMER_SHARE uniformly from the whole pool (the
 * authors with one or two works that make up much of real author lists), then TOPIC_AUTHOR_SHARE of the
 * others from the primary topic's block, the rest from the whole pool, both Zipf-Mandelbrot.
 */
const NEWCOMER_SHARE = 0.05
const TOPIC_AUTHOR_SHARE = 0.8
/** How many institutions an author is affiliated with at most (the sample's authorships name up to 9). */
export const AUTHOR_AFFILIATIONS = 4
const MIDDLE_INITIAL_SHARE = 0.25
const INITIALS = 'ABCDEFGHJKLMNPRSTW'

export interface GeneratedAuthor {
  readonly index: number
  readonly id: string
  readonly name: string
  readonly orcid: string | null
  /** Institution indexes, the first being the author's main affiliation (may repeat; callers dedupe). */
  readonly institutions: readonly number[]
}

export class AuthorPool {
  readonly size: number
  readonly #seed: number
  readonly #orgs: OrganizationPools
  readonly #random = new SeededRandom()
  readonly #blockStarts: Float64Array
  readonly #blocks: ReadonlyArray<ZipfSampler | null>
  readonly #global: ZipfSampler
  readonly #scatter: AffinePermutation
  readonly #orcidShare: number

  constructor(size: number, seed: number, topics: TopicPool, orgs: OrganizationPools) {
    this.size = size
    this.#seed = seed
    this.#orgs = orgs
    const weights = topics.weights()
    this.#blockStarts = new Float64Array(weights.length + 1)
    let cumulative = 0
    for (let t = 0; t < weights.length; t++) {
      this.#blockStarts[t] = Math.round(cumulative * size)
      cumulative += weights[t]!
    }
    this.#blockStarts[weights.length] = size
    const s = ZIPF_EXPONENTS.authors
    this.#blocks = Array.from({ length: weights.length }, (_, t) => {
      const blockSize = this.#blockStarts[t + 1]! - this.#blockStarts[t]!
      return blockSize === 0 ? null : new ZipfSampler(blockSize, s, blockSize * AUTHOR_OFFSETS.inTopic)
    })
    this.#global = new ZipfSampler(size, s, size * AUTHOR_OFFSETS.global)
    this.#scatter = new AffinePermutation(size, 7)
    const [orcids, authorships] = SAMPLE_PROFILE.shares.orcidAuthorship
    this.#orcidShare = authorships === 0 ? 0 : orcids / authorships
  }

  /**
   * An author for a work whose primary topic is `topic`. `attempt` counts the draws already rejected for
   * this authorship (the author was on the work already): after two, the draw leaves the topic's block,
   * which may be too small to give a large team distinct authors.
   */
  pick(topic: number, random: SeededRandom, attempt = 0): number {
    const draw = random.float()
    if (draw < NEWCOMER_SHARE) return random.int(this.size)
    const block = this.#blocks[topic]
    if (block != null && attempt < 2 && draw < NEWCOMER_SHARE + (1 - NEWCOMER_SHARE) * TOPIC_AUTHOR_SHARE) {
      return this.#blockStarts[topic]! + block.sample(random)
    }
    return this.#scatter.apply(this.#global.sample(random))
  }

  author(index: number): GeneratedAuthor {
    const random = this.#random.at(this.#seed, RandomStream.author, index)
    const first = SAMPLE_PROFILE.firstNames[random.int(SAMPLE_PROFILE.firstNames.length)]!
    const last = SAMPLE_PROFILE.lastNames[random.int(SAMPLE_PROFILE.lastNames.length)]!
    const name = random.chance(MIDDLE_INITIAL_SHARE)
      ? `${first} ${INITIALS[random.int(INITIALS.length)]}. ${last}`
      : `${first} ${last}`
    const orcid = random.chance(this.#orcidShare) ? forgeOrcid(index) : null
    const institutions: number[] = []
    for (let k = 0; k < AUTHOR_AFFILIATIONS; k++) institutions.push(this.#orgs.institutionPicker.pick(random))
    return { index, id: `https://openalex.org/A${GENERATED_ID_BASE + index}`, name, orcid, institutions }
  }
}
