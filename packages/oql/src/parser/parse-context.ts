import { ENTITY_TYPES, type EntityType, vocabularyOf } from '@oqlkit/oqo-schema'
import { type OqlDiagnostic, type Span, toDiagnostic } from '../diagnostics/oql-diagnostic.ts'
import type { OqlFieldKind } from '../fields/oql-field.ts'
import { clauseTarget } from './clause-target.ts'
import { type FieldEntry, type FieldTarget, fieldIndexOf } from './field-index.ts'
import { OPERATORS_OF_KIND, operatorText } from './field-operators.ts'
import { lexOql } from './oql-lexer.ts'
import { parseOqlSyntax } from './oql-parser.ts'
import type {
  ClauseNode,
  ConditionNode,
  DirectiveNode,
  NotNode,
  QueryNode,
  SearchNode,
  SyntaxErrorNode,
  ValueNode,
} from './oql-syntax.ts'
import { lowerQuery } from './syntax-to-oqo.ts'
import { CORPUS_PHRASES, isConnective, isWord } from './token-classes.ts'

/**
 * What the grammar expects at a cursor position (`/parse-context`), for autocompletion:
 * - `entity`: an entity type (the query starts here);
 * - `after-entity`: `where`, a corpus such as `(all corpora)` (works), a directive, or the end;
 * - `corpus`: inside the corpus parenthetical;
 * - `field`: a condition starts: a field, `not`, `(` or a row-subject verb (`it cites`);
 * - `verb-phrase`: the rest of a verb phrase after `it` / `it's`;
 * - `operator`: an operator for `field`;
 * - `value`: a value for `field`, of kind `valueKind`;
 * - `search-term`: a term of the search expression of `field`;
 * - `connective`: after a complete condition or value: `and`, `or`, `)`, a directive, or the end;
 * - `group-by-field`, `sample-size`, `seed`: the arguments of the directives;
 * - `directive`: the rest of a directive (`by` after `group`, `seed` after `sample N`, `,`);
 * - `none`: inside a string or an annotation, or after an error the text cannot go on from.
 */
export type ContextState =
  | 'entity'
  | 'after-entity'
  | 'corpus'
  | 'field'
  | 'verb-phrase'
  | 'operator'
  | 'value'
  | 'search-term'
  | 'connective'
  | 'group-by-field'
  | 'sample-size'
  | 'seed'
  | 'directive'
  | 'none'

/** The field a clause at the cursor is about. */
export interface ContextField {
  /** The field name as typed. */
  readonly text: string
  /** The canonical OQL word. */
  readonly word: string
  /** The column (for search fields, the `.search` column). */
  readonly column: string
  readonly kind: OqlFieldKind
  /** The entity the values refer to (`institutions`, `countries`, `types`), for id and code fields. */
  readonly valueEntity?: EntityType
}

/** After `… value or ▮`: the clause the cursor may be adding another value to. */
export interface ContextSibling {
  readonly field: ContextField
  /** The whole clause (`type is article`) and its value (`article`, or `(article or book)`). */
  readonly clauseRange: Span
  readonly valueRange: Span
}

export type SuggestionKind =
  | 'entity'
  | 'keyword'
  | 'corpus'
  | 'field'
  | 'operator'
  | 'value'
  | 'connective'
  | 'directive'

export interface ContextSuggestion {
  /** The text to insert in place of `replaceRange`. */
  readonly value: string
  readonly kind: SuggestionKind
  /** A display name (of a code or field alias) or a short note. */
  readonly detail?: string
}

