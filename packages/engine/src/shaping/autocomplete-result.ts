import { type EntityType, entityPath, findVocabularyEntry } from '@oqlkit/oqo-schema/registry'
import type { EntityRecord } from '../adapter/storage-adapter.ts'

/** One type-ahead suggestion, as `/autocomplete` returns it. */
export interface AutocompleteResult {
  readonly id: string
  /** `authors/A5023888391`: the entity path and the short id. */
  readonly short_id: string
  readonly display_name: string
  /** A line that tells namesakes apart: authors' institution, a work's authors, a source's publisher, … */
  readonly hint: string | null
  readonly cited_by_count: number | null
  readonly works_count: number | null
  /** The singular entity name (`author`, `work`, `work_type`). */
  readonly entity_type: string
  /** The canonical external id (DOI, ORCID, ISSN-L, ROR, Wikidata), or null. */
  readonly external_id: string | null
  /** The `/works` filter that selects the works of this entity (`authorships.author.id`). */
  readonly filter_key: string | null
}

/** The singular names `/autocomplete` writes in `entity_type` (and accepts as `entity_type=`). */
export const AUTOCOMPLETE_ENTITY_NAMES: Readonly<Partial<Record<EntityType, string>>> = Object.freeze({
  works: 'work',
  authors: 'author',
  sources: 'source',
  institutions: 'institution',
  topics: 'topic',
  keywords: 'keyword',
  publishers: 'publisher',
  funders: 'funder',
  awards: 'award',
  concepts: 'concept',
  domains: 'domain',
  fields: 'field',
  subfields: 'subfield',
  sdgs: 'sdg',
  countries: 'country',
  continents: 'continent',
  languages: 'language',
  types: 'work_type',
  'source-types': 'source_type',
  'institution-types': 'institution_type',
  licenses: 'license',
})

/** The `/works` filter column that selects the works of an entity. */
export const WORKS_FILTER_KEYS: Readonly<Partial<Record<EntityType, string>>> = Object.freeze({
  works: 'ids.openalex',
  authors: 'authorships.author.id',
  sources: 'primary_location.source.id',
  institutions: 'authorships.institutions.id',
  topics: 'topics.id',
  keywords: 'keywords.id',
  publishers: 'primary_location.source.host_organization_lineage',
  funders: 'funders.id',
  awards: 'awards.id',
  concepts: 'concepts.id',
  domains: 'primary_topic.domain.id',
  fields: 'primary_topic.field.id',
  subfields: 'primary_topic.subfield.id',
  sdgs: 'sustainable_development_goals.id',
  countries: 'authorships.countries',
  continents: 'authorships.institutions.continent',
  languages: 'language',
  types: 'type',
  'source-types': 'primary_location.source.type',
  'institution-types': 'authorships.institutions.type',
  licenses: 'primary_location.license',
})

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value : null
const count = (value: unknown): number | null => (typeof value === 'number' ? value : null)
const objectAt = (value: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined

const countryName = (code: unknown): string | null => {
  const raw = text(code)
  return raw === null ? null : (findVocabularyEntry('countries', raw)?.displayName ?? raw)
}

const joinHint = (parts: readonly (string | null)[]): string | null => {
  const present = parts.filter((part): part is string => part !== null)
  return present.length === 0 ? null : present.join(', ')
}

const hintOf = (entity: EntityType, record: EntityRecord): string | null => {
  switch (entity) {
    case 'works': {
      const authorships = Array.isArray(record.authorships) ? record.authorships : []
      const names = authorships
        .map((authorship) => text(objectAt(objectAt(authorship)?.author)?.display_name))
        .filter((name): name is string => name !== null)
      if (names.length === 0) return null
      return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ' et al.' : ''}`
    }
    case 'authors': {
      const institutions = Array.isArray(record.last_known_institutions)
        ? record.last_known_institutions
        : [record.last_known_institution]
      const institution = objectAt(institutions[0])
      return institution === undefined
        ? null
        : joinHint([text(institution.display_name), countryName(institution.country_code)])
    }
    case 'institutions': {
      const geo = objectAt(record.geo)
      return joinHint([text(geo?.city), text(geo?.country) ?? countryName(record.country_code)])
    }
    case 'sources':
      return text(record.host_organization_name) ?? 'host organization unknown'
    default:
      return text(record.description)
  }
}

const externalIdOf = (entity: EntityType, record: EntityRecord): string | null => {
  const ids = objectAt(record.ids)
  switch (entity) {
    case 'works':
      return text(record.doi) ?? text(ids?.doi)
    case 'authors':
      return text(record.orcid) ?? text(ids?.orcid)
    case 'sources':
      return text(record.issn_l) ?? text(ids?.issn_l)
    case 'institutions':
      return text(record.ror) ?? text(ids?.ror)
    case 'funders':
      return text(ids?.ror) ?? text(ids?.wikidata)
    default:
      return text(ids?.wikidata) ?? text(record.wikidata)
  }
}

/** The short id of a record's id URL: `W123`, or the last path segment for vocabulary-style ids. */
const shortIdOf = (id: string): string => id.replace(/\/+$/, '').split('/').at(-1) ?? id

/** A record as a type-ahead suggestion. */
export const toAutocompleteResult = (entity: EntityType, record: EntityRecord): AutocompleteResult => {
  const id = text(record.id) ?? ''
  return {
    id,
    short_id: `${entityPath(entity)}/${shortIdOf(id)}`,
    display_name: text(record.display_name) ?? id,
    hint: hintOf(entity, record),
    cited_by_count: count(record.cited_by_count),
    works_count: count(record.works_count),
    entity_type: AUTOCOMPLETE_ENTITY_NAMES[entity] ?? entity,
    external_id: externalIdOf(entity, record),
    filter_key: WORKS_FILTER_KEYS[entity] ?? null,
  }
}
