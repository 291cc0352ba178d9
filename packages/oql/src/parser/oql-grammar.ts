import { type EntityType, resolveEntityType } from '@oqlkit/oqo-schema'
import P from 'parsimmon'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import {
  readBoolean,
  readGroup,
  readPrefixed,
  readSearchGroup,
  readValueGroup,
} from './expression-readers.ts'
import { type FieldIndex, fieldIndexOf, MAX_FIELD_WORDS } from './field-index.ts'
import type { Token } from './oql-lexer.ts'
import type {
  BareNode,
  ClauseNode,
  ConditionNode,
  CorpusNode,
  DirectiveNode,
  EntityNode,
  FieldNode,
  GroupByNode,
  OperatorNode,
  QueryNode,
  SampleNode,
  SearchNode,
  SyntaxErrorNode,
  ValueNode,
  VerbNode,
  WhereNode,
} from './oql-syntax.ts'
import {
  CORPUS_PHRASES,
  DIGITS,
  IT_WORDS,
  isAnd,
  isConnective,
  isValueToken,
  isWord,
  OPERATOR_START_WORDS,
  startsDirective,
  verbPhraseAt,
} from './token-classes.ts'
import {
  errorAt,
  keyword,
  pointAt,
  punctuation,
  type Scanned,
  type Separator,
  scan,
  spanFrom,
  spanOf,
  type TokenStream,
} from './token-parsers.ts'
import {
  isProximityStart,
  orMissing,
  type Reader,
  readOperator,
  readRun,
  readScalar,
  readToClauseEnd,
  readWord,
  searchAtom,
} from './token-readers.ts'

// The OQL v2.2 statement grammar (§3.1 EBNF plus what the reference parser adds: row-subject verbs,
// the corpus parenthetical, `seed` values). The grammar is total: where the text breaks a rule it
// records an error node and reads on, recovering at the next clause, connective or `)`, so one parse
// serves the fail-fast parser, the recovering validator and autocompletion. Field names depend on the
// entity, so everything after the entity is built once per entity type.
//
//   query      = entity corpus? ('where' conditions)? (groupBy | sample | ';')*
//   conditions = operand (('and' | '&' | 'or') operand)*        precedence: not > and > or
//   operand    = 'not'* ('(' conditions ')' | clause)
//   clause     = verbPhrase value | field operator value
//   value      = chosen by the operator: a value list after `is` (bare, or a group read by
//                expression-readers.ts), one value after a comparison or `is similar to`, a search
//                expression after `has`

type LookaheadVariant = 'conditions' | 'value' | 'search'

/** What follows the entity: the parts of a query its entity's grammar reads. */
type QueryRest = Pick<QueryNode, 'corpus' | 'where' | 'directives' | 'trailing'>

const lowerWords = (tokens: readonly Token[], index: number): string[] => {
  const words: string[] = []
  for (let next = index; words.length < MAX_FIELD_WORDS && tokens[next]!.kind === 'word'; next++)
    words.push(tokens[next]!.lower)
  return words
}

/** The field name at a token, if there is one (the longest match of up to 4 words, §3.4). */
const readField = (
  fields: FieldIndex,
  tokens: readonly Token[],
  index: number,
): Scanned<FieldNode> | undefined => {
  const matched = fields.match(lowerWords(tokens, index))
  if (matched === undefined) return undefined
  const first = tokens[index]!
  const last = tokens[index + matched.length - 1]!
  let text = first.text
  for (let next = index + 1; next < index + matched.length; next++) text += ` ${tokens[next]!.text}`
  return {
    value: { kind: 'field', span: spanFrom(spanOf(first), spanOf(last)), text, entry: matched.entry },
    next: index + matched.length,
  }
}

type ClauseHead =
  | { readonly kind: 'verb'; readonly node: VerbNode }
  | { readonly kind: 'field'; readonly node: FieldNode }
  | { readonly kind: 'bad-verb'; readonly token: Token }
  | { readonly kind: 'none'; readonly error: SyntaxErrorNode }
  | { readonly kind: 'unknown'; readonly token: Token }

