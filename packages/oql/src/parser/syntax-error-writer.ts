import { closestMatches, ENTITY_TYPES, type EntityType } from '@oqlkit/oqo-schema'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import { type OqlQuickFix, replaceSpan } from '../diagnostics/oql-quick-fix.ts'
import { fieldIndexOf } from './field-index.ts'
import {
  OPERATOR_SPELLINGS,
  type OqlMessage,
  writeBadProximityMessage,
  writeBadSampleMessage,
  writeBadVerbPhraseMessage,
  writeBangNotSupportedMessage,
  writeCommaInGroupMessage,
  writeConditionExpectedMessage,
  writeContainsRenamedMessage,
  writeCorpusOfNonWorksMessage,
  writeEmptyQueryMessage,
  writeFieldExpectedMessage,
  writeImplicitAdjacencyMessage,
  writeMissingEntityMessage,
  writeMissingOperatorMessage,
  writeMisspeltWhereMessage,
  writeProximitySuffixRemovedMessage,
  writeStrayTextInGroupMessage,
  writeTrailingTextMessage,
  writeUnclosedCorpusMessage,
  writeUnclosedParenMessage,
  writeUndelimitedSearchTermsMessage,
  writeUndelimitedValuesMessage,
  writeUnexpectedTextMessage,
  writeUnknownCorpusMessage,
  writeUnknownEntityMessage,
  writeUnknownFieldMessage,
  writeUnopenedParenMessage,
  writeValuesNeedConnectiveMessage,
} from './oql-message-writers.ts'
import type { SyntaxErrorNode } from './oql-syntax.ts'

// The grammar records where the text breaks a rule as an error node with a code and the text found; the
// words depend on where the node stands, which only the lowering walk knows (the field of the clause, a
// search or a value, inside a group or after the query). It passes that place here.

/** Where an error node stands, as far as its message depends on it. */
export interface SyntaxErrorContext {
  /** The field word of the clause the error is in. */
  readonly field?: string
  readonly kind?: 'value' | 'search'
  readonly corpusClosed?: boolean
  readonly hasWhere?: boolean
  /** The error stands before the `)` of a group (stray text there), not at the end of the query. */
  readonly inGroup?: boolean
}

export interface SyntaxErrorPlace extends SyntaxErrorContext {
  /** The entity the query names (works until it is read). */
  readonly entity: EntityType
  /** False when the entity itself could not be read: an empty text is then an empty query. */
  readonly entityRead: boolean
}

const withFixes = (message: OqlMessage, quickFixes: readonly OqlQuickFix[]): OqlMessage =>
  quickFixes.length === 0 ? message : { ...message, quickFixes }

/** The word closest to `found` among `candidates`, when one is close enough to be what was meant. */
// The candidates here (entity types, `where`) are short: a word three times longer is no misspelling of one,
// and comparing it would cost time in proportion to its length.
const closestTo = (found: string, candidates: readonly string[]): string | undefined => {
  const longest = Math.max(...candidates.map((candidate) => candidate.length))
  if (found === '' || found.length > 3 * longest) return undefined
  return closestMatches(found.toLowerCase(), candidates, 1, 0.75)[0]
}

/** The message of an error node of the tree, in the words of the place it stands, with its quick fixes. */
export const writeSyntaxErrorMessage = (error: SyntaxErrorNode, place: SyntaxErrorPlace): OqlMessage => {
  const near = nearestNamesOf(error, place)
  return withFixes(writeMessage(error, place, near), quickFixesOf(error, place, near))
}

/**
 * The names closest to an unknown field or entity, searched once for both the message and its quick fixes:
 * the search scans every name, and a hostile text can hold hundreds of unknown names.
 */
interface NearestNames {
  readonly fields: readonly string[]
  readonly entity: string | undefined
}

const nearestNamesOf = (error: SyntaxErrorNode, place: SyntaxErrorPlace): NearestNames => {
  const found = error.found ?? ''
  if (error.code === 'OQL_UNKNOWN_FIELD')
    return { fields: fieldSuggestions(found, place.entity), entity: undefined }
  if (error.code === 'OQL_UNKNOWN_ENTITY') return { fields: [], entity: closestTo(found, ENTITY_TYPES) }
  return { fields: [], entity: undefined }
}

