import {
  COLLECTION_ID,
  type Column,
  type EntityType,
  type Filter,
  findVocabularyEntry,
  type LeafFilter,
  NATIVE_ID_PREFIXES,
  propertiesRegistry,
  vocabularyOf,
} from '@oqlkit/oqo-schema'
import { splitOutsideQuotes, unwrapQuotes } from './quoted-text.ts'
import { MAX_OR_VALUES } from './search-value-parser.ts'
import { joinFilters, negateFilter, type ValueOutcome, valueOk, valueProblem } from './value-outcome.ts'

// The classic value grammar of a non-search filter (`key:value`):
// `v`, `!v` (NOT), `a|b` (OR, at most 100), `!a|b` (NOT of the whole list), `a|!b` (one value negated),
// `null` / `!null`, `"a, b"` (one literal; the quotes protect `,` `|` and spaces), `a+b` (AND within
// the field: `+` arrives as a space; not on numbers, booleans or dates), `col_…` (a private
// collection), and on number columns `>v` `<v` `>=v` `<=v` `a-b` `a-` `-b`; dates take the
// comparison prefixes only, so an ISO date is never a range. A comparison prefix on any other column is
// refused (quoted, `">v"` is a literal).

export interface FilterValueContext {
  readonly entity: EntityType
  /** The key as written in the URL, for messages. */
  readonly key: string
  readonly column: Column
}

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/
const COMPARISON = /^(>=|<=|>|<)(.*)$/s
const EMPTY_WORDS = /^(?:none|undefined)$/i
const KEY_PREFIX = /^([A-Za-z][A-Za-z0-9_.-]*):/
const WHITESPACE = /\s/
const WHITESPACE_RUN = /\s+/
const OPENALEX_HOST = /^https?:\/\/(?:www\.)?openalex\.org\//i

const isRangeColumn = (column: Column): boolean => column.operatorBuckets.includes('range')

/** Columns whose unquoted `a b` (from `a+b`) means a AND b, as the classic API reads it. */
const splitsOnSpace = (column: Column): boolean =>
  column.kind === 'entity_id' || column.kind === 'enum' || column.kind === 'string'

// A closed-vocabulary code with a space (`book series`) is one value, not `book` AND `series`.
const isVocabularyCode = (column: Column, text: string): boolean =>
  column.valueEntity !== null && findVocabularyEntry(column.valueEntity, text) !== undefined

const leaf = (column: Column, value: LeafFilter['value'], operator?: LeafFilter['operator']): LeafFilter =>
  operator === undefined || operator === 'is'
    ? { column_id: column.id, value }
    : { column_id: column.id, value, operator }

