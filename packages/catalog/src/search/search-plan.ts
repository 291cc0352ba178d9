// First half of `compileSearch`: checks a `SearchQuery` and turns its text into index terms (tokenized,
// folded, stemmed in stemmed mode) and wildcard patterns. Problems are collected, not thrown.
import { porterStem, queryTokens } from '@oqlkit/text-models'
import { type WeightedField, weightedFieldsOf } from './search-fields.ts'
import {
  FREQUENT_TERMS,
  MAX_PROXIMITY_GAPS,
  MAX_SEARCH_TERMS,
  MAX_SEARCH_WILDCARDS,
  MIN_FREQUENT_ROWS,
  type SearchMode,
} from './search-index-layout.ts'
import type { SearchNode, SearchProblem, SearchProblemCode, SearchQuery } from './search-query.ts'

/** One query token: an index term, or a wildcard pattern over the term dictionary. */
export type TokenPlan =
  | { readonly kind: 'term'; readonly term: string }
  | {
      readonly kind: 'pattern'
      /** The token as written (`clim*`), for messages. */
      readonly text: string
      /** LIKE pattern, `\` escapes. */
      readonly like: string
      /** Every matching term is in [low, high): the literal prefix and the first string after its range. */
      readonly low: string
      readonly high: string
    }

/** Tokens at adjacent positions: a word (often one token) or a phrase. */
export type SequencePlan = readonly TokenPlan[]

export type NodePlan =
  | { readonly kind: 'sequence'; readonly tokens: SequencePlan; readonly boost: number }
  | {
      readonly kind: 'proximity'
      readonly operands: readonly SequencePlan[]
      readonly within: number
      readonly boost: number
    }
  | { readonly kind: 'and'; readonly operands: readonly NodePlan[] }
  | { readonly kind: 'or'; readonly operands: readonly NodePlan[] }
  | { readonly kind: 'not'; readonly operand: NodePlan }

export interface QueryPlan {
  readonly fields: readonly WeightedField[]
  readonly root: NodePlan
}

export type PlanResult =
  | { readonly ok: true; readonly plan: QueryPlan }
  | { readonly ok: false; readonly problems: readonly SearchProblem[] }

const WILDCARD = /[*?]/u
const WORD_CHAR = /[\p{L}\p{N}]/u

export function planSearch(query: SearchQuery): PlanResult {
  const problems: SearchProblem[] = []
  const fields = weightedFieldsOf(query.entity, query.field)
  if (fields === undefined) {
    problems.push({
      code: 'unknown-field',
      message: `${query.entity} has no search field ${JSON.stringify(query.field)}`,
      path: [],
    })
    return { ok: false, problems }
  }
  const report = (code: SearchProblemCode, message: string, path: readonly number[]) =>
    problems.push({ code, message, path })
  const root = planNode(query.match, query.mode, [], report)
  if (root !== undefined) checkSize(root, report)
  return problems.length > 0 || root === undefined
    ? { ok: false, problems }
    : { ok: true, plan: { fields, root } }
}

/**
 * The plan of the documents that match any of several queries of one entity, search field and mode, scored by
 * the sum of those they match: an `or` of each query's plan. Each query is checked alone, its size limits too,
 * as when each was a search of its own (an OR of search filters on one field, `search=a|b|…`, compiled as one
 * aggregate); a problem's path starts with the number of its query.
 */
export function planAnySearch(queries: readonly SearchQuery[]): PlanResult {
  const [first, ...rest] = queries
  if (first === undefined) throw new Error('planAnySearch needs at least one query')
  if (rest.length === 0) return planSearch(first)
  for (const query of rest)
    if (query.entity !== first.entity || query.field !== first.field || query.mode !== first.mode)
      throw new Error('planAnySearch takes queries of one entity, search field and mode')
  const roots: NodePlan[] = []
  const problems: SearchProblem[] = []
  let fields: readonly WeightedField[] = []
  queries.forEach((query, i) => {
    const planned = planSearch(query)
    if (planned.ok) {
      roots.push(planned.plan.root)
      fields = planned.plan.fields
    } else problems.push(...planned.problems.map((problem) => ({ ...problem, path: [i, ...problem.path] })))
  })
  return problems.length > 0
    ? { ok: false, problems }
    : { ok: true, plan: { fields, root: { kind: 'or', operands: roots } } }
}