export interface ParseContext {
  /** The entity of the query, once it is written. */
  readonly entity: EntityType | null
  readonly state: ContextState
  /** The text being typed at the cursor (possibly several words: `university of fl`). */
  readonly prefix: string
  /** The text a chosen suggestion replaces: the prefix. */
  readonly replaceRange: Span
  readonly field?: ContextField
  /** The operator before the value (`is`, `>=`, `has`, `is in collection`). */
  readonly operator?: string
  readonly valueKind?: OqlFieldKind
  /** Inside a `( … )` value or search group. */
  readonly inList?: boolean
  /** Condition groups `(` still open before the cursor. */
  readonly openGroups?: number
  readonly afterConnective?: 'and' | 'or'
  readonly sibling?: ContextSibling
  /** An entity with an open id space to look values up in (institutions, authors, …). */
  readonly autocompleteEntity?: EntityType
  readonly suggestions: readonly ContextSuggestion[]
  /** The first problem in the text before the cursor, if any. */
  readonly diagnostic?: OqlDiagnostic
}

/** The suggestions `parseContext` gives unless told otherwise: what an editor's list can show. */
const MAX_SUGGESTIONS = 50

export interface ParseContextOptions {
  /** The most suggestions given (default 50); `Infinity` for all of them (a reference of every field). */
  readonly maxSuggestions?: number
}
const MAX_WIDENED_WORDS = 4

interface Situation {
  readonly state: ContextState
  readonly field?: ContextField
  readonly operator?: string
  readonly inList?: boolean
  readonly openGroups?: number
  readonly afterConnective?: 'and' | 'or'
  readonly sibling?: ClauseNode
  /** The word before a verb phrase (`it`, `it's`). */
  readonly verbHead?: string
  /** Which directive keywords can still follow. */
  readonly keywords?: readonly string[]
  /** The kinds whose operators may follow a field name (a word can name a search and a value column). */
  readonly operatorKinds?: readonly OqlFieldKind[]
  /** After a term inside a search group: a connective, `not`, `)` or more words may follow. */
  readonly afterTerm?: boolean
  /** The offset of an error the incomplete text explains (`or` at the end is not yet a second value). */
  readonly explains?: number
}

const NONE: Situation = { state: 'none' }

// Reading the right edge of the tree --------------------------------------------------------------

const fieldOf = (entity: EntityType, clause: ClauseNode): ContextField => {
  const target = clauseTarget(entity, clause, clause.operator)
  const text = clause.subject.kind === 'field' ? clause.subject.text : target.word
  return describeTarget(target, text)
}

const describeTarget = (target: FieldTarget, text: string): ContextField => {
  const field = {
    text,
    word: target.word,
    column: target.kind === 'search' ? `${target.columnId}.search` : target.columnId,
    kind: target.kind,
  }
  return target.valueEntity === null ? field : { ...field, valueEntity: target.valueEntity }
}

/** The operand under a run of `not`s, read iteratively (a text may hold thousands). */
const throughNots = <T extends { readonly kind: string }>(node: NotNode<T>): T => {
  let current: T | NotNode<T> = node
  while (current.kind === 'not') current = (current as NotNode<T>).operand
  return current as T
}

const atEnd = (node: { readonly span: Span }, end: number): boolean => node.span.start >= end

const rightmostClause = (node: ConditionNode | undefined): ClauseNode | undefined => {
  switch (node?.kind) {
    case 'clause':
      return node
    case 'branch':
      return rightmostClause(node.operands.at(-1))
    case 'not':
      return rightmostClause(throughNots(node))
    case 'group':
      return rightmostClause(node.inner)
    default:
      return undefined
  }
}

interface Place {
  readonly entity: EntityType
  readonly end: number
  readonly openGroups: number
  readonly afterConnective?: 'and' | 'or'
  readonly sibling?: ClauseNode
}

const directiveKeywords = (query: QueryNode): string[] => {
  const keywords: string[] = []
  if (!query.directives.some((directive) => directive.kind === 'group-by')) keywords.push('group by')
  if (!query.directives.some((directive) => directive.kind === 'sample')) keywords.push('sample')
  return keywords
}