// Identifier spellings the classic API accepts for the same value; the OQO keeps the bare form.
const ID_PREFIXES: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/(?:^|\.)doi$/, /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/i],
  [/orcid$/, /^https?:\/\/orcid\.org\//i],
  [/ror$/, /^https?:\/\/ror\.org\//i],
  [/pmid$/, /^(?:https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/|pmid:)/i],
  [/pmcid$/, /^https?:\/\/www\.ncbi\.nlm\.nih\.gov\/pmc\/articles\//i],
  [/wikidata(?:_id)?$/, /^https?:\/\/www\.wikidata\.org\/wiki\//i],
]

const LETTER_ID = /^(?:[a-z-]+\/)?([a-z]\d+)$/i

const continentCode = (text: string): string | undefined => {
  const name = text.replaceAll('_', ' ').toLowerCase()
  return vocabularyOf('continents')?.find((entry) => entry.displayName.toLowerCase() === name)?.code
}

/** `https://openalex.org/I1` is `I1`, `https://doi.org/10.1/x` on `doi` is `10.1/x`, `south_america` a continent id. */
const normalizeId = (column: Column, text: string): string => {
  for (const [columnPattern, prefix] of ID_PREFIXES)
    if (columnPattern.test(column.id)) return text.replace(prefix, '')
  if (column.kind !== 'entity_id' && column.kind !== 'enum') return text
  const withoutHost = text.replace(OPENALEX_HOST, '')
  const entity = column.valueEntity
  const hasLetterIds = entity === null || entity in NATIVE_ID_PREFIXES
  // The letter keeps the case it was written in (`w1984893742`), as canonical OQO does.
  if (hasLetterIds) return LETTER_ID.exec(withoutHost)?.[1] ?? withoutHost
  if (entity === 'continents' && findVocabularyEntry(entity, withoutHost) === undefined)
    return continentCode(withoutHost) ?? withoutHost
  return withoutHost
}

// A value of the wrong type is `invalid_value_type`, the code OQO validation gives the same leaf (and OQL
// its BAD_NUMBER / BAD_BOOL_VALUE / BAD_DATE); `invalid_value` is a well-typed value outside the domain.
const numberProblem = (context: FilterValueContext, item: string): ValueOutcome =>
  valueProblem(
    'invalid_value_type',
    `The value '${item}' of '${context.key}' is not a number. Write a number${
      isRangeColumn(context.column)
        ? ', a range (2019-2023, 2019- or -2023) or a comparison (>2019, <2024)'
        : ''
    }, for example ${context.key}:2020.`,
  )

const readNumber = (context: FilterValueContext, item: string): ValueOutcome => {
  const column = context.column
  const comparison = COMPARISON.exec(item)
  if (comparison !== null && column.operators.includes('>')) {
    const [, operator, rest] = comparison
    return NUMBER.test(rest!)
      ? valueOk(leaf(column, Number(rest), operator as LeafFilter['operator']))
      : numberProblem(context, item)
  }
  if (NUMBER.test(item)) return valueOk(leaf(column, Number(item)))
  const dash = item.indexOf('-')
  if (isRangeColumn(column) && dash !== -1) {
    const low = item.slice(0, dash)
    const high = item.slice(dash + 1)
    const bounds: Filter[] = []
    if (low !== '' && !NUMBER.test(low)) return numberProblem(context, item)
    if (high !== '' && !NUMBER.test(high)) return numberProblem(context, item)
    if (low !== '') bounds.push(leaf(column, Number(low), '>='))
    if (high !== '') bounds.push(leaf(column, Number(high), '<='))
    if (bounds.length > 0) return valueOk(joinFilters('and', bounds))
  }
  return numberProblem(context, item)
}

// In a URL a bare col_… id is the collection operator, so on a column that takes none it is the operator
// that does not apply, as OQO's `in collection` and OQL's `is in collection` on that column are.
const collectionOnValueField = (context: FilterValueContext, item: string): ValueOutcome =>
  valueProblem(
    'invalid_operator_for_column',
    `'${context.key}' is not an ID field, so it cannot take the collection ${item}. Filter by a collection with collection:${item} on the endpoint of its type, or on an ID field that holds ids of its type; otherwise give ${context.key} literal values (quote one that starts with col_).`,
  )

const KIND_WORDS: Readonly<Partial<Record<NonNullable<Column['kind']>, string>>> = {
  boolean: 'a yes/no',
  entity_id: 'an id',
  enum: 'a code',
  string: 'a text',
  collection: 'a collection',
}

// `doi:>10.1/x` asks for a comparison the column does not take; OQL refuses `doi > (…)` and OQO the
// `>` operator the same way, so the URL must not read it as a literal that happens to start with `>`.
const comparisonProblem = (context: FilterValueContext, item: string, operator: string): ValueOutcome => {
  const kind = context.column.kind === null ? 'a' : (KIND_WORDS[context.column.kind] ?? 'a')
  return valueProblem(
    'invalid_operator_for_column',
    `In '${context.key}:${item}', the comparison '${operator}' does not apply to '${context.key}' (${kind} column, which takes only values to match). Drop the '${operator}'${context.column.kind === 'string' ? `, or quote a text that starts with it: ${context.key}:"${item}"` : ''}.`,
  )
}

/** One value of the list: `null`, a collection, a number, a comparison, a boolean or a literal. */
const readItem = (context: FilterValueContext, item: string, quoted: boolean): ValueOutcome => {
  const column = context.column
  if (!quoted && item.toLowerCase() === 'null') return valueOk(leaf(column, null))
  const comparison = quoted ? null : COMPARISON.exec(item)
  if (comparison !== null && !column.operators.includes('>'))
    return comparisonProblem(context, item, comparison[1]!)
  // `>null` compares with a missing value: the leaf OQO would hold, refused by validation as OQO's is.
  if (comparison !== null && comparison[2]!.toLowerCase() === 'null')
    return valueOk(leaf(column, null, comparison[1] as LeafFilter['operator']))
  if (
    column.kind === 'collection' ||
    (!quoted && COLLECTION_ID.test(item) && column.operators.includes('in collection'))
  )
    return valueOk(leaf(column, item, 'in collection'))
  // A collection id on a field that holds no entity ids is a mistake to name, not a literal to look for.
  if (!quoted && COLLECTION_ID.test(item)) return collectionOnValueField(context, item)
  switch (column.kind) {
    case 'number':
    case 'float':
      return readNumber(context, item)
    case 'boolean': {
      const lower = item.toLowerCase()
      if (lower === 'true' || lower === 'false') return valueOk(leaf(column, lower === 'true'))
      return valueProblem(
        'invalid_value_type',
        `The value '${item}' of '${context.key}' is not a boolean. Write ${context.key}:true, ${context.key}:false, ${context.key}:null or ${context.key}:!null.`,
      )
    }
    case 'date':
    case 'datetime': {
      const comparison = quoted ? null : COMPARISON.exec(item)
      if (comparison !== null && column.operators.includes('>'))
        return valueOk(leaf(column, comparison[2]!, comparison[1] as LeafFilter['operator']))
      return valueOk(leaf(column, item))
    }
    default:
      return valueOk(leaf(column, normalizeId(column, item)))
  }
}

const emptyProblem = (context: FilterValueContext, value: string): ValueOutcome =>
  valueProblem(
    'empty_value',
    `The value of '${context.key}' cannot be empty or '${value}'. Write a value after the colon, such as ${context.key}:your_value, or drop the filter.`,
  )

/** `k:a|k2:b` names a second filter inside an OR list, which the classic URL cannot express. */
const namesAnotherFilter = (context: FilterValueContext, item: string): string | undefined => {
  const key = KEY_PREFIX.exec(item)?.[1]
  return key !== undefined && propertiesRegistry.resolveColumn(context.entity, key) !== undefined
    ? key
    : undefined
}

const readMember = (context: FilterValueContext, member: string): ValueOutcome => {
  const negated = member.startsWith('!')
  const text = negated ? member.slice(1) : member
  const inner = unwrapQuotes(text)
  const value = inner ?? text
  if (value === '') return emptyProblem(context, member)
  const outcome = readItem(context, value, inner !== undefined)
  return outcome.ok && negated ? valueOk(negateFilter(outcome.filter)) : outcome
}

/** Reads the value of a non-search filter into a leaf or a branch on `context.column`. */
export const parseFilterValue = (raw: string, context: FilterValueContext): ValueOutcome => {
  if (raw.trim() === '' || EMPTY_WORDS.test(raw.trim())) return emptyProblem(context, raw)
  const negated = raw.startsWith('!')
  const body = negated ? raw.slice(1) : raw
  if (body === '') return emptyProblem(context, raw)
  const wrapped = unwrapQuotes(body)
  if (wrapped !== undefined) {
    if (wrapped === '') return emptyProblem(context, raw)
    const outcome = readItem(context, wrapped, true)
    return outcome.ok && negated ? valueOk(negateFilter(outcome.filter)) : outcome
  }

  const members = splitOutsideQuotes(body, '|')
  let filter: Filter
  if (members.length > 1) {
    if (members.length > MAX_OR_VALUES)
      return valueProblem(
        'too_many_values',
        `'${context.key}' lists ${members.length} values; at most ${MAX_OR_VALUES} are allowed. Split the query, or download the snapshot for bulk work.`,
      )
    const filters: Filter[] = []
    for (const member of members) {
      const other = namesAnotherFilter(context, member)
      if (other !== undefined)
        return valueProblem(
          'or_across_filters',
          `'${context.key}:${raw}' ORs across the filters '${context.key}' and '${other}', which the classic URL cannot express. Write separate filters (AND), or use OQL: … or … .`,
        )
      if (negated && member.startsWith('!'))
        return valueProblem(
          'negation_in_negated_list',
          `In '${context.key}:${raw}' the leading '!' already negates the whole list, so '${member}' cannot be negated again. Drop the inner '!', or write the negated values as separate filters.`,
        )
      const outcome = readMember(context, member)
      if (!outcome.ok) return outcome
      filters.push(outcome.filter)
    }
    filter = joinFilters('or', filters)
  } else if (
    splitsOnSpace(context.column) &&
    WHITESPACE.test(body) &&
    !isVocabularyCode(context.column, body)
  ) {
    const words = body.split(WHITESPACE_RUN).filter((word) => word !== '')
    const filters: Filter[] = []
    for (const word of words) {
      const outcome = readMember(context, word)
      if (!outcome.ok) return outcome
      filters.push(outcome.filter)
    }
    if (filters.length === 0) return emptyProblem(context, raw)
    filter = joinFilters('and', filters)
  } else {
    const outcome = readMember(context, body)
    if (!outcome.ok) return outcome
    filter = outcome.filter
  }
  return valueOk(negated ? negateFilter(filter) : filter)
}
