import type { EntityType, Filter, LeafFilter, Oqo } from '@oqlkit/oqo-schema'
import type { ProblemReport, Span } from '../diagnostics/oql-diagnostic.ts'
import type { OqlDiagnosticCode } from '../diagnostics/oql-diagnostic-codes.ts'
import { clauseTarget } from './clause-target.ts'
import { readDirectives } from './directive-reader.ts'
import { operatorFits, operatorText } from './field-operators.ts'
import type { ClauseContext, LoweringScope } from './lowering-scope.ts'
import {
  type OqlMessage,
  writeMissingSearchTermMessage,
  writeOperatorMismatchMessage,
} from './oql-message-writers.ts'
import type {
  BranchNode,
  ClauseNode,
  ConditionNode,
  FieldNode,
  Join,
  NotNode,
  QueryNode,
  SearchNode,
  SyntaxErrorNode,
  ValueNode,
} from './oql-syntax.ts'
import { type FilterSpans, locateOqoPath } from './oqo-path-locator.ts'
import { lowerPhrase, lowerProximity, lowerRun, lowerSimilarTo } from './search-syntax-lowering.ts'
import { type SyntaxErrorContext, writeSyntaxErrorMessage } from './syntax-error-writer.ts'
import {
  firstBranch,
  reportMissingValue,
  reportOneValueOnly,
  takesOneValue,
  typeValue,
} from './value-typing.ts'

// From the syntax tree to the OQO (§3.5–3.7, §5.1): field words become columns, values are typed per
// field kind, negation is pushed to the leaves (De Morgan; a yes/no value flips instead) and same-join
// branches are flattened, so the object comes out in canonical shape in the user's operand order.
// Every problem of the tree and of the values is collected, in no particular order.

export interface LoweredQuery {
  /** Undefined when the entity could not be read. */
  readonly oqo: Oqo | undefined
  readonly problems: readonly ProblemReport[]
  /** The text a JSON path of the OQO (`filter_rows[0].value`, `group_by[1]`) came from, if known. */
  readonly locate: (path: string) => Span | undefined
}

const flip = (join: Join): Join => (join === 'and' ? 'or' : 'and')

/** Lowers one parsed query. */
export const lowerQuery = (query: QueryNode): LoweredQuery => new Lowering(query).run()

class Lowering implements LoweringScope {
  readonly #query: QueryNode
  readonly #problems: ProblemReport[] = []
  readonly #filterSpans = new Map<Filter, FilterSpans>()
  readonly #spans = new Map<string, Span>()
  #entity: EntityType = 'works'

  get entity(): EntityType {
    return this.#entity
  }

  constructor(query: QueryNode) {
    this.#query = query
  }

