// The records of the entities generated works reference, with the keys (and key order) of the newest real
// records of the sample for each entity (the 2025-2026 API). Counts and summary stats are exact over the
// generated works; what the generator has no model for is present but empty (x_concepts, societies,
// alternate titles, images), as in real records that have nothing to say.

import { COUNT_FILTERS } from '../sample/sample-count-calculator.ts'
import type { GeneratedAuthor } from './author-pool.ts'
import type { EntityStatistics } from './entity-statistics.ts'
import type { OrganizationPools } from './organization-pools.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import type { GeneratedConcept, GeneratedTerm } from './term-pools.ts'
import type { GeneratedTopic, TopicPool } from './topic-pool.ts'

const API = 'https://api.openalex.org'
const FIRST_CREATED = Date.UTC(2016, 5, 24)
const DAY = 86_400_000

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

export interface EntityRecordContext {
  readonly seed: number
  readonly asOf: string
  readonly topics: TopicPool
  readonly orgs: OrganizationPools
  /** Works per topic (through `topics.id`), for topic_share. */
  readonly topicWorks: Float64Array
}

/** A generated organisation has no picture. */
const NO_IMAGE = { image_url: null, image_thumbnail_url: null } as const

const shortId = (id: string): string => id.slice(id.lastIndexOf('/') + 1)
const worksApiUrl = (entity: keyof typeof COUNT_FILTERS, id: string): string =>
  `${API}/works?filter=${COUNT_FILTERS[entity]}:${shortId(id)}`

export class EntityRecordBuilder {
  readonly #c: EntityRecordContext
  readonly #random = new SeededRandom()
  readonly #asOfTime: number
  readonly #repositories = new Map<number, Json[]>()
  readonly #children = new Map<number, number[]>()

  constructor(context: EntityRecordContext) {
    this.#c = context
    this.#asOfTime = Date.parse(`${context.asOf}T00:00:00Z`)
    for (const source of context.orgs.sources) {
      if (source.hostInstitution === null) continue
      const list = this.#repositories.get(source.hostInstitution) ?? []
      list.push({
        id: source.id,
        display_name: source.name,
        host_organization: source.hostId,
        host_organization_name: source.hostName,
        host_organization_lineage: [source.hostId],
      })
      this.#repositories.set(source.hostInstitution, list)
    }
    for (const institution of context.orgs.institutions) {
      if (institution.parent === null) continue
      const list = this.#children.get(institution.parent) ?? []
      list.push(institution.index)
      this.#children.set(institution.parent, list)
    }
  }

