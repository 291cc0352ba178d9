import { ENTITY_TYPES, type EntityType, entityPath } from '@oqlkit/oqo-schema'
import type { OqlQuickFix } from '../diagnostics/oql-quick-fix.ts'
import type { FieldTarget } from './field-index.ts'
import { OPERATORS_OF_KIND } from './field-operators.ts'

// Every message the parser writes about OQL text, as one writer a message, so the wording lives in one
// place and tests assert with the writer instead of repeating the sentence. A writer returns the problem
// (no final period: `toDiagnostic` adds it) and, where the code's default fix (`DEFAULT_FIXES`) would be
// too vague for the site, a fix written for it; the diagnostic's message is the problem, then the fix.

/** What a diagnostic says: the problem, and a fix for this site when the code's default will not do. */
export interface OqlMessage {
  readonly problem: string
  readonly fix?: string
  /** The fix as edits, added by the site that knows the spans (writers know only words). */
  readonly quickFixes?: readonly OqlQuickFix[]
}

const only = (problem: string): OqlMessage => ({ problem })
const quoted = (text: string): string => `"${text}"`

// The query and its entity ---------------------------------------------------------------------------

export const writeEmptyQueryMessage = (): OqlMessage => only('The query is empty')

export const writeConditionExpectedMessage = (): OqlMessage => ({
  problem: 'A condition is expected here',
  fix: 'Write a condition such as year is (2020), or remove the dangling where, connective or (.',
})

export const writeMissingEntityMessage = (found: string): OqlMessage =>
  only(`The query starts with ${quoted(found)} instead of an entity type`)

/** `meant` is the entity type closest to the word written, when one is close. */
export const writeUnknownEntityMessage = (found: string, meant?: EntityType): OqlMessage => ({
  problem: `${quoted(found)} is not an entity type`,
  fix: `${meant === undefined ? '' : `Did you mean ${meant}? `}Start with one of ${ENTITY_TYPES.join(', ')}.`,
})

export const writeCorpusOfNonWorksMessage = (entity: EntityType): OqlMessage => ({
  problem: `Only works have a corpus; ${entity} do not`,
  fix: 'Remove the parenthetical.',
})

export const writeUnclosedCorpusMessage = (): OqlMessage =>
  only('The corpus parenthetical after the entity is never closed')

export const writeUnknownCorpusMessage = (found: string): OqlMessage => only(`${found} is not a corpus`)

// Text out of place ----------------------------------------------------------------------------------

export const writeStrayTextInGroupMessage = (found: string): OqlMessage => ({
  problem: `Unexpected text ${quoted(found)} before the ) that closes the group`,
  fix: 'Remove the text, or join a condition with and/or; directives (group by, sample) go after the conditions.',
})

/**
 * Text after the query; `missingWhereOf` is the entity when that text starts a condition, which means
 * the `where` was left out.
 */
export const writeTrailingTextMessage = (
  found: string | undefined,
  missingWhereOf: EntityType | undefined,
): OqlMessage => {
  const problem = `Unexpected text ${quoted(found ?? '')} after the query`
  if (missingWhereOf === undefined) return only(problem)
  return { problem, fix: `Start the conditions with where, e.g. ${missingWhereOf} where ${found} ….` }
}

/** A word right after the entity that is a misspelt `where` (`works whre year is 2020`). */
export const writeMisspeltWhereMessage = (found: string): OqlMessage => ({
  problem: `Unexpected text ${quoted(found)} after the query`,
  fix: 'Did you mean where?',
})

export const writeImplicitAdjacencyMessage = (found: string): OqlMessage =>
  only(`Two conditions with no and/or between them (before ${quoted(found)})`)

export const writeUnexpectedTextMessage = (found: string | undefined): OqlMessage =>
  only(found === undefined ? 'The query cannot be read here' : `Unexpected ${quoted(found)}`)

// Parentheses and groups -------------------------------------------------------------------------------

export const writeUnopenedParenMessage = (): OqlMessage => ({
  problem: 'This ) closes no (',
  fix: 'Remove the ) or add the ( it closes.',
})

