import {
  COLLECTION_ID,
  type Column,
  canonicalizeOqo,
  ENTITY_TYPES,
  type EntityType,
  entityPath,
  findVocabularyEntry,
  type LeafFilter,
  NATIVE_ID_PREFIXES,
  OPERATORS,
  type Operator,
  type Oqo,
  parseNativeId,
  propertiesRegistry,
  VALIDATION_CODES,
  type ValueKind,
  validateOqo,
  vocabularyOf,
} from '@oqlkit/oqo-schema'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseOql, urlToOqo } from '../src/index.ts'
import { fieldIndexOf } from '../src/parser/field-index.ts'

// Every field kind × operator × value kind of the registry, in the three forms. No combination is
// accepted silently: the OQO validator accepts exactly what the registry's rules allow (OQL v2.2 §8.2:
// the operator the column's buckets give, null only with `is`, a value of the column's type, a member of
// its vocabulary or an id of its entity) and names a registered code otherwise; the same input written
// as a classic URL and as OQL text gets the same verdict, with the same code (a parse code of the text
// form standing for its validation code), and an accepted one reads as the same OQO.

/** The kinds of value a leaf can be given, each with how it is written in OQO, in a URL and in OQL. */
const VALUE_KINDS = [
  'integer',
  'decimal',
  'boolean',
  'yes/no word',
  'date',
  'impossible date',
  'date-time',
  'word',
  'collection id',
  'id of its entity',
  'id of another entity',
  'null',
  'empty text',
] as const
type ValueKindCase = (typeof VALUE_KINDS)[number]

interface Written {
  readonly oqo: LeafFilter['value']
  /** The value as text, for the URL and OQL forms. */
  readonly text: string
}

const filterable = (column: Column): boolean =>
  column.kind !== null &&
  (column.actions.includes('filter') || column.actions.includes('search') || column.kind === 'collection')

const COLUMNS: ReadonlyArray<readonly [EntityType, Column]> = ENTITY_TYPES.flatMap((entity) =>
  propertiesRegistry
    .columnsOf(entity)
    .filter(filterable)
    .map((column) => [entity, column] as const),
)

const FIELD_KINDS = [...new Set(COLUMNS.map(([, column]) => column.kind!))].sort() as ValueKind[]

const LETTERS = Object.values(NATIVE_ID_PREFIXES)

const dateText = fc
  .date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))

/** A code or id of the column's value entity, as written in a query. */
const ownId = (column: Column): fc.Arbitrary<string> => {
  const entity = column.valueEntity
  const vocabulary = entity === null ? undefined : vocabularyOf(entity)
  if (vocabulary !== undefined)
    // Codes written as one URL value and one OQL word (no spaces or separators).
    return fc.constantFrom(
      ...vocabulary.map((entry) => entry.code).filter((code) => /^[A-Za-z0-9_.-]+$/.test(code)),
    )
  const prefix = entity === null ? undefined : NATIVE_ID_PREFIXES[entity as keyof typeof NATIVE_ID_PREFIXES]
  return fc.integer({ min: 1, max: 99_999_999 }).map((digits) => `${prefix ?? 'W'}${digits}`)
}

const foreignId = (column: Column): fc.Arbitrary<string> => {
  const entity = column.valueEntity
  const own = entity === null ? undefined : NATIVE_ID_PREFIXES[entity as keyof typeof NATIVE_ID_PREFIXES]
  return fc
    .tuple(fc.constantFrom(...LETTERS.filter((letter) => letter !== own)), fc.integer({ min: 1, max: 9999 }))
    .map(([letter, digits]) => `${letter}${digits}`)
}

const writtenValue = (kind: ValueKindCase, column: Column): fc.Arbitrary<Written> => {
  const text = (value: fc.Arbitrary<string>) => value.map((written) => ({ oqo: written, text: written }))
  switch (kind) {
    case 'integer':
      return fc.integer({ min: 0, max: 5000 }).map((n) => ({ oqo: n, text: String(n) }))
    case 'decimal':
      return fc.integer({ min: 0, max: 5000 }).map((n) => ({ oqo: n + 0.25, text: String(n + 0.25) }))
    case 'boolean':
      return fc.boolean().map((value) => ({ oqo: value, text: String(value) }))
    case 'yes/no word':
      return text(fc.constantFrom('yes', 'no', 'maybe'))
    case 'date':
      return text(dateText)
    case 'impossible date':
      return text(fc.constantFrom('2021-02-30', '2020-13-01', '2019-00-10'))
    case 'date-time':
      return text(dateText.map((date) => `${date}T12:30:00`))
    case 'word':
      return text(fc.constantFrom('abc', 'cancer', 'zzzz'))
    case 'collection id':
      return text(fc.stringMatching(/^[a-z0-9]{1,12}$/).map((suffix) => `col_${suffix}`))
    case 'id of its entity':
      return text(ownId(column))
    case 'id of another entity':
      return text(foreignId(column))
    case 'null':
      return fc.constant({ oqo: null, text: 'null' })
    case 'empty text':
      return text(fc.constantFrom('', '   '))
  }
}

