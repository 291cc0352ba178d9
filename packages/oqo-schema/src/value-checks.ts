import { type EntityType, NATIVE_ID_PREFIXES } from './entity-types.ts'

// Value shapes shared by validation and canonicalisation, so both read a value the same way.

export const COLLECTION_ID = /^col_[A-Za-z0-9]{1,48}$/

export const INTEGER_TEXT = /^[+-]?\d+$/
export const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

const DATE_TEXT = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/
const DATETIME_TEXT = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

const BOOLEAN_TEXT = /^(true|false)$/i

export const isBooleanText = (value: string): boolean => BOOLEAN_TEXT.test(value)

/** A year, a year and month, or a full calendar date that exists (no 2023-02-30). */
export const isDateText = (value: string): boolean => {
  const match = DATE_TEXT.exec(value)
  if (match === null) return false
  const [, year, month, day] = match
  if (month === undefined) return true
  const monthNumber = Number(month)
  if (monthNumber < 1 || monthNumber > 12) return false
  if (day === undefined) return true
  const daysInMonth = new Date(Date.UTC(Number(year), monthNumber, 0)).getUTCDate()
  const dayNumber = Number(day)
  return dayNumber >= 1 && dayNumber <= daysInMonth
}

export const isDateTimeText = (value: string): boolean =>
  DATETIME_TEXT.test(value) && isDateText(value.slice(0, 10)) && !Number.isNaN(Date.parse(value.slice(0, 10)))

const NATIVE_ID = /^(?:https?:\/\/openalex\.org\/)?(?:[a-z-]+\/)?([a-z])(\d+)$/i

/** The letter and digits of an OpenAlex id in bare, short-path or URL form (`I1`, `institutions/I1`, `https://openalex.org/I1`). */
export const parseNativeId = (
  value: string,
): { readonly letter: string; readonly digits: string } | undefined => {
  const match = NATIVE_ID.exec(value.trim())
  if (match === null) return undefined
  return { letter: match[1]!.toUpperCase(), digits: match[2]! }
}

const PREFIXED_NATIVE_ID = /^(?:https?:\/\/openalex\.org\/)?(?:[a-z-]+\/)?([a-z]\d+)$/i

/** `I1` from `https://openalex.org/I1` or `institutions/I1`, in the case it was written; anything else unchanged. */
export const stripIdPrefix = (value: string): string => PREFIXED_NATIVE_ID.exec(value.trim())?.[1] ?? value

const ENTITY_BY_PREFIX = new Map<string, EntityType>(
  Object.entries(NATIVE_ID_PREFIXES).map(([entity, prefix]) => [prefix, entity as EntityType]),
)

export const entityOfIdPrefix = (letter: string): EntityType | undefined =>
  ENTITY_BY_PREFIX.get(letter.toUpperCase())
