import P from 'parsimmon'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import { type LexedOql, lexOql, type Token } from './oql-lexer.ts'
import type { BranchNode, Join, SyntaxErrorNode } from './oql-syntax.ts'
import { isWord } from './token-classes.ts'

// Parsimmon primitives over OQL tokens. The grammar parses the query text itself, so Parsimmon's
// indexes are text offsets, but every primitive reads whole tokens: the one at the current offset
// (always a token start) from the lexed form of the text. Lexing is memoised for the last text, so a
// parse lexes once however often the grammar backtracks.

let lastInput: string | undefined
let lastLexed: LexedOql | undefined

/** The tokens of a text; the same object for the same text twice in a row. */
export const lexedOf = (input: string): LexedOql => {
  if (input !== lastInput || lastLexed === undefined) {
    lastLexed = lexOql(input)
    lastInput = input
  }
  return lastLexed
}

/**
 * The index of the token at an offset (the next one, should the offset fall between tokens): a binary
 * search over the token starts, which are ascending and end with the `end` token at the text's length.
 */
const tokenIndexAt = (lexed: LexedOql, offset: number): number => {
  const { tokens } = lexed
  let low = 0
  let high = tokens.length - 1
  while (low < high) {
    const middle = (low + high) >>> 1
    if (tokens[middle]!.start < offset) low = middle + 1
    else high = middle
  }
  return low
}

/** Where a primitive stands: the tokens and the index of the current one. */
export interface TokenStream {
  readonly tokens: readonly Token[]
  readonly index: number
}

/** A primitive's outcome: a value and the index of the first token it did not consume. */
export interface Scanned<T> {
  readonly value: T
  readonly next: number
}

/**
 * The one way the grammar reads tokens: `scan` looks at the stream and either declines (undefined,
 * a failure expecting `expected`) or returns a value and how far it read. Reading nothing is allowed
 * (lookahead and zero-width error nodes).
 */
export const scan = <T>(
  read: (stream: TokenStream) => Scanned<T> | undefined,
  expected: string,
): P.Parser<T> =>
  P((input, offset) => {
    const lexed = lexedOf(input)
    const index = tokenIndexAt(lexed, offset)
    const result = read({ tokens: lexed.tokens, index })
    if (result === undefined) return P.makeFailure(offset, expected)
    return P.makeSuccess(lexed.tokens[Math.min(result.next, lexed.tokens.length - 1)]!.start, result.value)
  })

/** One token that `accept` turns into a value. */
export const token = <T>(accept: (token: Token) => T | undefined, expected: string): P.Parser<T> =>
  scan(({ tokens, index }) => {
    const value = accept(tokens[index]!)
    return value === undefined ? undefined : { value, next: index + 1 }
  }, expected)

/** A keyword (case-insensitive), as its span. */
export const keyword = (...words: readonly string[]): P.Parser<Span> =>
  token((t) => (isWord(t, ...words) ? spanOf(t) : undefined), `'${words[0]}'`).desc(
    words.length === 1
      ? `the keyword '${words[0]}'`
      : `one of ${words.map((word) => `'${word}'`).join(', ')}`,
  )

export const punctuation = (kind: Token['kind'], description: string): P.Parser<Span> =>
  token((t) => (t.kind === kind ? spanOf(t) : undefined), description).desc(description)

export const spanOf = (token: Token): Span => ({ start: token.start, end: token.end })

export const spanFrom = (first: Span, last: Span): Span => ({ start: first.start, end: last.end })

export const pointAt = (token: Token): Span => ({ start: token.start, end: token.start })

export const errorAt = (code: SyntaxErrorNode['code'], span: Span, found?: string): SyntaxErrorNode =>
  found === undefined ? { kind: 'error', code, span } : { kind: 'error', code, span, found }

/** A connective between two operands: its join, its span, and a problem when it is not a proper one. */
export interface Separator {
  readonly join: Join
  readonly span: Span
  readonly error?: SyntaxErrorNode
}

/**
 * The precedence table of OQL's booleans, loosest first: `or`, then `and`; `not` is a prefix and binds
 * tightest (#506). Operands are read as a flat list with their separators and then reduced by this
 * table, so `a and b or c` is `(a and b) or c`, and a run of one join stays one n-ary branch.
 */
export const PRECEDENCE: readonly Join[] = ['or', 'and']

/** Reduces operands and the separators between them by the precedence table. */
export const reduceByPrecedence = <T extends { readonly span: Span }>(
  first: T,
  rest: readonly (readonly [Separator, T])[],
  level = 0,
): T => {
  const join = PRECEDENCE[level]
  if (rest.length === 0 || join === undefined) return first
  const parts: { first: T; rest: (readonly [Separator, T])[] }[] = [{ first, rest: [] }]
  const connectives: Span[] = []
  const errors: SyntaxErrorNode[] = []
  for (const pair of rest) {
    const [separator, operand] = pair
    if (separator.join === join) {
      parts.push({ first: operand, rest: [] })
      connectives.push(separator.span)
      if (separator.error !== undefined) errors.push(separator.error)
    } else parts.at(-1)!.rest.push(pair)
  }
  const operands = parts.map((part) => reduceByPrecedence(part.first, part.rest, level + 1))
  if (operands.length === 1) return operands[0]!
  const branch: BranchNode<T> = {
    kind: 'branch',
    join,
    operands,
    connectives,
    errors,
    span: spanFrom(first.span, operands.at(-1)!.span),
  }
  // The node types that use this table all include their own branch node.
  return branch as unknown as T
}
