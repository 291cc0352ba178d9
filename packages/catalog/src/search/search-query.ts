// The typed search query `compileSearch` takes: a boolean tree of terms, searched in one field of one entity
// in one mode. It is what an OQO search leaf (`display_name.search.exact: "\"climate change\""`) or an OQL
// `has ( … )` clause means, without the string micro-syntax.
//
// Wildcards are written inside the text of a word, phrase or proximity operand: `*` is any characters, `?`
// exactly one, both within one token (`"wom?n"`, `"bar*"`, `"smart phone*"`). They need exact mode, at least
// one character before them, at least 3 before a `*` (4 when a term has two wildcards), and at most 2 per term.
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import type { SearchMode } from './search-index-layout.ts'

/**
 * One word. Text the tokenizer splits into several tokens (`3xTg-AD`, `covid-19`) is matched as a phrase of
 * them, as the API does.
 */
export interface SearchWord {
  readonly kind: 'word'
  readonly text: string
  /** Multiplies the term's score (default 1). */
  readonly boost?: number
}

/** Words at adjacent positions, in order. */
export interface SearchPhrase {
  readonly kind: 'phrase'
  readonly text: string
  readonly boost?: number
}

/**
 * `within N (a, b, …)`: every operand (a word or a phrase) occurs, in any order, without overlapping, in a
 * window with at most `within` positions not covered by an operand (ES intervals `all_of`, `max_gaps`).
 */
export interface SearchProximity {
  readonly kind: 'proximity'
  readonly within: number
  readonly operands: readonly string[]
  readonly boost?: number
}

export interface SearchAnd {
  readonly kind: 'and'
  readonly operands: readonly SearchNode[]
}

/** Scores add up: a document matching more operands ranks higher. */
export interface SearchOr {
  readonly kind: 'or'
  readonly operands: readonly SearchNode[]
}

/** Documents that do not match; inside `and` it excludes, alone it selects every other document (score 0). */
export interface SearchNot {
  readonly kind: 'not'
  readonly operand: SearchNode
}

export type SearchTerm = SearchWord | SearchPhrase | SearchProximity
export type SearchNode = SearchTerm | SearchAnd | SearchOr | SearchNot

export interface SearchQuery {
  readonly entity: CatalogEntity
  /** A search field of the entity (`search-fields.ts`): `display_name`, `title_and_abstract`, `text`, … */
  readonly field: string
  readonly mode: SearchMode
  readonly match: SearchNode
}

export type SearchProblemCode =
  | 'unknown-field'
  | 'empty-term'
  | 'empty-group'
  | 'wildcard-needs-exact'
  | 'leading-wildcard'
  | 'short-wildcard-prefix'
  | 'multi-wildcard-short-prefix'
  | 'too-many-wildcards'
  | 'too-many-terms'
  | 'too-many-expansions'
  | 'bad-proximity'
  | 'bad-boost'

/** Something in a query that cannot be searched; returned, never thrown. */
export interface SearchProblem {
  readonly code: SearchProblemCode
  readonly message: string
  /** Operand indexes from the root to the node at fault. */
  readonly path: readonly number[]
}

export const word = (text: string, boost?: number): SearchWord =>
  boost === undefined ? { kind: 'word', text } : { kind: 'word', text, boost }
export const phrase = (text: string, boost?: number): SearchPhrase =>
  boost === undefined ? { kind: 'phrase', text } : { kind: 'phrase', text, boost }
export const proximity = (within: number, ...operands: string[]): SearchProximity => ({
  kind: 'proximity',
  within,
  operands,
})
export const allOf = (...operands: SearchNode[]): SearchAnd => ({ kind: 'and', operands })
export const anyOf = (...operands: SearchNode[]): SearchOr => ({ kind: 'or', operands })
export const not = (operand: SearchNode): SearchNot => ({ kind: 'not', operand })
