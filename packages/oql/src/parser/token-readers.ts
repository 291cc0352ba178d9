import type { Span } from '../diagnostics/oql-diagnostic.ts'
import type { Token } from './oql-lexer.ts'
import type {
  MissingNode,
  NotNode,
  NullNode,
  OperatorNode,
  PhraseNode,
  ProximityNode,
  RunNode,
  ScalarNode,
  SearchNode,
  SyntaxErrorNode,
} from './oql-syntax.ts'
import {
  DIGITS,
  isConnective,
  isValueToken,
  isWord,
  matchWords,
  NULL_WORDS,
  OPERATOR_PHRASES,
  startsDirective,
} from './token-classes.ts'
import { errorAt, pointAt, type Scanned, spanFrom, spanOf, type TokenStream } from './token-parsers.ts'

// The terminals of the grammar as plain functions over the token stream. The grammar picks a branch
// by looking at the current token instead of trying alternatives one after another, and the long
// lists inside values and search expressions are read in loops (see expression-readers.ts).

/** A terminal: reads tokens from the stream, or declines (undefined). */
export type Reader<T> = (stream: TokenStream) => Scanned<T> | undefined

export interface Prefix {
  readonly keyword: Span
  readonly error?: SyntaxErrorNode
}

/** `not` and `!` prefixes (a rejected `!` reads as `not` so the rest still parses); never fails. */
export const readPrefixes: Reader<Prefix[]> = ({ tokens, index }) => {
  const prefixes: Prefix[] = []
  let next = index
  for (; ; next++) {
    const current = tokens[next]!
    if (isWord(current, 'not')) prefixes.push({ keyword: spanOf(current) })
    else if (current.kind === 'bang')
      prefixes.push({
        keyword: spanOf(current),
        error: errorAt('OQL_BANG_NOT_SUPPORTED', spanOf(current), '!'),
      })
    else break
  }
  return { value: prefixes, next }
}

export const negate = <T extends { readonly span: Span }>(
  prefixes: readonly Prefix[],
  operand: T,
): T | NotNode<T> => {
  let node: T | NotNode<T> = operand
  for (let index = prefixes.length - 1; index >= 0; index--) {
    const prefix = prefixes[index]!
    const not: NotNode<T> = {
      kind: 'not',
      operand: node as T,
      keyword: prefix.keyword,
      span: spanFrom(prefix.keyword, node.span),
    }
    node = prefix.error === undefined ? not : { ...not, error: prefix.error }
  }
  return node
}

/** No value here: reads nothing, and keeps an annotation written in the value's place. */
export const readMissing: Reader<MissingNode> = ({ tokens, index }) => {
  const current = tokens[index]!
  const span = pointAt(current)
  return {
    value:
      current.annotation === undefined
        ? { kind: 'missing', span }
        : { kind: 'missing', span, annotation: current.annotation },
    next: index,
  }
}

export const readScalar: Reader<ScalarNode | NullNode> = ({ tokens, index }) => {
  const current = tokens[index]!
  if (!isValueToken(current)) return undefined
  const value: ScalarNode | NullNode =
    current.kind === 'word' && NULL_WORDS.has(current.lower)
      ? { kind: 'null', span: spanOf(current) }
      : { kind: 'scalar', span: spanOf(current), text: current.text, quoted: current.kind === 'string' }
  return { value, next: index + 1 }
}

/** Reads tokens up to the end of a clause: a connective, `)` or directive at this depth, or the end. */
export const readToClauseEnd: Reader<Span | undefined> = ({ tokens, index }) => {
  let depth = 0
  let next = index
  for (; ; next++) {
    const current = tokens[next]!
    if (current.kind === 'end') break
    if (depth === 0 && (isConnective(current) || current.kind === 'rparen' || startsDirective(tokens, next)))
      break
    if (current.kind === 'lparen') depth++
    else if (current.kind === 'rparen') depth--
  }
  return {
    value: next > index ? spanFrom(spanOf(tokens[index]!), spanOf(tokens[next - 1]!)) : undefined,
    next,
  }
}

export interface Close {
  readonly closed: boolean
  readonly end: Span
  readonly error?: SyntaxErrorNode
}

/** The index of the `)` that closes a group still open at `index`, if the text has one. */
const matchingClose = (tokens: readonly Token[], index: number): number | undefined => {
  let depth = 1
  for (let next = index; tokens[next]!.kind !== 'end'; next++) {
    const kind = tokens[next]!.kind
    if (kind === 'lparen') depth++
    else if (kind === 'rparen' && --depth === 0) return next
  }
  return undefined
}