/** `found` is what stands where the `)` was expected; undefined when the query ends first. */
export const writeUnclosedParenMessage = (found: string | undefined): OqlMessage => ({
  problem:
    found === undefined
      ? 'A ( is not closed before the end of the query'
      : `A ( is not closed (found ${quoted(found)} where ) was expected)`,
  fix: 'Add the missing ).',
})

export const writeCommaInGroupMessage = (): OqlMessage =>
  only('Items in a ( … ) group are separated by or/and, not commas')

export const writeValuesNeedConnectiveMessage = (found: string): OqlMessage => ({
  problem: `Two values with no connective between them (before ${quoted(found)})`,
  fix: 'Join them with or (or and), e.g. (article or review); quote a value that has spaces.',
})

export const writeUndelimitedSearchTermsMessage = (): OqlMessage => ({
  problem: 'Two or more search terms with no parentheses (a reserved word could be silently swallowed)',
  fix: 'Wrap the terms, e.g. has (a or b), or quote a phrase, e.g. has ("a b").',
})

export const writeUndelimitedValuesMessage = (field: string | undefined): OqlMessage => ({
  problem: `${quoted(field ?? '')} got more than one value with no parentheses`,
  fix: `Wrap the values in parentheses joined by or/and, e.g. ${field ?? 'type'} is (a or b); quote a value that has spaces.`,
})

// Fields, verbs and operators --------------------------------------------------------------------------

export const writeFieldExpectedMessage = (entity: EntityType): OqlMessage => ({
  problem: 'A field name is expected here',
  fix: `Name a field, e.g. group by year; GET /properties/${entityPath(entity)} lists the columns.`,
})

/** `suggestions` are the field names closest to the one written, best first (may be none). */
export const writeUnknownFieldMessage = (
  found: string,
  entity: EntityType,
  suggestions: readonly string[],
): OqlMessage => {
  const meant = suggestions.length > 0 ? `Did you mean ${suggestions.map(quoted).join(' or ')}? ` : ''
  return {
    problem: `Unknown field ${quoted(found)} for ${entity}`,
    fix: `${meant}GET /properties/${entityPath(entity)} lists the columns.`,
  }
}

/** The operators of other languages that mean an OQL one for certain (`year = 2020` is `year is 2020`). */
export const OPERATOR_SPELLINGS: Readonly<Record<string, string>> = { '=': 'is', '==': 'is' }

/** `found` is what stands where the operator was expected; undefined when nothing does. */
export const writeMissingOperatorMessage = (field: string, found: string | undefined): OqlMessage => {
  if (found === undefined) return only(`${quoted(field)} needs an operator after it`)
  const problem = `Expected an operator after ${quoted(field)}, got ${quoted(found)}`
  const meant = OPERATOR_SPELLINGS[found]
  return meant === undefined ? only(problem) : { problem, fix: `Write ${meant} instead of ${found}.` }
}

export const writeContainsRenamedMessage = (): OqlMessage => only('`contains` was renamed to `has`')

export const writeBadVerbPhraseMessage = (found: string | undefined): OqlMessage =>
  only(`Expected a relation verb phrase after ${quoted((found ?? 'it').split(' ')[0]!)}`)

const KIND_NAMES: Readonly<Record<FieldTarget['kind'], string>> = {
  search: 'a search field',
  num: 'a number field',
  date: 'a date field',
  bool: 'a yes/no field',
  id: 'an entity field',
  enum: 'a code field',
  string: 'a text field',
  collection: 'a collection field',
}

export const writeOperatorMismatchMessage = (
  operator: string,
  word: string,
  kind: FieldTarget['kind'],
): OqlMessage => ({
  problem: `${quoted(operator)} does not apply to ${quoted(word)} (${KIND_NAMES[kind]})`,
  fix: `${quoted(word)} takes ${OPERATORS_OF_KIND[kind].join(', ')}.`,
})

export const writeBangNotSupportedMessage = (): OqlMessage =>
  only('`!` is not an OQL operator (it is classic-URL and Web of Science syntax)')

// Values ---------------------------------------------------------------------------------------------------

/** Why a clause takes a single value: each rule has its own problem, and collections and yes/no their fix. */
export type OneValueRule = 'comparison' | 'collection' | 'yes/no' | 'similarity'