const situateQuery = (query: QueryNode, end: number): Situation => {
  if (query.entity.kind === 'error') return query.entity.code === 'OQL_EMPTY' ? { state: 'entity' } : NONE
  const entity = query.entity.entity
  const keywords = directiveKeywords(query)
  if (query.trailing !== undefined) {
    // `group` without its `by` yet.
    const lastWord = query.trailing.found?.toLowerCase() === 'group' && query.trailing.span.end >= end - 1
    return lastWord ? { state: 'directive', keywords: ['by'], explains: query.trailing.span.start } : NONE
  }
  const directive = query.directives.at(-1)
  if (directive !== undefined) return situateDirective(directive, end, keywords)
  if (query.corpus !== undefined && !query.corpus.closed)
    return { state: 'corpus', explains: query.corpus.span.start }
  if (query.where !== undefined)
    return situateCondition(query.where.conditions, { entity, end, openGroups: 0 }, keywords)
  return { state: 'after-entity', keywords }
}

const situateDirective = (directive: DirectiveNode, end: number, keywords: readonly string[]): Situation => {
  if (directive.kind === 'group-by') {
    const last = directive.fields.at(-1)
    if (last?.kind === 'error')
      return atEnd(last, end) && last.found === '' ? { state: 'group-by-field' } : NONE
    return { state: 'directive', keywords: [',', ...keywords] }
  }
  if (directive.error !== undefined) {
    if (!atEnd(directive.error, end)) return NONE
    return { state: directive.size === undefined ? 'sample-size' : 'seed' }
  }
  return { state: 'directive', keywords: directive.seed === undefined ? ['seed', ...keywords] : keywords }
}

const situateCondition = (node: ConditionNode, place: Place, keywords: readonly string[]): Situation => {
  switch (node.kind) {
    case 'branch': {
      const sibling = rightmostClause(node.operands.at(-2))
      const next = { ...place, afterConnective: node.join }
      return situateCondition(
        node.operands.at(-1)!,
        sibling === undefined ? next : { ...next, sibling },
        keywords,
      )
    }
    case 'not':
      return situateCondition(throughNots(node), place, keywords)
    case 'group':
      return node.closed
        ? { state: 'connective', openGroups: place.openGroups, keywords }
        : situateCondition(
            node.inner,
            { entity: place.entity, end: place.end, openGroups: place.openGroups + 1 },
            keywords,
          )
    case 'error':
      return situateError(node, place)
    case 'clause':
      return situateClause(node, place, keywords)
  }
}

const situateError = (error: SyntaxErrorNode, place: Place): Situation => {
  if (error.code === 'OQL_EMPTY' && atEnd(error, place.end)) {
    const field: Situation = { state: 'field', openGroups: place.openGroups }
    const connected =
      place.afterConnective === undefined ? field : { ...field, afterConnective: place.afterConnective }
    return place.sibling === undefined ? connected : { ...connected, sibling: place.sibling }
  }
  // `it` or `it's` as the last word: the verb phrase is being written.
  if (error.code === 'OQL_BAD_VERB_PHRASE' && error.found !== undefined && !error.found.endsWith('…'))
    return {
      state: 'verb-phrase',
      verbHead: error.found.toLowerCase().replace('’', "'"),
      explains: error.span.start,
    }
  return NONE
}

const situateClause = (clause: ClauseNode, place: Place, keywords: readonly string[]): Situation => {
  const field = fieldOf(place.entity, clause)
  if (clause.operator === undefined) {
    if (clause.operatorError?.code !== 'OQL_MISSING_OPERATOR' || !atEnd(clause.operatorError, place.end))
      return NONE
    const subject = clause.subject
    const operatorKinds =
      subject.kind === 'verb'
        ? (['id'] as const)
        : [subject.entry.search?.kind, subject.entry.value?.kind].filter((kind) => kind !== undefined)
    return { state: 'operator', field, operatorKinds }
  }
  const operator = clause.operator
  if (operator.error !== undefined || clause.value === undefined) return NONE
  const base = {
    field,
    operator: operator.implied ? 'is' : operatorText(operator),
    openGroups: place.openGroups,
  }
  const spot = { clause, place, base, keywords }
  return operator.family === 'search'
    ? situateSearch(clause.value as SearchNode, spot, false)
    : situateValue(clause.value as ValueNode, spot, false)
}

