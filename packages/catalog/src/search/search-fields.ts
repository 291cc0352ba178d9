// What the search index holds per entity, following what the API's `search` targets (§2.2 of the API notes):
//   - stored fields: the texts that are tokenized, each with a code that is its `field` value in the index
//     files, and the SQL that reads it from a catalog row (`display_name` column, `record` JSON);
//   - search fields: what a query names (`display_name`, `title_and_abstract`, `text`, …), each a weighted
//     set of stored fields.
// Every SQL fragment here is a constant of this package; the tables are the allow-list that field names from
// a query are checked against.
import { CATALOG_ENTITY_NAMES, type CatalogEntity } from '../layout/catalog-entities.ts'

export type StoredFieldName =
  | 'display_name'
  | 'abstract'
  | 'fulltext'
  | 'display_name_alternatives'
  | 'display_name_acronyms'
  | 'alternate_titles'
  | 'abbreviated_title'
  | 'description'
  | 'keywords'

export interface StoredField {
  readonly name: StoredFieldName
  /** The `field` value of this field in the index files (stable across entities and builds). */
  readonly code: number
  /** The top-level key of `record` the field is read from (null: the `display_name` column). */
  readonly recordKey: string | null
  /** The DuckDB type the value is read as; a value of another shape reads as null. */
  readonly recordType: 'VARCHAR' | 'VARCHAR[]' | 'MAP(VARCHAR, INTEGER[])' | null
  /**
   * SQL turning the typed value into what `textsSql` reads, evaluated once per record: the abstract's
   * word → positions map becomes its entry list here, so the lambdas of `textsSql` do not redo it per word.
   */
  readonly prepareSql?: (value: string) => string
  /**
   * SQL giving the field's texts as VARCHAR[] from its (prepared) value: one element per value of a list
   * field, each its own segment of positions.
   */
  readonly textsSql: (value: string) => string
}

// The abstract is stored as word → positions; its text is the words in position order. Sorting BIGINT keys
// (position × 2^20 + entry number) is much faster in DuckDB than sorting structs.
const ENTRY_KEY = 1_048_576
const ABSTRACT: StoredField = {
  name: 'abstract',
  code: 1,
  recordKey: 'abstract_inverted_index',
  recordType: 'MAP(VARCHAR, INTEGER[])',
  prepareSql: (value) => `map_entries(${value})`,
  // `list_select` by entry number rather than `entries[…]` inside the lambda: a lambda that captures a list
  // is several times slower.
  textsSql: (entries) =>
    `[array_to_string(list_select(list_transform(${entries}, lambda entry: entry.key), list_transform(list_sort(flatten(list_transform(${entries}, lambda entry, i: list_transform(entry.value, lambda position: CAST(position AS BIGINT) * ${ENTRY_KEY} + i)))), lambda key: key % ${ENTRY_KEY})), ' ')]`,
}

const text = (name: StoredFieldName, code: number): StoredField => ({
  name,
  code,
  recordKey: name,
  recordType: 'VARCHAR',
  textsSql: (value) => `[${value}]`,
})
const textList = (name: StoredFieldName, code: number): StoredField => ({
  name,
  code,
  recordKey: name,
  recordType: 'VARCHAR[]',
  textsSql: (value) => value,
})

export const STORED_FIELDS: Readonly<Record<StoredFieldName, StoredField>> = {
  display_name: {
    name: 'display_name',
    code: 0,
    recordKey: null,
    recordType: null,
    textsSql: () => '[display_name]',
  },
  abstract: ABSTRACT,
  // Snapshots carry no full text today; a record that has a `fulltext` string gets it indexed.
  fulltext: text('fulltext', 2),
  display_name_alternatives: textList('display_name_alternatives', 3),
  display_name_acronyms: textList('display_name_acronyms', 4),
  alternate_titles: textList('alternate_titles', 5),
  abbreviated_title: text('abbreviated_title', 6),
  description: text('description', 7),
  keywords: textList('keywords', 8),
}

