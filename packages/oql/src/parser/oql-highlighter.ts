import type { Span } from '../diagnostics/oql-diagnostic.ts'
import type { OqlTokenRole } from '../printer/oql-tokens.ts'
import { type LexedOql, lexOql, type Token } from './oql-lexer.ts'
import { parseOqlSyntax } from './oql-parser.ts'
import type {
  BareNode,
  BranchNode,
  ClauseNode,
  ConditionNode,
  DirectiveNode,
  GroupNode,
  NotNode,
  QueryNode,
  SearchNode,
  SyntaxErrorNode,
  ValueNode,
} from './oql-syntax.ts'

// Highlighting of the user's own text, from the same lexer and grammar that parse it, so an editor's
// colours never disagree with what the query means (`title` is a field after `where`, a search term
// after `has`). The roles are the printer's (`OqlTokenRole`) where they fit, so printed and typed OQL
// colour alike; literals are told apart further (string, number, id), and text the grammar could not
// place is `error`.

export type OqlHighlightRole =
  | Exclude<OqlTokenRole, 'space'>
  | 'string'
  | 'number'
  | 'id'
  | 'directive'
  | 'error'

export interface OqlHighlightSpan extends Span {
  readonly role: OqlHighlightRole
}

// OpenAlex ids (W2741809807, https://openalex.org/I136199984), collection ids, DOIs, ORCIDs.
const ID_VALUE =
  /^(?:(?:https?:\/\/(?:www\.)?openalex\.org\/)?[A-Za-z]\d{2,}|col_\w+|(?:doi:|https?:\/\/(?:dx\.)?doi\.org\/)?10\.\d{4,9}\/\S+|\d{4}-\d{4}-\d{4}-\d{3}[\dXx])$/
const NUMBER_VALUE = /^[-+]?\d+(?:\.\d+)?$/

const PUNCTUATION_KINDS: ReadonlySet<Token['kind']> = new Set([
  'lparen',
  'rparen',
  'comma',
  'semicolon',
  'bang',
])

/** How a value written without quotes reads: a number, an id, or another value (a code, a date, a word). */
const scalarRole = (text: string): OqlHighlightRole =>
  NUMBER_VALUE.test(text) ? 'number' : ID_VALUE.test(text) ? 'id' : 'value'

/** The roles of a text's tokens, by token index; the tree walk refines the lexer's defaults. */
class RoleMap {
  readonly #tokens: readonly Token[]
  readonly roles: (OqlHighlightRole | undefined)[]

  constructor(tokens: readonly Token[]) {
    this.#tokens = tokens
    this.roles = tokens.map((token) =>
      token.kind === 'string' ? 'string' : PUNCTUATION_KINDS.has(token.kind) ? 'punctuation' : undefined,
    )
  }

  /** The first token that starts at or after an offset. */
  #first(offset: number): number {
    let low = 0
    let high = this.#tokens.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (this.#tokens[middle]!.start < offset) low = middle + 1
      else high = middle
    }
    return low
  }

  /** Gives every token inside the span the role (later marks win over earlier ones). */
  mark(span: Span | undefined, role: OqlHighlightRole): void {
    if (span === undefined) return
    for (let index = this.#first(span.start); index < this.#tokens.length; index++) {
      const token = this.#tokens[index]!
      if (token.kind === 'end' || token.start >= span.end) break
      this.roles[index] = role
    }
  }

  /** The role of the token at an offset, for words the tree does not type (a scalar, a search word). */
  markToken(span: Span, role: (token: Token) => OqlHighlightRole): void {
    const index = this.#first(span.start)
    const token = this.#tokens[index]
    if (token !== undefined && token.kind !== 'end' && token.start < span.end) this.roles[index] = role(token)
  }
}

/** Walks the syntax tree and marks what each node's tokens are. */
class HighlightWalk {
  readonly #map: RoleMap

  constructor(map: RoleMap) {
    this.#map = map
  }