/** The tokens of a planned search, for its size limits. */
function tokensOf(node: NodePlan): TokenPlan[] {
  switch (node.kind) {
    case 'sequence':
      return [...node.tokens]
    case 'proximity':
      return node.operands.flat()
    case 'and':
    case 'or':
      return node.operands.flatMap(tokensOf)
    case 'not':
      return tokensOf(node.operand)
  }
}

/** The limits on what drives a search's cost: its tokens, and its wildcards. */
function checkSize(root: NodePlan, report: Report): void {
  const tokens = tokensOf(root)
  if (tokens.length > MAX_SEARCH_TERMS)
    report(
      'too-many-terms',
      `a search may hold at most ${MAX_SEARCH_TERMS} words (this one has ${tokens.length}); search fewer, more telling words, or use semantic search for a passage of text`,
      [],
    )
  const wildcards = tokens.filter((token) => token.kind === 'pattern').length
  if (wildcards > MAX_SEARCH_WILDCARDS)
    report(
      'too-many-wildcards',
      `a search may hold at most ${MAX_SEARCH_WILDCARDS} words with wildcards (this one has ${wildcards})`,
      [],
    )
}

type Report = (code: SearchProblemCode, message: string, path: readonly number[]) => void

function planNode(
  node: SearchNode,
  mode: SearchMode,
  path: readonly number[],
  report: Report,
): NodePlan | undefined {
  switch (node.kind) {
    case 'word':
    case 'phrase': {
      const boost = checkBoost(node.boost, path, report)
      const tokens = planSequence(node.text, mode, path, report)
      if (tokens === undefined || boost === undefined) return undefined
      checkWildcardBudget([node.text], path, report)
      return { kind: 'sequence', tokens, boost }
    }
    case 'proximity': {
      const boost = checkBoost(node.boost, path, report)
      if (node.operands.length < 2) {
        report('bad-proximity', 'a proximity group needs at least 2 operands', path)
        return undefined
      }
      if (!Number.isInteger(node.within) || node.within < 0 || node.within > MAX_PROXIMITY_GAPS) {
        report('bad-proximity', `within takes a whole number from 0 to ${MAX_PROXIMITY_GAPS}`, path)
        return undefined
      }
      const operands = node.operands.map((text, i) => planSequence(text, mode, [...path, i], report))
      checkWildcardBudget(node.operands, path, report)
      if (boost === undefined || operands.some((operand) => operand === undefined)) return undefined
      return { kind: 'proximity', operands: operands as SequencePlan[], within: node.within, boost }
    }
    case 'and':
    case 'or': {
      if (node.operands.length === 0) {
        report('empty-group', `an ${node.kind} group needs at least one operand`, path)
        return undefined
      }
      const operands = node.operands.map((operand, i) => planNode(operand, mode, [...path, i], report))
      if (operands.some((operand) => operand === undefined)) return undefined
      return { kind: node.kind, operands: operands as NodePlan[] }
    }
    case 'not': {
      const operand = planNode(node.operand, mode, [...path, 0], report)
      return operand === undefined ? undefined : { kind: 'not', operand }
    }
  }
}

function checkBoost(boost: number | undefined, path: readonly number[], report: Report): number | undefined {
  if (boost === undefined) return 1
  if (Number.isFinite(boost) && boost > 0) return boost
  report('bad-boost', 'a boost must be a positive number', path)
  return undefined
}