type ClauseRest =
  | { readonly operatorNode: OperatorNode; readonly value: ValueNode | SearchNode }
  | { readonly operatorError: SyntaxErrorNode; readonly skipped: Span | undefined }

const clauseWith = (
  subject: FieldNode | VerbNode,
  operatorNode: OperatorNode,
  value: ValueNode | SearchNode,
): ClauseNode => ({
  kind: 'clause',
  span: spanFrom(subject.span, value.kind === 'missing' ? operatorNode.span : value.span),
  subject,
  operator: operatorNode,
  value,
})

const clauseOf = (subject: FieldNode, rest: ClauseRest): ClauseNode => {
  if ('value' in rest) return clauseWith(subject, rest.operatorNode, rest.value)
  const span = spanFrom(subject.span, rest.skipped ?? subject.span)
  return rest.skipped === undefined
    ? { kind: 'clause', span, subject, operatorError: rest.operatorError }
    : { kind: 'clause', span, subject, operatorError: rest.operatorError, skipped: rest.skipped }
}

const impliedOperatorAt = (at: number): OperatorNode => ({
  kind: 'operator',
  span: { start: at, end: at },
  family: 'list',
  name: 'is',
  negated: false,
  implied: true,
})

/**
 * The operator after a field, or what stands in its place. After a row-subject field it may be left
 * out: `cites (W1)` reads as `cites is (W1)`. Never fails.
 */
const readOperatorOrProblem =
  (rowSubject: boolean): Reader<OperatorNode | SyntaxErrorNode> =>
  (stream) => {
    const found = readOperator(stream)
    if (found !== undefined) return found
    const { tokens, index } = stream
    const current = tokens[index]!
    const startsValue =
      current.kind === 'lparen' ||
      current.kind === 'string' ||
      (current.kind === 'word' && !OPERATOR_START_WORDS.has(current.lower) && isValueToken(current))
    if (rowSubject && startsValue) return { value: impliedOperatorAt(current.start), next: index }
    if (current.kind === 'end')
      return { value: errorAt('OQL_MISSING_OPERATOR', pointAt(current)), next: index }
    if (current.kind === 'bang')
      return { value: errorAt('OQL_BANG_NOT_SUPPORTED', spanOf(current), '!'), next: index + 1 }
    return { value: errorAt('OQL_MISSING_OPERATOR', spanOf(current), current.text), next: index }
  }

/** One to four words and an operator: a clause with a field name the entity does not have (`tpye is x`). */
const looksLikeClause = (tokens: readonly Token[], index: number): boolean => {
  if (startsDirective(tokens, index)) return false
  for (let next = index; next < index + MAX_FIELD_WORDS; next++) {
    const current = tokens[next]!
    if (current.kind !== 'word' || isConnective(current) || isWord(current, 'not')) return false
    if (OPERATOR_START_WORDS.has(tokens[next + 1]?.lower ?? '') && tokens[next + 1]!.kind === 'word')
      return true
  }
  return false
}

