// The diagnostics of OQL text: the stable parse codes, the shape every finding has, and the helpers
// that place a problem in the text.

import type { DiagnosticsRegistryEntry } from '@oqlkit/oqo-schema'
import { OQL_DIAGNOSTIC_CODES } from './oql-diagnostic-codes.ts'

export {
  lineColumnOf,
  type OqlDiagnostic,
  type ProblemReport,
  type Span,
  toDiagnostic,
} from './oql-diagnostic.ts'
export {
  DEFAULT_FIXES,
  isOqlDiagnosticCode,
  OQL_DIAGNOSTIC_CODES,
  type OqlDiagnosticCode,
} from './oql-diagnostic-codes.ts'
export { applyOqlEdits, type OqlQuickFix, type OqlTextEdit, replaceSpan } from './oql-quick-fix.ts'

/** The parse codes as entries of the diagnostics registry (`buildDiagnosticsRegistry` of `@oqlkit/oqo-schema`). */
export const OQL_PARSE_DIAGNOSTIC_ENTRIES: readonly DiagnosticsRegistryEntry[] = Object.entries(
  OQL_DIAGNOSTIC_CODES,
).map(([code, summary]) => ({ code, severity: 'error', source: 'parse', summary }))
