import type { Filter, LeafFilter } from '@oqlkit/oqo-schema'
import { unwrapQuotes, wordsOutsideQuotes } from './quoted-text.ts'
import { joinFilters, negateFilter, type ValueOutcome, valueOk, valueProblem } from './value-outcome.ts'

// The search micro-syntax of a classic URL value (`title_and_abstract.search:…`, `search=…`):
// - plain text is one leaf, verbatim (`mental health`, `"whopper junior"`, `"smart"~3~"phone"`);
// - a leading `!` negates the whole value, as in every filter;
// - `|` and the upper-case words AND, OR, NOT (with parentheses) lift into a branch tree, precedence
//   NOT > AND > OR; adjacent words stay together as one leaf (`machine learning OR ai`);
// - `term!"phrase"` is `term` AND NOT the exact phrase, on the `.search.exact` column;
// - on a `.search.exact` column a single quoted token loses its quotes (`"cat"` is `cat`), a phrase
//   keeps them, and bare words become one exact leaf each (`cancer treatment` is cancer AND treatment).

/** The column a search value is for, and its exact (no-stem) sibling for `term!"phrase"`. */
export interface SearchTarget {
  readonly column: string
  readonly exact: boolean
  readonly exactColumn: string | undefined
}

export const MAX_OR_VALUES = 100

type TokenType = 'word' | 'lparen' | 'rparen' | 'or' | 'and' | 'not' | 'bang' | 'infixnot'

interface Token {
  readonly type: TokenType
  readonly start: number
  readonly end: number
}

type SearchNode =
  | { readonly kind: 'term'; readonly text: string; readonly exact: boolean }
  | { readonly kind: 'not'; readonly operand: SearchNode }
  | { readonly kind: 'and' | 'or'; readonly operands: readonly SearchNode[] }

class SearchSyntaxError {
  readonly code: 'unbalanced_quote' | 'invalid_search' | 'too_many_values'
  readonly detail: string

  constructor(code: SearchSyntaxError['code'], detail: string) {
    this.code = code
    this.detail = detail
  }
}

const WHITESPACE = /\s/

const WORD_OPERATORS: Readonly<Record<string, TokenType>> = { AND: 'and', OR: 'or', NOT: 'not' }

const isSpace = (char: string | undefined): boolean => char !== undefined && WHITESPACE.test(char)

const tokenize = (text: string): Token[] => {
  const tokens: Token[] = []
  let index = 0
  while (index < text.length) {
    const char = text[index]!
    if (isSpace(char)) {
      index++
      continue
    }
    const single: TokenType | undefined =
      char === '('
        ? 'lparen'
        : char === ')'
          ? 'rparen'
          : char === '|'
            ? 'or'
            : char === '!'
              ? 'bang'
              : undefined
    if (single !== undefined) {
      tokens.push({ type: single, start: index, end: index + 1 })
      index++
      continue
    }
    const start = index
    while (index < text.length) {
      const current = text[index]!
      if (current === '"') {
        const close = text.indexOf('"', index + 1)
        if (close === -1) throw new SearchSyntaxError('unbalanced_quote', `the quote at ${text.slice(index)}`)
        index = close + 1
        continue
      }
      if (isSpace(current) || current === '(' || current === ')' || current === '|') break
      if (current === '!' && text[index + 1] === '"') break
      index++
    }
    const word = text.slice(start, index)
    tokens.push({ type: WORD_OPERATORS[word] ?? 'word', start, end: index })
    if (text[index] === '!' && text[index + 1] === '"') {
      tokens.push({ type: 'infixnot', start: index, end: index + 1 })
      index++
    }
  }
  return tokens
}

/** Recursive descent over the tokens of one value; `text` is the value the tokens index into. */
class ExpressionReader {
  readonly text: string
  readonly tokens: readonly Token[]
  #position = 0

  constructor(text: string, tokens: readonly Token[]) {
    this.text = text
    this.tokens = tokens
  }

