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

/** Columns every entity table has, between the id columns and the dates. */
export const COMMON_COLUMNS: readonly DerivedColumn[] = [
  column('display_name', 'VARCHAR', [from('$.display_name')], 'display_name'),
  column('works_count', 'BIGINT', [from('$.works_count')], 'works_count'),
  column('cited_by_count', 'BIGINT', [from('$.cited_by_count')], 'cited_by_count'),
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
  column('publication_year', 'INTEGER', [from('$.publication_year')], 'publication_year'),
  column('publication_date', 'DATE', [from('$.publication_date')], 'publication_date'),
  column('type', 'VARCHAR', [from('$.type')], 'type (as the record writes it)'),
  column('type_crossref', 'VARCHAR', [from('$.type_crossref')], 'type_crossref'),
  column('language', 'VARCHAR', [from('$.language')], 'language'),
  column('is_oa', 'BOOLEAN', [from('$.open_access.is_oa')], 'open_access.is_oa'),
  column('oa_status', 'VARCHAR', [from('$.open_access.oa_status')], 'open_access.oa_status'),
  column('is_retracted', 'BOOLEAN', [from('$.is_retracted')], 'is_retracted'),
  column('is_paratext', 'BOOLEAN', [from('$.is_paratext')], 'is_paratext'),
  column(
    'doi',
    'VARCHAR',
    [from('$.doi', 'doi'), from('$.ids.doi', 'doi')],
    'doi, normalised (lower case, no prefix)',
  ),
  presence('has_doi', [from('$.doi', 'doi'), from('$.ids.doi', 'doi')], 'the work has a DOI'),
  presence('has_abstract', [from('$.abstract_inverted_index')], 'abstract_inverted_index is not null'),
  column('has_fulltext', 'BOOLEAN', [from('$.has_fulltext')], 'has_fulltext'),
  column(
    'primary_source_id',
    'VARCHAR',
    [from('$.primary_location.source.id', 'letter-id')],
    'primary_location.source.id, short',
  ),
  column('primary_topic_id', 'VARCHAR', [from('$.primary_topic.id', 'letter-id')], 'primary_topic.id, short'),
  column(
    'primary_subfield_id',
    'VARCHAR',
    [from('$.primary_topic.subfield.id', 'path-id')],
    'primary_topic.subfield.id, short',
  ),
  column(
    'primary_field_id',
    'VARCHAR',
    [from('$.primary_topic.field.id', 'path-id')],
    'primary_topic.field.id, short',
  ),
  column(
    'primary_domain_id',
    'VARCHAR',
    [from('$.primary_topic.domain.id', 'path-id')],
    'primary_topic.domain.id, short',
  ),
  column('fwci', 'DOUBLE', [from('$.fwci')], 'fwci'),
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
  column(
    'countries_distinct_count',
    'INTEGER',
    [from('$.countries_distinct_count')],
    'countries_distinct_count',
  ),
  column(
    'institutions_distinct_count',
    'INTEGER',
    [from('$.institutions_distinct_count')],
    'institutions_distinct_count',
  ),
]

const SPECIFIC: Readonly<Partial<Record<CatalogEntity, readonly DerivedColumn[]>>> = {
  works: WORKS,
  authors: [
    column('orcid', 'VARCHAR', [from('$.orcid', 'orcid'), from('$.ids.orcid', 'orcid')], 'orcid, normalised'),
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
    column(
      'issn_l',
      'VARCHAR',
      [from('$.issn_l', 'issn'), from('$.ids.issn_l', 'issn')],
      'issn_l, normalised',
    ),
    column('type', 'VARCHAR', [from('$.type')], 'type'),
    column('is_oa', 'BOOLEAN', [from('$.is_oa')], 'is_oa'),
    column('is_in_doaj', 'BOOLEAN', [from('$.is_in_doaj')], 'is_in_doaj'),
    column('is_core', 'BOOLEAN', [from('$.is_core')], 'is_core'),
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
    column('ror', 'VARCHAR', [from('$.ror', 'ror'), from('$.ids.ror', 'ror')], 'ror, normalised'),
    column('country_code', 'VARCHAR', [from('$.country_code', 'upper')], 'country_code'),
    column('type', 'VARCHAR', [from('$.type')], 'type'),
    ...summaryStats,
  ],
  publishers: [
    column('hierarchy_level', 'INTEGER', [from('$.hierarchy_level')], 'hierarchy_level'),
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
  awards: [
    column('funder_id', 'VARCHAR', [from('$.funder.id', 'letter-id')], 'funder.id, short'),
    column('funder_award_id', 'VARCHAR', [from('$.funder_award_id')], 'funder_award_id'),
  ],
  topics: [
    column('subfield_id', 'VARCHAR', [from('$.subfield.id', 'path-id')], 'subfield.id, short'),
    column('field_id', 'VARCHAR', [from('$.field.id', 'path-id')], 'field.id, short'),
    column('domain_id', 'VARCHAR', [from('$.domain.id', 'path-id')], 'domain.id, short'),
  ],
  subfields: [
    column('field_id', 'VARCHAR', [from('$.field.id', 'path-id')], 'field.id, short'),
    column('domain_id', 'VARCHAR', [from('$.domain.id', 'path-id')], 'domain.id, short'),
  ],
  fields: [column('domain_id', 'VARCHAR', [from('$.domain.id', 'path-id')], 'domain.id, short')],
  concepts: [
    column('level', 'INTEGER', [from('$.level')], 'level'),
    column(
      'wikidata',
      'VARCHAR',
      [from('$.wikidata', 'wikidata'), from('$.ids.wikidata', 'wikidata')],
      'wikidata, normalised',
    ),
  ],
  countries: [column('country_code', 'VARCHAR', [from('$.country_code', 'upper')], 'country_code')],
}

/** The derived columns of an entity table: the common ones, then the entity's own. */
export function derivedColumnsOf(entity: CatalogEntity): readonly DerivedColumn[] {
  return [...COMMON_COLUMNS, ...(SPECIFIC[entity] ?? [])]
}
