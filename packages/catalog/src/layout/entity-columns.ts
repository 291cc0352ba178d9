// The typed columns the catalog derives from each record, for filters, sorts and group-bys. They are a
// copy for speed: the record itself (the `record` column) stays the answer. Every column name here is an
// allow-listed SQL identifier; every path is a constant of this file.
import type { CatalogEntity } from './catalog-entities.ts'
import type { ExternalIdScheme } from './external-id-schemes.ts'

export type CatalogColumnType =
  | 'VARCHAR'
  | 'VARCHAR[]'
  | 'BIGINT'
  | 'INTEGER'
  | 'DOUBLE'
  | 'BOOLEAN'
  | 'DATE'
  | 'TIMESTAMP'

/**
 * How a JSON value becomes a column value:
 * `value` the scalar as is; `letter-id` the short form of an OpenAlex letter id (`S123`, `P123`, `I123`);
 * `path-id` the last segment of a vocabulary id (`subfields/2303` gives `2303`); `upper` upper-cased text;
 * `array-length` the length of an array; an external id scheme: the normalised id (see external-id-schemes).
 */
export type ValueTransform = 'value' | 'letter-id' | 'path-id' | 'upper' | 'array-length' | ExternalIdScheme

export interface ValueSource {
  /** A JSON path without wildcards, e.g. `$.open_access.is_oa`. */
  readonly path: string
  readonly transform: ValueTransform
}

export interface DerivedColumn {
  readonly name: string
  readonly type: CatalogColumnType
  /** The first source that yields a value wins. */
  readonly sources: readonly ValueSource[]
  /** `presence`: true when a source yields a value, false otherwise (never null). */
  readonly kind: 'value' | 'presence'
  /** The value when no source yields one (a SQL literal from this file), else null. */
  readonly fallback: 'false' | null
  readonly description: string
}

const from = (path: string, transform: ValueTransform = 'value'): ValueSource => ({ path, transform })

const column = (
  name: string,
  type: CatalogColumnType,
  sources: readonly ValueSource[],
  description: string,
  fallback: 'false' | null = null,
): DerivedColumn => Object.freeze({ name, type, sources, kind: 'value', fallback, description })

const presence = (name: string, sources: readonly ValueSource[], description: string): DerivedColumn =>
  Object.freeze({ name, type: 'BOOLEAN', sources, kind: 'presence', fallback: null, description })

/** A column stored under its own name in the record, described by that name. */
const stored = (name: string, type: CatalogColumnType): DerivedColumn =>
  column(name, type, [from(`$.${name}`)], name)

/** The short form of an OpenAlex id the record holds at `path`. */
const shortId = (name: string, path: string, transform: 'letter-id' | 'path-id'): DerivedColumn =>
  column(name, 'VARCHAR', [from(`$.${path}`, transform)], `${path}, short`)

/** An external id, normalised, from its own field or else the record's `ids`. */
const normalisedId = (name: string, scheme: ExternalIdScheme): DerivedColumn =>
  column(name, 'VARCHAR', [from(`$.${name}`, scheme), from(`$.ids.${name}`, scheme)], `${name}, normalised`)

/** Columns every entity table has, between the id columns and the dates. */
export const COMMON_COLUMNS: readonly DerivedColumn[] = [
  stored('display_name', 'VARCHAR'),
  stored('works_count', 'BIGINT'),
  stored('cited_by_count', 'BIGINT'),
  column('created_date', 'DATE', [from('$.created_date')], 'created_date (date part)'),
]

const summaryStats: readonly DerivedColumn[] = [
  column('h_index', 'INTEGER', [from('$.summary_stats.h_index')], 'summary_stats.h_index'),
  column('i10_index', 'INTEGER', [from('$.summary_stats.i10_index')], 'summary_stats.i10_index'),
  column(
    'two_yr_mean_citedness',
    'DOUBLE',
    [from('$.summary_stats."2yr_mean_citedness"')],
    'summary_stats.2yr_mean_citedness',
  ),
]

