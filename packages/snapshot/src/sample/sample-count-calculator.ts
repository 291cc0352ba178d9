// works_count and cited_by_count computed over the sample's works, for records that do not carry real
// ones. For each entity the count uses the same works-to-entity link as the record's `works_api_url` filter,
// so "count" and "the works that link finds in the sample" always agree. cited_by_count is the sum of the
// (real) cited_by_count of those works, which is how OpenAlex defines it, restricted to the sample.
import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonArray as list,
  OPENALEX_PREFIX,
  jsonObjects as objects,
  vocabularyUrl,
} from './openalex-id-classifier.ts'

export interface SampleCount {
  readonly works_count: number
  readonly cited_by_count: number
}

/** The works filter each count follows, by entity: documented in the snapshot README and used in works_api_url. */
export const COUNT_FILTERS = {
  authors: 'author.id',
  institutions: 'institutions.id',
  sources: 'primary_location.source.id',
  publishers: 'primary_location.source.publisher_lineage',
  funders: 'funders.id',
  topics: 'topics.id',
  keywords: 'keywords.id',
  concepts: 'concepts.id',
  domains: 'topics.domain.id',
  fields: 'topics.field.id',
  subfields: 'topics.subfield.id',
  countries: 'authorships.countries',
  languages: 'language',
  'work-types': 'type',
  'source-types': 'primary_location.source.type',
  'institution-types': 'authorships.institutions.type',
  licenses: 'primary_location.license',
  sdgs: 'sustainable_development_goals.id',
  'oa-statuses': 'open_access.oa_status',
  indexes: 'indexed_in',
} as const

export type CountedEntity = keyof typeof COUNT_FILTERS

export class SampleCounts {
  readonly #counts = new Map<string, { works_count: number; cited_by_count: number }>()

  constructor(works: Iterable<JsonObject>) {
    for (const work of works) {
      const citedBy = typeof work.cited_by_count === 'number' ? work.cited_by_count : 0
      for (const id of linkedIds(work)) {
        const count = this.#counts.get(id)
        if (count) {
          count.works_count += 1
          count.cited_by_count += citedBy
        } else {
          this.#counts.set(id, { works_count: 1, cited_by_count: citedBy })
        }
      }
    }
  }

  /** Counts for a full id (`https://openalex.org/A…`, `https://openalex.org/countries/US`); zero when unlinked. */
  of(id: string): SampleCount {
    return this.#counts.get(id) ?? { works_count: 0, cited_by_count: 0 }
  }
}

/** The full ids of every entity a work links to, through the filters in COUNT_FILTERS; each once. */
function linkedIds(work: JsonObject): Set<string> {
  const ids = new Set<string>()
  const addId = (value: JsonValue | undefined): void => {
    if (typeof value === 'string' && value.startsWith(OPENALEX_PREFIX)) ids.add(value)
  }
  const addCode = (segment: string, value: JsonValue | undefined): void => {
    if (typeof value === 'string' && value !== '') ids.add(vocabularyUrl(`${segment}/${value}`))
  }

  for (const authorship of objects(work.authorships)) {
    if (isJsonObject(authorship.author)) addId(authorship.author.id)
    for (const institution of objects(authorship.institutions)) {
      addId(institution.id)
      addCode('institution-types', institution.type)
    }
    for (const country of list(authorship.countries)) addCode('countries', country)
  }

  const primary = isJsonObject(work.primary_location) ? work.primary_location : undefined
  const source = primary && isJsonObject(primary.source) ? primary.source : undefined
  if (source) {
    addId(source.id)
    addCode('source-types', source.type)
    for (const owner of list(source.host_organization_lineage)) {
      if (typeof owner === 'string' && /\/P\d+$/.test(owner)) addId(owner)
    }
  }
  if (primary) {
    if (typeof primary.license_id === 'string') addId(primary.license_id)
    else addCode('licenses', primary.license)
  }

  for (const funder of objects(work.funders)) addId(funder.id)
  for (const grant of objects(work.grants)) addId(grant.funder)

  const topics = [
    ...objects(work.topics),
    ...objects(work.primary_topic === undefined ? [] : [work.primary_topic]),
  ]
  for (const topic of topics) {
    addId(topic.id)
    for (const level of ['subfield', 'field', 'domain']) {
      const parent = topic[level]
      if (isJsonObject(parent)) addId(parent.id)
    }
  }
  for (const keyword of objects(work.keywords)) addId(keyword.id)
  for (const concept of objects(work.concepts)) addId(concept.id)

  addCode('languages', work.language)
  addCode('types', work.type)
  if (isJsonObject(work.open_access)) addCode('oa-statuses', work.open_access.oa_status)
  for (const index of list(work.indexed_in)) addCode('indexes', index)
  for (const goal of objects(work.sustainable_development_goals)) {
    // The works name SDGs by their UN URI (`https://metadata.un.org/sdg/3`); the vocabulary id is `sdgs/3`.
    const match = typeof goal.id === 'string' ? /\/sdg\/(\d+)$/.exec(goal.id) : null
    if (match) addCode('sdgs', match[1])
  }
  return ids
}
