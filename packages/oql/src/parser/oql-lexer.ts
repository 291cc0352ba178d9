import type { ProblemReport, Span } from '../diagnostics/oql-diagnostic.ts'

/**
 * The tokens of OQL (v2.2 §3.2). Whitespace and `[annotations]` are trivia: they separate tokens and
 * are otherwise skipped, except that a token remembers an annotation written right before it (an id
 * field given only a `[display name]` is an error, not a missing value).
 */
export type TokenKind = 'word' | 'string' | 'lparen' | 'rparen' | 'comma' | 'semicolon' | 'bang' | 'end'

export interface Token {
  readonly kind: TokenKind
  /** A word as written, a string's content without its quotes, or the punctuation character. */
  readonly text: string
  /** Lower-cased text with typographic apostrophes made plain, for keyword and field matching. */
  readonly lower: string
  readonly start: number
  readonly end: number
  /** The last annotation between the previous token and this one. */
  readonly annotation?: Span
}

export interface LexedOql {
  /** The text with typographic double quotes made plain (same length and offsets as the input). */
  readonly text: string
  /** The tokens, always ending with an `end` token at the text's length. */
  readonly tokens: readonly Token[]
  /** The deepest nesting of parentheses. */
  readonly depth: number
  /** An unterminated string or annotation: the text cannot be parsed. */
  readonly error?: ProblemReport
}

// “ ” „ ‟ and the fullwidth quote are the same delimiter as ". Each is one UTF-16 unit, so offsets stay.
const TYPOGRAPHIC_QUOTES = /[\u201C\u201D\u201E\u201F\uFF02]/g
// The apostrophes of keywordForm, as a test (no `g`: a global expression keeps state between tests) and a replace.
const APOSTROPHE_CLASS = '[\u2018\u2019\u02BC]'
const TYPOGRAPHIC_APOSTROPHE = new RegExp(APOSTROPHE_CLASS)
const TYPOGRAPHIC_APOSTROPHES = new RegExp(APOSTROPHE_CLASS, 'g')

// The lexer rules, in the order they are tried at each offset:
// - whitespace separates tokens;
// - `[…]` is an annotation (trivia), up to the first `]`;
// - `"…"` is a string; a run of quotes is one delimiter, so """x""" reads like "x" (§3.2);
// - ( ) , ; ! are tokens of their own;
// - a word is any run of other characters (`title/abstract`, `10.1021/es052595+`, `>=`, `it's`).
// The lexer reads character codes, not one-character strings: it visits every character of the text.
const OPEN_BRACKET = 91
const QUOTE = 34

const punctuationOf = (code: number): TokenKind | undefined => {
  switch (code) {
    case 40:
      return 'lparen'
    case 41:
      return 'rparen'
    case 44:
      return 'comma'
    case 59:
      return 'semicolon'
    case 33:
      return 'bang'
    default:
      return undefined
  }
}

const SPACE = /\s/

// The character is made a string only past ASCII, where the Unicode spaces are.
const isSpace = (code: number): boolean =>
  code === 32 || (code >= 9 && code <= 13) || (code > 127 && SPACE.test(String.fromCharCode(code)))

// Characters that end a word: whitespace, quotes, brackets, parentheses, comma, semicolon and bang. The
// ASCII ones are looked up in a table (a word's every character is tested).
const ENDS_WORD = new Uint8Array(128)
for (const end of '"[](),;!') ENDS_WORD[end.charCodeAt(0)] = 1
for (let code = 0; code < 128; code++) if (isSpace(code)) ENDS_WORD[code] = 1

const isWordEnd = (code: number): boolean => (code < 128 ? ENDS_WORD[code] === 1 : isSpace(code))

export const normalizeQuotes = (text: string): string => text.replace(TYPOGRAPHIC_QUOTES, '"')

/** The form keywords and field names are compared in: lower case, typographic apostrophes made plain. */
export const keywordForm = (text: string): string => {
  const lower = text.toLowerCase()
  return TYPOGRAPHIC_APOSTROPHE.test(lower) ? lower.replace(TYPOGRAPHIC_APOSTROPHES, "'") : lower
}

const makeToken = (
  kind: TokenKind,
  text: string,
  start: number,
  end: number,
  annotation: Span | undefined,
): Token => {
  const lower = kind === 'word' ? keywordForm(text) : text
  return annotation === undefined
    ? { kind, text, lower, start, end }
    : { kind, text, lower, start, end, annotation }
}

/** Splits OQL text into tokens. Never throws; an unterminated string or annotation is reported as `error`. */
export const lexOql = (input: string): LexedOql => {
  const text = normalizeQuotes(input)
  const length = text.length
  const tokens: Token[] = []
  let offset = 0
  let annotation: Span | undefined
  let depth = 0
  let maxDepth = 0
  while (offset < length) {
    const code = text.charCodeAt(offset)
    if (isSpace(code)) {
      offset++
      continue
    }
    const start = offset
    if (code === OPEN_BRACKET) {
      const close = text.indexOf(']', offset + 1)
      if (close === -1)
        return lexError(text, tokens, {
          code: 'OQL_UNTERMINATED_ANNOTATION',
          span: { start: offset, end: length },
          problem: `The annotation [ starting at offset ${offset} is never closed`,
        })
      annotation = { start: offset, end: close + 1 }
      offset = close + 1
      continue
    }
    if (code === QUOTE) {
      let contentStart = offset + 1
      while (text.charCodeAt(contentStart) === QUOTE) contentStart++
      const close = text.indexOf('"', contentStart)
      if (close === -1)
        return lexError(text, tokens, {
          code: 'OQL_UNTERMINATED_STRING',
          span: { start: offset, end: length },
          problem: `The string starting at offset ${offset} has no closing quote`,
        })
      let end = close + 1
      while (text.charCodeAt(end) === QUOTE) end++
      tokens.push(makeToken('string', text.slice(contentStart, close), start, end, annotation))
      annotation = undefined
      offset = end
      continue
    }
    const punctuation = punctuationOf(code)
    if (punctuation !== undefined) {
      if (punctuation === 'lparen') maxDepth = Math.max(maxDepth, ++depth)
      else if (punctuation === 'rparen') depth = Math.max(0, depth - 1)
      tokens.push(makeToken(punctuation, text[offset]!, start, start + 1, annotation))
      annotation = undefined
      offset++
      continue
    }
    // A word; a stray `]` belongs to no annotation and starts one.
    offset++
    while (offset < length && !isWordEnd(text.charCodeAt(offset))) offset++
    tokens.push(makeToken('word', text.slice(start, offset), start, offset, annotation))
    annotation = undefined
  }
  tokens.push(makeToken('end', '', length, length, annotation))
  return { text, tokens, depth: maxDepth }
}

const lexError = (text: string, tokens: Token[], error: ProblemReport): LexedOql => {
  tokens.push({ kind: 'end', text: '', lower: '', start: text.length, end: text.length })
  return { text, tokens, depth: 0, error }
}

/** How a token reads in a message: a word as written, a string with its quotes, end of text as such. */
export const describeToken = (token: Token): string => {
  if (token.kind === 'end') return 'the end of the query'
  if (token.kind === 'string') return `"${token.text}"`
  return `"${token.text}"`
}