/**
 * `)`, or a note that the group is not closed (the text ends or breaks first); never fails. Text the
 * group cannot read before a `)` that does close it is stray text, not a missing parenthesis: it is
 * reported as such and skipped, so that the `)` still closes the group.
 */
export const readClose: Reader<Close> = ({ tokens, index }) => {
  const current = tokens[index]!
  if (current.kind === 'rparen') return { value: { closed: true, end: spanOf(current) }, next: index + 1 }
  if (current.kind === 'end') {
    const error = errorAt('OQL_UNBALANCED_PARENS', pointAt(current))
    return { value: { closed: false, end: error.span, error }, next: index }
  }
  const close = matchingClose(tokens, index)
  if (close !== undefined) {
    const error = errorAt('OQL_TRAILING_TOKENS', spanOf(current), current.text)
    return { value: { closed: true, end: spanOf(tokens[close]!), error }, next: close + 1 }
  }
  const error = errorAt('OQL_UNBALANCED_PARENS', spanOf(current), current.text)
  return { value: { closed: false, end: error.span, error }, next: index }
}

// Search terms ----------------------------------------------------------------------------------------

export const isSingleToken = (text: string): boolean => text.length > 0 && !/\s/.test(text)

export const isProximityStart = (tokens: readonly Token[], index: number): boolean =>
  isWord(tokens[index], 'within') &&
  tokens[index + 1]?.kind === 'word' &&
  DIGITS.test(tokens[index + 1]!.text)

export const isRunWord = (tokens: readonly Token[], index: number): boolean => {
  const current = tokens[index]!
  if (current.kind !== 'word' || isConnective(current) || isWord(current, 'not')) return false
  if (isWord(current, 'stemmed') && tokens[index + 1]?.kind === 'string') return false
  return !isProximityStart(tokens, index)
}

/** A run of bare words is one stemmed node; a quoted single word inside the run is an escape (`"and"`). */
export const readRun: Reader<RunNode> = ({ tokens, index }) => {
  if (!isRunWord(tokens, index)) return undefined
  const words: RunNode['words'][number][] = []
  let next = index
  for (; ; next++) {
    const current = tokens[next]!
    if (isRunWord(tokens, next)) words.push({ text: current.text, span: spanOf(current), quoted: false })
    else if (current.kind === 'string' && next > index && isSingleToken(current.text))
      words.push({ text: current.text, span: spanOf(current), quoted: true })
    else break
  }
  return { value: { kind: 'run', span: spanFrom(words[0]!.span, words.at(-1)!.span), words }, next }
}

/** One bare word: outside parentheses a search value takes a single term. */
export const readWord: Reader<RunNode> = ({ tokens, index }) => {
  const current = tokens[index]!
  if (current.kind !== 'word' || isConnective(current) || isWord(current, 'not')) return undefined
  const span = spanOf(current)
  return {
    value: { kind: 'run', span, words: [{ text: current.text, span, quoted: false }] },
    next: index + 1,
  }
}

export const readPhrase: Reader<PhraseNode> = ({ tokens, index }) => {
  const current = tokens[index]!
  if (current.kind !== 'string') return undefined
  return {
    value: { kind: 'phrase', span: spanOf(current), text: current.text, stemmed: false },
    next: index + 1,
  }
}

export const readStemmedPhrase: Reader<PhraseNode> = ({ tokens, index }) => {
  const string = tokens[index + 1]
  if (!isWord(tokens[index], 'stemmed') || string?.kind !== 'string') return undefined
  return {
    value: {
      kind: 'phrase',
      span: spanFrom(spanOf(tokens[index]!), spanOf(string)),
      text: string.text,
      stemmed: true,
    },
    next: index + 2,
  }
}

