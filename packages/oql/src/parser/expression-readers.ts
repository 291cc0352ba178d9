import type { Token } from './oql-lexer.ts'
import type { GroupNode, SearchNode, ValueNode } from './oql-syntax.ts'
import { isAnd, isWord } from './token-classes.ts'
import {
  errorAt,
  pointAt,
  reduceByPrecedence,
  type Scanned,
  type Separator,
  spanFrom,
  spanOf,
} from './token-parsers.ts'
import {
  negate,
  type Reader,
  readClose,
  readMissing,
  readPrefixes,
  readRun,
  readScalar,
  searchAtom,
  startsSearchOperand,
  startsValueItem,
} from './token-readers.ts'

// The expressions inside `is ( … )` and `has ( … )`. They hold most of the tokens of real queries
// (100-term or-lists), so they are read by loops over the tokens rather than by combinators; they use
// the same precedence table as the conditions (NOT > AND > OR) and give the same syntax nodes.

/** Operands and the separators between them, read in a loop and reduced by the precedence table. */
export const readBoolean =
  <T extends { readonly span: { readonly start: number; readonly end: number } }>(
    readOperand: Reader<T>,
    readSeparator: Reader<Separator>,
  ): Reader<T> =>
  (stream) => {
    const first = readOperand(stream)
    if (first === undefined) return undefined
    const rest: (readonly [Separator, T])[] = []
    let next = first.next
    for (;;) {
      const separator = readSeparator({ tokens: stream.tokens, index: next })
      if (separator === undefined) break
      const operand = readOperand({ tokens: stream.tokens, index: separator.next })
      // Every separator or operand reads a token; stop rather than loop should one ever not.
      if (operand === undefined || operand.next === next) break
      rest.push([separator.value, operand.value])
      next = operand.next
    }
    return { value: reduceByPrecedence(first.value, rest), next }
  }

/** `( inner )`; an unclosed group keeps what it read and says so. */
export const readGroup =
  <T extends { readonly span: { readonly start: number; readonly end: number } }>(
    readInner: Reader<T>,
  ): Reader<GroupNode<T>> =>
  ({ tokens, index }) => {
    const open = tokens[index]!
    if (open.kind !== 'lparen') return undefined
    const inner = readInner({ tokens, index: index + 1 })!
    const close = readClose({ tokens, index: inner.next })!
    const span = spanFrom(spanOf(open), close.value.end)
    const node: GroupNode<T> =
      close.value.error === undefined
        ? { kind: 'group', inner: inner.value, closed: close.value.closed, span }
        : { kind: 'group', inner: inner.value, closed: close.value.closed, span, error: close.value.error }
    return { value: node, next: close.next }
  }

/** `not` prefixes, then the operand `read` finds (never fails: no operand is a missing value). */
export const readPrefixed =
  <T extends { readonly span: { readonly start: number; readonly end: number } }>(
    read: Reader<T>,
  ): Reader<T> =>
  (stream) => {
    const prefixes = readPrefixes(stream)!
    const at = { tokens: stream.tokens, index: prefixes.next }
    const operand = (read(at) ?? readMissing(at)) as Scanned<T>
    return { value: negate(prefixes.value, operand.value) as T, next: operand.next }
  }

// Values of `is ( … )` ------------------------------------------------------------------------------

/** The connectives both kinds of group share: `and`/`&`, `or`, and a comma (reported, read as `or`). */
const readExplicitSeparator = (current: Token, index: number): ReturnType<Reader<Separator>> => {
  if (isAnd(current)) return { value: { join: 'and', span: spanOf(current) }, next: index + 1 }
  if (isWord(current, 'or')) return { value: { join: 'or', span: spanOf(current) }, next: index + 1 }
  if (current.kind !== 'comma') return undefined
  const span = spanOf(current)
  return { value: { join: 'or', span, error: errorAt('OQL_COMMA_IN_GROUP', span, ',') }, next: index + 1 }
}

/** `and`/`&`, `or`, a comma (reported, read as `or`) or two values side by side (reported, read as `and`). */
const readValueSeparator: Reader<Separator> = ({ tokens, index }) => {
  const current = tokens[index]!
  const explicit = readExplicitSeparator(current, index)
  if (explicit !== undefined) return explicit
  if (!startsValueItem(current)) return undefined
  const error = errorAt('OQL_GROUP_VALUES_NEED_CONNECTIVE', spanOf(current), current.text)
  return { value: { join: 'and', span: pointAt(current), error }, next: index }
}

const readValueItem: Reader<ValueNode> = readPrefixed<ValueNode>(
  (stream) => readValueGroup(stream) ?? readScalar(stream),
)

const readValueExpression: Reader<ValueNode> = readBoolean(readValueItem, readValueSeparator)

/** A value group `( a or not b and (c or d) )`. */
export const readValueGroup: Reader<GroupNode<ValueNode>> = readGroup(readValueExpression)

// Search expressions of `has ( … )` ----------------------------------------------------------------

/** `and`/`&`, `or`, a comma (reported, read as `or`), or two operands side by side: an AND (§3.7). */
const readSearchSeparator: Reader<Separator> = ({ tokens, index }) => {
  const current = tokens[index]!
  const explicit = readExplicitSeparator(current, index)
  if (explicit !== undefined) return explicit
  return startsSearchOperand(current)
    ? { value: { join: 'and', span: pointAt(current) }, next: index }
    : undefined
}

const readSearchOperand: Reader<SearchNode> = readPrefixed<SearchNode>(
  (stream) => readSearchGroup(stream) ?? searchAtom(readRun)(stream),
)

const readSearchExpression: Reader<SearchNode> = readBoolean(readSearchOperand, readSearchSeparator)

/** A search group `( a b or "c d" and not (e or within 3 (f, g)) )`. */
export const readSearchGroup: Reader<GroupNode<SearchNode>> = readGroup(readSearchExpression)
