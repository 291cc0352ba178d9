// The PostgreSQL baseline's tables: the flattened layout of OpenAlex's own "load the snapshot into
// PostgreSQL" scripts (works and its side tables, one row per author × institution, per concept, per topic,
// per location, per reference; sub-objects kept as `json`), written here from the documented column lists.
// Those scripts create no keys and almost no indexes; a fair baseline adds primary keys and an index on every
// column the benchmark's queries filter, join, group or sort on, built after the load as a DBA would.

export interface PostgresTable {
  readonly name: string
  /** Column name and SQL type, in the order the flattener writes them. */
  readonly columns: readonly (readonly [string, string])[]
  readonly primaryKey?: readonly string[]
  /** Secondary indexes, each a list of columns (or one expression). */
  readonly indexes?: readonly (readonly string[])[]
}

const location = (name: string, keyed: boolean): PostgresTable => ({
  name,
  columns: [
    ['work_id', 'text NOT NULL'],
    ['source_id', 'text'],
    ['landing_page_url', 'text'],
    ['pdf_url', 'text'],
    ['is_oa', 'boolean'],
    ['version', 'text'],
    ['license', 'text'],
  ],
  ...(keyed ? { primaryKey: ['work_id'] } : { indexes: [['work_id']] }),
})

export const WORK_TABLES: readonly PostgresTable[] = [
  {
    name: 'works',
    columns: [
      ['id', 'text NOT NULL'],
      ['doi', 'text'],
      ['title', 'text'],
      ['display_name', 'text'],
      ['publication_year', 'integer'],
      ['publication_date', 'text'],
      ['type', 'text'],
      ['cited_by_count', 'integer'],
      ['is_retracted', 'boolean'],
      ['is_paratext', 'boolean'],
      ['cited_by_api_url', 'text'],
      ['abstract_inverted_index', 'json'],
      ['language', 'text'],
      // Not in the scripts' schema (it predates xpac works), but the API leaves xpac works out by default,
      // so the baseline needs it to ask the same questions.
      ['is_xpac', 'boolean'],
    ],
    primaryKey: ['id'],
    indexes: [['doi'], ['publication_year'], ['type'], ['cited_by_count'], ['publication_date']],
  },
  {
    name: 'works_ids',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['openalex', 'text'],
      ['doi', 'text'],
      ['mag', 'bigint'],
      ['pmid', 'text'],
      ['pmcid', 'text'],
    ],
    primaryKey: ['work_id'],
    indexes: [['doi']],
  },
  {
    name: 'works_open_access',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['is_oa', 'boolean'],
      ['oa_status', 'text'],
      ['oa_url', 'text'],
      ['any_repository_has_fulltext', 'boolean'],
    ],
    primaryKey: ['work_id'],
    indexes: [['is_oa']],
  },
  {
    name: 'works_biblio',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['volume', 'text'],
      ['issue', 'text'],
      ['first_page', 'text'],
      ['last_page', 'text'],
    ],
    primaryKey: ['work_id'],
  },
  {
    // One row per author × institution, as the scripts write it: an author has no natural key here (the
    // same author may sit at several institutions, an institution may be missing), so no primary key.
    name: 'works_authorships',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['author_position', 'text'],
      ['author_id', 'text'],
      ['institution_id', 'text'],
      ['raw_affiliation_string', 'text'],
    ],
    indexes: [['work_id'], ['author_id'], ['institution_id']],
  },
  {
    name: 'works_concepts',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['concept_id', 'text NOT NULL'],
      ['score', 'real'],
    ],
    primaryKey: ['work_id', 'concept_id'],
    indexes: [['concept_id']],
  },
  {
    name: 'works_topics',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['topic_id', 'text NOT NULL'],
      ['score', 'real'],
    ],
    primaryKey: ['work_id', 'topic_id'],
    indexes: [['topic_id']],
  },
  location('works_primary_locations', true),
  location('works_locations', false),
  location('works_best_oa_locations', true),
  {
    name: 'works_referenced_works',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['referenced_work_id', 'text NOT NULL'],
    ],
    primaryKey: ['work_id', 'referenced_work_id'],
    indexes: [['referenced_work_id']],
  },
  {
    name: 'works_related_works',
    columns: [
      ['work_id', 'text NOT NULL'],
      ['related_work_id', 'text NOT NULL'],
    ],
    primaryKey: ['work_id', 'related_work_id'],
  },
]

export const INSTITUTIONS_TABLE: PostgresTable = {
  name: 'institutions',
  columns: [
    ['id', 'text NOT NULL'],
    ['ror', 'text'],
    ['display_name', 'text'],
    ['country_code', 'text'],
    ['type', 'text'],
    ['homepage_url', 'text'],
    ['display_name_acronyms', 'json'],
    ['display_name_alternatives', 'json'],
    ['works_count', 'integer'],
    ['cited_by_count', 'integer'],
    ['updated_date', 'text'],
  ],
  primaryKey: ['id'],
  indexes: [['country_code']],
}

export const TOPICS_TABLE: PostgresTable = {
  name: 'topics',
  columns: [
    ['id', 'text NOT NULL'],
    ['display_name', 'text'],
    ['subfield_id', 'text'],
    ['subfield_display_name', 'text'],
    ['field_id', 'text'],
    ['field_display_name', 'text'],
    ['domain_id', 'text'],
    ['domain_display_name', 'text'],
    ['description', 'text'],
    ['keywords', 'json'],
    ['works_count', 'integer'],
    ['cited_by_count', 'integer'],
    ['updated_date', 'text'],
  ],
  primaryKey: ['id'],
}

export const ALL_TABLES: readonly PostgresTable[] = [...WORK_TABLES, INSTITUTIONS_TABLE, TOPICS_TABLE]

/**
 * The full-text column the search baseline queries: title and the abstract's words (the keys of the
 * inverted index), weighted title first, with a GIN index: what PostgreSQL offers for "search, by relevance".
 */
export const SEARCH_VECTOR_DDL = [
  `ALTER TABLE works ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
     setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
     setweight(jsonb_to_tsvector('english', coalesce(abstract_inverted_index::jsonb, '{}'::jsonb), '["key"]'), 'B')
   ) STORED`,
  'CREATE INDEX works_search_vector_idx ON works USING gin (search_vector)',
]

export const createTableSql = (table: PostgresTable): string =>
  `CREATE TABLE ${table.name} (${table.columns.map(([name, type]) => `${name} ${type}`).join(', ')})`

/** Primary keys and indexes, made after the rows are in (much faster than maintaining them row by row). */
export const keyAndIndexSql = (table: PostgresTable): string[] => [
  ...(table.primaryKey === undefined
    ? []
    : [`ALTER TABLE ${table.name} ADD PRIMARY KEY (${table.primaryKey.join(', ')})`]),
  ...(table.indexes ?? []).map(
    (columns) =>
      `CREATE INDEX ${table.name}_${columns.join('_')}_idx ON ${table.name} (${columns.join(', ')})`,
  ),
]
