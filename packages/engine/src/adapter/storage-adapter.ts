import type { EntityType } from '@oqlkit/oqo-schema/registry'
import type { FilterNode } from '../plan/filter-node.ts'
import type { QueryPlan } from '../plan/query-plan.ts'

/** An entity as stored: the record exactly as ingested (every field, nested objects and arrays). */
export type EntityRecord = Readonly<Record<string, unknown>>

export interface RowsResult {
  /** Exact number of rows that match the filter (before paging or sampling). */
  readonly count: number
  /** The page of records, each with `relevance_score` when the query searched. */
  readonly rows: readonly EntityRecord[]
  /**
   * The same page as the UTF-8 JSON bytes the adapter stores, when the rows are those records unchanged
   * (no select, no score): a response sends those bytes as they are, rather than decoding them, parsing
   * them and writing the same records again.
   */
  readonly rowsJsonBytes?: readonly Uint8Array[]
  /** Sort-key values of the last row, for the next cursor page; null when there is no further page. */
  readonly nextAfter: readonly unknown[] | null
}

export interface GroupBucket {
  /** One key per group dimension: the value as stored (an id URL, a code, a year, a boolean) or null for unknown. */
  readonly keys: readonly (string | number | boolean | null)[]
  readonly count: number
}

export interface GroupsResult {
  /** Rows matching the filter. */
  readonly count: number
  /** Number of distinct buckets (before paging). */
  readonly groupsCount: number
  readonly groups: readonly GroupBucket[]
}

/** The external id schemes a singleton can be looked up by. */
export type ExternalIdScheme = 'doi' | 'orcid' | 'ror' | 'issn' | 'pmid' | 'pmcid' | 'mag' | 'wikidata'

export type LookupResult =
  | {
      readonly status: 'found'
      readonly record: EntityRecord
      /**
       * The record's UTF-8 JSON bytes as the adapter stores them, when it has them: a response with
       * nothing to select sends them as they are, instead of parsing them and writing the same record again.
       */
      readonly jsonBytes?: Uint8Array
    }
  /** The id was merged into another: answer 301 to it. */
  | { readonly status: 'merged'; readonly id: string }
  /** The id was deleted from the catalog: answer 404, saying so. */
  | { readonly status: 'deleted' }
  | { readonly status: 'missing' }

/** One id of a bulk lookup: an OpenAlex id in any form and case, or an external id (normalised by the adapter). */
export type LookupKey =
  | { readonly kind: 'openalex'; readonly id: string }
  | { readonly kind: 'external'; readonly scheme: ExternalIdScheme; readonly value: string }

/** One citation between two works the storage holds: `citing` lists `cited` in its `referenced_works` (short ids). */
export interface Citation {
  readonly citing: string
  readonly cited: string
}

/** Which citations of some works `findCitations` looks up. */
export type CitationDirection = 'cited' | 'citing' | 'between'

/** The citations `findCitations` found, and the cited works it left out because it does not hold them. */
export interface CitationsResult {
  readonly citations: readonly Citation[]
  /** The short ids of the works the given works cite that the storage does not hold, each once (none for `citing`). */
  readonly citedNotHeld: readonly string[]
}

/**
 * What a storage adapter can do. Every flag is optional and documented with its default, so a new
 * flag never breaks an adapter written before it (kysely's dialect-adapter approach).
 */
export interface AdapterCapabilities {
  /** Full-text search (`SearchNode` with mode stemmed/exact). Default false. */
  readonly fullTextSearch?: boolean
  /** Semantic (vector) search (`SearchNode` with mode semantic). Default false. */
  readonly semanticSearch?: boolean
  /** Grouping on more than one dimension. Default false. */
  readonly multiDimensionGroupBy?: boolean
  /**
   * `queryGroups` honours `plan.groupOrder` (buckets by key, or by count ascending). Default false: the
   * adapter returns buckets by count descending, then key, and the engine orders other requests itself
   * (it reads every bucket, up to a limit, and pages them).
   */
  readonly groupOrder?: boolean
}

/** A type-ahead lookup: records of one entity whose display name starts a word with `text`. */
export interface AutocompleteRequest {
  readonly entity: EntityType
  /** What the user typed so far (trimmed, not empty). */
  readonly text: string
  /** How many records to return at most. */
  readonly limit: number
  /** Records must also match this filter (it holds no search nodes), or null for none. */
  readonly filter: FilterNode | null
}

