import type { ContextState } from './parse-context.ts'

/**
 * The grammar categories an editor protocol speaks (OQL v2.2 §7, `/parse-context`): the reference's
 * nine. `parseContext` tells finer states apart; each falls in one of these, so a client written for
 * the reference's categories works unchanged and one that wants more reads the state.
 */
export const CONTEXT_CATEGORIES = [
  'entity',
  'field',
  'operator',
  'verb-phrase',
  'value',
  'connective',
  'directive-keyword',
  'annotation-or-end',
  'none',
] as const

export type ContextCategory = (typeof CONTEXT_CATEGORIES)[number]

const CATEGORY_OF_STATE: Readonly<Record<ContextState, ContextCategory>> = {
  entity: 'entity',
  // After the entity: `where`, a corpus, a directive or the end — the directive slot.
  'after-entity': 'directive-keyword',
  // The words of the corpus parenthetical are a closed list of values.
  corpus: 'value',
  field: 'field',
  'verb-phrase': 'verb-phrase',
  operator: 'operator',
  value: 'value',
  'search-term': 'value',
  connective: 'connective',
  // `group by` names a field; `sample N` and `seed N` take numbers.
  'group-by-field': 'field',
  'sample-size': 'value',
  seed: 'value',
  directive: 'directive-keyword',
  none: 'none',
}

/** The editor-protocol category of a parse-context state. */
export const contextCategoryOf = (state: ContextState): ContextCategory => CATEGORY_OF_STATE[state]

/** Every state `parseContext` reports, in the order of its documentation. */
export const CONTEXT_STATES = Object.keys(CATEGORY_OF_STATE) as readonly ContextState[]
