import { type Column, type EntityType, propertiesRegistry } from '@oqlkit/oqo-schema'
import { CURATED_FIELDS } from '../fields/curated-fields.ts'
import { curatedColumnOf } from '../fields/field-words.ts'
import { OQL_FIELD_KIND_OF, type OqlFieldDefinition, type OqlFieldKind } from '../fields/oql-field.ts'

/**
 * What a field name means on one entity: the column a clause filters and the value grammar it takes.
 * Search fields name a base (`display_name`); the clause picks `.search`, `.search.exact` or
 * `.search.semantic` from the way the value is written.
 */
export interface FieldTarget {
  /** The canonical word (curated word or registry display name), for messages. */
  readonly word: string
  /** The column id, or for search fields the base column id. */
  readonly columnId: string
  /** The registry column on the entity (for search fields, the `.search` column), if the entity has it. */
  readonly column: Column | undefined
  readonly kind: OqlFieldKind
  readonly casing: 'lower' | 'upper' | undefined
  /** Numbers with decimals (FWCI, percentiles); integer fields reject them. */
  readonly float: boolean
  /** `>=` writes the `from` column and `<=` the `to` column, both with operator `is`. */
  readonly dateBounds: { readonly from: string; readonly to: string } | undefined
  /** `cites`, `cited by`, `related to`: the operator may be left out (`cites (W1)`). */
  readonly rowSubject: boolean
  readonly valueEntity: EntityType | null
  readonly search: { readonly base: string; readonly exact: boolean; readonly semantic: boolean } | undefined
}

/** A field name can name a search column and a value column (`name` on authors); the operator decides. */
export interface FieldEntry {
  readonly search?: FieldTarget
  readonly value?: FieldTarget
}

export interface FieldMatch {
  readonly entry: FieldEntry
  /** How many words the field name took. */
  readonly length: number
}

export interface FieldIndex {
  readonly entity: EntityType
  /** The longest field name (up to 4 words) at the start of `words` (lower-cased word tokens). */
  match(words: readonly string[]): FieldMatch | undefined
  /** Every field name of the entity with what it names, for autocompletion. */
  readonly names: ReadonlyMap<string, FieldEntry>
}

export const MAX_FIELD_WORDS = 4

const ROW_SUBJECT_COLUMNS: ReadonlySet<string> = new Set(['referenced_works', 'cited_by', 'related_to'])

