import type { EntityType, LeafFilter } from '@oqlkit/oqo-schema'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import type { OqlDiagnosticCode } from '../diagnostics/oql-diagnostic-codes.ts'
import type { FieldTarget } from './field-index.ts'
import type { OqlMessage } from './oql-message-writers.ts'
import type { ClauseNode, OperatorNode, SyntaxErrorNode } from './oql-syntax.ts'
import type { SyntaxErrorContext } from './syntax-error-writer.ts'

// The lowering walk owns the problems and the spans of one query; value typing, search syntax and
// directives lower their part of the tree through this scope, so they stay plain functions that neither
// keep state nor know how the walk records what they find.

/** What value typing, search syntax and directives need from the walk. */
export interface LoweringScope {
  /** The entity the query names (works until it is read). */
  readonly entity: EntityType
  /** Records a problem; returns undefined, so a lowering can `return scope.report(…)` for no filter. */
  report(code: OqlDiagnosticCode, span: Span, message: OqlMessage): undefined
  /** Records an error node of the tree, in the words of the place it stands. */
  syntax(error: SyntaxErrorNode, context?: SyntaxErrorContext): undefined
  /** A leaf of the OQO, negated when asked, remembered with the spans of its clause and value. */
  leaf(leaf: LeafFilter, negated: boolean, span: Span, context: ClauseContext): LeafFilter
}

/** The clause a value or search term belongs to. */
export interface ClauseContext {
  readonly clause: ClauseNode
  readonly operator: OperatorNode
  readonly target: FieldTarget
  readonly word: string
  /** The negation from `not` before the clause (as opposed to `is not` and `not` inside the value). */
  readonly outerNegated: boolean
}