  run(): LoweredQuery {
    const query = this.#query
    if (query.entity.kind === 'error') {
      this.syntax(query.entity)
      return { oqo: undefined, problems: this.#problems, locate: () => undefined }
    }
    this.#entity = query.entity.entity
    this.#spans.set('get_rows', query.entity.span)
    const oqo: Oqo = { get_rows: this.#entity }
    if (query.corpus !== undefined) {
      if (query.corpus.error !== undefined)
        this.syntax(query.corpus.error, { corpusClosed: query.corpus.closed })
      else if (query.corpus.corpus !== undefined && query.corpus.corpus !== 'core') {
        oqo.corpus = query.corpus.corpus
        this.#spans.set('corpus', query.corpus.span)
      }
    }
    if (query.where !== undefined) {
      const filter = this.#condition(query.where.conditions, false)
      if (filter !== undefined) {
        oqo.filter_rows = 'join' in filter && filter.join === 'and' ? filter.filters : [filter]
      }
    }
    const directives = readDirectives(query.directives, this)
    Object.assign(oqo, directives.members)
    for (const [path, span] of directives.spans) this.#spans.set(path, span)
    if (query.trailing !== undefined) this.syntax(query.trailing, { hasWhere: query.where !== undefined })
    return {
      oqo,
      problems: this.#problems,
      locate: (path) => locateOqoPath(oqo, path, { filters: this.#filterSpans, members: this.#spans }),
    }
  }

  // The scope value typing, search syntax and directives lower through ------------------------------

  report(code: OqlDiagnosticCode, span: Span, { problem, fix, quickFixes }: OqlMessage): undefined {
    const report: ProblemReport = fix === undefined ? { code, span, problem } : { code, span, problem, fix }
    this.#problems.push(quickFixes === undefined ? report : { ...report, quickFixes })
    return undefined
  }

  /** Reports an error node of the tree, in the words of the place it stands. */
  syntax(error: SyntaxErrorNode, context: SyntaxErrorContext = {}): undefined {
    const place = { ...context, entity: this.#entity, entityRead: this.#query.entity.kind === 'entity' }
    return this.report(error.code, error.span, writeSyntaxErrorMessage(error, place))
  }

  /** Remembers the spans of a leaf, so a validation problem of it points at its clause and value. */
  leaf(leaf: LeafFilter, negated: boolean, span: Span, context: ClauseContext): LeafFilter {
    const result: LeafFilter = negated ? { ...leaf, is_negated: true } : leaf
    const subject = context.clause.subject
    this.#filterSpans.set(result, {
      node: span,
      column: subject.span,
      operator: context.operator.implied ? subject.span : context.operator.span,
      value: span,
    })
    return result
  }

  // Conditions ---------------------------------------------------------------------------------------

  #condition(node: ConditionNode, negated: boolean): Filter | undefined {
    switch (node.kind) {
      case 'error':
        return this.syntax(node)
      case 'branch':
        for (const error of node.errors) this.syntax(error)
        return this.#branch(node, negated, (operand, childNegated) => this.#condition(operand, childNegated))
      case 'not': {
        const inner = this.#throughNots(node, negated)
        return this.#condition(inner.operand, inner.negated)
      }
      case 'group':
        return this.#closed(node, this.#condition(node.inner, negated))
      case 'clause':
        return this.#clause(node, negated)
    }
  }

  /** Through a run of `not`s, iteratively (a text may hold thousands), reporting any `!` among them. */
  #throughNots<T extends { readonly kind: string }>(
    node: NotNode<T>,
    negated: boolean,
  ): { readonly operand: T; readonly negated: boolean } {
    let current: T | NotNode<T> = node
    let flipped = negated
    while (current.kind === 'not') {
      const not = current as NotNode<T>
      if (not.error !== undefined) this.syntax(not.error)
      flipped = !flipped
      current = not.operand
    }
    return { operand: current as T, negated: flipped }
  }

  /** Reports an unclosed group after its content: what is missing inside comes first in the text. */
  #closed(node: { readonly error?: SyntaxErrorNode }, filter: Filter | undefined): Filter | undefined {
    if (node.error !== undefined) this.syntax(node.error, { inGroup: true })
    return filter
  }