const buildEntityGrammar = (entity: EntityType): P.Parser<QueryRest> => {
  const fields: FieldIndex = fieldIndexOf(entity)

  // Lookaheads ask for the field at the same token several times; remember the last text's answers.
  let memoTokens: readonly Token[] | undefined
  const memo = new Map<number, Scanned<FieldNode> | null>()

  /** The field name at a token, after an optional leading `the` (§3.4). */
  const fieldAt = (tokens: readonly Token[], index: number): Scanned<FieldNode> | undefined => {
    if (tokens !== memoTokens) {
      memo.clear()
      memoTokens = tokens
    }
    const known = memo.get(index)
    if (known !== undefined) return known ?? undefined
    const found =
      (isWord(tokens[index], 'the') ? readField(fields, tokens, index + 1) : undefined) ??
      readField(fields, tokens, index)
    memo.set(index, found ?? null)
    return found
  }

  /**
   * Does a condition start at this token? Bare values and bare search terms look ahead with it to tell
   * a second value (an error) from the next condition. As the reference reads it: after a bare value
   * `it` starts a clause (a wrong verb is then its own error) but `it's` only with a verb phrase, and
   * after a bare search term neither does.
   */
  const startsCondition = (tokens: readonly Token[], index: number, variant: LookaheadVariant): boolean => {
    const current = tokens[index]!
    if (current.kind === 'lparen') return true
    if (current.kind === 'bang') return variant === 'conditions'
    if (current.kind !== 'word') return false
    if (isWord(current, 'not')) return variant === 'conditions' || startsCondition(tokens, index + 1, variant)
    if (isWord(current, ...IT_WORDS))
      return (
        variant === 'conditions' ||
        (variant === 'value' && (isWord(current, 'it') || verbPhraseAt(tokens, index) !== undefined))
      )
    return fieldAt(tokens, index) !== undefined || looksLikeClause(tokens, index)
  }

  /**
   * After a value or search term written without parentheses: a second one is an error
   * (OQL_UNDELIMITED_TERM_LIST), side by side or after a connective no condition follows. Reads the
   * extra terms so that parsing resumes at the next condition.
   */
  const readUndelimited =
    (variant: 'value' | 'search'): Reader<SyntaxErrorNode | undefined> =>
    ({ tokens, index }) => {
      const current = tokens[index]!
      const extraFrom = (start: number): Scanned<SyntaxErrorNode | undefined> => {
        let next = start
        for (; ; next++) {
          const extra = tokens[next]!
          if (extra.kind !== 'word' && extra.kind !== 'string') break
          if (startsDirective(tokens, next)) break
          if (isConnective(extra) && next > start && startsCondition(tokens, next + 1, variant)) break
        }
        const span = current.kind === 'end' ? pointAt(current) : spanOf(current)
        return {
          value: errorAt('OQL_UNDELIMITED_TERM_LIST', span, current.text),
          next: Math.max(next, index + 1),
        }
      }
      // `"x y" within 3 words`: the removed suffix form of proximity (#514).
      if (variant === 'search' && isProximityStart(tokens, index)) {
        const next = isWord(tokens[index + 2], 'words', 'word') ? index + 3 : index + 2
        const span = spanFrom(spanOf(current), spanOf(tokens[next - 1]!))
        return { value: errorAt('OQL_PROXIMITY_SUFFIX_REMOVED', span), next }
      }
      if (current.kind === 'string') return extraFrom(index)
      if (current.kind !== 'word' || startsDirective(tokens, index) || isWord(current, 'not'))
        return { value: undefined, next: index }
      if (isConnective(current))
        return startsCondition(tokens, index + 1, variant)
          ? { value: undefined, next: index }
          : extraFrom(index)
      return startsCondition(tokens, index, 'conditions')
        ? { value: undefined, next: index }
        : extraFrom(index)
    }

  const undelimited = { value: readUndelimited('value'), search: readUndelimited('search') }

  /** A value or term read by `item`, then the check for a second, undelimited one. */
  const readBare =
    <T extends { readonly span: Span }>(item: Reader<T>, variant: 'value' | 'search'): Reader<BareNode<T>> =>
    (stream) => {
      const read = item(stream)
      if (read === undefined) return undefined
      const after = undelimited[variant]({ tokens: stream.tokens, index: read.next })!
      const node: BareNode<T> =
        after.value === undefined
          ? { kind: 'bare', item: read.value, span: read.value.span }
          : {
              kind: 'bare',
              item: read.value,
              span: spanFrom(read.value.span, after.value.span),
              error: after.value,
            }
      return { value: node, next: after.next }
    }

  /** `and`/`&` between conditions, or (reported, read as `and`) none at all before the next condition. */
  const andSeparator = ({ tokens, index }: TokenStream): Scanned<Separator> | undefined => {
    const current = tokens[index]!
    if (isAnd(current)) return { value: { join: 'and', span: spanOf(current) }, next: index + 1 }
    if (isWord(current, 'or')) return { value: { join: 'or', span: spanOf(current) }, next: index + 1 }
    if (!startsCondition(tokens, index, 'conditions')) return undefined
    const error = errorAt('OQL_IMPLICIT_ADJACENCY', spanOf(current), current.text)
    return { value: { join: 'and', span: pointAt(current), error }, next: index }
  }

  const readClauseHead: Reader<ClauseHead> = ({ tokens, index }) => {
    const current = tokens[index]!
    const verb = verbPhraseAt(tokens, index)
    if (verb !== undefined) {
      const last = tokens[index + verb.pattern.length - 1]!
      const node: VerbNode = {
        kind: 'verb',
        columnId: verb.columnId,
        span: spanFrom(spanOf(current), spanOf(last)),
      }
      return { value: { kind: 'verb', node }, next: index + verb.pattern.length }
    }
    if (isWord(current, ...IT_WORDS)) return { value: { kind: 'bad-verb', token: current }, next: index + 1 }
    const field = fieldAt(tokens, index)
    if (field !== undefined) return { value: { kind: 'field', node: field.value }, next: field.next }
    if (current.kind === 'end' || startsDirective(tokens, index))
      return { value: { kind: 'none', error: errorAt('OQL_EMPTY', pointAt(current)) }, next: index }
    // A `)` is not a field; it is left for the group it may close.
    if (current.kind === 'rparen')
      return {
        value: { kind: 'none', error: errorAt('OQL_UNKNOWN_FIELD', spanOf(current), ')') },
        next: index,
      }
    return { value: { kind: 'unknown', token: current }, next: index + 1 }
  }

  // The conditions are LL(1): each reader picks its branch by looking at the current token, and none of
  // them fails (a broken clause is an error node), so they are plain readers like the expressions inside
  // values (expression-readers.ts) rather than combinators: a query is mostly conditions, and a
  // combinator per step made a parse about an eighth slower.

  // Values: `is` takes a list (bare or in a group), comparisons and `is similar to` one value.
  const readBareValue = readBare(readScalar, 'value')
  const readListValue: Reader<ValueNode> = readPrefixed<ValueNode>((stream) =>
    stream.tokens[stream.index]!.kind === 'lparen' ? readValueGroup(stream) : readBareValue(stream),
  )
  const readScalarOrMissing = orMissing(readScalar)
  const readSingleValue: Reader<ValueNode> = (stream) =>
    stream.tokens[stream.index]!.kind === 'lparen' ? readValueGroup(stream) : readScalarOrMissing(stream)

  // Outside parentheses a search value is one term, after `not` a run of words (as the reference reads it).
  const readBareGroup = readBare(readSearchGroup, 'search')
  const readBareRun = readBare(searchAtom(readRun), 'search')
  const readBareTerm = orMissing(readBare(searchAtom(readWord), 'search'))
  const readNegatedSearch: Reader<SearchNode> = readPrefixed<SearchNode>((stream) =>
    stream.tokens[stream.index]!.kind === 'lparen' ? readBareGroup(stream) : readBareRun(stream),
  )
  const readSearchValue: Reader<SearchNode> = (stream) => {
    const current = stream.tokens[stream.index]!
    if (current.kind === 'lparen') return readSearchGroup(stream)
    return isWord(current, 'not') || current.kind === 'bang'
      ? readNegatedSearch(stream)
      : readBareTerm(stream)
  }

  const valueReaderFor = (operatorNode: OperatorNode): Reader<ValueNode | SearchNode> =>
    operatorNode.family === 'search'
      ? readSearchValue
      : operatorNode.family === 'list'
        ? readListValue
        : readSingleValue

  /** The operator after a field and its value, or the problem in its place and the text it skips. */
  const readClauseRest =
    (rowSubject: boolean): Reader<ClauseRest> =>
    (stream) => {
      const found = readOperatorOrProblem(rowSubject)(stream)!
      const at = { tokens: stream.tokens, index: found.next }
      if (found.value.kind === 'operator') {
        const value = valueReaderFor(found.value)(at)!
        return { value: { operatorNode: found.value, value: value.value }, next: value.next }
      }
      const skipped = readToClauseEnd(at)!
      return { value: { operatorError: found.value, skipped: skipped.value }, next: skipped.next }
    }
  const readPlainRest = readClauseRest(false)
  const readRowSubjectRest = readClauseRest(true)

  const readClause: Reader<ConditionNode> = (stream) => {
    const { value: head, next } = readClauseHead(stream)!
    const at = { tokens: stream.tokens, index: next }
    switch (head.kind) {
      case 'verb': {
        const value = readListValue(at)!
        return {
          value: clauseWith(head.node, impliedOperatorAt(head.node.span.end), value.value),
          next: value.next,
        }
      }
      case 'field': {
        const rest = (head.node.entry.value?.rowSubject === true ? readRowSubjectRest : readPlainRest)(at)!
        return { value: clauseOf(head.node, rest.value), next: rest.next }
      }
      case 'bad-verb': {
        const skipped = readToClauseEnd(at)!
        const found = skipped.value === undefined ? head.token.text : `${head.token.text} …`
        return { value: errorAt('OQL_BAD_VERB_PHRASE', spanOf(head.token), found), next: skipped.next }
      }
      case 'none':
        return { value: head.error, next }
      case 'unknown': {
        const skipped = readToClauseEnd(at)!
        const found = head.token.kind === 'string' ? `"${head.token.text}"` : head.token.text
        return { value: errorAt('OQL_UNKNOWN_FIELD', spanOf(head.token), found), next: skipped.next }
      }
    }
  }

  // `( conditions )` or a clause, after any `not` prefixes.
  const readOperand: Reader<ConditionNode> = readPrefixed<ConditionNode>((stream) =>
    stream.tokens[stream.index]!.kind === 'lparen' ? readConditionGroup(stream) : readClause(stream),
  )
  const readConditions: Reader<ConditionNode> = readBoolean(readOperand, andSeparator)
  const readConditionGroup: Reader<ConditionNode> = readGroup(readConditions)
  const conditions = scan(readConditions, 'a condition').desc('a condition: a field, an operator and a value')

  const directives = P.alt<DirectiveNode | null>(
    punctuation('semicolon', "';'").map(() => null),
    groupBy(fields),
    sample,
  )
    .many()
    .map((found) => found.filter((directive): directive is DirectiveNode => directive !== null))

  return P.seqMap(
    corpusFor(entity).atMost(1),
    P.seqMap(
      keyword('where'),
      conditions,
      (where, conditions): WhereNode => ({
        kind: 'where',
        span: spanFrom(where, conditions.span),
        conditions,
      }),
    ).atMost(1),
    directives,
    scan(({ tokens, index }): Scanned<SyntaxErrorNode | null> => {
      const current = tokens[index]!
      if (current.kind === 'end') return { value: null, next: index }
      // Anything left is not OQL; a `)` here closes nothing, and a condition after a `;` is one
      // joined with a semicolon instead of and/or (`year is 2020; type is article`).
      const code =
        current.kind === 'rparen'
          ? 'OQL_UNBALANCED_PARENS'
          : tokens[index - 1]?.kind === 'semicolon' && startsCondition(tokens, index, 'conditions')
            ? 'OQL_IMPLICIT_ADJACENCY'
            : 'OQL_TRAILING_TOKENS'
      return { value: errorAt(code, spanOf(current), current.text), next: tokens.length - 1 }
    }, 'the end of the query'),
    ([corpus], [where], directives, trailing) => {
      const rest: { -readonly [K in keyof QueryRest]: QueryRest[K] } = { directives }
      if (corpus !== undefined) rest.corpus = corpus
      if (where !== undefined) rest.where = where
      // Only a condition right after the conditions is adjacent to them; after a directive, or with
      // no where at all, it is text out of place.
      if (trailing !== null)
        rest.trailing =
          trailing.code === 'OQL_IMPLICIT_ADJACENCY' && (where === undefined || directives.length > 0)
            ? { ...trailing, code: 'OQL_TRAILING_TOKENS' }
            : trailing
      return rest
    },
  )
}

