// What ingest computes from each record of an entity, as plain data a worker thread can be given: the
// sources of the derived columns, the record-path columns, the external ids and the link keys (works). The
// text fields the search index, vectors and tagger read are not among them: those builders read them from
// the record store (`../catalog/record-texts-file.ts`). The lists come from the catalog's registries; the
// worker (record-extractor.ts) needs nothing else, so it stays free of the query side's modules.

import { recordPathColumnsOf } from '@oqlkit/adapter-duckdb'
import type { RecordPathForm } from '@oqlkit/catalog'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  catalogEntityInfo,
  derivedColumnsOf,
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  LINK_TABLES,
  type LinkKeyTransform,
  type ValueSource,
} from '@oqlkit/catalog'

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
  /**
   * Per derived column, whether only its presence is kept (`kind: 'presence'`, loaded as `IS NOT NULL`): the
   * extractor then tests for a value without writing it out (`has_abstract`'s value is a whole inverted index).
   */
  readonly presence: readonly boolean[]
  readonly pathColumns: readonly {
    readonly name: string
    readonly path: string
    readonly form: RecordPathForm
  }[]
  readonly externalIds: readonly { readonly scheme: ExternalIdScheme; readonly path: string }[]
  /** Works only: one entry per link table, in `LINK_TABLES` order. */
  readonly links: readonly LinkKeySpec[]
}

export function recordExtractionSpecOf(entity: CatalogEntity): RecordExtractionSpec {
  return {
    entity,
    derived: derivedColumnsOf(entity).map((column) => column.sources),
    presence: derivedColumnsOf(entity).map((column) => column.kind === 'presence'),
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
  }
}

export const recordExtractionSpecs = (): Record<CatalogEntity, RecordExtractionSpec> =>
  Object.fromEntries(
    CATALOG_ENTITIES.map((info) => [info.entity, recordExtractionSpecOf(info.entity)]),
  ) as Record<CatalogEntity, RecordExtractionSpec>
