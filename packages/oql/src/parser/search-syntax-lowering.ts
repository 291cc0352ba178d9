import type { Filter, LeafFilter } from '@oqlkit/oqo-schema'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import type { OqlDiagnosticCode } from '../diagnostics/oql-diagnostic-codes.ts'
import { replaceSpan } from '../diagnostics/oql-quick-fix.ts'
import type { ClauseContext, LoweringScope } from './lowering-scope.ts'
import {
  type OqlMessage,
  writeBareProximityWildcardMessage,
  writeCharacterNotOperatorMessage,
  writeEmptyPhraseMessage,
  writeLeadingWildcardMessage,
  writeMixedProximityMessage,
  writeMultiWildcardShortPrefixMessage,
  writeNoExactSearchMessage,
  writeNoFuzzyMessage,
  writeProximityNeedsOperandsMessage,
  writeSemanticNeedsTextMessage,
  writeShortWildcardPrefixMessage,
  writeStemmedWildcardMessage,
  writeTooManyWildcardsMessage,
  writeUnquotedWildcardMessage,
} from './oql-message-writers.ts'
import type { PhraseNode, ProximityNode, RunNode, ValueNode } from './oql-syntax.ts'
import { firstBranch, reportOneValueOnly } from './value-typing.ts'

// The terms of `has ( … )` and the passage of `is similar to` become OQO search values (§3.7): bare
// words a stemmed `.search` value, quoted text an exact `.search.exact` one where the field has an
// exact search, `within N (a, b)` a `"a"~N~"b"` proximity, a passage a `.search.semantic` value. The
// rules the search service enforces (wildcards, fuzzy `~`, `|` and `\`) are checked here, so the user
// hears of them in OQL words, at the term, before any search runs.

const WILDCARD = /[*?]/
const WORD_CHARACTER = /[\p{L}\p{N}_]/u

const wordCharactersBefore = (token: string, index: number): number => {
  let count = 0
  for (const char of token.slice(0, index)) if (WORD_CHARACTER.test(char)) count++
  return count
}

/**
 * Lowers one term (or the passage of `is similar to`) with the negation pushed down to it: the OQO leaf,
 * or undefined once the problems of the term are reported.
 */
export type TermLowering<T> = (
  node: T,
  negated: boolean,
  context: ClauseContext,
  scope: LoweringScope,
) => Filter | undefined

/** The column a search value is written under: the field's search base, else its own column. */
const base = (context: ClauseContext): string => context.target.search?.base ?? context.target.columnId

/** Reports a problem of a term and says the term is broken, for `a || b || broken` chains. */
const flag = (scope: LoweringScope, code: OqlDiagnosticCode, span: Span, message: OqlMessage): true => {
  scope.report(code, span, message)
  return true
}

/** `~`, `|` and `\` inside a search value are not OQL (#865). */
const operatorCharacters = (text: string, span: Span, scope: LoweringScope): boolean => {
  if (text.includes('~')) return flag(scope, 'OQL_NO_FUZZY', span, writeNoFuzzyMessage(text))
  if (/[|\\]/.test(text))
    return flag(scope, 'OQL_CHAR_NOT_OPERATOR', span, writeCharacterNotOperatorMessage(text))
  return false
}

/** A bare word with a wildcard: the leading and prefix rules first, then the need for quotes. */
const bareWildcard = (text: string, span: Span, context: ClauseContext, scope: LoweringScope): boolean => {
  const index = text.search(WILDCARD)
  if (index === -1) return false
  if (index === 0) return flag(scope, 'OQL_LEADING_WILDCARD', span, writeLeadingWildcardMessage(text))
  const star = text.indexOf('*')
  if (star !== -1 && wordCharactersBefore(text, star) < 3)
    return flag(scope, 'OQL_SHORT_WILDCARD_PREFIX', span, writeShortWildcardPrefixMessage(text))
  // Quoting helps only where the field has an exact search; elsewhere say so rather than send the
  // user from "quote it" to "remove it".
  return context.target.search?.exact === true
    ? flag(scope, 'OQL_WILDCARD_NEEDS_EXACT', span, {
        ...writeUnquotedWildcardMessage(text),
        quickFixes: [replaceSpan(span, `"${text}"`, 'Quote the term')],
      })
    : noExactSearch(span, context, scope)
}

const noExactSearch = (span: Span, context: ClauseContext, scope: LoweringScope): true => {
  return flag(scope, 'OQL_WILDCARD_NEEDS_EXACT', span, writeNoExactSearchMessage(context.word, scope.entity))
}

/** Wildcards in quoted text: no leading one, 3+ characters before `*`, at most 2, and 4+ characters each when 2. */
const quotedWildcards = (texts: readonly string[], span: Span, scope: LoweringScope): boolean => {
  if (!texts.some((text) => WILDCARD.test(text))) return false
  const prefixes: number[] = []
  for (const text of texts)
    for (const part of text.split(/\s+/)) {
      for (let index = 0; index < part.length; index++) {
        const char = part[index]!
        if (char !== '*' && char !== '?') continue
        if (index === 0) return flag(scope, 'OQL_LEADING_WILDCARD', span, writeLeadingWildcardMessage(part))
        const before = wordCharactersBefore(part, index)
        if (char === '*' && before < 3)
          return flag(scope, 'OQL_SHORT_WILDCARD_PREFIX', span, writeShortWildcardPrefixMessage(part))
        prefixes.push(before)
      }
    }
  if (prefixes.length > 2)
    return flag(scope, 'OQL_TOO_MANY_WILDCARDS', span, writeTooManyWildcardsMessage(prefixes.length))
  if (prefixes.length === 2 && Math.min(...prefixes) < 4)
    return flag(scope, 'OQL_MULTI_WILDCARD_SHORT_PREFIX', span, writeMultiWildcardShortPrefixMessage())
  return false
}