// Directives ---------------------------------------------------------------------------------------

const groupBy = (fields: FieldIndex): P.Parser<GroupByNode> => {
  const field = scan<FieldNode | SyntaxErrorNode>(({ tokens, index }) => {
    const found = readField(fields, tokens, index)
    if (found !== undefined) return found
    const current = tokens[index]!
    if (current.kind === 'end' || current.kind === 'comma' || startsDirective(tokens, index))
      return { value: errorAt('OQL_UNKNOWN_FIELD', pointAt(current), ''), next: index }
    // An unknown name: read it up to the next comma or directive.
    let next = index + 1
    while (tokens[next]!.kind === 'word' && !startsDirective(tokens, next)) next++
    const text = tokens
      .slice(index, next)
      .map((word) => word.text)
      .join(' ')
    return {
      value: errorAt('OQL_UNKNOWN_FIELD', spanFrom(spanOf(current), spanOf(tokens[next - 1]!)), text),
      next,
    }
  }, 'a field to group by').desc('a field to group by')
  return P.seqMap(
    scan(
      ({ tokens, index }) =>
        isWord(tokens[index], 'group') && isWord(tokens[index + 1], 'by')
          ? { value: spanFrom(spanOf(tokens[index]!), spanOf(tokens[index + 1]!)), next: index + 2 }
          : undefined,
      "'group by'",
    ).desc("the directive 'group by'"),
    P.sepBy1(field, punctuation('comma', "a comma ','")),
    (keywordSpan, items): GroupByNode => {
      const last = items.at(-1)!.span
      return {
        kind: 'group-by',
        span: spanFrom(keywordSpan, last.end > keywordSpan.end ? last : keywordSpan),
        fields: items,
      }
    },
  )
}