  read(): SearchNode {
    const node = this.#or()
    const rest = this.tokens[this.#position]
    if (rest !== undefined)
      throw new SearchSyntaxError('invalid_search', `unexpected '${this.text.slice(rest.start, rest.end)}'`)
    return node
  }

  #peek(): TokenType | undefined {
    return this.tokens[this.#position]?.type
  }

  #or(): SearchNode {
    const operands = [this.#and()]
    while (this.#peek() === 'or') {
      this.#position++
      operands.push(this.#and())
    }
    return operands.length === 1 ? operands[0]! : { kind: 'or', operands }
  }

  #and(): SearchNode {
    const operands = [this.#not()]
    for (;;) {
      const next = this.#peek()
      if (next === 'and') {
        this.#position++
        operands.push(this.#not())
      } else if (next === 'infixnot') {
        this.#position++
        const operand = this.#primary()
        // `term!"phrase"` excludes the exact phrase: a quoted operand goes to the no-stem column.
        const routed =
          operand.kind === 'term' && operand.text.startsWith('"') ? { ...operand, exact: true } : operand
        operands.push({ kind: 'not', operand: routed })
      } else if (next === 'word' || next === 'lparen' || next === 'not' || next === 'bang') {
        operands.push(this.#not())
      } else break
    }
    return operands.length === 1 ? operands[0]! : { kind: 'and', operands }
  }

  #not(): SearchNode {
    const next = this.#peek()
    if (next === 'not' || next === 'bang') {
      this.#position++
      return { kind: 'not', operand: this.#not() }
    }
    return this.#primary()
  }

  #primary(): SearchNode {
    const token = this.tokens[this.#position]
    if (token === undefined) throw new SearchSyntaxError('invalid_search', 'an operator has no operand')
    if (token.type === 'lparen') {
      this.#position++
      const inner = this.#or()
      if (this.#peek() !== 'rparen') throw new SearchSyntaxError('invalid_search', "a '(' is never closed")
      this.#position++
      return inner
    }
    if (token.type !== 'word')
      throw new SearchSyntaxError(
        'invalid_search',
        `'${this.text.slice(token.start, token.end)}' stands where a search term belongs`,
      )
    // Adjacent words are one term, verbatim: `machine learning OR ai` is ("machine learning") OR (ai).
    let last = token
    while (this.tokens[this.#position]?.type === 'word') last = this.tokens[this.#position++]!
    return { kind: 'term', text: this.text.slice(token.start, last.end), exact: false }
  }
}

const OPERATOR_TYPES: ReadonlySet<TokenType> = new Set(['or', 'and', 'not', 'bang', 'infixnot'])

/** A single quoted token loses its quotes on an exact column; a phrase and a proximity keep them. */
const exactTokens = (text: string): string[] =>
  wordsOutsideQuotes(text).map((token) => {
    const inner = unwrapQuotes(token)
    return inner !== undefined && inner !== '' && !WHITESPACE.test(inner) ? inner : token
  })

const leaf = (column: string, value: string): LeafFilter => ({ column_id: column, value, operator: 'has' })

const toFilter = (node: SearchNode, target: SearchTarget): Filter => {
  switch (node.kind) {
    case 'term': {
      const onExact = target.exact || (node.exact && target.exactColumn !== undefined)
      const column = target.exact || !onExact ? target.column : target.exactColumn!
      const values = onExact ? exactTokens(node.text) : [node.text]
      return joinFilters(
        'and',
        values.map((value) => leaf(column, value)),
      )
    }
    case 'not':
      return negateFilter(toFilter(node.operand, target))
    default:
      return joinFilters(
        node.kind,
        node.operands.map((operand) => toFilter(operand, target)),
      )
  }
}

const countPipes = (tokens: readonly Token[], text: string): number =>
  tokens.filter((token) => token.type === 'or' && text[token.start] === '|').length

/** Reads a search value into a leaf or a branch of `has` leaves on the target column(s). */
export const parseSearchValue = (raw: string, target: SearchTarget): ValueOutcome => {
  const trimmed = raw.trim()
  const negated = trimmed.startsWith('!')
  const body = (negated ? trimmed.slice(1) : trimmed).trim()
  if (body === '')
    return valueProblem(
      'empty_value',
      `The search value '${raw}' is empty. Write the words to search for after the colon.`,
    )
  try {
    const tokens = tokenize(body)
    if (countPipes(tokens, body) + 1 > MAX_OR_VALUES)
      throw new SearchSyntaxError('too_many_values', `${countPipes(tokens, body) + 1} values`)
    const node: SearchNode = tokens.some((token) => OPERATOR_TYPES.has(token.type))
      ? new ExpressionReader(body, tokens).read()
      : { kind: 'term', text: body, exact: false }
    const filter = toFilter(node, target)
    return valueOk(negated ? negateFilter(filter) : filter)
  } catch (error) {
    if (!(error instanceof SearchSyntaxError)) throw error
    switch (error.code) {
      case 'unbalanced_quote':
        return valueProblem(
          'unbalanced_quote',
          `The search value '${raw}' has an unclosed double quote (${error.detail}). Close the phrase with a second '"'.`,
        )
      case 'too_many_values':
        return valueProblem(
          'too_many_values',
          `The search value '${raw}' ORs ${error.detail}; at most ${MAX_OR_VALUES} are allowed. Split the query or use fewer alternatives.`,
        )
      default:
        return valueProblem(
          'invalid_search',
          `The search value '${raw}' does not parse: ${error.detail}. Give every AND, OR, NOT and '|' a term on each side and balance the parentheses.`,
        )
    }
  }
}