  query(query: QueryNode): void {
    const map = this.#map
    if (query.entity.kind === 'error') {
      this.#error(query.entity)
      return
    }
    map.mark(query.entity.span, 'entity')
    if (query.corpus !== undefined) {
      map.mark(query.corpus.span, 'corpus')
      if (query.corpus.error !== undefined) this.#error(query.corpus.error)
    }
    if (query.where !== undefined) {
      // `where` is the first word of its node.
      map.mark({ start: query.where.span.start, end: query.where.span.start + 1 }, 'keyword')
      this.#condition(query.where.conditions)
    }
    for (const directive of query.directives) this.#directive(directive)
    if (query.trailing !== undefined) this.#error(query.trailing)
  }

  #error(error: SyntaxErrorNode | undefined): void {
    if (error !== undefined && error.span.end > error.span.start) this.#map.mark(error.span, 'error')
  }

  /**
   * The nodes that conditions, values and searches all nest in (a branch, `not`s, a group, a bare item):
   * marks their own words and errors, and `walk`s into what they hold.
   */
  #nested<T extends { readonly kind: string }>(
    node: BranchNode<T> | NotNode<T> | GroupNode<T> | BareNode<T>,
    walk: (child: T) => void,
  ): void {
    switch (node.kind) {
      case 'branch':
        for (const connective of node.connectives) this.#map.mark(connective, 'connective')
        for (const child of node.operands) walk(child)
        for (const error of node.errors) this.#error(error)
        break
      case 'not':
        walk(this.#throughNots(node))
        break
      case 'group':
        walk(node.inner)
        this.#error(node.error)
        break
      case 'bare':
        walk(node.item)
        this.#error(node.error)
        break
    }
  }

  /** A run of `not`s, walked iteratively (a text may hold thousands). */
  #throughNots<T extends { readonly kind: string }>(node: NotNode<T>): T {
    let current: T | NotNode<T> = node
    while (current.kind === 'not') {
      const not = current as NotNode<T>
      this.#map.mark(not.keyword, 'keyword')
      this.#error(not.error)
      current = not.operand
    }
    return current as T
  }

  #condition(node: ConditionNode): void {
    switch (node.kind) {
      case 'clause':
        this.#clause(node)
        break
      case 'error':
        this.#error(node)
        break
      default:
        this.#nested(node, (child) => this.#condition(child))
    }
  }

  #clause(clause: ClauseNode): void {
    const map = this.#map
    map.mark(clause.skipped, 'error')
    map.mark(clause.subject.span, clause.subject.kind === 'field' ? 'field' : 'verb')
    if (clause.operator !== undefined) {
      map.mark(clause.operator.span, clause.operator.error === undefined ? 'operator' : 'error')
      if (clause.value !== undefined) {
        if (clause.operator.family === 'search') this.#search(clause.value as SearchNode)
        else this.#value(clause.value as ValueNode)
      }
    }
    this.#error(clause.operatorError)
  }

  #value(node: ValueNode): void {
    const map = this.#map
    switch (node.kind) {
      case 'scalar':
        map.markToken(node.span, (token) => (token.kind === 'string' ? 'string' : scalarRole(token.text)))
        break
      case 'null':
        map.mark(node.span, 'value')
        break
      case 'missing':
        return
      default:
        this.#nested(node, (child) => this.#value(child))
    }
  }

  #search(node: SearchNode): void {
    const map = this.#map
    switch (node.kind) {
      case 'run':
        for (const word of node.words) map.mark(word.span, word.quoted ? 'string' : 'value')
        return
      case 'phrase':
        // `stemmed "…"`: the keyword, then the string.
        if (node.stemmed) map.markToken(node.span, () => 'keyword')
        return
      case 'proximity':
        map.mark(node.keyword, 'keyword')
        // The distance N after `within`.
        map.markToken({ start: node.keyword.end, end: node.span.end }, (token) =>
          token.kind === 'word' ? 'number' : 'punctuation',
        )
        for (const operand of node.operands) map.mark(operand.span, operand.quoted ? 'string' : 'value')
        this.#error(node.error)
        break
      case 'missing':
        return
      case 'error':
        this.#error(node)
        break
      default:
        this.#nested(node, (child) => this.#search(child))
    }
  }

  #directive(node: DirectiveNode): void {
    const map = this.#map
    if (node.kind === 'group-by') {
      const first = node.fields[0]
      // `group by` is the text before the first field.
      map.mark({ start: node.span.start, end: first?.span.start ?? node.span.end }, 'directive')
      for (const field of node.fields) {
        if (field.kind === 'field') map.mark(field.span, 'field')
        else this.#error(field)
      }
      this.#error(node.error)
      return
    }
    map.markToken(node.span, () => 'directive')
    if (node.size !== undefined) map.mark(node.size.span, 'number')
    if (node.seed !== undefined) {
      map.mark({ start: node.size?.span.end ?? node.span.start, end: node.seed.span.start }, 'directive')
      map.markToken(node.seed.span, (token) => (token.kind === 'string' ? 'string' : scalarRole(token.text)))
    }
    this.#error(node.error)
  }
}