  /** A branch with its negation pushed to the children (De Morgan) and same-join children flattened. */
  #branch<T extends { readonly span: Span }>(
    node: BranchNode<T>,
    negated: boolean,
    lower: (operand: T, negated: boolean) => Filter | undefined,
  ): Filter | undefined {
    const join = negated ? flip(node.join) : node.join
    const filters: Filter[] = []
    for (const operand of node.operands) {
      const child = lower(operand, negated)
      if (child === undefined) continue
      if ('join' in child && child.join === join) filters.push(...child.filters)
      else filters.push(child)
    }
    if (filters.length <= 1) return filters[0]
    const branch: Filter = { join, filters }
    this.#filterSpans.set(branch, { node: node.span })
    return branch
  }

  #clause(clause: ClauseNode, negated: boolean): Filter | undefined {
    const operator = clause.operator
    const target = clauseTarget(this.#entity, clause, operator)
    const word = clause.subject.kind === 'field' ? (clause.subject as FieldNode).text : target.word
    if (operator === undefined) {
      if (clause.operatorError !== undefined) this.syntax(clause.operatorError, { field: word })
      return undefined
    }
    const value = clause.value
    if (value === undefined) return undefined
    let broken = false
    if (operator.error !== undefined) {
      this.syntax(operator.error)
      broken = true
    }
    if (!operatorFits(operator, target.kind)) {
      this.report(
        'OQL_BAD_OPERATOR_FOR_FIELD',
        operator.span,
        writeOperatorMismatchMessage(operatorText(operator), word, target.kind),
      )
      return undefined
    }
    const clauseNegated = negated !== operator.negated
    const context: ClauseContext = { clause, operator, target, word, outerNegated: negated }
    let filter: Filter | undefined
    switch (operator.family) {
      case 'search':
        filter = this.#search(value as SearchNode, clauseNegated, context, true)
        break
      case 'semantic':
        filter = lowerSimilarTo(value as ValueNode, clauseNegated, context, this)
        break
      default:
        filter = this.#values(value as ValueNode, clauseNegated, context)
    }
    return broken ? undefined : filter
  }

  // Values of `is`, comparisons and collections ----------------------------------------------------------

  #values(node: ValueNode, negated: boolean, context: ClauseContext): Filter | undefined {
    if (takesOneValue(context)) {
      const branch = firstBranch(node)
      if (branch !== undefined) {
        for (const error of branch.errors) this.syntax(error, { field: context.word })
        if (branch.errors.length === 0) reportOneValueOnly(branch, context, this)
        return undefined
      }
    }
    return this.#valueTree(node, negated, context)
  }

  #valueTree(node: ValueNode, negated: boolean, context: ClauseContext): Filter | undefined {
    switch (node.kind) {
      case 'branch':
        for (const error of node.errors) this.syntax(error, { field: context.word })
        return this.#branch(node, negated, (item, childNegated) =>
          this.#valueTree(item, childNegated, context),
        )
      case 'not': {
        const inner = this.#throughNots(node, negated)
        return this.#valueTree(inner.operand, inner.negated, context)
      }
      case 'group':
        return this.#closed(node, this.#valueTree(node.inner, negated, context))
      case 'bare':
        if (node.error !== undefined) this.syntax(node.error, { field: context.word, kind: 'value' })
        return this.#valueTree(node.item, negated, context)
      case 'missing':
        return reportMissingValue(node, context, this)
      case 'scalar':
      case 'null':
        return typeValue(node, negated, context, this)
    }
  }

  // Search expressions ---------------------------------------------------------------------------------

  #search(node: SearchNode, negated: boolean, context: ClauseContext, top: boolean): Filter | undefined {
    switch (node.kind) {
      case 'error':
        return this.syntax(node, { field: context.word, kind: 'search' })
      case 'branch':
        for (const error of node.errors) this.syntax(error)
        return this.#branch(node, negated, (item, childNegated) =>
          this.#search(item, childNegated, context, false),
        )
      case 'not': {
        const inner = this.#throughNots(node, negated)
        return this.#search(inner.operand, inner.negated, context, false)
      }
      case 'group':
        return this.#closed(node, this.#search(node.inner, negated, context, false))
      case 'bare': {
        const filter = this.#search(node.item, negated, context, top)
        if (node.error !== undefined) this.syntax(node.error, { field: context.word, kind: 'search' })
        return filter
      }
      case 'missing':
        return this.report('OQL_MISSING_VALUE', node.span, writeMissingSearchTermMessage(context.word))
      case 'run':
        return lowerRun(node, negated, context, this)
      case 'phrase':
        return lowerPhrase(node, negated, context, this)
      case 'proximity':
        return lowerProximity(node, negated, context, this)
    }
  }
}