/** A stored field of a search field, with the weight its BM25 score is multiplied by. */
export interface WeightedField {
  readonly field: StoredFieldName
  readonly weight: number
}

/** Search fields of works: the `<base>` of `<base>.search[.exact]` columns. */
export type WorksSearchField = 'display_name' | 'abstract' | 'title_and_abstract' | 'fulltext'
/** Search fields of the other entities: `display_name.search`, `text` (the entity's `?search=`), … */
export type SearchFieldName = WorksSearchField | 'text' | 'description' | 'keywords'

// Works: `?search=` and `fulltext.search` are one query over title, abstract (boost 0.1, as the API's
// cross-field query) and full text; `title_and_abstract` is the same without full text. Other entities:
// `text` (their `?search=`) is the name plus the alternative names (weight 1) and the longer texts (0.5).
const WORKS_FIELDS: Readonly<Record<string, readonly WeightedField[]>> = {
  display_name: [{ field: 'display_name', weight: 1 }],
  abstract: [{ field: 'abstract', weight: 1 }],
  title_and_abstract: [
    { field: 'display_name', weight: 1 },
    { field: 'abstract', weight: 0.1 },
  ],
  fulltext: [
    { field: 'display_name', weight: 1 },
    { field: 'abstract', weight: 0.1 },
    { field: 'fulltext', weight: 0.1 },
  ],
}

const NAME: WeightedField = { field: 'display_name', weight: 1 }
const named = (...fields: WeightedField[]): Readonly<Record<string, readonly WeightedField[]>> => {
  const result: Record<string, readonly WeightedField[]> = { display_name: [NAME], text: [NAME, ...fields] }
  for (const { field } of fields) {
    if (field === 'description' || field === 'keywords') result[field] = [{ field, weight: 1 }]
  }
  return result
}
const alias = (field: StoredFieldName): WeightedField => ({ field, weight: 1 })
const longText = (field: StoredFieldName): WeightedField => ({ field, weight: 0.5 })

const ENTITY_FIELDS: Partial<Record<CatalogEntity, Readonly<Record<string, readonly WeightedField[]>>>> = {
  works: WORKS_FIELDS,
  authors: named(alias('display_name_alternatives')),
  institutions: named(alias('display_name_alternatives'), alias('display_name_acronyms')),
  sources: named(alias('alternate_titles'), alias('abbreviated_title')),
  publishers: named(alias('alternate_titles')),
  funders: named(alias('alternate_titles'), longText('description')),
  topics: named(longText('description'), longText('keywords')),
  concepts: named(longText('description')),
  awards: named(longText('description')),
}

/** The search fields of an entity and the stored fields each combines. */
export function searchFieldsOf(entity: CatalogEntity): Readonly<Record<string, readonly WeightedField[]>> {
  return ENTITY_FIELDS[entity] ?? named()
}

/** The stored fields an entity's index holds, in code order (which is also their order in a document). */
export function storedFieldsOf(entity: CatalogEntity): StoredField[] {
  const names = new Set<StoredFieldName>()
  for (const fields of Object.values(searchFieldsOf(entity))) for (const { field } of fields) names.add(field)
  return [...names].map((name) => STORED_FIELDS[name]).sort((a, b) => a.code - b.code)
}

/** The stored fields behind `field` of `entity`, or undefined when the entity has no such search field. */
export function weightedFieldsOf(entity: CatalogEntity, field: string): readonly WeightedField[] | undefined {
  const fields = searchFieldsOf(entity)
  return Object.hasOwn(fields, field) ? fields[field] : undefined
}

/** The search field `?search=` targets: the full-text one for works, `text` elsewhere. */
export const defaultSearchField = (entity: CatalogEntity): SearchFieldName =>
  entity === 'works' ? 'fulltext' : 'text'

/** Every entity of the catalog (the default set to index). */
export const SEARCHABLE_ENTITIES: readonly CatalogEntity[] = CATALOG_ENTITY_NAMES