/** The edits the fix describes, where they are certain. */
const quickFixesOf = (error: SyntaxErrorNode, place: SyntaxErrorPlace, near: NearestNames): OqlQuickFix[] => {
  const found = error.found ?? ''
  const span: Span = error.span
  switch (error.code) {
    case 'OQL_UNKNOWN_ENTITY':
      return near.entity === undefined ? [] : [replaceSpan(span, near.entity, `Change to ${near.entity}`)]
    case 'OQL_UNKNOWN_FIELD':
      return near.fields.map((name) => replaceSpan(span, name, `Change to ${name}`))
    case 'OQL_CONTAINS_RENAMED': {
      const meant = /^does/i.test(found) ? 'does not have' : 'has'
      return found === '' ? [] : [replaceSpan(span, meant, `Write ${meant}`)]
    }
    case 'OQL_MISSING_OPERATOR': {
      const meant = OPERATOR_SPELLINGS[found]
      return meant === undefined ? [] : [replaceSpan(span, meant, `Write ${meant}`)]
    }
    case 'OQL_UNBALANCED_PARENS':
      if (found === ')') return [replaceSpan(span, '', 'Remove the )')]
      // At the end of the query: the group runs to the end, so the `)` goes there.
      return span.start === span.end ? [replaceSpan(span, ')', 'Add the missing )')] : []
    case 'OQL_TRAILING_TOKENS':
      if (place.inGroup === true || place.hasWhere !== false) return []
      if (startsCondition(found, place.entity))
        return [replaceSpan({ start: span.start, end: span.start }, 'where ', 'Add where')]
      return misspeltWhere(found) ? [replaceSpan(span, 'where', 'Change to where')] : []
    default:
      return []
  }
}

const fieldSuggestions = (found: string, entity: EntityType): string[] =>
  found === '' ? [] : closestMatches(found, fieldIndexOf(entity).names.keys(), 3, 0.75)

const startsCondition = (found: string, entity: EntityType): boolean =>
  fieldIndexOf(entity).match([found.toLowerCase()]) !== undefined

const misspeltWhere = (found: string): boolean => found !== '' && closestTo(found, ['where']) === 'where'

const writeMessage = (error: SyntaxErrorNode, place: SyntaxErrorPlace, near: NearestNames): OqlMessage => {
  const found = error.found
  const entity = place.entity
  switch (error.code) {
    case 'OQL_EMPTY':
      return place.entityRead ? writeConditionExpectedMessage() : writeEmptyQueryMessage()
    case 'OQL_MISSING_ENTITY':
      return writeMissingEntityMessage(found ?? '')
    case 'OQL_UNKNOWN_ENTITY':
      return writeUnknownEntityMessage(found ?? '', near.entity as EntityType | undefined)
    case 'OQL_BAD_CORPUS':
      if (place.entityRead && entity !== 'works') return writeCorpusOfNonWorksMessage(entity)
      return place.corpusClosed === false
        ? writeUnclosedCorpusMessage()
        : writeUnknownCorpusMessage(found ?? '')
    case 'OQL_TRAILING_TOKENS': {
      if (place.inGroup === true) return writeStrayTextInGroupMessage(found ?? '')
      // Text that reads as a field after an entity with no conditions: the `where` was left out.
      const missingWhere = place.hasWhere === false && startsCondition(found ?? '', entity)
      if (!missingWhere && place.hasWhere === false && misspeltWhere(found ?? ''))
        return writeMisspeltWhereMessage(found ?? '')
      return writeTrailingTextMessage(found, missingWhere ? entity : undefined)
    }
    case 'OQL_IMPLICIT_ADJACENCY':
      return writeImplicitAdjacencyMessage(found ?? '')
    case 'OQL_UNBALANCED_PARENS':
      if (found === ')') return writeUnopenedParenMessage()
      // An empty span is the end of the query, where nothing was found.
      return writeUnclosedParenMessage(error.span.start === error.span.end ? undefined : (found ?? ''))
    case 'OQL_UNKNOWN_FIELD':
      return unknownFieldMessage(found ?? '', entity, near.fields)
    case 'OQL_MISSING_OPERATOR':
      return writeMissingOperatorMessage(place.field ?? '', found)
    case 'OQL_CONTAINS_RENAMED':
      return writeContainsRenamedMessage()
    case 'OQL_BAD_VERB_PHRASE':
      return writeBadVerbPhraseMessage(found)
    case 'OQL_UNDELIMITED_TERM_LIST':
      return place.kind === 'search'
        ? writeUndelimitedSearchTermsMessage()
        : writeUndelimitedValuesMessage(place.field)
    case 'OQL_COMMA_IN_GROUP':
      return writeCommaInGroupMessage()
    case 'OQL_GROUP_VALUES_NEED_CONNECTIVE':
      return writeValuesNeedConnectiveMessage(found ?? '')
    case 'OQL_BANG_NOT_SUPPORTED':
      return writeBangNotSupportedMessage()
    case 'OQL_BAD_PROXIMITY':
      return writeBadProximityMessage(found)
    case 'OQL_PROXIMITY_SUFFIX_REMOVED':
      return writeProximitySuffixRemovedMessage()
    case 'OQL_BAD_SAMPLE':
      return writeBadSampleMessage(found)
    default:
      return writeUnexpectedTextMessage(found)
  }
}

/** An unknown field name comes with the names of the entity it is closest to. */
const unknownFieldMessage = (
  found: string,
  entity: EntityType,
  suggestions: readonly string[],
): OqlMessage => {
  if (found === '') return writeFieldExpectedMessage(entity)
  return writeUnknownFieldMessage(found, entity, suggestions)
}