interface ClauseBase {
  readonly field: ContextField
  readonly operator: string
  readonly openGroups: number
}

/** What situating a clause's value (or search) carries down its tree: the clause and where the cursor is. */
interface ValueSpot {
  readonly clause: ClauseNode
  readonly place: Place
  readonly base: ClauseBase
  readonly keywords: readonly string[]
}

/** After a bare value or term, `or ▮` at the end: a new condition, or another value of the clause. */
const afterBareConnective = (
  error: SyntaxErrorNode | undefined,
  clause: ClauseNode,
  place: Place,
): Situation | undefined => {
  if (error?.code !== 'OQL_UNDELIMITED_TERM_LIST' || error.found === undefined) return undefined
  const connective = error.found.toLowerCase()
  if (!['and', '&', 'or'].includes(connective) || error.span.end < place.end - 1) return undefined
  return {
    state: 'field',
    afterConnective: connective === 'or' ? 'or' : 'and',
    sibling: clause,
    openGroups: place.openGroups,
    explains: error.span.start,
  }
}

/**
 * After a bare value or term, `group ▮` at the end of the top level: the `group by` directive begun,
 * which the value reader took for a second term.
 */
const afterBareGroup = (error: SyntaxErrorNode | undefined, place: Place): Situation | undefined => {
  if (error?.code !== 'OQL_UNDELIMITED_TERM_LIST' || error.found?.toLowerCase() !== 'group') return undefined
  if (place.openGroups > 0 || error.span.end < place.end - 1) return undefined
  return { state: 'directive', keywords: ['by'], explains: error.span.start }
}

/** After a bare value or term that the grammar refused: a connective or `group` begun at the end. */
const afterBare = (error: SyntaxErrorNode, { clause, place }: ValueSpot): Situation =>
  afterBareConnective(error, clause, place) ?? afterBareGroup(error, place) ?? NONE

const situateValue = (node: ValueNode, spot: ValueSpot, inList: boolean): Situation => {
  const { base, clause, keywords } = spot
  const connective: Situation = {
    state: 'connective',
    openGroups: base.openGroups,
    sibling: clause,
    keywords,
  }
  switch (node.kind) {
    case 'missing':
      return atEnd(node, spot.place.end) ? { ...base, state: 'value', inList } : NONE
    case 'bare':
      return node.error !== undefined ? afterBare(node.error, spot) : connective
    case 'group':
      return node.closed ? connective : situateValue(node.inner, spot, true)
    case 'not':
      return situateValue(throughNots(node), spot, inList)
    case 'branch':
      return situateValue(node.operands.at(-1)!, spot, inList)
    default:
      return inList ? { ...base, state: 'connective', inList: true } : connective
  }
}

const situateSearch = (node: SearchNode, spot: ValueSpot, inList: boolean): Situation => {
  const { base, keywords } = spot
  switch (node.kind) {
    case 'missing':
      return atEnd(node, spot.place.end) ? { ...base, state: 'search-term', inList } : NONE
    case 'bare':
      return node.error !== undefined ? afterBare(node.error, spot) : situateSearch(node.item, spot, false)
    case 'group':
      return node.closed
        ? { state: 'connective', openGroups: base.openGroups, keywords }
        : situateSearch(node.inner, spot, true)
    case 'not':
      return situateSearch(throughNots(node), spot, inList)
    case 'branch':
      return situateSearch(node.operands.at(-1)!, spot, inList)
    case 'proximity':
      if (!node.closed) return NONE
      return inList
        ? { ...base, state: 'search-term', inList, afterTerm: true }
        : { state: 'connective', keywords }
    case 'error':
      return NONE
    default:
      // After a term inside `( … )` the run may go on, or a connective or `)` follow.
      return inList
        ? { ...base, state: 'search-term', inList, afterTerm: true }
        : { state: 'connective', openGroups: base.openGroups, keywords }
  }
}