/**
 * How one storage call may be stopped. When `signal` fires, the adapter interrupts the work it runs for the
 * call (a running statement, a statement waiting for a connection) and rejects with a
 * `QueryInterruptedError`; the storage stays usable for every other call.
 */
export interface QueryOptions {
  readonly signal?: AbortSignal
}

/** How `findMany` answers. */
export interface LookupOptions extends QueryOptions {
  /**
   * The top-level fields wanted (a lookup's `select`); all when absent. A storage may answer each found entity
   * with less than its record where that saves work: its id alone (`{"id": "https://openalex.org/W…"}`, no
   * record read) when only `id` is wanted, a work's `abstract_inverted_index` as `null` when that is not.
   */
  readonly fields?: readonly string[]
}

/** The storage behind the engine. The DuckDB adapter is one; the conformance suite pins the behaviour. */
export interface StorageAdapter {
  readonly capabilities: AdapterCapabilities
  /** Rows of a plan without `groupBy`. */
  queryRows(plan: QueryPlan, options?: QueryOptions): Promise<RowsResult>
  /** Buckets of a plan with `groupBy`. */
  queryGroups(plan: QueryPlan, options?: QueryOptions): Promise<GroupsResult>
  /** One entity by its OpenAlex id (short form, any case: `W2741809807`). */
  findById(entity: EntityType, id: string, options?: QueryOptions): Promise<LookupResult>
  /** One entity by an external id, normalised by the adapter (`10.1038/nature12373`, an ORCID URL, …). */
  findByExternalId(
    entity: EntityType,
    scheme: ExternalIdScheme,
    value: string,
    options?: QueryOptions,
  ): Promise<LookupResult>
  /**
   * Many entities at once (`POST /{entities}/lookup`): one result per key, in the keys' order, each what
   * `findById` or `findByExternalId` answers for it (a merged id is answered `merged`, not followed).
   * Optional: without it the engine asks for each key in turn (`lookupEntities`).
   */
  findMany?(
    entity: EntityType,
    keys: readonly LookupKey[],
    options?: LookupOptions,
  ): Promise<readonly LookupResult[]>
  /**
   * The citations of works (short ids, any case) between works the storage holds: with `cited`, those the given
   * works make (their references); with `citing`, those made to the given works; with `between`, those both made
   * and received by the given works (the citation network among them). Any order, each once. Optional: without
   * it a snowball reads the references from the records and the citing works through `queryRows`
   * (`snowballWorks`), which costs the records of every work it reaches.
   */
  findCitations?(
    ids: readonly string[],
    direction: CitationDirection,
    options?: QueryOptions,
  ): Promise<CitationsResult>
  /**
   * Which of some works (short ids, any case) the storage holds under that id, as short ids, each once, in any
   * order; no record is read. A snowball's first step toward cited works reads the seeds' references from their
   * records and keeps the works held, where `findCitations(seeds, 'cited')` would read a link table by its citing
   * side, which it is not sorted by. Optional, beside `findCitations`.
   */
  findHeldWorks?(ids: readonly string[], options?: QueryOptions): Promise<readonly string[]>
  /** A random entity (the `/works/random` singleton). */
  findRandom(entity: EntityType, options?: QueryOptions): Promise<LookupResult>
  /**
   * Type-ahead (`/autocomplete`): records whose display name is `text`, starts with it, or has a word
   * starting with it (a phrase prefix: `univ of cal` matches "University of California"), best first:
   * exact names, then names that start with the text, then the rest; within each, the most cited (works)
   * or the most productive (other entities) first. Optional: without it the engine searches display
   * names through `queryRows`, when the adapter has full-text search.
   */
  autocomplete?(request: AutocompleteRequest, options?: QueryOptions): Promise<readonly EntityRecord[]>
  /**
   * The totals a plan asks for (`plan.sums`), in that order: each the sum of its numeric column over every
   * row the plan's filter and corpus keep, whatever its page, sample or grouping. Rows without a value add
   * nothing; no rows sum to 0. Optional: without it, a plan with sums is refused as unsupported (501).
   */
  sumColumns?(plan: QueryPlan, options?: QueryOptions): Promise<readonly number[]>
  close(): Promise<void>
}