// The rules of the registry (§8.2), written out from the column's published facts -----------------------

const COMPARISONS: readonly Operator[] = ['>', '>=', '<', '<=']

/** The operators a column's buckets give it; only numbers and dates compare, only ids take a collection. */
const operatorsOf = (column: Column): Operator[] => {
  const buckets = column.operatorBuckets
  const kind = column.kind
  const compares = kind === 'number' || kind === 'float' || kind === 'date' || kind === 'datetime'
  return OPERATORS.filter((operator) => {
    if (operator === 'is') return buckets.includes('eq')
    if (operator === 'has') return buckets.includes('search')
    if (operator === 'in collection')
      return (
        buckets.includes('collection') ||
        (buckets.includes('eq') && (kind === 'entity_id' || kind === 'enum'))
      )
    return compares && (buckets.includes('range') || buckets.includes('date_range'))
  })
}

/** Whether the value has the column's type (the value kinds above, judged by what they are). */
const hasColumnType = (column: Column, kind: ValueKindCase, value: LeafFilter['value']): boolean => {
  switch (column.kind) {
    case 'number':
      return kind === 'integer'
    case 'float':
      return kind === 'integer' || kind === 'decimal'
    case 'boolean':
      return kind === 'boolean'
    case 'date':
      return kind === 'date' || (kind === 'integer' && String(value).length === 4)
    case 'datetime':
      return kind === 'date' || kind === 'date-time'
    case 'search':
      return typeof value === 'string' && value.trim() !== ''
    default:
      return kind !== 'boolean'
  }
}

/** Whether a well-typed value of an `is` leaf is in the column's domain. */
const inDomain = (column: Column, text: string): boolean => {
  if (text.trim() === '') return column.kind === 'search'
  if (COLLECTION_ID.test(text)) return true
  if (column.kind !== 'entity_id' && column.kind !== 'enum') return true
  const entity = column.valueEntity
  if (entity !== null && vocabularyOf(entity) !== undefined)
    return findVocabularyEntry(entity, text) !== undefined
  const prefix = entity === null ? undefined : NATIVE_ID_PREFIXES[entity as keyof typeof NATIVE_ID_PREFIXES]
  if (entity !== null && prefix === undefined) return true // slug ids (keywords)
  const id = parseNativeId(text)
  if (prefix === undefined) return id !== undefined
  // A source's host organisation is a publisher or an institution.
  const hostOrganisation = /(^|\.)host_organization(_lineage)?$/.test(column.id)
  return id !== undefined && (id.letter === prefix || (hostOrganisation && id.letter === 'I'))
}

/** The verdict the registry's rules give a leaf: 'ok', or the validation code that refuses it. */
const expectedVerdict = (column: Column, operator: Operator, kind: ValueKindCase, value: Written): string => {
  if (!operatorsOf(column).includes(operator)) return 'invalid_operator_for_column'
  if (value.oqo === null)
    return operator === 'is' && column.operatorBuckets.includes('null') ? 'ok' : 'invalid_value'
  if (operator === 'in collection')
    return typeof value.oqo === 'string' && COLLECTION_ID.test(value.oqo) ? 'ok' : 'invalid_value'
  if (!hasColumnType(column, kind, value.oqo)) return 'invalid_value_type'
  if (operator === 'is' && typeof value.oqo !== 'boolean' && !inDomain(column, String(value.oqo)))
    return 'invalid_value'
  return 'ok'
}

// The three forms ---------------------------------------------------------------------------------------

const leafOf = (column: Column, operator: Operator, value: LeafFilter['value']): LeafFilter =>
  operator === 'is' ? { column_id: column.id, value } : { column_id: column.id, value, operator }

const oqoVerdict = (entity: EntityType, leaf: LeafFilter): { code: string; oqo?: Oqo } => {
  const oqo: Oqo = { get_rows: entity, filter_rows: [leaf] }
  const validation = validateOqo(oqo)
  return validation.valid ? { code: 'ok', oqo } : { code: validation.errors[0]!.code }
}

