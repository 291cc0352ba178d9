// The OQL parser: text to OQO with diagnostics (`parseOql`), every problem of a text for an editor
// (`validateOql`), what the grammar expects at a cursor (`parseContext`), and the syntax tree with the
// span of every node (`parseOqlSyntax`).

export {
  CONTEXT_CATEGORIES,
  CONTEXT_STATES,
  type ContextCategory,
  contextCategoryOf,
} from './context-category.ts'
export { type FieldEntry, type FieldTarget, fieldIndexOf } from './field-index.ts'
export { highlightOql, type OqlHighlightRole, type OqlHighlightSpan } from './oql-highlighter.ts'
export { type LexedOql, lexOql, type Token, type TokenKind } from './oql-lexer.ts'
export {
  MAX_NESTING,
  type ParseResult,
  parseOql,
  parseOqlSyntax,
  type SyntaxParse,
  validateOql,
} from './oql-parser.ts'
// The syntax tree's node types, every one of them: an editor walks the same tree the parser builds.
export type * from './oql-syntax.ts'
export {
  type ContextField,
  type ContextSibling,
  type ContextState,
  type ContextSuggestion,
  type ParseContext,
  type ParseContextOptions,
  parseContext,
  type SuggestionKind,
} from './parse-context.ts'
