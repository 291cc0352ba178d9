import { type Column, type EntityType, isEntityType, propertiesRegistry } from '@oqlkit/oqo-schema'
import { CURATED_FIELDS } from './curated-fields.ts'
import { OQL_FIELD_KIND_OF, type OqlFieldDefinition, type OqlFieldKind } from './oql-field.ts'

// Column → OQL word: which word names a registry column of an entity in OQL text, and what else a
// printer must know about the column (search mode, date-bound routing, row-subject verb, annotation).
// The parser needs the same answers the other way round, so both share the rules below:
//
// 1. A curated word (Appendix A) names, on an entity, the column returned by `curatedColumnOf`: the
//    entity's column whose display name or alias is the word (a GUI-faceted one first), otherwise the
//    curated column itself when the entity has it. `domain` is `primary_topic.domain.id` on works and
//    `domain.id` on topics; `ORCID` is `orcid` on authors.
// 2. A column prints with the curated word whose own column it is (`topics` for `topics.id` on authors,
//    not `topic`), else with a curated word re-pointed to it, else with its registry display name or an
//    alias when that word parses back to it and to nothing else (`parsesBackTo`), else as its raw id.
// 3. Search columns print the word of their base column (`display_name` is `title` on works and `name`
//    elsewhere); the mode lives in the `.search` / `.search.exact` / `.search.semantic` suffix.
//
// API: `fieldWordFor` (column → word and facts), `curatedColumnOf` (curated word → column on an entity),
// `parsesBackTo` (does a registry word name exactly this column) and `splitSearchColumn`.

export type SearchMode = 'stemmed' | 'exact' | 'semantic'

/** A search column split into the base its OQL word names and the mode its suffix selects. */
export interface SearchColumn {
  readonly base: string
  readonly mode: SearchMode
}

/** The row-subject verbs: the citation columns of works read as a sentence about the row (#557). */
export type RowSubjectVerb = 'it cites' | "it's cited by" | "it's related to"

export interface OqlFieldWord {
  /** The word to print (`title/abstract`, `year`, `FWCI`, or a raw column id such as `topics.domain.id`). */
  readonly word: string
  /** Where the word comes from; `raw` words may not parse back (see `parsesBackTo`). */
  readonly source: 'curated' | 'registry' | 'raw'
  /** The canonical column id (alternate keys resolved). */
  readonly columnId: string
  /** The registry column, when the entity has one. */
  readonly column: Column | undefined
  /** The value grammar of the column; undefined for columns the registry does not know. */
  readonly kind: OqlFieldKind | undefined
  /** For search columns: the base and mode (`display_name.search.exact` is `display_name`, `exact`). */
  readonly search?: SearchColumn
  /** For `from_*` / `to_*` columns: an `is` leaf prints as this word with this comparison (`date >=`). */
  readonly dateBound?: { readonly word: string; readonly operator: '>=' | '<=' }
  /**
   * For the date columns (`publication_date`, …): the columns `>=` and `<=` are written to, so a
   * `date >= (…)` clause means the `from` column, and a leaf of this column with `>=` has no word of its own.
   */
  readonly boundColumns?: { readonly from: string; readonly to: string }
  /** For `referenced_works`, `cited_by` and `related_to` on works: the verb an `is` leaf prints as. */
  readonly verb?: RowSubjectVerb
  /**
   * The entity whose display names annotate this column's values (`[Harvard]`): opaque ids and codes
   * of closed vocabularies (countries, languages, SDGs, …). Undefined for readable slugs (work types,
   * OA statuses, …), for the row's own id and for columns that hold no entity ids.
   */
  readonly nameEntity?: EntityType
}

// The answers depend only on the bundled registry and the curated table, so each is worked out once.
const curatedColumns = new Map<string, Map<OqlFieldDefinition, Column | undefined>>()
const fieldWords = new Map<string, Map<string, OqlFieldWord>>()

const cached = <K, V>(cache: Map<string, Map<K, V>>, entity: string, key: K, compute: () => V): V => {
  let byKey = cache.get(entity)
  if (byKey === undefined) {
    byKey = new Map<K, V>()
    cache.set(entity, byKey)
  }
  const found = byKey.get(key)
  if (found !== undefined || byKey.has(key)) return found as V
  const value = compute()
  byKey.set(key, value)
  return value
}

const SEARCH_SUFFIX = /^(.+)\.search(?:\.(exact|semantic))?$/

/** Splits `<base>.search[.exact|.semantic]`; undefined for any other column id. */
export const splitSearchColumn = (columnId: string): SearchColumn | undefined => {
  const match = SEARCH_SUFFIX.exec(columnId)
  if (match === null) return undefined
  const suffix = match[2]
  return {
    base: match[1]!,
    mode: suffix === 'exact' ? 'exact' : suffix === 'semantic' ? 'semantic' : 'stemmed',
  }
}

