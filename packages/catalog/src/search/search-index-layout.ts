// The on-disk layout of the search index under the catalog's `search/` folder, and the manifest that goes
// into `catalog.json` as `extensions.search`. README.md next to this file has the prose version.
//
//   search/<entity>/docs.parquet                      (doc, id): the document number of each record
//   search/<entity>/doc-stats.parquet                 (doc, field, length): tokens per document and stored field
//   search/<entity>/field-stats.parquet               (field, docs, tokens, avg_length): BM25 collection statistics
//   search/<entity>/<mode>-postings/<bucket>.parquet  (term, field, doc, tf, len, positions) of one range of
//                                                     terms, sorted by term, field, doc
//   search/<entity>/<mode>-terms.parquet              (term, field, df, cf), sorted by term, field: the dictionary
//   search/<entity>/<mode>-delta.parquet              after an update: the postings of the documents added or
//                                                     revised since the buckets were written, sorted as they are
//   search/<entity>/delta-masked.parquet              after an update: (doc) of the documents whose postings in the
//                                                     buckets no longer count (revised, merged or deleted)
//
// with <mode> `exact` or `stemmed`, and <bucket> `00000`, `00001`, … (the buckets' terms follow each other).
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import { type CatalogFile, SEARCH_DIR } from '../layout/catalog-layout.ts'
import type { StoredFieldName } from './search-fields.ts'

export const SEARCH_INDEX_FORMAT = 'oqlkit-search-index'
/** Bumped when a file, column, tokenizer or stemmer rule changes meaning: an index of another version is rebuilt. */
export const SEARCH_INDEX_FORMAT_VERSION = 3
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

/**
 * The most tokens (words, phrase words, proximity words) one search may hold: its cost grows with them, one
 * read of postings each. Enough for a pasted title or a long boolean query; a passage of text is what
 * semantic search is for.
 */
export const MAX_SEARCH_TERMS = 100

/** The most wildcard tokens one search may hold: each reads a range of the term dictionary and its postings. */
export const MAX_SEARCH_WILDCARDS = 10

/**
 * The most index terms one wildcard may stand for (Lucene's intervals allow 128; a prefix of 3 letters can
 * match thousands of terms in a large catalog). More is refused with a message that says to lengthen the prefix.
 */
export const MAX_WILDCARD_EXPANSIONS = 500

export type SearchIndexFileKind =
  | 'docs'
  | 'docStats'
  | 'fieldStats'
  | 'postings'
  | 'terms'
  | 'delta'
  | 'masked'

export const searchEntityDir = (entity: CatalogEntity): string => `${SEARCH_DIR}/${entity}`

/** The path of an index file; postings take the bucket's number. */
export function searchFilePath(
  entity: CatalogEntity,
  kind: SearchIndexFileKind,
  mode: SearchMode = 'exact',
  bucket = 0,
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
      return `${dir}/${mode}-postings/${String(bucket).padStart(5, '0')}.parquet`
    case 'terms':
      return `${dir}/${mode}-terms.parquet`
    case 'delta':
      return `${dir}/${mode}-delta.parquet`
    case 'masked':
      return `${dir}/delta-masked.parquet`
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

/** The files of one mode: the dictionary, and postings in buckets of terms. */
export interface SearchModeFiles {
  /** One file per bucket, in term order. */
  readonly postings: readonly string[]
  /** The smallest term of each bucket (the first is `''`): bucket `i` holds the terms in `[bounds[i], bounds[i + 1])`. */
  readonly bounds: readonly string[]
  readonly terms: string
  /**
   * Postings (over all fields) of the most frequent terms, at most `FREQUENT_TERMS` of those with at least
   * `MIN_FREQUENT_ROWS`: a term not listed has fewer than any listed. Lets a query start from its rarest word.
   */
  readonly frequent: Readonly<Record<string, number>>
}

export const FREQUENT_TERMS = 500
export const MIN_FREQUENT_ROWS = 1_000

export interface SearchEntityIndex {
  readonly docs: number
  /**
   * How documents are numbered. A letter (`W`): every id is that letter and a number, and `doc` is the
   * number, so a search gives ids back as the letter and `doc` without reading `docs.parquet`. Null: `doc` is
   * the record's rank in id order, and ids come from `docs.parquet`.
   */
  readonly idPrefix: string | null
  readonly fields: readonly SearchFieldStats[]
  readonly files: {
    readonly docs: string
    readonly docStats: string
    readonly fieldStats: string
    readonly exact: SearchModeFiles
    readonly stemmed: SearchModeFiles
  }
  /** Distinct terms per mode. */
  readonly terms: Readonly<Record<SearchMode, number>>
  /**
   * What updates changed since the buckets were written (absent after a full build). The buckets stay as
   * they were; a term's postings are those of its bucket whose document is not `masked`, and those of the
   * mode's delta file. Everything else the entry names (documents, statistics, dictionaries, `frequent`)
   * describes the index as it is now, delta included.
   */
  readonly delta?: SearchDelta
}

/** The documents updates added, revised or removed since an entity's buckets were written. */
export interface SearchDelta {
  /** Documents whose postings are in the delta files: added or revised since the buckets were written. */
  readonly docs: number
  /** `(doc)`: the documents of the buckets whose postings there no longer count, in order. */
  readonly masked: string
  readonly maskedDocs: number
  /** Per mode, the postings of the delta's documents, `(term, field, doc, tf, len, positions)` in that order. */
  readonly exact: string
  readonly stemmed: string
  /** Per mode, the postings that count: the buckets' of documents not masked, and the delta file's. */
  readonly postings: Readonly<Record<SearchMode, number>>
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

/**
 * The manifest of an index this version builds, over `entities` and written as `files`: its format, the text
 * analysis and the ranking constants are this module's, so a builder cannot record others than it used.
 */
export function searchIndexManifest(
  entities: SearchIndexManifest['entities'],
  files: readonly CatalogFile[],
  builtAt: Date,
): SearchIndexManifest {
  return {
    format: SEARCH_INDEX_FORMAT,
    formatVersion: SEARCH_INDEX_FORMAT_VERSION,
    builtAt: builtAt.toISOString(),
    tokenizer: SEARCH_TOKENIZER_ID,
    stemmer: SEARCH_STEMMER_ID,
    segmentGap: SEGMENT_GAP,
    bm25: { k1: BM25_K1, b: BM25_B },
    entities,
    files,
  }
}

/** Orders terms as DuckDB orders VARCHAR: by their UTF-8 bytes, which is code point order. */
export function compareTerms(a: string, b: string): number {
  const left = a[Symbol.iterator]()
  const right = b[Symbol.iterator]()
  for (;;) {
    const x = left.next()
    const y = right.next()
    if (x.done === true || y.done === true) return x.done === true ? (y.done === true ? 0 : -1) : 1
    const difference = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0)
    if (difference !== 0) return difference
  }
}

/**
 * The postings files that hold `term`, or every term in `[term, high)` when `high` is given: the buckets
 * whose range meets it, in order.
 */
export function postingsFilesOf(files: SearchModeFiles, term: string, high?: string): readonly string[] {
  const { bounds, postings } = files
  // The last bucket starting at or before `term` (the first starts at '', before every term).
  let first = 0
  while (first + 1 < bounds.length && compareTerms(bounds[first + 1] ?? '', term) <= 0) first++
  let last = first
  if (high !== undefined)
    while (last + 1 < bounds.length && compareTerms(bounds[last + 1] ?? '', high) < 0) last++
  return postings.slice(first, last + 1)
}