/** `within N (a, b, …)`. A malformed one is read up to its `)` with an error, so parsing goes on. */
export const readProximity: Reader<ProximityNode> = ({ tokens, index }) => {
  if (!isProximityStart(tokens, index)) return undefined
  const keywordSpan = spanOf(tokens[index]!)
  const base = { kind: 'proximity' as const, keyword: keywordSpan, distance: Number(tokens[index + 1]!.text) }
  const open = tokens[index + 2]!
  const count = tokens[index + 1]!
  if (!Number.isSafeInteger(base.distance)) {
    const error = errorAt('OQL_BAD_PROXIMITY', spanOf(count), count.text)
    return {
      value: { ...base, span: spanFrom(keywordSpan, spanOf(count)), operands: [], closed: false, error },
      next: index + 2,
    }
  }
  if (open.kind !== 'lparen') {
    // `"x y" within 3 words`: the removed suffix form (#514).
    const suffix = isWord(open, 'words', 'word')
    const next = suffix ? index + 3 : index + 2
    const error = suffix
      ? errorAt('OQL_PROXIMITY_SUFFIX_REMOVED', spanFrom(keywordSpan, spanOf(open)))
      : errorAt('OQL_BAD_PROXIMITY', open.kind === 'end' ? pointAt(open) : spanOf(open), open.text)
    return {
      value: {
        ...base,
        span: spanFrom(keywordSpan, spanOf(tokens[next - 1]!)),
        operands: [],
        closed: false,
        error,
      },
      next,
    }
  }
  const operands: ProximityNode['operands'][number][] = []
  let error: SyntaxErrorNode | undefined
  let expectOperand = true
  for (let next = index + 3; ; next++) {
    const current = tokens[next]!
    if (current.kind === 'rparen') {
      if (expectOperand && operands.length > 0) error ??= errorAt('OQL_BAD_PROXIMITY', spanOf(current), ')')
      const value = { ...base, span: spanFrom(keywordSpan, spanOf(current)), operands, closed: true }
      return { value: error === undefined ? value : { ...value, error }, next: next + 1 }
    }
    if (current.kind === 'end' || current.kind === 'lparen') {
      error ??= errorAt(
        current.kind === 'end' ? 'OQL_UNBALANCED_PARENS' : 'OQL_BAD_PROXIMITY',
        pointAt(current),
      )
      const span = spanFrom(keywordSpan, spanOf(tokens[next - 1]!))
      return { value: { ...base, span, operands, closed: false, error }, next }
    }
    if (current.kind === 'comma') {
      if (expectOperand) error ??= errorAt('OQL_BAD_PROXIMITY', spanOf(current), ',')
      expectOperand = true
    } else if (current.kind === 'word' || current.kind === 'string') {
      // Terms are separated by commas: `(a b, c)` is two terms side by side.
      if (!expectOperand) error ??= errorAt('OQL_BAD_PROXIMITY', spanOf(current), current.text)
      else operands.push({ text: current.text, quoted: current.kind === 'string', span: spanOf(current) })
      expectOperand = false
    } else error ??= errorAt('OQL_BAD_PROXIMITY', spanOf(current), current.text)
  }
}

/** A search operand that is not a group: proximity, `stemmed "…"`, `"…"`, or a run of words (or one word). */
export const searchAtom =
  (term: Reader<RunNode>): Reader<SearchNode> =>
  (stream) =>
    readProximity(stream) ?? readStemmedPhrase(stream) ?? readPhrase(stream) ?? term(stream)

// Can this token start a search operand (two operands side by side are an AND inside `has (…)`)?
export const startsSearchOperand = (current: Token): boolean =>
  current.kind === 'lparen' ||
  current.kind === 'string' ||
  current.kind === 'bang' ||
  (current.kind === 'word' && !isConnective(current))

export const startsValueItem = (current: Token): boolean =>
  current.kind === 'lparen' || current.kind === 'bang' || isWord(current, 'not') || isValueToken(current)

/** An operator phrase (`is not in collection`, `does not have`, `>=`, …); `contains` is read and flagged. */
export const readOperator: Reader<OperatorNode> = ({ tokens, index }) => {
  const found = OPERATOR_PHRASES.find(({ pattern }) => matchWords(tokens, index, pattern))
  if (found === undefined) return undefined
  const span = spanFrom(spanOf(tokens[index]!), spanOf(tokens[index + found.pattern.length - 1]!))
  const node: OperatorNode = {
    kind: 'operator',
    span,
    family: found.family,
    name: found.name,
    negated: found.negated,
    implied: false,
  }
  return {
    value: found.renamed
      ? {
          ...node,
          // The words as written, for the quick fix that replaces them.
          error: errorAt(
            'OQL_CONTAINS_RENAMED',
            span,
            tokens
              .slice(index, index + found.pattern.length)
              .map((token) => token.text)
              .join(' '),
          ),
        }
      : node,
    next: index + found.pattern.length,
  }
}

/** A reader, or no value at all (reads nothing) when it finds none. */
export const orMissing =
  <T>(read: Reader<T>): Reader<T | MissingNode> =>
  (stream) =>
    read(stream) ?? readMissing(stream)