const VERBS: Readonly<Record<string, RowSubjectVerb>> = {
  referenced_works: 'it cites',
  cited_by: "it's cited by",
  related_to: "it's related to",
}

// Value vocabularies whose codes read as words: printing their names next to them adds nothing.
const UNANNOTATED_ENTITIES: ReadonlySet<EntityType> = new Set([
  'types',
  'oa-statuses',
  'source-types',
  'institution-types',
  'licenses',
  'indexes',
])

// Words that end a field name or start a clause, and characters the lexer splits on: a display name
// holding one of them would not read back as that field.
const RESERVED_FIELD_TOKENS: ReadonlySet<string> = new Set([
  'is',
  'has',
  'not',
  'and',
  'or',
  '&',
  'does',
  "doesn't",
  'doesnt',
  'where',
  'group',
  'sample',
  'seed',
  'it',
  "it's",
  'its',
  'the',
  'unknown',
  'null',
])
const LEXER_SPLIT = /[\s"[\](),;!<>]/

const isSearchColumn = (column: Column): boolean => column.kind === 'search'

const namesOf = (column: Column): string[] =>
  [column.displayName, ...column.aliases].map((name) => name.toLowerCase())

// Only columns a condition can name: select-only result fields (`topics`, `authorships`) have no OQL word.
const isFilterable = (column: Column): boolean =>
  column.kind !== null &&
  (column.actions.includes('filter') || column.actions.includes('search') || column.kind === 'collection')

const entityColumns = (entity: EntityType): readonly Column[] =>
  propertiesRegistry.columnsOf(entity).filter(isFilterable)

/**
 * The column a curated word names on an entity (rule 1 above), or undefined when the word means
 * nothing there. Search words give the `<base>.search` column. Shared with the parser.
 */
export const curatedColumnOf = (entity: EntityType, field: OqlFieldDefinition): Column | undefined =>
  cached(curatedColumns, entity, field, () => findCuratedColumn(entity, field))

const findCuratedColumn = (entity: EntityType, field: OqlFieldDefinition): Column | undefined => {
  const search = field.kind === 'search'
  const word = field.word.toLowerCase()
  const named = entityColumns(entity).filter(
    (column) => isSearchColumn(column) === search && !column.unlisted && namesOf(column).includes(word),
  )
  const preferred = named.find((column) => column.supportedBy.includes('gui')) ?? named[0]
  if (preferred !== undefined) return preferred
  return propertiesRegistry.resolveColumn(entity, search ? `${field.column}.search` : field.column)
}

// The parser's entity fallback only reads the names of columns people pick in the GUI (on works, of
// any documented column; elsewhere also every search column).
const fallbackEligible = (entity: EntityType, column: Column): boolean =>
  entity === 'works'
    ? column.supportedBy.length > 0
    : column.supportedBy.includes('gui') || isSearchColumn(column)

const hasReservedToken = (word: string): boolean =>
  word.length === 0 ||
  LEXER_SPLIT.test(word.replaceAll(' ', '')) ||
  word
    .toLowerCase()
    .split(' ')
    .some((token) => token === '' || RESERVED_FIELD_TOKENS.has(token))

/**
 * Whether `word` (a registry display name or alias) read as a field on `entity` names `column` and
 * nothing else: it holds no keyword, no curated word claims it for another column, and no other
 * column the parser's fallback reads has it (search and value columns are told apart by the clause).
 */
export const parsesBackTo = (entity: EntityType, word: string, column: Column): boolean => {
  if (hasReservedToken(word) || !fallbackEligible(entity, column)) return false
  const lower = word.toLowerCase()
  const search = isSearchColumn(column)
  for (const field of CURATED_FIELDS) {
    const spellings = [field.word, ...(field.spellings ?? [])].map((spelling) => spelling.toLowerCase())
    if (!spellings.includes(lower)) continue
    // A curated search word names only its search field: a value column of that name (`display_name`
    // of works is called `title`) prints as its raw id, which the parser reads as that column.
    if ((field.kind === 'search') !== search) {
      if (field.kind === 'search' && curatedColumnOf(entity, field) !== undefined) return false
      continue
    }
    if (curatedColumnOf(entity, field)?.id !== column.id) return false
  }
  return !entityColumns(entity).some(
    (other) =>
      other.id !== column.id &&
      isSearchColumn(other) === search &&
      fallbackEligible(entity, other) &&
      namesOf(other).includes(lower),
  )
}

const curatedWordOf = (entity: EntityType, column: Column, search: boolean): string | undefined => {
  const candidates = CURATED_FIELDS.filter(
    (field) => (field.kind === 'search') === search && curatedColumnOf(entity, field)?.id === column.id,
  )
  const baseId = search ? column.id.replace(/\.search$/, '') : column.id
  return (candidates.find((field) => field.column === baseId) ?? candidates[0])?.word
}

type NamedWord = Pick<OqlFieldWord, 'word' | 'source'>

const registryWord = (
  entity: EntityType,
  column: Column,
  names: readonly string[],
): NamedWord | undefined => {
  const word = names.find((name) => parsesBackTo(entity, name, column))
  return word === undefined ? undefined : { word, source: 'registry' }
}

const curatedWord = (entity: EntityType, column: Column): NamedWord | undefined => {
  const word = curatedWordOf(entity, column, isSearchColumn(column))
  return word === undefined ? undefined : { word, source: 'curated' }
}

const searchWordOf = (entity: EntityType, searchColumn: Column, base: string): NamedWord | undefined => {
  // Curated search words are the works ones (plus the broad `text`); elsewhere the entity's own name
  // for the base column reads better (`authors where name has (…)`).
  const curated = entity === 'works' || base === 'text' ? curatedWord(entity, searchColumn) : undefined
  if (curated !== undefined) return curated
  const baseColumn = propertiesRegistry.resolveColumn(entity, base)
  return registryWord(entity, searchColumn, [
    ...(baseColumn === undefined ? [] : [baseColumn.displayName]),
    searchColumn.displayName,
    ...searchColumn.aliases,
  ])
}

/** The word of a registry column (a search column stands for its `<base>.search` column). */
const namedWordOf = (entity: EntityType, column: Column, search: SearchColumn | undefined): NamedWord => {
  if (search !== undefined) {
    const searchColumn = propertiesRegistry.resolveColumn(entity, `${search.base}.search`) ?? column
    return searchWordOf(entity, searchColumn, search.base) ?? { word: searchColumn.id, source: 'raw' }
  }
  return (
    curatedWord(entity, column) ??
    registryWord(entity, column, [column.displayName, ...column.aliases]) ?? {
      word: column.id,
      source: 'raw',
    }
  )
}

const nameEntityOf = (entity: EntityType, column: Column): EntityType | undefined => {
  if (column.kind !== 'entity_id' && column.kind !== 'enum') return undefined
  const valueEntity = column.valueEntity
  if (valueEntity === null || UNANNOTATED_ENTITIES.has(valueEntity)) return undefined
  // A row's own id (`ids.openalex`, the `id` of a vocabulary entity) is what the row is, not a reference.
  if (valueEntity === entity && (column.id === 'ids.openalex' || column.id === 'id')) return undefined
  return valueEntity
}

const dateBoundOf = (columnId: string): OqlFieldWord['dateBound'] =>
  CURATED_FIELDS.find((candidate) => candidate.column === columnId && candidate.boundOf)?.boundOf

const boundColumnsOf = (columnId: string): OqlFieldWord['boundColumns'] =>
  CURATED_FIELDS.find((candidate) => candidate.column === columnId && candidate.dateBounds)?.dateBounds

/**
 * The OQL word for a column of an entity, with what a printer needs to know about it. Never fails:
 * a column the registry does not know prints as its raw id.
 */
export const fieldWordFor = (entity: EntityType, columnId: string): OqlFieldWord => {
  // The printer asks for every leaf it prints: a plain lookup first, without building the closure.
  const known = fieldWords.get(entity)?.get(columnId)
  return known ?? cached(fieldWords, entity, columnId, () => findFieldWord(entity, columnId))
}

const findFieldWord = (entity: EntityType, columnId: string): OqlFieldWord => {
  const column = isEntityType(entity) ? propertiesRegistry.resolveColumn(entity, columnId) : undefined
  const id = column?.id ?? columnId
  const search = splitSearchColumn(id)
  const named: NamedWord =
    column === undefined ? { word: id, source: 'raw' } : namedWordOf(entity, column, search)
  const kind =
    column?.kind == null ? (search === undefined ? undefined : 'search') : OQL_FIELD_KIND_OF[column.kind]
  const result: { -readonly [K in keyof OqlFieldWord]: OqlFieldWord[K] } = {
    ...named,
    columnId: id,
    column,
    kind,
  }
  if (search !== undefined) result.search = search
  const dateBound = dateBoundOf(id)
  if (dateBound !== undefined) result.dateBound = dateBound
  const boundColumns = boundColumnsOf(id)
  if (boundColumns !== undefined) result.boundColumns = boundColumns
  const verb = entity === 'works' ? VERBS[id] : undefined
  if (verb !== undefined) result.verb = verb
  const nameEntity = column === undefined ? undefined : nameEntityOf(entity, column)
  if (nameEntity !== undefined) result.nameEntity = nameEntity
  return result
}