// Suggestions -------------------------------------------------------------------------------------------

const startsWithFolded = (text: string, prefix: string): boolean =>
  text.toLowerCase().startsWith(prefix.toLowerCase())

const ROW_SUBJECT_VERBS = ['it cites', "it's cited by", "it's related to"]

const fieldSuggestions = (entity: EntityType, prefix: string, valuesOnly: boolean): ContextSuggestion[] => {
  const canonical = new Map<string, ContextSuggestion>()
  const aliases = new Map<string, ContextSuggestion>()
  for (const [phrase, entry] of fieldIndexOf(entity).names) {
    const target = pickTarget(entry, valuesOnly)
    if (target === undefined) continue
    if (startsWithFolded(target.word, prefix))
      canonical.set(target.word, { value: target.word, kind: 'field', detail: target.kind })
    else if (startsWithFolded(phrase, prefix) && !canonical.has(phrase))
      aliases.set(phrase, {
        value: phrase,
        kind: 'field',
        detail: `${target.kind}; also written ${target.word}`,
      })
  }
  return [...canonical.values(), ...aliases.values()]
}

const pickTarget = (entry: FieldEntry, valuesOnly: boolean): FieldTarget | undefined =>
  valuesOnly ? entry.value : (entry.value ?? entry.search)

const keywordSuggestions = (values: readonly string[], kind: SuggestionKind): ContextSuggestion[] =>
  values.map((value) => ({ value, kind }))

const valueSuggestions = (field: ContextField, operator: string | undefined): ContextSuggestion[] => {
  if (operator?.includes('collection') === true) return []
  const nullable = operator === 'is' || operator === 'is not'
  const unknown: ContextSuggestion[] = nullable
    ? [{ value: 'unknown', kind: 'value', detail: 'no value' }]
    : []
  if (field.kind === 'bool') return [...keywordSuggestions(['true', 'false'], 'value'), ...unknown]
  const vocabulary = field.valueEntity === undefined ? undefined : vocabularyOf(field.valueEntity)
  if (vocabulary === undefined || (field.kind !== 'id' && field.kind !== 'enum' && field.kind !== 'string'))
    return unknown
  return [
    ...vocabulary.map((entry) => ({ value: entry.code, kind: 'value' as const, detail: entry.displayName })),
    ...unknown,
  ]
}

const matchesValue = (suggestion: ContextSuggestion, prefix: string): boolean => {
  if (prefix === '' || startsWithFolded(suggestion.value, prefix)) return true
  const detail = suggestion.detail?.toLowerCase()
  return (
    detail !== undefined &&
    (detail.startsWith(prefix.toLowerCase()) || detail.includes(` ${prefix.toLowerCase()}`))
  )
}

