// Builds records for the vocabulary entities (domains, fields, subfields, countries, languages, work types,
// ...) from the official lookup lists. The lists give only id and display_name; the topic hierarchy links
// (subfield -> field -> domain) come from the topic objects in the real records, and counts from the sample.
import {
  compareOpenAlexIds,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  type VocabularyEntity,
  vocabularyUrl,
} from './openalex-id-classifier.ts'
import { COUNT_FILTERS, type SampleCounts } from './sample-count-calculator.ts'
import type { VocabularyValue } from './sample-source-reader.ts'

interface Named {
  readonly id: string
  readonly display_name: string
}

/** Parent links of the topic hierarchy, keyed by full id, as the topic objects state them. */
export class TopicHierarchy {
  readonly #parents = new Map<string, { field?: Named; domain?: Named }>()
  #conflicts = 0

  /** Reads `subfield`/`field`/`domain` from one topic object (embedded or a real topic record). */
  addTopic(topic: JsonObject): void {
    const subfield = named(topic.subfield)
    const field = named(topic.field)
    const domain = named(topic.domain)
    if (subfield && field) this.#link(subfield.id, 'field', field)
    if (subfield && domain) this.#link(subfield.id, 'domain', domain)
    if (field && domain) this.#link(field.id, 'domain', domain)
  }

  parentsOf(id: string): { readonly field?: Named; readonly domain?: Named } {
    return this.#parents.get(id) ?? {}
  }

  /** How many topic objects disagreed with a link seen before (the first one seen is kept). */
  get conflicts(): number {
    return this.#conflicts
  }

  #link(child: string, level: 'field' | 'domain', parent: Named): void {
    const parents = this.#parents.get(child) ?? {}
    const known = parents[level]
    if (known === undefined) {
      parents[level] = { id: parent.id, display_name: parent.display_name }
      this.#parents.set(child, parents)
    } else if (known.id !== parent.id) {
      this.#conflicts += 1
    }
  }
}

function named(value: JsonValue | undefined): Named | undefined {
  if (!isJsonObject(value) || typeof value.id !== 'string' || typeof value.display_name !== 'string')
    return undefined
  return { id: value.id, display_name: value.display_name }
}

export interface VocabularyRecordContext {
  readonly vocabularies: ReadonlyMap<VocabularyEntity, readonly VocabularyValue[]>
  readonly counts: SampleCounts
  readonly hierarchy: TopicHierarchy
  /** The snapshot's topics (id, display_name, subfield id), to list under their subfield. */
  readonly topics: ReadonlyArray<{
    readonly id: string
    readonly display_name: JsonValue
    readonly subfield?: string
  }>
  readonly asOf: string
}

const API = 'https://api.openalex.org'

// The API's records of these entities have an `ids` object; the others (work types, languages, ...) do not.
const ENTITIES_WITH_IDS: ReadonlySet<VocabularyEntity> = new Set([
  'domains',
  'fields',
  'subfields',
  'countries',
  'continents',
  'sdgs',
])

/** A hierarchy link with the vocabulary's display name (the list is the authority on names). */
function vocabularyName(context: VocabularyRecordContext, entity: VocabularyEntity, link: Named): JsonObject {
  const value = (context.vocabularies.get(entity) ?? []).find((v) => vocabularyUrl(v.id) === link.id)
  return { id: link.id, display_name: value?.display_name ?? link.display_name }
}

/** All records of one vocabulary entity, sorted by id. */
export function buildVocabularyRecords(
  entity: VocabularyEntity,
  context: VocabularyRecordContext,
): JsonObject[] {
  const values = context.vocabularies.get(entity) ?? []
  const fullName = (value: VocabularyValue): Named => ({
    id: vocabularyUrl(value.id),
    display_name: value.display_name,
  })
  const records = values.map((value) => buildOne(entity, fullName(value), context))
  return records.sort((a, b) => compareOpenAlexIds(a.id as string, b.id as string))
}

function buildOne(entity: VocabularyEntity, self: Named, context: VocabularyRecordContext): JsonObject {
  const code = self.id.slice(self.id.lastIndexOf('/') + 1)
  const record: JsonObject = { id: self.id }
  if (entity === 'countries') record.country_code = decodeURIComponent(code)
  record.display_name = self.display_name
  if (ENTITIES_WITH_IDS.has(entity)) {
    const ids: JsonObject = { openalex: self.id }
    // A continent's id is its Wikidata item (`continents/Q15` is Q15, Africa).
    if (entity === 'continents') ids.wikidata = `https://www.wikidata.org/wiki/${code}`
    record.ids = ids
  }

  const parents = context.hierarchy.parentsOf(self.id)
  if (entity === 'subfields' && parents.field) record.field = vocabularyName(context, 'fields', parents.field)
  if ((entity === 'fields' || entity === 'subfields') && parents.domain) {
    record.domain = vocabularyName(context, 'domains', parents.domain)
  }
  if (entity === 'domains') record.fields = childrenOf(context, 'fields', 'domain', self.id)
  if (entity === 'fields') record.subfields = childrenOf(context, 'subfields', 'field', self.id)
  if (entity === 'subfields') {
    record.topics = context.topics
      .filter((topic) => topic.subfield === self.id)
      .map((topic) => ({ id: topic.id, display_name: topic.display_name }))
  }

  // Continents: the works name countries, and nothing in the sample links a country to its continent.
  if (entity !== 'continents') {
    const count = context.counts.of(self.id)
    record.works_count = count.works_count
    record.cited_by_count = count.cited_by_count
    record.works_api_url = `${API}/works?filter=${COUNT_FILTERS[entity]}:${code}`
  }
  record.updated_date = context.asOf
  return record
}

/** Vocabulary values of `childEntity` whose known parent at `level` is `parentId`, sorted by id. */
function childrenOf(
  context: VocabularyRecordContext,
  childEntity: 'fields' | 'subfields',
  level: 'field' | 'domain',
  parentId: string,
): JsonObject[] {
  return (context.vocabularies.get(childEntity) ?? [])
    .map((value) => ({ id: vocabularyUrl(value.id), display_name: value.display_name }))
    .filter((child) => context.hierarchy.parentsOf(child.id)[level]?.id === parentId)
    .sort((a, b) => compareOpenAlexIds(a.id, b.id))
}
