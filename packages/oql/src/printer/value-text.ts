import type { LeafFilter } from '@oqlkit/oqo-schema'

// How single values are written: numbers, booleans, null, and strings quoted only when a bare word
// would not read back as the same value.

/** Words with a meaning of their own where a value can stand (OQL v2.2 §3.6), compared case-insensitively. */
export const VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  'and',
  'or',
  '&',
  'not',
  'is',
  'has',
  'where',
  'group',
  'sample',
  'unknown',
  'null',
])

// Whitespace and the lexer's single-character tokens split a bare word; `!` is lexed only to be rejected,
// and a leading comparison sign would lex as an operator.
const NEEDS_QUOTES = /[\s()[\],;"!]|^[<>]/

/** A value as one OQL token: bare when it reads back unchanged, otherwise quoted. */
export const valueWord = (text: string): string =>
  text === '' || NEEDS_QUOTES.test(text) || VALUE_KEYWORDS.has(text.toLowerCase()) ? quoted(text) : text

/**
 * `"text"`. An OQL string has no escapes, so a `"` inside cannot be written: it is dropped, and a value
 * holding a double quote is the one value that does not print exactly.
 */
export const quoted = (text: string): string => `"${text.replaceAll('"', '')}"`

/**
 * A number as OQL writes it. JSON cannot tell `3.0` from `3`, so integral bounds of comparisons on
 * decimal columns are written as decimals (`FWCI <= (3.0)`, as the normative corpus has it), while
 * equality keeps the integer (`citation percentile by subfield is (99)`); both read back as the same number.
 */
export const numberText = (value: number, decimalBound: boolean): string =>
  decimalBound && Number.isInteger(value) && Math.abs(value) < 1e21 ? `${value}.0` : String(value)

/** Any leaf value as one OQL token (`null` is the `unknown` sentinel). */
export const scalarText = (value: LeafFilter['value'], decimalBound = false): string => {
  if (value === null) return 'unknown'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return numberText(value, decimalBound)
  return valueWord(value)
}

const MAX_NAME_LENGTH = 50
const WHITESPACE_RUNS = /\s+/g

/**
 * The `[…]` annotation for a display name: at most 50 characters (a longer name keeps 49 and ends
 * with `…`). An annotation runs to the first `]`, so brackets inside a name become parentheses.
 */
export const annotationText = (name: string | undefined): string => {
  if (name === undefined) return '[no entity found]'
  const clean = name.replace(WHITESPACE_RUNS, ' ').trim().replaceAll('[', '(').replaceAll(']', ')')
  const chars = [...clean]
  const short = chars.length > MAX_NAME_LENGTH ? `${chars.slice(0, MAX_NAME_LENGTH - 1).join('')}…` : clean
  return `[${short}]`
}