const suggestionsFor = (
  situation: Situation,
  entity: EntityType | null,
  prefix: string,
): ContextSuggestion[] => {
  const all = ((): ContextSuggestion[] => {
    switch (situation.state) {
      case 'entity':
        return keywordSuggestions(ENTITY_TYPES, 'entity')
      case 'after-entity':
        return [
          { value: 'where', kind: 'keyword' },
          ...(entity === 'works'
            ? keywordSuggestions(['(all corpora)', '(expansion corpus)'], 'corpus')
            : []),
          ...keywordSuggestions(situation.keywords ?? [], 'directive'),
        ]
      case 'corpus':
        return keywordSuggestions(Object.keys(CORPUS_PHRASES), 'corpus')
      case 'field':
        return entity === null
          ? []
          : [
              ...fieldSuggestions(entity, prefix, false),
              ...keywordSuggestions(['not', '('], 'keyword'),
              ...(entity === 'works' ? keywordSuggestions(ROW_SUBJECT_VERBS, 'keyword') : []),
            ]
      case 'verb-phrase':
        return keywordSuggestions(
          situation.verbHead === 'it'
            ? ['cites', 'is cited by', 'is related to']
            : ['cited by', 'related to'],
          'keyword',
        )
      case 'operator':
        return keywordSuggestions(
          [...new Set((situation.operatorKinds ?? []).flatMap((kind) => OPERATORS_OF_KIND[kind]))],
          'operator',
        )
      case 'value':
        return situation.field === undefined ? [] : valueSuggestions(situation.field, situation.operator)
      case 'search-term':
        return situation.afterTerm === true
          ? [
              ...keywordSuggestions(['and', 'or', ')'], 'connective'),
              ...keywordSuggestions(['not'], 'keyword'),
            ]
          : keywordSuggestions(['not', 'stemmed', 'within', '('], 'keyword')
      case 'connective':
        return situation.inList === true
          ? keywordSuggestions(['or', 'and', ')'], 'connective')
          : [
              ...keywordSuggestions(['and', 'or'], 'connective'),
              ...((situation.openGroups ?? 0) > 0 ? keywordSuggestions([')'], 'connective') : []),
              ...keywordSuggestions(situation.keywords ?? [], 'directive'),
            ]
      case 'group-by-field':
        return entity === null ? [] : fieldSuggestions(entity, prefix, true)
      case 'directive':
        return keywordSuggestions(situation.keywords ?? [], 'directive')
      default:
        return []
    }
  })()
  const matching =
    situation.state === 'value' || situation.state === 'field' || situation.state === 'group-by-field'
      ? all.filter((suggestion) => matchesValue(suggestion, prefix))
      : all.filter((suggestion) => startsWithFolded(suggestion.value, prefix))
  return matching
}

// Putting it together ---------------------------------------------------------------------------------------

interface Reading {
  readonly situation: Situation
  readonly entity: EntityType | null
  readonly diagnostic?: OqlDiagnostic
}

const read = (head: string): Reading => {
  const syntax = parseOqlSyntax(head)
  if (syntax.tree === undefined) return { situation: NONE, entity: null }
  const tree = syntax.tree
  const entity = tree.entity.kind === 'entity' ? tree.entity.entity : null
  const situation = situateQuery(tree, head.length)
  // Problems the text ending there explains are not problems yet.
  const firstProblem = lowerQuery(tree)
    .problems.filter(
      (problem) => problem.span.start < head.trimEnd().length && problem.span.start !== situation.explains,
    )
    .sort((a, b) => a.span.start - b.span.start)[0]
  return firstProblem === undefined
    ? { situation, entity }
    : { situation, entity, diagnostic: toDiagnostic(head, firstProblem) }
}

const acceptsWidePrefix = (reading: Reading, prefix: string): boolean => {
  const { situation, entity } = reading
  if (entity === null) return false
  switch (situation.state) {
    case 'field':
    case 'group-by-field':
      if (situation.sibling !== undefined) {
        const kind = fieldOf(entity, situation.sibling).kind
        if (kind === 'id' || kind === 'enum' || kind === 'string') return true
      }
      return suggestionsFor(situation, entity, prefix).some((suggestion) => suggestion.kind === 'field')
    case 'value': {
      const field = situation.field
      if (field === undefined || (field.kind !== 'id' && field.kind !== 'enum' && field.kind !== 'string'))
        return false
      if (field.valueEntity === undefined || vocabularyOf(field.valueEntity) === undefined) return true
      return suggestionsFor(situation, entity, prefix).length > 0
    }
    default:
      return false
  }
}

/**
 * What the grammar expects at a cursor position, with the text being typed there and what could be
 * written. The cursor is clamped to the text. Never throws.
 *
 * @example parseContext('works where institution is har', 30)
 * // { state: 'value', field: { word: 'institution', kind: 'id', … }, prefix: 'har',
 * //   replaceRange: { start: 27, end: 30 }, autocompleteEntity: 'institutions', … }
 */
