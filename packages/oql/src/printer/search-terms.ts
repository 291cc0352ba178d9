import { type OqlToken, SPACE } from './oql-tokens.ts'
import { quoted, VALUE_KEYWORDS } from './value-text.ts'

// The surface of one search value inside `has ( … )` (OQL v2.2 §3.7, §4.1): the column's mode is
// carried by how the term is written, so that the parser puts it back on the same column.

/** One printed search term: its tokens, or (a bare multi-word exact value) the exact words it ANDs. */
export type SearchSurface =
  | { readonly kind: 'term'; readonly tokens: readonly OqlToken[] }
  | { readonly kind: 'words'; readonly words: readonly string[] }

export interface SearchTermContext {
  readonly exact: boolean
  /** False on entities without `.search.exact` columns, where a quoted phrase is read as a stemmed phrase. */
  readonly hasExactColumn: boolean
}

// Inside a run of bare words these end the run or start a construct; written in quotes they are just
// words again ("a quoted word inside a run is an escape").
const RUN_KEYWORDS: ReadonlySet<string> = new Set([...VALUE_KEYWORDS, 'stemmed', 'within'])

// Characters a bare search word cannot hold: the lexer splits on some, the parser rejects the others
// (`!`, and `~ | \` since #865), and wildcards need an exact column. A stemmed value never means them.
const NOT_IN_BARE_WORDS = /[?*|()[\],;"!~\\]/g

// One word that needs no cleaning: most values of long or-lists, printed without splitting and cleaning.
const PLAIN_WORD = /^[^\s?*|()[\],;"!~\\]+$/

const PROXIMITY = /^"([^"]*)"~(\d+)((?:~"[^"]*")+)$/
const PHRASE_SLOP = /^"([^"]*)"~(\d+)$/
const PHRASE = /^"([^"]*)"$/
const WHITESPACE_RUN = /\s+/

const keyword = (text: string): OqlToken => ({ text, role: 'keyword' })
const word = (text: string): OqlToken => ({ text, role: 'value' })
const punctuation = (text: string): OqlToken => ({ text, role: 'punctuation' })

const proximityTokens = (distance: string, operands: readonly string[], exact: boolean): OqlToken[] => {
  const tokens: OqlToken[] = [keyword('within'), SPACE, word(distance), SPACE, punctuation('(')]
  operands.forEach((operand, index) => {
    if (index > 0) tokens.push(punctuation(','), SPACE)
    tokens.push(word(exact ? quoted(operand) : bareRun(operand.split(WHITESPACE_RUN))))
  })
  tokens.push(punctuation(')'))
  return tokens
}

const cleanWords = (words: readonly string[]): string[] =>
  words.map((text) => text.replace(NOT_IN_BARE_WORDS, '')).filter((text) => text !== '')

/** Clean words as one run: a keyword among them is quoted, so it reads as a word. */
const runText = (clean: readonly string[]): string =>
  clean.map((text) => (RUN_KEYWORDS.has(text.toLowerCase()) ? quoted(text) : text)).join(' ')

const bareRun = (words: readonly string[]): string => runText(cleanWords(words))

const stemmedPhrase = (phrase: string, context: SearchTermContext): OqlToken[] =>
  context.hasExactColumn ? [keyword('stemmed'), SPACE, word(quoted(phrase))] : [word(quoted(phrase))]

/** How a search leaf's value is written for its column's mode. */
export const searchSurface = (value: string, context: SearchTermContext): SearchSurface =>
  (value.startsWith('"') ? quotedSurface(value, context) : undefined) ?? wordsSurface(value, context)

/** A proximity, a phrase with slop or a phrase: each starts with a quote. */
const quotedSurface = (value: string, context: SearchTermContext): SearchSurface | undefined => {
  const proximity = PROXIMITY.exec(value)
  if (proximity !== null) {
    const operands = [proximity[1]!, ...[...proximity[3]!.matchAll(/"([^"]*)"/g)].map((match) => match[1]!)]
    return { kind: 'term', tokens: proximityTokens(proximity[2]!, operands, context.exact) }
  }
  // A single phrase with slop reads as the proximity of its words (the word order is not kept).
  const slop = PHRASE_SLOP.exec(value)
  const slopWords = slop === null ? [] : slop[1]!.split(WHITESPACE_RUN).filter((text) => text !== '')
  if (slop !== null && slopWords.length >= 2)
    return { kind: 'term', tokens: proximityTokens(slop[2]!, slopWords, context.exact) }
  const phrase = PHRASE.exec(value)
  if (phrase !== null)
    return { kind: 'term', tokens: context.exact ? [word(value)] : stemmedPhrase(phrase[1]!, context) }
  return undefined
}

const wordsSurface = (value: string, context: SearchTermContext): SearchSurface => {
  // What the general path below gives a single plain word, without splitting it into one.
  if (PLAIN_WORD.test(value)) {
    if (context.exact) return { kind: 'term', tokens: [word(quoted(value))] }
    return RUN_KEYWORDS.has(value.toLowerCase())
      ? { kind: 'term', tokens: stemmedPhrase(value, context) }
      : { kind: 'term', tokens: [word(value)] }
  }
  const words = value.split(WHITESPACE_RUN).filter((text) => text !== '')
  if (context.exact) {
    // Several bare words on an exact column are one exact word each, ANDed (as the parser splits them).
    return words.length > 1 ? { kind: 'words', words } : { kind: 'term', tokens: [word(quoted(value))] }
  }
  const clean = cleanWords(words)
  // A lone keyword in quotes would read as an exact word: a one-word stemmed phrase keeps the mode.
  if (clean.length === 1 && RUN_KEYWORDS.has(clean[0]!.toLowerCase()))
    return { kind: 'term', tokens: stemmedPhrase(clean[0]!, context) }
  if (clean.length === 0) return { kind: 'term', tokens: stemmedPhrase('', context) }
  return { kind: 'term', tokens: [word(runText(clean))] }
}