const ONE_VALUE_PROBLEMS: Readonly<Record<OneValueRule, (word: string) => string>> = {
  comparison: () => 'A comparison takes exactly one bound',
  collection: () => 'One collection per clause',
  'yes/no': (word) => `${quoted(word)} is a yes/no field: it takes exactly one value`,
  similarity: () => '"is similar to" takes exactly one quoted passage',
}

const writeTrueOrFalseFix = (word: string): string => `Write ${word} is (true) or ${word} is (false).`

export const writeOneValueOnlyMessage = (rule: OneValueRule, word: string, operator: string): OqlMessage => ({
  problem: ONE_VALUE_PROBLEMS[rule](word),
  fix:
    rule === 'collection'
      ? `Write one clause per collection joined with or, e.g. (${word} is in collection (col_a) or ${word} is in collection (col_b)).`
      : rule === 'yes/no'
        ? writeTrueOrFalseFix(word)
        : `Give one value, e.g. ${word} ${operator} (2020); for several, write one clause each joined with or.`,
})

/** A value a fix can show for each kind of field. */
const EXAMPLE_VALUES: Readonly<Partial<Record<FieldTarget['kind'], string>>> = {
  num: '2020',
  date: '2020-01-01',
  bool: 'true',
  collection: 'col_abc123',
  search: 'cancer',
}

export const writeMissingValueMessage = (
  word: string,
  operator: string,
  kind: FieldTarget['kind'],
): OqlMessage => ({
  problem: `Expected a value for ${quoted(word)}`,
  fix: `Give a value, e.g. ${word} ${operator} (${EXAMPLE_VALUES[kind] ?? 'x'}).`,
})

export const writeMissingEntityIdMessage = (word: string): OqlMessage => ({
  problem: `${quoted(word)} needs an ID, not just a [display name]`,
  fix: `Put the OpenAlex ID first, e.g. ${word} is (I136199984 [Harvard]).`,
})

/** `was` is the value written, when there is one. */
export const writeBadBoolValueMessage = (word: string, was?: string): OqlMessage => ({
  problem: `${quoted(word)} is a yes/no field: its value must be true or false${was === undefined ? '' : ` (was ${quoted(was)})`}`,
  fix: writeTrueOrFalseFix(word),
})

/** `text` is the value written; undefined for `unknown`. */
export const writeBadCollectionRefMessage = (text: string | undefined, word: string): OqlMessage => ({
  problem: `${text === undefined ? 'unknown' : quoted(text)} is not a collection id`,
  fix: `is in collection takes a collection id, e.g. ${word} is in collection (col_abc123); to match a value, write ${word} is (${text ?? 'x'}).`,
})

export const writeUnknownComparedMessage = (
  comparison: string,
  word: string,
  kind: FieldTarget['kind'],
): OqlMessage => ({
  problem: `unknown cannot be compared with ${comparison}`,
  fix: `Compare with a ${kind === 'date' ? 'date' : 'number'}, or write ${word} is (unknown).`,
})

export const writeBadDateMessage = (text: string, word: string): OqlMessage => ({
  problem: `${quoted(text)} is not a date (YYYY-MM-DD) for ${quoted(word)}`,
  fix: `Write a date such as ${word} >= (2020-01-01); for a year, use year.`,
})

export const writeBadNumberMessage = (text: string, word: string, float: boolean): OqlMessage => ({
  problem: `${quoted(text)} is not ${float ? 'a number' : 'a whole number'} for ${quoted(word)}`,
  fix: float ? `Write a number, e.g. ${word} >= (1.5).` : `Write a whole number, e.g. ${word} is (2020).`,
})

/** `low` and `high` are the ends of the range as written; either may be missing (`-5`, `5-`). */
export const writeRangeLiteralMessage = (
  text: string,
  word: string,
  low: string | undefined,
  high: string | undefined,
): OqlMessage => {
  const bounds = [
    ...(low === undefined || low === '' ? [] : [`${word} >= (${low})`]),
    ...(high === undefined || high === '' ? [] : [`${word} <= (${high})`]),
  ]
  return {
    problem: `Numeric ranges like ${quoted(text)} were removed`,
    fix: `Write explicit bounds: ${bounds.join(' and ')}.`,
  }
}

