import type { ValueKind } from '@oqlkit/oqo-schema'

/**
 * The kind of an OQL field decides the grammar of its values (OQL v2.2 §3.4):
 * `search` takes a search expression after `has`; `num`, `date` and `bool` take one scalar;
 * `id`, `enum` and `string` take values joined by and/or/not; `collection` takes `col_…` ids.
 */
export type OqlFieldKind = 'search' | 'num' | 'date' | 'bool' | 'id' | 'enum' | 'string' | 'collection'

export interface OqlFieldDefinition {
  /** The canonical word the printer writes (`title/abstract`, `year`, `FWCI`). */
  readonly word: string
  /** The works column; for search fields the base that `.search`, `.search.exact` or `.search.semantic` extends. */
  readonly column: string
  readonly kind: OqlFieldKind
  /** How enum values are written canonically. */
  readonly casing?: 'lower' | 'upper'
  /** Other spellings accepted on input (lower case), besides the word itself. */
  readonly spellings?: readonly string[]
  /** For dates: `>=` writes the `from` column and `<=` the `to` column, both with operator `is`. */
  readonly dateBounds?: { readonly from: string; readonly to: string }
  /** For the `from_*` / `to_*` columns: the date field and operator they print as. */
  readonly boundOf?: { readonly word: string; readonly operator: '>=' | '<=' }
}

/** The OQL field kind of a registry value kind: the value grammar a column's values are written in. */
export const OQL_FIELD_KIND_OF: Readonly<Record<ValueKind, OqlFieldKind>> = {
  number: 'num',
  float: 'num',
  date: 'date',
  datetime: 'date',
  boolean: 'bool',
  entity_id: 'id',
  enum: 'enum',
  string: 'string',
  search: 'search',
  collection: 'collection',
}
