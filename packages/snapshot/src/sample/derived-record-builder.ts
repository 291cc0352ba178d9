// Builds a record for an entity that the sample references but has no real record for. The record has the
// shape of a real one of its entity (key names and order of the 2025 API records) but only the fields the
// embedded objects state: nothing is guessed. Counts come from the sample; `updated_date` is the sample's
// as-of date; `created_date` is never set, which is what marks a record as derived.
import { ENTITY_TYPES } from '@oqlkit/oqo-schema/registry'
import type { ObservationIndex } from './embedded-observation-collector.ts'
import {
  type DerivableEntity,
  isDerivable,
  isJsonObject,
  type JsonObject,
  type JsonValue,
} from './openalex-id-classifier.ts'
import { COUNT_FILTERS, type SampleCounts } from './sample-count-calculator.ts'

/** The derivable entities in the order of oqo-schema's entity types (the order the sample's README lists them). */
export const DERIVABLE_ENTITIES: readonly DerivableEntity[] = ENTITY_TYPES.filter(isDerivable)

interface EntityShape {
  /** Fields read from observations, in output order; `@counts`, `@ids` and `@api_url` mark computed fields. */
  readonly layout: readonly string[]
  /** Fields copied into `ids` when present and not null. */
  readonly ids: readonly string[]
  /** The api-url field and how it is built, if the real records of this entity have one. */
  readonly apiUrl?: { readonly key: string; readonly url: (id: string) => string }
}

const API = 'https://api.openalex.org'
const shortId = (id: string): string => id.slice(id.lastIndexOf('/') + 1)
const worksUrl = (filter: string) => (id: string) => `${API}/works?filter=${filter}:${shortId(id)}`

const SHAPES: Readonly<Record<DerivableEntity, EntityShape>> = {
  authors: {
    layout: ['orcid', 'display_name', '@counts', '@ids', '@api_url'],
    ids: ['orcid'],
    apiUrl: { key: 'works_api_url', url: worksUrl(COUNT_FILTERS.authors) },
  },
  institutions: {
    layout: ['ror', 'display_name', 'country_code', 'type', 'lineage', '@counts', '@ids', '@api_url'],
    ids: ['ror'],
    apiUrl: { key: 'works_api_url', url: worksUrl(COUNT_FILTERS.institutions) },
  },
  sources: {
    layout: [
      'issn_l',
      'issn',
      'display_name',
      'host_organization',
      'host_organization_name',
      'host_organization_lineage',
      '@counts',
      'is_oa',
      'is_in_doaj',
      'is_indexed_in_scopus',
      'is_core',
      '@ids',
      'type',
      '@api_url',
    ],
    ids: ['issn_l', 'issn'],
    apiUrl: { key: 'works_api_url', url: worksUrl(COUNT_FILTERS.sources) },
  },
  publishers: {
    layout: ['display_name', '@counts', '@ids', '@api_url'],
    ids: [],
    apiUrl: {
      key: 'sources_api_url',
      url: (id) => `${API}/sources?filter=host_organization.id:${shortId(id)}`,
    },
  },
  funders: { layout: ['display_name', '@counts', '@ids'], ids: ['ror'] },
  topics: {
    layout: ['display_name', '@ids', 'subfield', 'field', 'domain', '@counts', '@api_url'],
    ids: [],
    apiUrl: { key: 'works_api_url', url: worksUrl(COUNT_FILTERS.topics) },
  },
  keywords: {
    layout: ['display_name', '@counts', '@api_url'],
    ids: [],
    // The real keyword record writes the filter value as `keywords/<slug>`.
    apiUrl: { key: 'works_api_url', url: (id) => `${API}/works?filter=keywords.id:keywords/${shortId(id)}` },
  },
  concepts: {
    layout: ['wikidata', 'display_name', 'level', '@counts', '@ids', '@api_url'],
    ids: ['wikidata'],
    apiUrl: { key: 'works_api_url', url: worksUrl(COUNT_FILTERS.concepts) },
  },
}

// Sub-objects are cut down to the keys that describe the entity itself (`score`, `count` and the like
// belong to the embedding record).
const HIERARCHY_KEYS = ['id', 'display_name'] as const

/** The keys a derived record of this entity can have, in order (a key is left out when nothing states it). */
export function derivedRecordKeys(entity: DerivableEntity): string[] {
  const shape = SHAPES[entity]
  const keys = ['id']
  for (const key of shape.layout) {
    if (key === '@counts') keys.push('works_count', 'cited_by_count')
    else if (key === '@ids') keys.push('ids')
    else if (key === '@api_url') {
      if (shape.apiUrl) keys.push(shape.apiUrl.key)
    } else keys.push(key)
  }
  keys.push('updated_date')
  return keys
}

export interface DerivedRecordContext {
  readonly observations: ObservationIndex
  readonly counts: SampleCounts
  /** The sample's as-of timestamp, used as `updated_date`. */
  readonly asOf: string
}

export function buildDerivedRecord(
  entity: DerivableEntity,
  id: string,
  context: DerivedRecordContext,
): JsonObject {
  const shape = SHAPES[entity]
  const readable = shape.layout.filter((key) => !key.startsWith('@'))
  const idKeys = shape.ids.filter((key) => !readable.includes(key))
  const seen = context.observations.latestFields(id, [...readable, ...idKeys])
  const record: JsonObject = { id }
  for (const key of shape.layout) {
    switch (key) {
      case '@counts': {
        const count = context.counts.of(id)
        record.works_count = count.works_count
        record.cited_by_count = count.cited_by_count
        break
      }
      case '@ids': {
        const ids: JsonObject = { openalex: id }
        for (const idKey of shape.ids) {
          const value = seen[idKey]
          if (value !== undefined && value !== null) ids[idKey] = value
        }
        record.ids = ids
        break
      }
      case '@api_url':
        if (shape.apiUrl) record[shape.apiUrl.key] = shape.apiUrl.url(id)
        break
      default: {
        const value = seen[key]
        if (value !== undefined) record[key] = trimHierarchy(key, value)
        else if (key === 'display_name') record.display_name = null
      }
    }
  }
  record.updated_date = context.asOf
  return record
}

function trimHierarchy(key: string, value: JsonValue): JsonValue {
  if ((key === 'subfield' || key === 'field' || key === 'domain') && isJsonObject(value)) {
    const out: JsonObject = {}
    for (const k of HIERARCHY_KEYS) if (value[k] !== undefined) out[k] = value[k]
    return out
  }
  return value
}
