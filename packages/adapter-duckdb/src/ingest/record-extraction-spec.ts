// What ingest computes from each record of an entity, as plain data a worker thread can be given: the
// sources of the derived columns, the record-path columns, the external ids, the link keys (works) and the
// text fields the search index, vectors and tagger read. The lists come from the catalog's registries; the
// worker (record-extractor.ts) needs nothing else, so it stays free of the query side's modules.
import { CATALOG_ENTITIES, type CatalogEntity, catalogEntityInfo } from '../catalog/catalog-entities.ts'
import { derivedColumnsOf, type ValueSource } from '../catalog/entity-columns.ts'
import { EXTERNAL_ID_SCHEMES, type ExternalIdScheme } from '../catalog/external-id-schemes.ts'
import { LINK_TABLES, type LinkKeyTransform } from '../catalog/link-tables.ts'
import type { RecordPathForm } from '../catalog/record-path-columns.ts'
import { recordPathColumnsOf } from '../query/column-sources.ts'

export interface LinkKeySpec {
  readonly transform: LinkKeyTransform
  /** The id letter keys must have (`letter-id` links), else null. */
  readonly letter: string | null
  /** Paths from the record's root; `[*]` flattens lists. */
  readonly paths: readonly string[]
}

export interface RecordExtractionSpec {
  readonly entity: CatalogEntity
  /** Per derived column (in `derivedColumnsOf` order), its sources: the first that yields a value wins. */
  readonly derived: readonly (readonly ValueSource[])[]
  readonly pathColumns: readonly {
    readonly name: string
    readonly path: string
    readonly form: RecordPathForm
  }[]
  readonly externalIds: readonly { readonly scheme: ExternalIdScheme; readonly path: string }[]
  /** Works only: one entry per link table, in `LINK_TABLES` order. */
  readonly links: readonly LinkKeySpec[]
  /** Top-level keys kept in the `texts` column (what the index builders read of a record). */
  readonly textKeys: readonly string[]
}

/**
 * The keys of a record the builders that run after the tables read: the search index's stored fields, the
 * abstract and title the vectors embed, and the tagger's training texts (title, abstract, keywords, concepts,
 * topics). Everything else of the record is only ever served, from the record store.
 */
export const TEXT_KEYS: readonly string[] = [
  'title',
  'display_name',
  'abstract_inverted_index',
  'fulltext',
  'display_name_alternatives',
  'display_name_acronyms',
  'alternate_titles',
  'abbreviated_title',
  'description',
  'keywords',
  'concepts',
  'topics',
]

export function recordExtractionSpecOf(entity: CatalogEntity): RecordExtractionSpec {
  return {
    entity,
    derived: derivedColumnsOf(entity).map((column) => column.sources),
    pathColumns: recordPathColumnsOf(entity).map(({ name, path, form }) => ({ name, path, form })),
    externalIds: EXTERNAL_ID_SCHEMES.flatMap((spec) =>
      spec.sources
        .filter((source) => source.entities === undefined || source.entities.includes(entity))
        .map((source) => ({ scheme: spec.scheme, path: source.path })),
    ),
    links:
      entity === 'works'
        ? LINK_TABLES.map((spec) => ({
            transform: spec.transform,
            letter: spec.transform === 'letter-id' ? catalogEntityInfo(spec.keyEntity)!.letter : null,
            paths: spec.sources.map((source) => `$.${source.field}${source.path.slice(1)}`),
          }))
        : [],
    textKeys: TEXT_KEYS,
  }
}

export const recordExtractionSpecs = (): Record<CatalogEntity, RecordExtractionSpec> =>
  Object.fromEntries(
    CATALOG_ENTITIES.map((info) => [info.entity, recordExtractionSpecOf(info.entity)]),
  ) as Record<CatalogEntity, RecordExtractionSpec>
