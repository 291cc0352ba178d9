// Keywords and concepts of a generated snapshot. Keywords: the sample's 970 real keywords (most used first),
// then two-word keywords made from the sample's abstract words up to OpenAlex's ~26k. Concepts: the sample's
// 1,548 real concepts with their levels and Wikidata ids. In both, rank = popularity (Zipf).
import { ZipfSampler } from './distribution-samplers.ts'
import { GENERATED_ID_BASE, ZIPF_EXPONENTS } from './generation-plan.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import { capitalize } from './topic-pool.ts'

/** The most frequent words are function words ("the", "of"): keyword halves come from below them. */
const FUNCTION_WORD_RANKS = 150
const CONTENT_WORD = /^[a-z]{4,}$/

export interface GeneratedTerm {
  readonly id: string
  readonly name: string
  /** The embedded object up to its `score` value: `{"id":…,"display_name":…,"score":`. */
  readonly head: string
}

export interface GeneratedConcept extends GeneratedTerm {
  readonly level: number
  readonly wikidata: string | null
}

export class TermPools {
  readonly keywords: readonly GeneratedTerm[]
  readonly concepts: readonly GeneratedConcept[]
  readonly keywordPopularity: ZipfSampler
  readonly conceptPopularity: ZipfSampler

  constructor(keywordCount: number, conceptCount: number, seed: number) {
    const keywords: Array<{ slug: string; name: string }> = SAMPLE_PROFILE.keywords.slice(0, keywordCount)
    const slugs = new Set(keywords.map((keyword) => keyword.slug))
    const words = SAMPLE_PROFILE.words.slice(FUNCTION_WORD_RANKS).filter((word) => CONTENT_WORD.test(word))
    const random = new SeededRandom()
    for (let attempt = 0; keywords.length < keywordCount && words.length > 1; attempt++) {
      random.at(seed, RandomStream.keyword, attempt)
      // Square the draw so frequent words pair up more often, as in real keyword lists.
      const first = words[Math.floor(random.float() ** 2 * words.length)]!
      const second = words[Math.floor(random.float() ** 2 * words.length)]!
      const slug = `${first}-${second}`
      if (first === second || slugs.has(slug)) continue
      slugs.add(slug)
      keywords.push({ slug, name: `${capitalize(first)} ${second}` })
    }
    this.keywords = keywords.map(({ slug, name }) => {
      const id = `https://openalex.org/keywords/${slug}`
      return { id, name, head: `{"id":${JSON.stringify(id)},"display_name":${JSON.stringify(name)},"score":` }
    })

    this.concepts = SAMPLE_PROFILE.concepts.slice(0, conceptCount).map((concept, k) => {
      const id = `https://openalex.org/C${GENERATED_ID_BASE + k}`
      return {
        id,
        name: concept.name,
        level: concept.level,
        wikidata: concept.wikidata,
        head:
          `{"id":${JSON.stringify(id)},"wikidata":${JSON.stringify(concept.wikidata)},` +
          `"display_name":${JSON.stringify(concept.name)},"level":${concept.level},"score":`,
      }
    })
    this.keywordPopularity = new ZipfSampler(this.keywords.length, ZIPF_EXPONENTS.keywords)
    this.conceptPopularity = new ZipfSampler(this.concepts.length, ZIPF_EXPONENTS.concepts)
  }
}