export const parseContext = (
  text: string,
  position: number = text.length,
  options: ParseContextOptions = {},
): ParseContext => {
  const source = typeof text === 'string' ? text : ''
  const cursor = Math.max(
    0,
    Math.min(Number.isFinite(position) ? Math.trunc(position) : source.length, source.length),
  )
  try {
    const context = contextAt(source, cursor)
    const limit = options.maxSuggestions ?? MAX_SUGGESTIONS
    return context.suggestions.length <= limit
      ? context
      : { ...context, suggestions: context.suggestions.slice(0, Math.max(0, limit)) }
  } catch {
    return {
      entity: null,
      state: 'none',
      prefix: '',
      replaceRange: { start: cursor, end: cursor },
      suggestions: [],
    }
  }
}

const contextAt = (text: string, cursor: number): ParseContext => {
  const before = text.slice(0, cursor)
  const lexed = lexOql(before)
  const point = { start: cursor, end: cursor }
  if (lexed.error !== undefined)
    // Inside a string or an annotation: nothing to complete.
    return { entity: null, state: 'none', prefix: '', replaceRange: point, suggestions: [] }
  const tokens = lexed.tokens
  // The words being typed: those that end at the cursor, back to a connective, `not` or punctuation.
  const starts: number[] = []
  for (let index = tokens.length - 2; index >= 0 && starts.length < MAX_WIDENED_WORDS; index--) {
    const token = tokens[index]!
    if (token.kind !== 'word' || isConnective(token) || isWord(token, 'not', 'where')) break
    if (starts.length === 0 && token.end !== cursor) break
    if (starts.length > 0 && tokens[index + 1]!.annotation !== undefined) break
    starts.push(token.start)
  }
  let chosen: { readonly start: number; readonly reading: Reading } | undefined
  for (let widest = starts.length - 1; widest >= 0; widest--) {
    const start = starts[widest]!
    const reading = read(text.slice(0, start))
    if (widest === 0 || acceptsWidePrefix(reading, text.slice(start, cursor))) {
      chosen = { start, reading }
      break
    }
  }
  const start = chosen?.start ?? cursor
  const reading = chosen?.reading ?? read(before)
  const prefix = text.slice(start, cursor)
  return present(reading, prefix, { start, end: cursor })
}

const present = (reading: Reading, prefix: string, replaceRange: Span): ParseContext => {
  const { situation, entity } = reading
  const context: { -readonly [K in keyof ParseContext]: ParseContext[K] } = {
    entity,
    state: situation.state,
    prefix,
    replaceRange,
    suggestions: suggestionsFor(situation, entity, prefix),
  }
  if (situation.field !== undefined) {
    context.field = situation.field
    context.valueKind = situation.field.kind
    const valueEntity = situation.field.valueEntity
    if (situation.state === 'value' && valueEntity !== undefined && vocabularyOf(valueEntity) === undefined)
      context.autocompleteEntity = valueEntity
  }
  if (situation.operator !== undefined) context.operator = situation.operator
  if (situation.inList !== undefined) context.inList = situation.inList
  if (situation.openGroups !== undefined && situation.openGroups > 0)
    context.openGroups = situation.openGroups
  if (situation.afterConnective !== undefined) context.afterConnective = situation.afterConnective
  if (situation.sibling !== undefined && entity !== null && situation.sibling.value !== undefined) {
    const field = fieldOf(entity, situation.sibling)
    const value = situation.sibling.value
    const valueRange = value.kind === 'bare' ? value.item.span : value.span
    context.sibling = { field, clauseRange: spanOfClause(situation.sibling, valueRange), valueRange }
    if (
      field.valueEntity !== undefined &&
      vocabularyOf(field.valueEntity) === undefined &&
      field.kind === 'id'
    )
      context.autocompleteEntity = field.valueEntity
  }
  if (reading.diagnostic !== undefined) context.diagnostic = reading.diagnostic
  return context
}

const spanOfClause = (clause: ClauseNode, valueRange: Span): Span => ({
  start: clause.span.start,
  end: Math.max(valueRange.end, clause.subject.span.end),
})