const sample: P.Parser<SampleNode> = scan<SampleNode>(({ tokens, index }) => {
  if (!isWord(tokens[index], 'sample')) return undefined
  const keywordSpan = spanOf(tokens[index]!)
  const size = tokens[index + 1]!
  if (size.kind !== 'word' || !DIGITS.test(size.text)) {
    const consumed = size.kind === 'word' || size.kind === 'string'
    const error = errorAt('OQL_BAD_SAMPLE', size.kind === 'end' ? pointAt(size) : spanOf(size), size.text)
    return {
      value: { kind: 'sample', span: consumed ? spanFrom(keywordSpan, spanOf(size)) : keywordSpan, error },
      next: consumed ? index + 2 : index + 1,
    }
  }
  const node: SampleNode = {
    kind: 'sample',
    span: spanFrom(keywordSpan, spanOf(size)),
    size: { value: Number(size.text), span: spanOf(size) },
  }
  if (!isWord(tokens[index + 2], 'seed')) return { value: node, next: index + 2 }
  const seedKeyword = tokens[index + 2]!
  const seed = tokens[index + 3]!
  if (seed.kind !== 'word' && seed.kind !== 'string')
    return {
      value: {
        ...node,
        span: spanFrom(keywordSpan, spanOf(seedKeyword)),
        error: errorAt('OQL_BAD_SAMPLE', seed.kind === 'end' ? pointAt(seed) : spanOf(seed), seed.text),
      },
      next: index + 3,
    }
  return {
    value: {
      ...node,
      span: spanFrom(keywordSpan, spanOf(seed)),
      seed: { value: seed.text, span: spanOf(seed) },
    },
    next: index + 4,
  }
}, "'sample'").desc("the directive 'sample N [seed S]'")