export const writeBadSampleMessage = (found: string | undefined): OqlMessage =>
  only(
    found === undefined || found === ''
      ? 'sample needs a number (and seed a value)'
      : `Expected a number, got ${quoted(found)}`,
  )

export const writeSampleTwiceMessage = (): OqlMessage => ({
  problem: 'sample is given twice',
  fix: 'Keep one sample directive.',
})

// Search terms -------------------------------------------------------------------------------------------

export const writeMissingSearchTermMessage = (word: string): OqlMessage => ({
  problem: `Expected a search term for ${quoted(word)}`,
  fix: `Give a term or a quoted phrase, e.g. ${word} has (cancer).`,
})

export const writeEmptyPhraseMessage = (): OqlMessage => ({
  problem: 'The quoted phrase is empty',
  fix: 'Put the phrase between the quotes.',
})

export const writeNoFuzzyMessage = (text: string): OqlMessage =>
  only(`${quoted(text)} uses ~, which is not OQL syntax (no fuzzy matching or slop)`)

/** `|` or `\` in a search term (#865); the message names the one the term holds. */
export const writeCharacterNotOperatorMessage = (text: string): OqlMessage =>
  only(`${quoted(text)} uses ${text.includes('|') ? '|' : '\\'}, which is not an OQL operator`)

export const writeLeadingWildcardMessage = (term: string): OqlMessage =>
  only(`A leading wildcard (${quoted(term)}) is not supported (too expensive)`)

export const writeShortWildcardPrefixMessage = (term: string): OqlMessage =>
  only(`A wildcard needs at least 3 leading characters (${quoted(term)})`)

export const writeTooManyWildcardsMessage = (count: number): OqlMessage =>
  only(`${count} wildcards in one phrase or proximity (at most 2)`)

export const writeMultiWildcardShortPrefixMessage = (): OqlMessage =>
  only('Two wildcards in one phrase or proximity need at least 4 characters before each')

/** A bare term with a wildcard, on a field with an exact search: quoting it is the fix. */
export const writeUnquotedWildcardMessage = (term: string): OqlMessage => ({
  problem: `Wildcards run on exact (no-stem) text: ${term}`,
  fix: `Quote the term, e.g. (${quoted(term)}).`,
})

export const writeStemmedWildcardMessage = (phrase: string): OqlMessage => ({
  problem: `Wildcards run on exact (no-stem) text: stemmed ${quoted(phrase)}`,
  fix: `Drop stemmed, e.g. (${quoted(phrase)}).`,
})

export const writeBareProximityWildcardMessage = (term: string): OqlMessage => ({
  problem: `Wildcards run on exact (no-stem) text: ${term}`,
  fix: 'Quote every term of the proximity, e.g. within 3 ("smart*", "phone").',
})

/** A wildcard where quoting cannot help: the field has no exact search, so the wildcard must go. */
export const writeNoExactSearchMessage = (word: string, entity: EntityType): OqlMessage => ({
  problem: `Wildcards need exact (no-stem) search, and ${quoted(word)} has no exact search variant on ${entity}`,
  fix: 'Remove the wildcard.',
})

export const writeBadProximityMessage = (found: string | undefined): OqlMessage =>
  only(
    found === undefined
      ? 'The proximity is malformed'
      : `The proximity is malformed at ${quoted(found)}: it is within N (a, b, …) with terms separated by commas`,
  )

export const writeProximitySuffixRemovedMessage = (): OqlMessage =>
  only('Proximity is written within N (a, b, …) before the terms, not "…" within N words after them')

export const writeProximityNeedsOperandsMessage = (): OqlMessage =>
  only('A proximity needs at least two terms')

export const writeMixedProximityMessage = (): OqlMessage =>
  only('Proximity terms must be all bare (stemmed) or all quoted (exact), not a mix')

export const writeSemanticNeedsTextMessage = (word: string): OqlMessage => ({
  problem: '"is similar to" needs a quoted text passage',
  fix: `Quote the passage, e.g. ${word} is similar to ("graph neural networks for molecules").`,
})
