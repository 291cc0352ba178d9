// What a classic filter field means over the sample records, written from the API documentation (the field
// names state the record path; the exceptions below are documented ones), not from the server's column map.
// A field the records cannot answer (continent and Global South need a country table the sample lacks) has
// no meaning here and is only checked to be accepted.
import {
  byId,
  idKey,
  normalizeExternal,
  records,
  type SampleRecord,
  shortId,
  valuesAt,
} from './sample-oracle.ts'

/** The registry's value kinds (spec/properties.json `value_kind`). */
export type ValueKind = 'number' | 'float' | 'date' | 'datetime' | 'boolean' | 'entity_id' | 'enum' | 'string'

/** Where a field's values are in a record: paths whose values are united. */
export type Reader = (record: SampleRecord) => unknown[]

const at =
  (...paths: string[]): Reader =>
  (record) =>
    paths.flatMap((path) => valuesAt(record, path))

const present =
  (...paths: string[]): Reader =>
  (record) => [paths.some((path) => valuesAt(record, path).length > 0)]

/** A count that OpenAlex defines as the length of a list, for records that do not state it (no list: 0). */
const countOf =
  (field: string, list: string): Reader =>
  (record) => {
    const stated = record[field]
    if (typeof stated === 'number') return [stated]
    return [Array.isArray(record[list]) ? (record[list] as unknown[]).length : 0]
  }

/** Institutions of a work's authorships with every id of their lineage (embedded or from the institution record). */
const institutionLineage: Reader = (work) => {
  const ids = new Set<string>()
  for (const institution of valuesAt(work, 'authorships.institutions')) {
    const object = institution as Record<string, unknown>
    ids.add(idKey(object.id))
    for (const parent of valuesAt(object, 'lineage')) ids.add(idKey(parent))
    for (const parent of valuesAt(byId('institutions', String(object.id)) ?? {}, 'lineage'))
      ids.add(idKey(parent))
  }
  return [...ids]
}

/** Special readers per entity and field (documented meanings where the field name is not the record path). */
const SPECIAL: Readonly<Record<string, Readonly<Record<string, Reader | 'unsupported'>>>> = {
  works: {
    has_doi: present('doi', 'ids.doi'),
    has_pmid: present('ids.pmid'),
    has_pmcid: present('ids.pmcid'),
    has_abstract: present('abstract_inverted_index'),
    has_references: present('referenced_works'),
    has_orcid: present('authorships.author.orcid'),
    has_pdf_url: present('locations.pdf_url'),
    has_raw_affiliation_strings: present('authorships.raw_affiliation_strings'),
    'primary_location.source.has_issn': present('primary_location.source.issn'),
    'locations.source.has_issn': present('locations.source.issn'),
    authors_count: countOf('authors_count', 'authorships'),
    concepts_count: countOf('concepts_count', 'concepts'),
    topics_count: countOf('topics_count', 'topics'),
    locations_count: countOf('locations_count', 'locations'),
    referenced_works_count: countOf('referenced_works_count', 'referenced_works'),
    repository: at('locations.source.id', 'primary_location.source.id'),
    'locations.source.id': at('locations.source.id', 'primary_location.source.id'),
    'topics.id': at('topics.id', 'primary_topic.id'),
    'funders.id': at('funders.id', 'grants.funder', 'awards.funder_id'),
    'authorships.countries': at('authorships.countries', 'authorships.institutions.country_code'),
    'authorships.institutions.lineage': institutionLineage,
    raw_affiliation_strings: at('authorships.raw_affiliation_strings'),
    'ids.openalex': at('id'),
    doi: at('doi', 'ids.doi'),
    // No table in the sample says which continent a country is on, or which countries are the Global South.
    'authorships.institutions.continent': 'unsupported',
    'authorships.institutions.is_global_south': 'unsupported',
  },
  authors: {
    has_orcid: present('orcid', 'ids.orcid'),
    orcid: at('orcid', 'ids.orcid'),
    scopus: at('ids.scopus'),
    'ids.openalex': at('id'),
    'last_known_institutions.continent': 'unsupported',
    'last_known_institutions.is_global_south': 'unsupported',
  },
  institutions: {
    has_ror: present('ror', 'ids.ror'),
    ror: at('ror', 'ids.ror'),
    'ids.openalex': at('id'),
    continent: 'unsupported',
    is_global_south: 'unsupported',
  },
  sources: {
    has_issn: present('issn', 'issn_l'),
    'host_organization.id': at('host_organization'),
    issn: at('issn', 'issn_l'),
    'ids.openalex': at('id'),
    continent: 'unsupported',
    is_global_south: 'unsupported',
  },
  publishers: {
    'ids.openalex': at('id'),
    'ids.ror': at('ids.ror', 'ror'),
    continent: 'unsupported',
  },
  funders: {
    'ids.openalex': at('id'),
    'ids.ror': at('ids.ror', 'ror'),
    continent: 'unsupported',
    is_global_south: 'unsupported',
  },
  concepts: {
    has_wikidata: present('wikidata', 'ids.wikidata'),
    wikidata_id: at('wikidata', 'ids.wikidata'),
    'ids.openalex': at('id'),
  },
  topics: { 'ids.openalex': at('id') },
}

const DATE_FIELD: Readonly<Record<string, string>> = {
  publication_date: 'publication_date',
  created_date: 'created_date',
  updated_date: 'updated_date',
}

export type FieldMeaning =
  | { readonly kind: 'read'; readonly read: Reader }
  | { readonly kind: 'range'; readonly field: string; readonly bound: 'from' | 'to' }
  | { readonly kind: 'unknown'; readonly why: string }

/** What a filter field of an entity means over the records. */
export function fieldMeaning(entity: string, field: string): FieldMeaning {
  const special = SPECIAL[entity]?.[field]
  if (special === 'unsupported')
    return { kind: 'unknown', why: 'the sample states no continent / Global South membership' }
  if (special) return { kind: 'read', read: special }
  const range = /^(from|to)_(publication|created|updated)_date$/.exec(field)
  if (range) {
    const [, bound, which] = range
    return { kind: 'range', field: DATE_FIELD[`${which}_date`]!, bound: bound as 'from' | 'to' }
  }
  if (field === 'id') return { kind: 'read', read: at('id') }
  if (records(entity).some((record) => valuesAt(record, field).length > 0))
    return { kind: 'read', read: at(field) }
  return { kind: 'unknown', why: `no ${entity} record states ${field}` }
}

/** A stated value as it is compared: ids and codes by their last segment, external ids without prefix. */
export function comparable(kind: ValueKind, value: unknown): string {
  const raw =
    value !== null && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : value
  if (kind === 'entity_id' || kind === 'enum') return idKey(raw)
  if (kind === 'string') {
    const text = normalizeExternal('', raw)
    // ids stated as URLs of the catalog compare by their last segment, like entity ids
    return text.startsWith('https://openalex.org/') ? idKey(text) : text
  }
  return String(raw).toLowerCase()
}

/** The input value a test sends for a stated value. */
export function inputValue(kind: ValueKind, value: unknown): string {
  const raw =
    value !== null && typeof value === 'object' && 'id' in value ? (value as { id: unknown }).id : value
  if (kind === 'entity_id' || kind === 'enum') return shortId(raw)
  return String(raw)
}

/** Characters of the filter grammar: a chosen value must not contain them, or it would not be one literal. */
export const isPlainValue = (value: string): boolean =>
  value !== '' && !/[,|+!"]/.test(value) && value.trim() === value && value.length < 200