/** The classic URL of a leaf, when the URL can say it (`has` only on search keys, `>` as a prefix, …). */
const urlOf = (entity: EntityType, column: Column, operator: Operator, kind: ValueKindCase, text: string) => {
  const search = column.kind === 'search'
  if (search !== (operator === 'has')) return undefined
  if (column.kind === 'collection' && operator !== 'in collection') return undefined
  // In a URL a bare col_ id is always the collection operator, which takes nothing else.
  if (kind === 'collection id' && operator !== 'in collection') return undefined
  if (operator === 'in collection' && kind !== 'collection id') return undefined
  // An empty value is a malformed URL (empty_value), not a value; in a search `null` is a word.
  if (kind === 'empty text' || (kind === 'null' && search)) return undefined
  const prefix = COMPARISONS.includes(operator) ? operator : ''
  return `/${entityPath(entity)}?filter=${column.id}:${encodeURIComponent(`${prefix}${text}`)}`
}

/** The OQL field word of a column: its raw id, when the parser reads it as this column for the operator. */
const oqlWordOf = (entity: EntityType, column: Column, operator: Operator): string | undefined => {
  const entry = fieldIndexOf(entity).match([column.id.toLowerCase()])?.entry
  const target = operator === 'has' ? entry?.search : (entry?.value ?? entry?.search)
  if (target === undefined) return undefined
  const named = target.kind === 'search' ? `${target.columnId}.search` : target.columnId
  return named === column.id ? column.id : undefined
}

const OQL_OPERATORS: Readonly<Record<Operator, string>> = {
  is: 'is',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
  has: 'has',
  'in collection': 'is in collection',
}

/** The validation code a parse code of the text form stands for. */
const PARSE_CODE_MEANS: Readonly<Record<string, string>> = {
  OQL_BAD_OPERATOR_FOR_FIELD: 'invalid_operator_for_column',
  OQL_BAD_NUMBER: 'invalid_value_type',
  OQL_BAD_BOOL_VALUE: 'invalid_value_type',
  OQL_BAD_DATE: 'invalid_value_type',
  OQL_BAD_COLLECTION_REF: 'invalid_value',
}

// Words a value must be quoted to be (§3.2): they read as connectives, operators, directives or null.
const OQL_KEYWORDS = new Set(['and', 'or', 'not', 'is', 'has', 'where', 'group', 'sample', 'unknown', 'null'])

/** A value as a user would write it: bare when it is one plain word, else quoted (`IS`, Iceland's code, is quoted). */
const oqlValueText = (text: string): string =>
  /^[A-Za-z0-9_.:-]+$/.test(text) && !OQL_KEYWORDS.has(text.toLowerCase()) ? text : `"${text}"`

const oqlOf = (entity: EntityType, column: Column, operator: Operator, kind: ValueKindCase, text: string) => {
  const word = oqlWordOf(entity, column, operator)
  if (word === undefined) return undefined
  // `""` is one quote delimiter in OQL (§3.2): an empty value has no OQL form.
  if (kind === 'empty text') return undefined
  // In a search value `unknown` is a word; elsewhere it is the missing value.
  if (kind === 'null' && operator === 'has') return undefined
  // OQL dates are YYYY-MM-DD only (§3.6, OQL_BAD_DATE) where OQO validation also takes a year (§8.2):
  // the reference's two layers differ there, and so do ours.
  if (kind === 'integer' && (column.kind === 'date' || column.kind === 'datetime')) return undefined
  const value = kind === 'null' ? 'unknown' : oqlValueText(text)
  return `${entity} where ${word} ${OQL_OPERATORS[operator]} (${value})`
}

/** A comparison with `unknown` is reported by the text form as a bad number or date (§3.6). */
const oqlCodeMeans = (code: string, operator: Operator, kind: ValueKindCase): string =>
  kind === 'null' && COMPARISONS.includes(operator) && (code === 'OQL_BAD_NUMBER' || code === 'OQL_BAD_DATE')
    ? 'invalid_value'
    : (PARSE_CODE_MEANS[code] ?? code)

interface Case {
  readonly entity: EntityType
  readonly column: Column
  readonly operator: Operator
  readonly kind: ValueKindCase
  readonly value: Written
}

