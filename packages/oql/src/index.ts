// The public API of @oqlkit/oql: OQL text, OQO JSON and classic URLs as one query language.
// Pure (no `node:` imports): it runs in Node and in a browser alike.

export {
  applyOqlEdits,
  OQL_DIAGNOSTIC_CODES,
  OQL_PARSE_DIAGNOSTIC_ENTRIES,
  type OqlDiagnostic,
  type OqlDiagnosticCode,
  type OqlQuickFix,
  type OqlTextEdit,
  type Span,
} from './diagnostics/index.ts'
export {
  CONTEXT_CATEGORIES,
  CONTEXT_STATES,
  type ContextCategory,
  type ContextState,
  type ContextSuggestion,
  contextCategoryOf,
  highlightOql,
  type OqlHighlightRole,
  type OqlHighlightSpan,
  type ParseContext,
  type ParseContextOptions,
  type ParseResult,
  parseContext,
  parseOql,
  validateOql,
} from './parser/index.ts'
export {
  clauseAddressOf,
  type NameLookup,
  type OqlRenderLine,
  type OqlRenderTree,
  type OqlToken,
  type OqlTokenRole,
  type PrintOqlOptions,
  printOql,
  printOqlOneline,
  renderOqlTree,
  renderTreeText,
} from './printer/index.ts'
export { contextAround, type TranslateOptions, translate } from './translate/translate.ts'
export type {
  TranslationError,
  TranslationErrorType,
  TranslationInput,
  TranslationResult,
  TranslationValidation,
  TranslationWarning,
} from './translate/translate-result.ts'
export {
  isViewParameterName,
  listQueryToOqo,
  type OqoToUrlResult,
  oqoToUrl,
  readSelectText,
  readSortParameter,
  readViewParameter,
  URL_DIAGNOSTIC_CODES,
  type UrlDiagnostic,
  type UrlToOqoResult,
  type UrlView,
  urlToOqo,
  VIEW_PARAMETER_NAMES,
  type ViewParameterName,
  type ViewProblem,
} from './url/index.ts'