// The corpus parenthetical (#481): works only, right after the entity.
const corpusFor = (entity: EntityType): P.Parser<CorpusNode> =>
  scan<CorpusNode>(({ tokens, index }) => {
    const open = tokens[index]!
    if (open.kind !== 'lparen') return undefined
    // The parenthetical runs to its matching `)`, whatever it holds: `("all")` or `(year is 2020)` is a
    // closed parenthetical that names no corpus, not one left open.
    let next = index + 1
    for (let depth = 1; tokens[next]!.kind !== 'end'; next++) {
      const kind = tokens[next]!.kind
      if (kind === 'lparen') depth++
      else if (kind === 'rparen' && --depth === 0) break
    }
    const close = tokens[next]!
    const closed = close.kind === 'rparen'
    const inside = tokens.slice(index + 1, next)
    const phrase = inside.every((token) => token.kind === 'word')
      ? inside.map((word) => word.lower).join(' ')
      : undefined
    const corpus = closed && entity === 'works' && phrase !== undefined ? CORPUS_PHRASES[phrase] : undefined
    const span = spanFrom(spanOf(open), closed ? spanOf(close) : spanOf(tokens[next - 1]!))
    const found = `(${inside.map((token) => (token.kind === 'string' ? `"${token.text}"` : token.text)).join(' ')}${closed ? ')' : ''}`
    const node: CorpusNode =
      corpus === undefined
        ? { kind: 'corpus', span, corpus, closed, error: errorAt('OQL_BAD_CORPUS', span, found) }
        : { kind: 'corpus', span, corpus, closed }
    // An unclosed parenthetical reads to the end: nothing after it can be trusted.
    return { value: node, next: closed ? next + 1 : tokens.length - 1 }
  }, 'a corpus such as (all corpora)').desc('a corpus: (all corpora), (expansion corpus)')