const caseArbitrary = (fieldKind: ValueKind, operator: Operator, kind: ValueKindCase): fc.Arbitrary<Case> =>
  fc
    .constantFrom(...COLUMNS.filter(([, column]) => column.kind === fieldKind))
    .chain(([entity, column]) =>
      writtenValue(kind, column).map((value) => ({ entity, column, operator, kind, value })),
    )

/** How many cases reached each written form, so a property cannot pass by skipping them. */
const reached = { url: 0, oql: 0 }

const checkCase = ({ entity, column, operator, kind, value }: Case): void => {
  const label = `${entity} ${column.id} (${column.kind}) ${operator} ${kind} ${JSON.stringify(value.oqo)}`
  const expected = expectedVerdict(column, operator, kind, value)
  const oqo = oqoVerdict(entity, leafOf(column, operator, value.oqo))
  expect(oqo.code, `OQO: ${label}`).toBe(expected)
  if (oqo.code !== 'ok') expect(Object.keys(VALIDATION_CODES), label).toContain(oqo.code)

  // The same input as text: the value's text is what the URL and OQL forms can give the OQO.
  const asText = value.oqo === null ? null : value.text
  const fromText = oqoVerdict(entity, leafOf(column, operator, asText))
  const canonical = fromText.oqo === undefined ? undefined : canonicalizeOqo(fromText.oqo)
  const url = urlOf(entity, column, operator, kind, value.text)
  if (url !== undefined) {
    reached.url++
    const read = urlToOqo(url)
    expect(read.ok ? 'ok' : read.errors[0]!.code, `URL: ${url}`).toBe(fromText.code)
    if (read.ok) expect(read.oqo, `URL: ${url}`).toEqual(canonical)
  }
  const text = oqlOf(entity, column, operator, kind, value.text)
  if (text !== undefined) {
    reached.oql++
    const parsed = parseOql(text)
    const code = parsed.ok ? 'ok' : oqlCodeMeans(parsed.diagnostics[0]!.code, operator, kind)
    expect(code, `OQL: ${text}`).toBe(fromText.code)
    if (parsed.ok) expect(parsed.oqo, `OQL: ${text}`).toEqual(canonical)
  }
}

describe('every field kind × operator × value kind of the registry', () => {
  it('has columns of every value kind to check', () => {
    expect(FIELD_KINDS).toEqual([
      'boolean',
      'collection',
      'date',
      'datetime',
      'entity_id',
      'enum',
      'float',
      'number',
      'search',
      'string',
    ])
  })

  describe.each(FIELD_KINDS)('%s columns', (fieldKind) => {
    it.each(OPERATORS)('with %s: the registry rules decide, in OQO, URL and OQL alike', (operator) => {
      for (const kind of VALUE_KINDS)
        fc.assert(fc.property(caseArbitrary(fieldKind, operator, kind), checkCase), { numRuns: 2 })
    })
  })

  it('refuses is on every search field name, unless the name is also the raw id of a value column', () => {
    // `title is (x)`, `abstract is (x)`, `name is (x)`: OQL_BAD_OPERATOR_FOR_FIELD, as in the reference.
    // `display_name is (x)` names the display_name column itself.
    let checked = 0
    for (const entity of ENTITY_TYPES)
      for (const [name, entry] of fieldIndexOf(entity).names) {
        if (entry.search === undefined) continue
        const raw = propertiesRegistry.resolveColumn(entity, name)
        const parsed = parseOql(`${entity} where ${name} is (x)`)
        const code = parsed.ok ? 'ok' : parsed.diagnostics[0]!.code
        const valueColumn = raw !== undefined && filterable(raw) && raw.kind !== 'search'
        const expected = valueColumn ? 'ok' : 'OQL_BAD_OPERATOR_FOR_FIELD'
        expect(code, `${entity} where ${name} is (x)`).toBe(expected)
        checked++
      }
    expect(checked).toBeGreaterThan(700)
  })

  it('holds for any column, operator and value drawn together', () => {
    const anyCase = fc
      .tuple(fc.constantFrom(...FIELD_KINDS), fc.constantFrom(...OPERATORS), fc.constantFrom(...VALUE_KINDS))
      .chain(([fieldKind, operator, kind]) => caseArbitrary(fieldKind, operator, kind))
    reached.url = 0
    reached.oql = 0
    fc.assert(fc.property(anyCase, checkCase), { numRuns: 200 })
    // About a third of the drawn cases have a URL form and half an OQL form (raw column ids).
    expect(reached.url).toBeGreaterThan(30)
    expect(reached.oql).toBeGreaterThan(50)
  })
})