  author(author: GeneratedAuthor, stats: EntityStatistics): string {
    const institutions = [...new Set(author.institutions)].map((k) => this.#institutionObject(k))
    return line({
      id: author.id,
      orcid: author.orcid,
      display_name: author.name,
      display_name_alternatives: [author.name],
      ...impactOf(stats),
      ids: author.orcid === null ? { openalex: author.id } : { openalex: author.id, orcid: author.orcid },
      affiliations: institutions.map((institution) => ({ institution, years: stats.years.slice(0, 10) })),
      last_known_institutions: institutions.slice(0, 1),
      topics: this.#topicCounts(stats),
      topic_share: this.#topicShares(stats),
      x_concepts: [],
      counts_by_year: countsByYear(stats, true),
      works_api_url: worksApiUrl('authors', author.id),
      ...this.#dates(RandomStream.author, author.index),
    })
  }

  institution(index: number, stats: EntityStatistics): string {
    const institution = this.#c.orgs.institutions[index]!
    const parent = institution.parent === null ? [] : [institution.parent]
    const associated = [
      ...parent.map((k) => ({ ...this.#associated(k), relationship: 'parent' })),
      ...(this.#children.get(index) ?? []).map((k) => ({ ...this.#associated(k), relationship: 'child' })),
    ]
    return line({
      id: institution.id,
      ror: institution.ror,
      display_name: institution.name,
      country_code: institution.countryCode,
      type: institution.type,
      type_id: `https://openalex.org/institution-types/${institution.type}`,
      lineage: [...institution.lineage],
      homepage_url: null,
      ...NO_IMAGE,
      display_name_acronyms: [],
      display_name_alternatives: [],
      repositories: this.#repositories.get(index) ?? [],
      ...impactOf(stats),
      ids: { openalex: institution.id, ror: institution.ror },
      geo: {
        city: null,
        geonames_city_id: null,
        region: null,
        country_code: institution.countryCode,
        country: null,
        latitude: null,
        longitude: null,
      },
      international: { display_name: { en: institution.name } },
      associated_institutions: associated,
      counts_by_year: countsByYear(stats, true),
      roles: [{ role: 'institution', id: institution.id, works_count: stats.worksCount }],
      topics: this.#topicCounts(stats),
      topic_share: this.#topicShares(stats),
      x_concepts: [],
      is_super_system: false,
      works_api_url: worksApiUrl('institutions', institution.id),
      ...this.#dates(RandomStream.institution, index),
    })
  }

  source(index: number, stats: EntityStatistics): string {
    const source = this.#c.orgs.sources[index]!
    const ids: { [key: string]: Json } = { openalex: source.id }
    if (source.issn !== null) {
      ids.issn_l = source.issn
      ids.issn = [source.issn]
    }
    return line({
      id: source.id,
      issn_l: source.issn,
      issn: source.issn === null ? null : [source.issn],
      display_name: source.name,
      host_organization: source.hostId,
      host_organization_name: source.hostName,
      host_organization_lineage: [source.hostId],
      ...impactOf(stats),
      is_oa: source.isOa,
      is_in_doaj: source.isInDoaj,
      is_indexed_in_scopus: source.isInScopus,
      is_core: source.isCore,
      ids,
      homepage_url: null,
      apc_prices: source.apcUsd === null ? [] : [{ price: source.apcUsd, currency: 'USD' }],
      apc_usd: source.apcUsd,
      country_code: source.countryCode,
      societies: [],
      alternate_titles: [],
      abbreviated_title: null,
      type: source.type,
      topics: this.#topicCounts(stats),
      topic_share: this.#topicShares(stats),
      x_concepts: [],
      counts_by_year: countsByYear(stats, true),
      works_api_url: worksApiUrl('sources', source.id),
      ...this.#dates(RandomStream.source, index),
    })
  }

  publisher(index: number, stats: EntityStatistics): string {
    const publisher = this.#c.orgs.publishers[index]!
    return line({
      id: publisher.id,
      display_name: publisher.name,
      alternate_titles: [],
      hierarchy_level: 0,
      parent_publisher: null,
      lineage: [publisher.id],
      country_codes: [publisher.countryCode],
      homepage_url: null,
      ...NO_IMAGE,
      ...impactOf(stats),
      ids: { openalex: publisher.id, ror: publisher.ror },
      counts_by_year: countsByYear(stats, false),
      roles: [{ role: 'publisher', id: publisher.id, works_count: stats.worksCount }],
      sources_api_url: `${API}/sources?filter=host_organization.id:${shortId(publisher.id)}`,
      ...this.#dates(RandomStream.publisher, index),
    })
  }

  funder(index: number, stats: EntityStatistics): string {
    const funder = this.#c.orgs.funders[index]!
    return line({
      id: funder.id,
      display_name: funder.name,
      alternate_titles: [],
      country_code: funder.countryCode,
      description: null,
      homepage_url: null,
      ...NO_IMAGE,
      grants_count: 0,
      ...impactOf(stats),
      ids: { openalex: funder.id, ror: funder.ror },
      counts_by_year: countsByYear(stats, true),
      roles: [{ role: 'funder', id: funder.id, works_count: stats.worksCount }],
      ...this.#dates(RandomStream.funder, index),
    })
  }

  concept(index: number, concept: GeneratedConcept, stats: EntityStatistics): string {
    return line({
      id: concept.id,
      wikidata: concept.wikidata,
      display_name: concept.name,
      level: concept.level,
      description: null,
      ...impactOf(stats),
      ids:
        concept.wikidata === null
          ? { openalex: concept.id }
          : { openalex: concept.id, wikidata: concept.wikidata },
      ...NO_IMAGE,
      international: { display_name: { en: concept.name } },
      ancestors: [],
      related_concepts: [],
      counts_by_year: countsByYear(stats, true),
      works_api_url: worksApiUrl('concepts', concept.id),
      ...this.#dates(RandomStream.entityDates, index),
    })
  }

  topic(topic: GeneratedTopic, works: number, cited: number, keywords: readonly string[]): string {
    const siblings = (this.#c.topics.bySubfield.get(topic.subfield.id) ?? [])
      .filter((k) => k !== topic.index)
      .map((k) => ({ id: this.#c.topics.topics[k]!.id, display_name: this.#c.topics.topics[k]!.name }))
    return line({
      id: topic.id,
      display_name: topic.name,
      description: `Works on ${topic.name.toLowerCase()}, in ${topic.subfield.display_name}.`,
      keywords: [...keywords],
      ids: { openalex: topic.id },
      subfield: { ...topic.subfield },
      field: { ...topic.field },
      domain: { ...topic.domain },
      siblings,
      works_count: works,
      cited_by_count: cited,
      works_api_url: worksApiUrl('topics', topic.id),
      ...this.#dates(RandomStream.topic, topic.index),
    })
  }

  keyword(index: number, keyword: GeneratedTerm, works: number, cited: number): string {
    return line({
      id: keyword.id,
      display_name: keyword.name,
      works_count: works,
      cited_by_count: cited,
      works_api_url: `${API}/works?filter=keywords.id:keywords/${shortId(keyword.id)}`,
      ...this.#dates(RandomStream.keyword, index),
    })
  }

  #institutionObject(index: number): Json {
    const institution = this.#c.orgs.institutions[index]!
    return {
      id: institution.id,
      ror: institution.ror,
      display_name: institution.name,
      country_code: institution.countryCode,
      type: institution.type,
      lineage: [...institution.lineage],
    }
  }

  #associated(index: number): { [key: string]: Json } {
    const institution = this.#c.orgs.institutions[index]!
    return {
      id: institution.id,
      ror: institution.ror,
      display_name: institution.name,
      country_code: institution.countryCode,
      type: institution.type,
    }
  }

  #topicCounts(stats: EntityStatistics): Json[] {
    return stats.topics.map(([k, count]) => this.#topicEntry(k, 'count', count))
  }

  #topicShares(stats: EntityStatistics): Json[] {
    return stats.topics.map(([k, count]) =>
      this.#topicEntry(k, 'value', Math.round((count / Math.max(1, this.#c.topicWorks[k]!)) * 1e7) / 1e7),
    )
  }

  #topicEntry(index: number, key: string, value: number): Json {
    const topic = this.#c.topics.topics[index]!
    return {
      id: topic.id,
      display_name: topic.name,
      [key]: value,
      subfield: { ...topic.subfield },
      field: { ...topic.field },
      domain: { ...topic.domain },
    }
  }

  /** `updated_date` (the as-of date, a random time) and `created_date` of an entity, from its own stream. */
  #dates(stream: number, index: number): { updated_date: string; created_date: string } {
    const r = this.#random.at(this.#c.seed ^ Math.imul(stream, 0x9e3779b1), RandomStream.entityDates, index)
    const pad = (value: number, width: number) => String(value).padStart(width, '0')
    const span = Math.floor((this.#asOfTime - FIRST_CREATED) / DAY)
    const created = new Date(FIRST_CREATED + r.int(span) * DAY).toISOString().slice(0, 10)
    return {
      updated_date: `${this.#c.asOf}T${pad(r.int(24), 2)}:${pad(r.int(60), 2)}:${pad(r.int(60), 2)}.${pad(r.int(1_000_000), 6)}`,
      created_date: created,
    }
  }
}

/** The counts every entity but works carries, in the order the API writes them. */
function impactOf(stats: EntityStatistics): { [key: string]: Json } {
  return {
    works_count: stats.worksCount,
    cited_by_count: stats.citedByCount,
    summary_stats: summaryStats(stats),
  }
}

function summaryStats(stats: EntityStatistics): Json {
  return {
    '2yr_mean_citedness': stats.twoYearMeanCitedness,
    h_index: stats.hIndex,
    i10_index: stats.i10Index,
  }
}

function countsByYear(stats: EntityStatistics, withOa: boolean): Json[] {
  return stats.countsByYear.map((entry) =>
    withOa
      ? {
          year: entry.year,
          works_count: entry.works,
          oa_works_count: entry.oaWorks,
          cited_by_count: entry.cited,
        }
      : { year: entry.year, works_count: entry.works, cited_by_count: entry.cited },
  )
}

function line(record: { readonly [key: string]: Json }): string {
  return JSON.stringify(record)
}