/** The annotations `[…]` in the gaps between tokens (trivia the tokens do not list one by one). */
const annotationsOf = (lexed: LexedOql, upTo: number): Span[] => {
  const spans: Span[] = []
  const text = lexed.text
  let offset = 0
  for (const token of lexed.tokens) {
    const gapEnd = Math.min(token.start, upTo)
    while (offset < gapEnd) {
      const open = text.indexOf('[', offset)
      if (open === -1 || open >= gapEnd) break
      const close = text.indexOf(']', open + 1)
      const end = close === -1 || close >= gapEnd ? gapEnd : close + 1
      spans.push({ start: open, end })
      offset = end
    }
    offset = Math.max(offset, token.end)
  }
  return spans
}

/**
 * The highlight spans of OQL text, in text order: what each token and annotation is, as the parser reads
 * it. Works on any text, complete or not (typed text is mostly incomplete): an unterminated string or
 * annotation is highlighted as one to the end, and what comes before it is read on its own. Whitespace
 * and unplaced words get no span. Never throws.
 *
 * @example highlightOql('works where year is 2020')
 * // [{ start: 0, end: 5, role: 'entity' }, { start: 6, end: 11, role: 'keyword' },
 * //  { start: 12, end: 16, role: 'field' }, { start: 17, end: 19, role: 'operator' },
 * //  { start: 20, end: 24, role: 'number' }]
 */
export const highlightOql = (text: string): OqlHighlightSpan[] => {
  if (typeof text !== 'string') return []
  try {
    const lexed = lexOql(text)
    // An unterminated string or annotation runs to the end; the text before it is read alone.
    const cut = lexed.error?.span.start ?? text.length
    const head = cut === text.length ? lexed : lexOql(text.slice(0, cut))
    const map = new RoleMap(head.tokens)
    const syntax = parseOqlSyntax(head.text)
    if (syntax.tree !== undefined) new HighlightWalk(map).query(syntax.tree)
    const spans: OqlHighlightSpan[] = []
    head.tokens.forEach((token, index) => {
      const role = map.roles[index]
      if (role !== undefined) spans.push({ start: token.start, end: token.end, role })
    })
    for (const annotation of annotationsOf(head, cut)) spans.push({ ...annotation, role: 'annotation' })
    if (lexed.error !== undefined)
      spans.push({
        start: cut,
        end: text.length,
        role: lexed.error.code === 'OQL_UNTERMINATED_ANNOTATION' ? 'annotation' : 'string',
      })
    return spans.sort((a, b) => a.start - b.start)
  } catch {
    // Defensive: the lexer and grammar are total; an editor is better with no colour than with an exception.
    return []
  }
}