// A name holding a character the lexer splits on, or more words than the matcher reads, cannot be typed.
const UNTYPEABLE = /[\s"[\](),;!]/
const phraseOf = (name: string): string | undefined => {
  const words = name.trim().toLowerCase().split(/\s+/)
  if (words.length > MAX_FIELD_WORDS || words.some((word) => word === '' || UNTYPEABLE.test(word)))
    return undefined
  return words.join(' ')
}

const isFilterable = (column: Column): boolean =>
  column.kind !== null &&
  (column.actions.includes('filter') || column.actions.includes('search') || column.kind === 'collection')

// Search modes are not fields of their own: only the `.search` column names a search field.
const isSearchMode = (column: Column): boolean => /\.search\.(exact|semantic)$/.test(column.id)

// §3.4 step 3: on works any documented column; elsewhere the GUI-faceted ones and every search column.
const fallbackEligible = (entity: EntityType, column: Column): boolean =>
  isFilterable(column) &&
  !isSearchMode(column) &&
  (entity === 'works'
    ? column.supportedBy.length > 0
    : column.supportedBy.includes('gui') || column.kind === 'search')

const curatedDateBounds = (columnId: string): FieldTarget['dateBounds'] =>
  CURATED_FIELDS.find((field) => field.column === columnId && field.dateBounds !== undefined)?.dateBounds

const searchOf = (entity: EntityType, base: string): FieldTarget['search'] => ({
  base,
  exact: propertiesRegistry.resolveColumn(entity, `${base}.search.exact`) !== undefined,
  semantic: propertiesRegistry.resolveColumn(entity, `${base}.search.semantic`) !== undefined,
})

const casingOf = (casing: string | undefined): FieldTarget['casing'] =>
  casing === 'lower' || casing === 'upper' ? casing : undefined

// A raw column id names exactly that column: `publication_date <= (d)` is that comparison, where the
// word `date` routes `<=` to `to_publication_date` (§3.6), so every date leaf has a way to be written.
const registryTarget = (entity: EntityType, column: Column, rawId = false): FieldTarget => {
  const kind = OQL_FIELD_KIND_OF[column.kind!]
  const base = kind === 'search' ? column.id.replace(/\.search$/, '') : column.id
  return {
    word: column.displayName,
    columnId: base,
    column,
    kind,
    casing: casingOf(column.casing),
    float: column.kind === 'float',
    dateBounds: rawId ? undefined : curatedDateBounds(column.id),
    rowSubject: ROW_SUBJECT_COLUMNS.has(column.id),
    valueEntity: column.valueEntity,
    search: kind === 'search' ? searchOf(entity, base) : undefined,
  }
}

const curatedTarget = (
  entity: EntityType,
  field: OqlFieldDefinition,
  column: Column | undefined,
): FieldTarget => {
  const search = field.kind === 'search'
  const columnId =
    column === undefined ? field.column : search ? column.id.replace(/\.search$/, '') : column.id
  // A word re-pointed to another kind of column (`work` is the collection of works, but `work_id` on
  // locations) takes that column's value grammar.
  const kind = column?.kind == null || search ? field.kind : OQL_FIELD_KIND_OF[column.kind]
  return {
    word: field.word,
    columnId,
    column,
    kind,
    // The registry's casing where the entity has the column (canonicalisation uses it too), so
    // `country code` is upper-case on institutions but verbatim on funders, where it is free text.
    casing: column === undefined ? field.casing : casingOf(column.casing),
    float: column?.kind === 'float',
    dateBounds: field.dateBounds,
    rowSubject: ROW_SUBJECT_COLUMNS.has(columnId),
    valueEntity: column?.valueEntity ?? null,
    search: search ? searchOf(entity, columnId) : undefined,
  }
}

const buildNames = (entity: EntityType): Map<string, FieldEntry> => {
  const names = new Map<string, FieldEntry>()
  // Registry names first (GUI-faceted columns before the others, so `domain` on works is the primary
  // topic's); curated names then replace them, as the curated match wins at equal length (§3.4).
  const columns = propertiesRegistry.columnsOf(entity).filter((column) => fallbackEligible(entity, column))
  const ordered = [
    ...columns.filter((column) => column.supportedBy.includes('gui')),
    ...columns.filter((column) => !column.supportedBy.includes('gui')),
  ]
  for (const column of ordered) {
    const slot = column.kind === 'search' ? 'search' : 'value'
    for (const name of [column.displayName, ...column.aliases, column.id]) {
      const phrase = phraseOf(name)
      if (phrase === undefined) continue
      const entry = names.get(phrase) ?? {}
      if (entry[slot] === undefined)
        names.set(phrase, { ...entry, [slot]: registryTarget(entity, column, phrase === column.id) })
    }
  }
  const curatedByPhrase = new Map<string, OqlFieldDefinition[]>()
  for (const field of CURATED_FIELDS)
    for (const name of [field.word, ...(field.spellings ?? [])]) {
      const phrase = phraseOf(name)
      if (phrase === undefined) continue
      const fields = curatedByPhrase.get(phrase) ?? []
      if (!fields.includes(field)) fields.push(field)
      curatedByPhrase.set(phrase, fields)
    }
  for (const [phrase, fields] of curatedByPhrase) {
    // A word the curated table lists twice (`DOAJ`) names the first of its columns the entity has.
    const resolved = fields
      .map((field) => ({ field, column: curatedColumnOf(entity, field) }))
      .find(({ column }) => column !== undefined)
    const slot = fields[0]!.kind === 'search' ? 'search' : 'value'
    // The curated word takes its slot. A curated search word is a search field only: `title is (x)` is
    // OQL_BAD_OPERATOR_FOR_FIELD, as the reference answers, though works have a `display_name` column
    // whose registry name is `title`. Only a raw column id keeps the value column of the same name
    // (`display_name is (x)`, `title is (x)` on locations), which is how the printer writes those leaves
    // (see `parsesBackTo`). A curated value word keeps a registry search column of its name.
    const otherSlot = slot === 'search' ? 'value' : 'search'
    const other = slot === 'search' ? rawColumnTarget(entity, phrase)?.value : names.get(phrase)?.[otherSlot]
    const base = other === undefined ? {} : { [otherSlot]: other }
    if (resolved !== undefined)
      names.set(phrase, { ...base, [slot]: curatedTarget(entity, resolved.field, resolved.column) })
    else if (names.get(phrase)?.[slot] === undefined)
      // The curated word means nothing on this entity: it still parses, and validation names the column.
      names.set(phrase, { ...base, [slot]: curatedTarget(entity, fields[0]!, undefined) })
  }
  return names
}

// §3.4 step 4: one word that is a column id (or alternate key) of the entity. The reference takes only
// documented, non-search columns (non-empty supported_by); this takes every filterable one and the
// `<base>.search` columns, so that any OQO the printer writes with a raw column id
// (`authorships.raw_orcid is (…)`, `keyword.search has (…)`) parses back.
const rawColumnTarget = (entity: EntityType, word: string): FieldEntry | undefined => {
  const column = propertiesRegistry.resolveColumn(entity, word)
  if (column === undefined || !isFilterable(column) || column.kind === 'collection' || isSearchMode(column))
    return undefined
  return column.kind === 'search'
    ? { search: registryTarget(entity, column, true) }
    : { value: registryTarget(entity, column, true) }
}

const buildFieldIndex = (entity: EntityType): FieldIndex => {
  const names = buildNames(entity)
  return {
    entity,
    names,
    match(words) {
      for (let length = Math.min(MAX_FIELD_WORDS, words.length); length > 0; length--) {
        const entry = names.get(length === 1 ? words[0]! : words.slice(0, length).join(' '))
        if (entry !== undefined) return { entry, length }
      }
      const first = words[0]
      const raw = first === undefined ? undefined : rawColumnTarget(entity, first)
      return raw === undefined ? undefined : { entry: raw, length: 1 }
    },
  }
}

const INDEXES = new Map<EntityType, FieldIndex>()

/** The field names of an entity, built on first use and kept (the registry does not change). */
export const fieldIndexOf = (entity: EntityType): FieldIndex => {
  let index = INDEXES.get(entity)
  if (index === undefined) {
    index = buildFieldIndex(entity)
    INDEXES.set(entity, index)
  }
  return index
}