const WORKS: readonly DerivedColumn[] = [
  stored('publication_year', 'INTEGER'),
  stored('publication_date', 'DATE'),
  column('type', 'VARCHAR', [from('$.type')], 'type (as the record writes it)'),
  stored('type_crossref', 'VARCHAR'),
  stored('language', 'VARCHAR'),
  column('is_oa', 'BOOLEAN', [from('$.open_access.is_oa')], 'open_access.is_oa'),
  column('oa_status', 'VARCHAR', [from('$.open_access.oa_status')], 'open_access.oa_status'),
  stored('is_retracted', 'BOOLEAN'),
  stored('is_paratext', 'BOOLEAN'),
  column(
    'doi',
    'VARCHAR',
    [from('$.doi', 'doi'), from('$.ids.doi', 'doi')],
    'doi, normalised (lower case, no prefix)',
  ),
  presence('has_doi', [from('$.doi', 'doi'), from('$.ids.doi', 'doi')], 'the work has a DOI'),
  presence('has_abstract', [from('$.abstract_inverted_index')], 'abstract_inverted_index is not null'),
  stored('has_fulltext', 'BOOLEAN'),
  shortId('primary_source_id', 'primary_location.source.id', 'letter-id'),
  shortId('primary_topic_id', 'primary_topic.id', 'letter-id'),
  shortId('primary_subfield_id', 'primary_topic.subfield.id', 'path-id'),
  shortId('primary_field_id', 'primary_topic.field.id', 'path-id'),
  shortId('primary_domain_id', 'primary_topic.domain.id', 'path-id'),
  stored('fwci', 'DOUBLE'),
  column('is_xpac', 'BOOLEAN', [from('$.is_xpac')], 'is_xpac; false when the record does not say', 'false'),
  column(
    'authors_count',
    'INTEGER',
    [from('$.authors_count'), from('$.authorships', 'array-length')],
    'authors_count, else the number of authorships',
  ),
  column(
    'referenced_works_count',
    'INTEGER',
    [from('$.referenced_works_count'), from('$.referenced_works', 'array-length')],
    'referenced_works_count, else the number of referenced_works',
  ),
  stored('countries_distinct_count', 'INTEGER'),
  stored('institutions_distinct_count', 'INTEGER'),
]

const SPECIFIC: Readonly<Partial<Record<CatalogEntity, readonly DerivedColumn[]>>> = {
  works: WORKS,
  authors: [
    normalisedId('orcid', 'orcid'),
    column(
      'last_known_institution_id',
      'VARCHAR',
      [
        from('$.last_known_institutions[0].id', 'letter-id'),
        from('$.last_known_institution.id', 'letter-id'),
      ],
      'the first last_known_institutions id (or the older last_known_institution), short',
    ),
    ...summaryStats,
  ],
  sources: [
    normalisedId('issn_l', 'issn'),
    stored('type', 'VARCHAR'),
    stored('is_oa', 'BOOLEAN'),
    stored('is_in_doaj', 'BOOLEAN'),
    stored('is_core', 'BOOLEAN'),
    column(
      'host_organization_id',
      'VARCHAR',
      [from('$.host_organization', 'letter-id')],
      'host_organization, short (a publisher or an institution)',
    ),
    column('country_code', 'VARCHAR', [from('$.country_code', 'upper')], 'country_code'),
    ...summaryStats,
  ],
  institutions: [
    normalisedId('ror', 'ror'),
    column('country_code', 'VARCHAR', [from('$.country_code', 'upper')], 'country_code'),
    stored('type', 'VARCHAR'),
    ...summaryStats,
  ],
  publishers: [
    stored('hierarchy_level', 'INTEGER'),
    column(
      'parent_publisher_id',
      'VARCHAR',
      [from('$.parent_publisher.id', 'letter-id'), from('$.parent_publisher', 'letter-id')],
      'parent_publisher, short',
    ),
    column('ror', 'VARCHAR', [from('$.ids.ror', 'ror')], 'ids.ror, normalised'),
  ],
  funders: [
    column('country_code', 'VARCHAR', [from('$.country_code', 'upper')], 'country_code'),
    column('ror', 'VARCHAR', [from('$.ids.ror', 'ror')], 'ids.ror, normalised'),
  ],
  awards: [shortId('funder_id', 'funder.id', 'letter-id'), stored('funder_award_id', 'VARCHAR')],
  topics: [
    shortId('subfield_id', 'subfield.id', 'path-id'),
    shortId('field_id', 'field.id', 'path-id'),
    shortId('domain_id', 'domain.id', 'path-id'),
  ],
  subfields: [shortId('field_id', 'field.id', 'path-id'), shortId('domain_id', 'domain.id', 'path-id')],
  fields: [shortId('domain_id', 'domain.id', 'path-id')],
  concepts: [stored('level', 'INTEGER'), normalisedId('wikidata', 'wikidata')],
  countries: [column('country_code', 'VARCHAR', [from('$.country_code', 'upper')], 'country_code')],
}

/** The derived columns of an entity table: the common ones, then the entity's own. */
export function derivedColumnsOf(entity: CatalogEntity): readonly DerivedColumn[] {
  return [...COMMON_COLUMNS, ...(SPECIFIC[entity] ?? [])]
}