const searchLeaf = (
  scope: LoweringScope,
  columnSuffix: string,
  value: string,
  negated: boolean,
  span: Span,
  context: ClauseContext,
): LeafFilter => {
  return scope.leaf(
    { column_id: `${base(context)}${columnSuffix}`, value, operator: 'has' },
    negated,
    span,
    context,
  )
}

/** A run of bare words: one stemmed search value, once no word breaks a rule. */
export const lowerRun: TermLowering<RunNode> = (node, negated, context, scope) => {
  let broken = false
  for (const word of node.words)
    broken =
      operatorCharacters(word.text, word.span, scope) ||
      bareWildcard(word.text, word.span, context, scope) ||
      broken
  if (broken) return undefined
  const text = node.words.map((word) => word.text).join(' ')
  return searchLeaf(scope, '.search', text, negated, node.span, context)
}

/** A quoted phrase: exact where the field has an exact search and it is not `stemmed`, else a stemmed phrase. */
export const lowerPhrase: TermLowering<PhraseNode> = (node, negated, context, scope) => {
  const text = node.text
  if (text.trim() === '') return scope.report('OQL_MISSING_VALUE', node.span, writeEmptyPhraseMessage())
  if (operatorCharacters(text, node.span, scope)) return undefined
  const exact = !node.stemmed && context.target.search?.exact === true
  if (!exact && WILDCARD.test(text)) {
    if (context.target.search?.exact !== true) return void noExactSearch(node.span, context, scope)
    return scope.report('OQL_WILDCARD_NEEDS_EXACT', node.span, {
      ...writeStemmedWildcardMessage(text),
      quickFixes: [replaceSpan(node.span, `"${text}"`, 'Drop stemmed')],
    })
  }
  if (exact) {
    if (quotedWildcards([text], node.span, scope)) return undefined
    // A single quoted token loses its quotes; a phrase keeps them (§3.7).
    return /\s/.test(text)
      ? searchLeaf(scope, '.search.exact', `"${text}"`, negated, node.span, context)
      : searchLeaf(scope, '.search.exact', text, negated, node.span, context)
  }
  // `stemmed "…"`, and quoted text on an entity with no exact search: a stemmed phrase (§3.7).
  return searchLeaf(scope, '.search', `"${text}"`, negated, node.span, context)
}

/** `within N (a, b, …)`: the terms quoted and chained with the distance, exact when they are quoted. */
export const lowerProximity: TermLowering<ProximityNode> = (node, negated, context, scope) => {
  if (node.error !== undefined) return scope.syntax(node.error)
  const at = node.keyword
  if (node.operands.length < 2)
    return scope.report('OQL_PROXIMITY_NEEDS_OPERANDS', at, writeProximityNeedsOperandsMessage())
  const quoted = node.operands.filter((operand) => operand.quoted).length
  if (quoted > 0 && quoted < node.operands.length)
    return scope.report('OQL_PROXIMITY_MIXED_OPERANDS', at, writeMixedProximityMessage())
  for (const operand of node.operands)
    if (operatorCharacters(operand.text, operand.span, scope)) return undefined
  const texts = node.operands.map((operand) => operand.text)
  const wildcard = texts.find((text) => WILDCARD.test(text))
  if (wildcard !== undefined && context.target.search?.exact !== true)
    return void noExactSearch(at, context, scope)
  if (quoted === 0 && wildcard !== undefined)
    return scope.report('OQL_WILDCARD_NEEDS_EXACT', at, writeBareProximityWildcardMessage(wildcard))
  const exact = quoted > 0 && context.target.search?.exact === true
  if (exact && quotedWildcards(texts, at, scope)) return undefined
  // K-ary proximity carries the distance once: "a"~N~"b"~"c" (§3.7).
  const [first, ...rest] = texts.map((text) => `"${text}"`)
  const value = `${first}~${node.distance}~${rest.join('~')}`
  return searchLeaf(scope, exact ? '.search.exact' : '.search', value, negated, node.span, context)
}

/** `is similar to ("…")`: one quoted passage, a `.search.semantic` value. */
export const lowerSimilarTo: TermLowering<ValueNode> = (node, negated, context, scope) => {
  const branch = firstBranch(node)
  if (branch !== undefined) {
    for (const error of branch.errors) scope.syntax(error)
    if (branch.errors.length === 0) reportOneValueOnly(branch, context, scope)
    return undefined
  }
  let item: ValueNode = node
  let itemNegated = negated
  for (;;) {
    if (item.kind === 'group' || item.kind === 'bare') {
      if (item.error !== undefined) scope.syntax(item.error)
      item = item.kind === 'group' ? item.inner : item.item
    } else if (item.kind === 'not') {
      itemNegated = !itemNegated
      item = item.operand
    } else break
  }
  if (item.kind !== 'scalar' || !item.quoted || item.text.trim() === '')
    return scope.report('OQL_SEMANTIC_NEEDS_TEXT', item.span, writeSemanticNeedsTextMessage(context.word))
  return searchLeaf(scope, '.search.semantic', item.text, itemNegated, item.span, context)
}