// The query --------------------------------------------------------------------------------------------

const GRAMMARS = new Map<EntityType, P.Parser<QueryRest>>()

/** The grammar of everything after the entity, built on first use for each entity type and kept. */
export const entityGrammar = (entity: EntityType): P.Parser<QueryRest> => {
  let grammar = GRAMMARS.get(entity)
  if (grammar === undefined) {
    grammar = buildEntityGrammar(entity)
    GRAMMARS.set(entity, grammar)
  }
  return grammar
}

const entityNode = scan<EntityNode | SyntaxErrorNode>(({ tokens, index }) => {
  const first = tokens[index]!
  if (first.kind === 'end') return { value: errorAt('OQL_EMPTY', pointAt(first)), next: index }
  if (first.kind !== 'word')
    return { value: errorAt('OQL_MISSING_ENTITY', spanOf(first), first.text), next: index }
  // A space spelling of a hyphenated type (`source types`) is two words.
  const second = tokens[index + 1]!
  const spaced = second.kind === 'word' ? resolveEntityType(`${first.text} ${second.text}`) : undefined
  if (spaced !== undefined && first.lower !== spaced)
    return {
      value: { kind: 'entity', entity: spaced, span: spanFrom(spanOf(first), spanOf(second)) },
      next: index + 2,
    }
  const entity = resolveEntityType(first.text)
  if (entity !== undefined) return { value: { kind: 'entity', entity, span: spanOf(first) }, next: index + 1 }
  const code = isWord(first, 'where') ? 'OQL_MISSING_ENTITY' : 'OQL_UNKNOWN_ENTITY'
  return { value: errorAt(code, spanOf(first), first.text), next: index }
}, 'an entity type').desc('an entity type such as works')

/** The whole query. An entity the grammar cannot read leaves the rest unread (nothing else is certain). */
export const queryParser: P.Parser<QueryNode> = entityNode.chain((entity): P.Parser<QueryNode> => {
  if (entity.kind === 'error')
    return scan<QueryNode>(
      ({ tokens }) => ({
        value: {
          kind: 'query',
          span: { start: tokens[0]!.start, end: tokens.at(-1)!.end },
          entity,
          directives: [],
        },
        next: tokens.length - 1,
      }),
      'anything',
    )
  return entityGrammar(entity.entity).map((rest): QueryNode => {
    let end = entity.span.end
    for (const node of [rest.trailing, ...rest.directives, rest.where, rest.corpus])
      if (node !== undefined) end = Math.max(end, node.span.end)
    return { kind: 'query', span: { start: entity.span.start, end }, entity, ...rest }
  })
})
