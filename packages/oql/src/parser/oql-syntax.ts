import type { Corpus, EntityType } from '@oqlkit/oqo-schema'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import type { OqlDiagnosticCode } from '../diagnostics/oql-diagnostic-codes.ts'
import type { FieldEntry } from './field-index.ts'

/**
 * The syntax tree of an OQL query: what the grammar read, with the span of every node. The grammar
 * never fails on malformed text; it records an `error` node where the text breaks the grammar and
 * reads on, so one parse serves the fail-fast parser, the recovering validator and autocompletion.
 */

/** A place where the text breaks the grammar. */
export interface SyntaxErrorNode {
  readonly kind: 'error'
  readonly code: OqlDiagnosticCode
  readonly span: Span
  /** The offending text as written, when there is one. */
  readonly found?: string
}

export interface QueryNode {
  readonly kind: 'query'
  readonly span: Span
  readonly entity: EntityNode | SyntaxErrorNode
  readonly corpus?: CorpusNode
  readonly where?: WhereNode
  readonly directives: readonly DirectiveNode[]
  /** Text after the query that is neither a condition nor a directive. */
  readonly trailing?: SyntaxErrorNode
}

export interface EntityNode {
  readonly kind: 'entity'
  readonly span: Span
  readonly entity: EntityType
}

export interface CorpusNode {
  readonly kind: 'corpus'
  readonly span: Span
  readonly corpus: Corpus | undefined
  readonly closed: boolean
  readonly error?: SyntaxErrorNode
}

export interface WhereNode {
  readonly kind: 'where'
  readonly span: Span
  readonly conditions: ConditionNode
}

// Conditions ----------------------------------------------------------------------------------------

export type Join = 'and' | 'or'

/** An n-ary boolean node; `connectives` are the spans of the words between operands (empty when implicit). */
export interface BranchNode<T> {
  readonly kind: 'branch'
  readonly join: Join
  readonly operands: readonly T[]
  readonly connectives: readonly Span[]
  /** Problems with the connectives (two operands side by side, a comma in a group). */
  readonly errors: readonly SyntaxErrorNode[]
  readonly span: Span
}

/** A `not` (or a rejected `!`) before an operand. */
export interface NotNode<T> {
  readonly kind: 'not'
  readonly operand: T
  readonly keyword: Span
  readonly span: Span
  readonly error?: SyntaxErrorNode
}

/** A parenthesised group; `closed` is false when the text ends (or breaks) before its `)`. */
export interface GroupNode<T> {
  readonly kind: 'group'
  readonly inner: T
  readonly closed: boolean
  readonly span: Span
  readonly error?: SyntaxErrorNode
}

export type ConditionNode =
  | BranchNode<ConditionNode>
  | NotNode<ConditionNode>
  | GroupNode<ConditionNode>
  | ClauseNode
  | SyntaxErrorNode

/** A field name as matched: the words it took and what they name on the entity. */
export interface FieldNode {
  readonly kind: 'field'
  readonly span: Span
  readonly text: string
  readonly entry: FieldEntry
}

/** A row-subject verb phrase (`it cites`, `it's cited by`, `it's related to`). */
export interface VerbNode {
  readonly kind: 'verb'
  readonly span: Span
  readonly columnId: 'referenced_works' | 'cited_by' | 'related_to'
}

export type OperatorFamily = 'list' | 'comparison' | 'search' | 'semantic'

export type OperatorName = 'is' | 'in collection' | '>' | '>=' | '<' | '<=' | 'has' | 'similar to'

export interface OperatorNode {
  readonly kind: 'operator'
  readonly span: Span
  readonly family: OperatorFamily
  readonly name: OperatorName
  /** `is not`, `is not in collection`, `does not have`, `is not similar to`. */
  readonly negated: boolean
  /** Left out after a row-subject field (`cites (W1)` reads as `cites is (W1)`). */
  readonly implied: boolean
  /** `contains` and friends: read as `has` so the value is still checked, and reported. */
  readonly error?: SyntaxErrorNode
}

export interface ClauseNode {
  readonly kind: 'clause'
  readonly span: Span
  readonly subject: FieldNode | VerbNode
  /** Missing when the text breaks after the field; `operatorError` says how. */
  readonly operator?: OperatorNode
  readonly operatorError?: SyntaxErrorNode
  readonly value?: ValueNode | SearchNode
  /** Text skipped to recover after an error inside the clause. */
  readonly skipped?: Span
}

// Values of `is`, comparisons and `is similar to` -----------------------------------------------------

export interface ScalarNode {
  readonly kind: 'scalar'
  readonly span: Span
  readonly text: string
  readonly quoted: boolean
}

export interface NullNode {
  readonly kind: 'null'
  readonly span: Span
}

/** No value where one was expected; `annotation` is a `[name]` written in its place. */
export interface MissingNode {
  readonly kind: 'missing'
  readonly span: Span
  readonly annotation?: Span
}

/** A value written without parentheses, and what follows it when that is a second value. */
export interface BareNode<T> {
  readonly kind: 'bare'
  readonly item: T
  readonly span: Span
  readonly error?: SyntaxErrorNode
}

export type ValueNode =
  | BranchNode<ValueNode>
  | NotNode<ValueNode>
  | GroupNode<ValueNode>
  | BareNode<ValueNode>
  | ScalarNode
  | NullNode
  | MissingNode

// Search expressions of `has` ------------------------------------------------------------------------

export interface WordNode {
  readonly text: string
  readonly span: Span
  /** Written in quotes inside a run of bare words (an escape: `"and"`). */
  readonly quoted: boolean
}

/** A run of bare words: one stemmed search node. */
export interface RunNode {
  readonly kind: 'run'
  readonly span: Span
  readonly words: readonly WordNode[]
}

/** A quoted phrase: exact, or stemmed when written `stemmed "…"`. */
export interface PhraseNode {
  readonly kind: 'phrase'
  readonly span: Span
  readonly text: string
  readonly stemmed: boolean
}

export interface ProximityNode {
  readonly kind: 'proximity'
  readonly span: Span
  readonly keyword: Span
  readonly distance: number
  readonly operands: readonly { readonly text: string; readonly quoted: boolean; readonly span: Span }[]
  readonly closed: boolean
  readonly error?: SyntaxErrorNode
}

export type SearchNode =
  | BranchNode<SearchNode>
  | NotNode<SearchNode>
  | GroupNode<SearchNode>
  | BareNode<SearchNode>
  | RunNode
  | PhraseNode
  | ProximityNode
  | MissingNode
  | SyntaxErrorNode

// Directives -----------------------------------------------------------------------------------------

export interface GroupByNode {
  readonly kind: 'group-by'
  readonly span: Span
  readonly fields: readonly (FieldNode | SyntaxErrorNode)[]
  readonly error?: SyntaxErrorNode
}

export interface SampleNode {
  readonly kind: 'sample'
  readonly span: Span
  readonly size?: { readonly value: number; readonly span: Span }
  readonly seed?: { readonly value: string; readonly span: Span }
  readonly error?: SyntaxErrorNode
}

export type DirectiveNode = GroupByNode | SampleNode
