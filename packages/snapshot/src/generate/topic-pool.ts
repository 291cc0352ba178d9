// The topics of a generated snapshot: OpenAlex's 4,516-topic size, each topic in a real subfield with its
// real field and domain. The sample's 490 real topics come first (most used first, so they are the most
// popular) with their real names; the rest are named from pairs of the sample's keywords and spread over the
// subfields whose field the sample's topic objects place in a domain.
import { vocabularyOf } from '@oqlkit/oqo-schema/registry'
import { ZipfSampler } from './distribution-samplers.ts'
import { GENERATED_ID_BASE, ZIPF_EXPONENTS } from './generation-plan.ts'
import { SAMPLE_PROFILE } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'

const OPENALEX = 'https://openalex.org/'

export interface Named {
  readonly id: string
  readonly display_name: string
}

export interface GeneratedTopic {
  readonly index: number
  readonly id: string
  readonly name: string
  readonly subfield: Named
  readonly field: Named
  readonly domain: Named
  /** Position of the field in the vocabulary's field list (a small integer for grouping). */
  readonly fieldIndex: number
  /** Whether the name is a real OpenAlex topic name from the sample. */
  readonly real: boolean
  /** `{"id":…,"display_name":…` : the start of the embedded topic object. */
  readonly head: string
  /** `,"subfield":{…},"field":{…},"domain":{…}}` : its end, after the per-use key (`score`, `count`). */
  readonly tail: string
}

const displayNames = (entity: 'subfields' | 'fields' | 'domains'): Map<string, string> =>
  new Map((vocabularyOf(entity) ?? []).map((entry) => [`${entity}/${entry.code}`, entry.displayName]))

export class TopicPool {
  readonly topics: readonly GeneratedTopic[]
  readonly bySubfield: ReadonlyMap<string, readonly number[]>
  readonly fieldCount: number
  readonly popularity: ZipfSampler

  constructor(size: number, seed: number) {
    const subfieldNames = displayNames('subfields')
    const fieldNames = displayNames('fields')
    const domainNames = displayNames('domains')
    const fields = [...fieldNames.keys()].sort()
    this.fieldCount = fields.length
    const fieldOf = (subfield: string): string => `fields/${subfield.slice('subfields/'.length, -2)}`
    const placed = (subfield: string) =>
      subfieldNames.has(subfield) && SAMPLE_PROFILE.fieldDomains[fieldOf(subfield)] !== undefined
    const named = (shortId: string, names: ReadonlyMap<string, string>): Named => ({
      id: `${OPENALEX}${shortId}`,
      display_name: names.get(shortId) ?? shortId,
    })

    const specs: Array<{ name: string; subfield: string; real: boolean }> = SAMPLE_PROFILE.topics
      .filter((topic) => placed(topic.subfield))
      .slice(0, size)
      .map((topic) => ({ name: topic.name, subfield: topic.subfield, real: true }))
    const taken = new Set(specs.map((spec) => spec.name))
    const subfields = [...subfieldNames.keys()].filter(placed).sort()
    const keywords = SAMPLE_PROFILE.keywords
    const random = new SeededRandom()
    for (let k = specs.length, attempt = 0; specs.length < size; k++, attempt++) {
      random.at(seed, RandomStream.topic, attempt)
      const first = keywords[random.int(keywords.length)]!.name
      const second = keywords[random.int(keywords.length)]!.name
      const name = `${capitalize(first)} and ${second.toLowerCase()}`
      if (first === second || taken.has(name)) continue
      taken.add(name)
      specs.push({ name, subfield: subfields[k % subfields.length]!, real: false })
    }

    this.topics = specs.map((spec, index) => {
      const field = fieldOf(spec.subfield)
      const domain = SAMPLE_PROFILE.fieldDomains[field]!
      const id = `${OPENALEX}T${GENERATED_ID_BASE + index}`
      const subfield = named(spec.subfield, subfieldNames)
      const fieldNamed = named(field, fieldNames)
      const domainNamed = named(domain, domainNames)
      return {
        index,
        id,
        name: spec.name,
        subfield,
        field: fieldNamed,
        domain: domainNamed,
        fieldIndex: fields.indexOf(field),
        real: spec.real,
        head: `{"id":${JSON.stringify(id)},"display_name":${JSON.stringify(spec.name)}`,
        tail: `,"subfield":${JSON.stringify(subfield)},"field":${JSON.stringify(fieldNamed)},"domain":${JSON.stringify(domainNamed)}}`,
      }
    })
    const bySubfield = new Map<string, number[]>()
    for (const topic of this.topics) {
      const list = bySubfield.get(topic.subfield.id)
      if (list) list.push(topic.index)
      else bySubfield.set(topic.subfield.id, [topic.index])
    }
    this.bySubfield = bySubfield
    // Rank r is topic r: the sample's most used real topics are the most popular.
    this.popularity = new ZipfSampler(this.topics.length, ZIPF_EXPONENTS.topics)
  }

  /** Share of works whose primary topic is topic `index` (for sizing the topics' author blocks). */
  weights(): Float64Array {
    const weights = new Float64Array(this.topics.length)
    for (let r = 0; r < weights.length; r++) weights[r] = this.popularity.probability(r)
    return weights
  }
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1)
}