function planSequence(
  text: string,
  mode: SearchMode,
  path: readonly number[],
  report: Report,
): SequencePlan | undefined {
  const tokens = queryTokens(text)
  if (tokens.length === 0 || tokens.every((token) => !WORD_CHAR.test(token))) {
    report('empty-term', `${JSON.stringify(text)} has no letters or digits to search for`, path)
    return undefined
  }
  const plans: TokenPlan[] = []
  for (const token of tokens) {
    if (!WILDCARD.test(token)) {
      plans.push({ kind: 'term', term: mode === 'stemmed' ? porterStem(token) : token })
      continue
    }
    if (mode !== 'exact') {
      report('wildcard-needs-exact', `wildcards need an exact search: ${JSON.stringify(token)}`, path)
      return undefined
    }
    const prefix = literalPrefix(token)
    if (prefix === '') {
      report('leading-wildcard', `a wildcard cannot start a word: ${JSON.stringify(token)}`, path)
      return undefined
    }
    const star = token.indexOf('*')
    if (star >= 0 && [...token.slice(0, star)].filter((char) => WORD_CHAR.test(char)).length < 3) {
      report('short-wildcard-prefix', `* needs at least 3 letters before it: ${JSON.stringify(token)}`, path)
      return undefined
    }
    plans.push({
      kind: 'pattern',
      text: token,
      like: likePattern(token),
      low: prefix,
      high: prefixEnd(prefix),
    })
  }
  return plans
}

/** At most 2 wildcards per term; with 2, each wildcard token needs a literal prefix of 4 (the API's limits). */
function checkWildcardBudget(texts: readonly string[], path: readonly number[], report: Report): void {
  const tokens = texts.flatMap((text) => queryTokens(text)).filter((token) => WILDCARD.test(token))
  const count = tokens.reduce(
    (total, token) => total + [...token].filter((char) => WILDCARD.test(char)).length,
    0,
  )
  if (count > 2) report('too-many-wildcards', 'at most 2 wildcards are allowed in one term', path)
  else if (count === 2 && tokens.some((token) => [...literalPrefix(token)].length < 4)) {
    report('multi-wildcard-short-prefix', 'with 2 wildcards, each needs at least 4 letters before it', path)
  }
}

const literalPrefix = (token: string): string => token.slice(0, token.search(WILDCARD))

function likePattern(token: string): string {
  let pattern = ''
  for (const char of token) {
    if (char === '*') pattern += '%'
    else if (char === '?') pattern += '_'
    else if (char === '%' || char === '_' || char === '\\') pattern += `\\${char}`
    else pattern += char
  }
  return pattern
}

/** The smallest string greater than every string that starts with `prefix` (code point order = UTF-8 order). */
export function prefixEnd(prefix: string): string {
  const points = [...prefix].map((char) => char.codePointAt(0) ?? 0)
  while (points.length > 0) {
    let last = (points.pop() ?? 0) + 1
    if (last >= 0xd800 && last <= 0xdfff) last = 0xe000
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last)
  }
  // Only a prefix made of U+10FFFF alone gets here; no string is above its range.
  return String.fromCodePoint(0x10ffff).repeat(prefix.length + 1)
}

/**
 * About how many postings a node's documents come from, by the index's list of frequent terms (`frequent` of
 * the mode's files): a term not listed has fewer than any listed; a wildcard, `or` or `not` may have any
 * number. An `and` starts from its rarest operand when that is much rarer than another; every engine's
 * compiler decides by this one estimate.
 */
export function estimatePostings(plan: NodePlan, frequent: Readonly<Record<string, number>>): number {
  const listed = Object.values(frequent)
  // The list holds every term with `MIN_FREQUENT_ROWS` postings unless it is full.
  const below = listed.length >= FREQUENT_TERMS ? Math.min(...listed) : MIN_FREQUENT_ROWS
  const token = (one: TokenPlan): number =>
    one.kind === 'pattern' ? Infinity : (frequent[one.term] ?? below - 1)
  const node = (one: NodePlan): number => {
    switch (one.kind) {
      case 'sequence':
        return Math.min(...one.tokens.map(token))
      case 'proximity':
        return Math.min(...one.operands.flat().map(token))
      case 'and':
        return Math.min(...one.operands.map((operand) => (operand.kind === 'not' ? Infinity : node(operand))))
      default:
        return Infinity
    }
  }
  return node(plan)
}
