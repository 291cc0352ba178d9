// The on-disk layout of the search index under the catalog's `search/` folder, and the manifest that goes
// into `catalog.json` as `extensions.search`. README.md next to this file has the prose version.
//
//   search/<entity>/docs.parquet              (doc, id): the dense document number of each record, in id order
//   search/<entity>/doc-stats.parquet         (doc, field, length): tokens per document and stored field
//   search/<entity>/field-stats.parquet       (field, docs, tokens, avg_length): BM25 collection statistics
//   search/<entity>/<mode>-postings.parquet   (term, field, doc, tf, len, positions), sorted by term, field, doc
//   search/<entity>/<mode>-terms.parquet      (term, field, df, cf), sorted by term, field: the dictionary
//
// with <mode> `exact` or `stemmed`.
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import { type CatalogFile, SEARCH_DIR } from '../catalog/catalog-layout.ts'
import type { StoredFieldName } from './search-fields.ts'

export const SEARCH_INDEX_FORMAT = 'oqlkit-search-index'
/** Bumped when a file, column, tokenizer or stemmer rule changes meaning: an index of another version is rebuilt. */
export const SEARCH_INDEX_FORMAT_VERSION = 1
/** The key of the index in `catalog.json` `extensions`. */
export const SEARCH_EXTENSION_KEY = 'search'

export type SearchMode = 'stemmed' | 'exact'
export const SEARCH_MODES: readonly SearchMode[] = ['exact', 'stemmed']

/**
 * Positions of one document are numbered across all its stored fields and list elements, with this gap
 * between two texts, so a phrase or a proximity window never spans two texts (title and abstract, two
 * alternative names). Proximity windows are capped below it.
 */
export const SEGMENT_GAP = 1024
export const MAX_PROXIMITY_GAPS = 1000

export type SearchIndexFileKind = 'docs' | 'docStats' | 'fieldStats' | 'postings' | 'terms'

export const searchEntityDir = (entity: CatalogEntity): string => `${SEARCH_DIR}/${entity}`

export function searchFilePath(
  entity: CatalogEntity,
  kind: SearchIndexFileKind,
  mode: SearchMode = 'exact',
): string {
  const dir = searchEntityDir(entity)
  switch (kind) {
    case 'docs':
      return `${dir}/docs.parquet`
    case 'docStats':
      return `${dir}/doc-stats.parquet`
    case 'fieldStats':
      return `${dir}/field-stats.parquet`
    case 'postings':
      return `${dir}/${mode}-postings.parquet`
    case 'terms':
      return `${dir}/${mode}-terms.parquet`
  }
}

export interface SearchFieldStats {
  readonly name: StoredFieldName
  readonly code: number
  /** Documents with at least one token in the field. */
  readonly docs: number
  readonly tokens: number
  readonly avgLength: number
}

export interface SearchEntityIndex {
  readonly docs: number
  readonly fields: readonly SearchFieldStats[]
  readonly files: {
    readonly docs: string
    readonly docStats: string
    readonly fieldStats: string
    readonly exact: { readonly postings: string; readonly terms: string }
    readonly stemmed: { readonly postings: string; readonly terms: string }
  }
  /** Distinct terms per mode. */
  readonly terms: Readonly<Record<SearchMode, number>>
}

/** `catalog.json` `extensions.search`. */
export interface SearchIndexManifest {
  readonly format: typeof SEARCH_INDEX_FORMAT
  readonly formatVersion: typeof SEARCH_INDEX_FORMAT_VERSION
  readonly builtAt: string
  readonly tokenizer: string
  readonly stemmer: string
  readonly segmentGap: number
  readonly bm25: { readonly k1: number; readonly b: number }
  readonly entities: Readonly<Partial<Record<CatalogEntity, SearchEntityIndex>>>
  /** Every file of the index, to be appended to the catalog's `files`. */
  readonly files: readonly CatalogFile[]
}

export const SEARCH_TOKENIZER_ID = 'apostrophes-deleted+lower+strip-accents+split-non-letter-digit/1'
export const SEARCH_STEMMER_ID = 'porter-1980+bli+logi/1'
export const BM25_K1 = 1.2
export const BM25_B = 0.75
