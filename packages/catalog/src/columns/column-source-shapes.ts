// The kinds of place a registry column's values can live in a catalog (column-sources.ts decides which, per
// entity): a typed scalar, a list, a link table, the external-id table, or one of a few computed forms; and how
// a group key read back from SQL becomes a bucket's key.
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import { catalogEntityInfo } from '../layout/catalog-entities.ts'
import type { ExternalIdScheme } from '../layout/external-id-schemes.ts'
import { fullOpenAlexId } from '../layout/openalex-id-normalizer.ts'
import type { GroupKeyFormat } from '../sql/compiled-query.ts'
import type { LinkExtremeColumns } from './link-view-names.ts'
import type { ValueCodec } from './value-codecs.ts'

/**
 * How a group key read from SQL becomes the key of a bucket: `value` as read; `entity` an id made a full
 * OpenAlex id of `entity` (letter ids whatever the entity); `code` a vocabulary code as read.
 */
export type GroupKeyKind =
  | { readonly kind: 'value' }
  | { readonly kind: 'entity'; readonly entity: CatalogEntity | null }
  | { readonly kind: 'code' }

/** How a group key read from SQL becomes a bucket's key, by its kind (the same for every engine). */
export const formatGroupKey = (kind: GroupKeyKind): GroupKeyFormat => {
  if (kind.kind === 'entity') {
    const info = kind.entity === null ? undefined : catalogEntityInfo(kind.entity)
    return (value) => {
      if (value === null || value === undefined) return null
      const text = String(value)
      if (/^[A-Za-z][0-9]+$/.test(text)) return `https://openalex.org/${text.toUpperCase()}`
      return info !== undefined && info.idKind === 'path' ? fullOpenAlexId(info, text) : text
    }
  }
  return (value) => {
    if (value === null || value === undefined) return null
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value
    return String(value)
  }
}

/** One value per row: a typed SQL expression over the entity view's columns. */
export interface ScalarSource {
  readonly kind: 'scalar'
  /** Typed SQL (number, DATE, TIMESTAMP, BOOLEAN or text); what sorts use. */
  readonly expr: string
  readonly codec: ValueCodec
  /** SQL of the group key (normalised so equal ids in different forms share a bucket). */
  readonly groupExpr: string
  readonly groupKey: GroupKeyKind
  /** `column`: a catalog column; `record`: the column's record-path column; `computed`: SQL of several. */
  readonly origin: 'column' | 'record' | 'computed'
}

/** Several values per row: a `VARCHAR[]` without nulls, a record-path column or SQL over some. */
export interface ListSource {
  readonly kind: 'list'
  readonly expr: string
  /** The typed form of one element `x` (a lambda body). */
  readonly element: (x: string) => string
  readonly codec: ValueCodec
  readonly groupElement: (x: string) => string
  readonly groupKey: GroupKeyKind
}

/**
 * A link table of works: `(key, work_id)`. It is the column's only copy in the catalog: a sort reads a work's
 * smallest or largest key from it, as it would from a list (the record's list of the same ids, kept beside
 * it until format 7, was the widest part of the works table: 45 of its 83 MB in the serving database at 100k).
 */
export interface LinkSource {
  readonly kind: 'link'
  /** The view name of the link table. */
  readonly view: string
  /** Its in-memory copy in `narrow` mode, `(key, work_row)`: keys sorted, works by their narrow row. */
  readonly narrowTable: string
  /**
   * The letter of the ids whose number (`I123` → 123) the narrow copy holds as its key, or null where it holds
   * the key's text (see `narrowLinkKeyLetter`).
   */
  readonly narrowKeyLetter: string | null
  /**
   * The columns of the serving database's `works__narrow` holding each work's smallest and largest key of
   * the link table (`linkExtremeColumnsOf`), which sorts read in `narrow` mode.
   */
  readonly extremeColumns: LinkExtremeColumns
  readonly codec: ValueCodec
  readonly groupKey: GroupKeyKind
}

/** An external id held by the external-id table (`ids.pmid`); the record's value serves sorts and groups. */
export interface ExternalIdSource {
  readonly kind: 'external-id'
  readonly entity: CatalogEntity
  readonly scheme: ExternalIdScheme
  readonly codec: ValueCodec
  readonly scalar: ScalarSource
}

/** A value that picks one of a few fixed predicates (`best_open_version: published`). */
export interface ChoiceSource {
  readonly kind: 'choice'
  /** Lower-cased value → predicate SQL. */
  readonly choices: ReadonlyMap<string, string>
  readonly scalar: ScalarSource
}

/** `doi_starts_with`: a prefix of a normalised column. */
export interface PrefixSource {
  readonly kind: 'prefix'
  readonly scalar: ScalarSource
}

/**
 * `cited_by:W1`, the works W1 cites: the citing side of the referenced-works link table. A row's own values,
 * what it sorts by and is `missing` without, are its references (`references`, that same table).
 */
export interface CitedBySource {
  readonly kind: 'cited-by'
  /** How a given work id is compared (the filter reads the link table by its short id in upper case). */
  readonly codec: ValueCodec
  readonly references: LinkSource
}

/** `related_to:W1`, W1's related works: read from its `related_works` list, which is also a row's own values. */
export interface RelatedToSource {
  readonly kind: 'related-to'
  readonly list: ListSource
}

/** The values a row holds itself, for sorts, ranges and `missing`, of a source with several values. */
export const ownValuesOf = (
  source: ListSource | LinkSource | CitedBySource | RelatedToSource,
): ListSource | LinkSource =>
  source.kind === 'cited-by' ? source.references : source.kind === 'related-to' ? source.list : source

/** A source with one value per row: a scalar, or a scalar that filters read another way. */
export type SingleValuedSource = ScalarSource | ExternalIdSource | ChoiceSource | PrefixSource

const SINGLE_VALUED_KINDS: ReadonlySet<string> = new Set(['scalar', 'external-id', 'choice', 'prefix'])

export const isSingleValued = (source: ColumnSource): source is SingleValuedSource =>
  SINGLE_VALUED_KINDS.has(source.kind)

/** The scalar a single-valued source holds per row, for ranges, sorts and groups. */
export const rowScalarOf = (source: SingleValuedSource): ScalarSource =>
  source.kind === 'scalar' ? source : source.scalar

export interface UnsupportedSource {
  readonly kind: 'unsupported'
  readonly message: string
}

export type ColumnSource =
  | ScalarSource
  | ListSource
  | LinkSource
  | ExternalIdSource
  | ChoiceSource
  | PrefixSource
  | CitedBySource
  | RelatedToSource
  | UnsupportedSource
