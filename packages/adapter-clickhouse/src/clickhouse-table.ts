// What one ClickHouse table of a catalog is: its columns, order and placement on a cluster, and where its rows
// come from in the catalog folder. The schema (`clickhouse-schema.ts`) and the modules that add tables of
// their own (the search index, the vectors and model files) all write these, so this type has a file of its
// own that they share rather than import from each other.
import type { CatalogEntity, CatalogIdOrder } from '@oqlkit/catalog'

export interface ClickHouseColumn {
  readonly name: string
  readonly type: string
  /** A column codec (`ZSTD(3)`) where the default LZ4 is not the best choice. */
  readonly codec?: string
}

/** Where a table's rows come from in the catalog folder (or, for its tables since format 9, their exported files). */
export type TableSource =
  | {
      readonly kind: 'parquet'
      /** Paths with `/` separators, under the catalog folder, or under the table files' folder (`inTableFiles`). */
      readonly files: readonly string[]
      readonly rows: number
      /**
       * A table of the catalog kept in its serving database alone (format 9: its manifest entry lists no file):
       * `files` is its path in the catalog layout, read from the folder of the catalog's tables exported as
       * Parquet (`LoadOptions.tableFiles`), not from the catalog folder.
       */
      readonly inTableFiles?: boolean
      /**
       * A link table of works: its files hold `(key, work_id)`, and the table each row's work's `is_xpac`
       * (`work_is_xpac`) and sort keys (`work_<column>`) beside them, filled from a scratch table of the files'
       * rows joined to the loaded works.
       */
      readonly withWorkCorpus?: boolean
      /**
       * An entity table whose columns' values the loader counts once the rows are in (`catalog-loader.ts`): a
       * text column of few values becomes LowCardinality, and, for works, a column of few values gets a
       * projection of its counts by corpus.
       */
      readonly measureColumns?: boolean
      /**
       * A search postings table of an updated index: `files` are its buckets, whose rows of the documents
       * `masked` lists (a Parquet file of `doc`) no longer count, and `delta` holds the rows that count beside
       * them (`@oqlkit/catalog`'s search README); `rows` counts what is loaded.
       */
      readonly postingsDelta?: { readonly masked: string; readonly delta: string }
    }
  | { readonly kind: 'records'; readonly entity: CatalogEntity; readonly rows: number }
  /** The works' vectors: ids and norms from `idsFile` (Parquet), int8 rows of `dimensions` bytes from `matrixFile`. */
  | {
      readonly kind: 'vectors'
      readonly idsFile: string
      readonly matrixFile: string
      readonly dimensions: number
      readonly rows: number
      /** The catalog's id order, which both files follow. */
      readonly order: CatalogIdOrder
    }
  /**
   * An entity's type-ahead index (`clickhouse-autocomplete-index.ts`), filled from its loaded table: one row per
   * word of each name, so its count is not the entity's (`rows`) and is checked by none.
   */
  | { readonly kind: 'autocomplete'; readonly entity: CatalogEntity; readonly rows: number }
  /** Files of the catalog folder, each a row `(path, content)`. */
  | { readonly kind: 'files'; readonly files: readonly string[]; readonly rows: number }

export interface ClickHouseTable {
  readonly name: string
  readonly columns: readonly ClickHouseColumn[]
  readonly orderBy: readonly string[]
  /**
   * On a cluster, the rows are spread over the shards by the hash of this expression of the table's columns
   * (written by this package, never from input): the id of the work or entity a row belongs to.
   */
  readonly shardBy: string
  /** Projections of the table, each `name (SELECT …)`: kept by ClickHouse beside every part. */
  readonly projections?: readonly string[]
  /** MergeTree settings of the table, where the defaults do not suit it. */
  readonly settings?: string
  /** On a cluster, whole on every node (one replicated table, no Distributed one) rather than sharded. */
  readonly wholeOnEveryNode?: boolean
  readonly source: TableSource
}
