import { type OqlDiagnostic, type OqlQuickFix, translate, validateOql } from '@oqlkit/oql'
import type { H3Event } from 'h3'
import { readKnownParameters } from '../request/known-parameters.ts'
import { rawQueryOf } from '../request/query-parameters.ts'

/** A diagnostic as `/validate` and `/parse-context` write it: code, span, message and the fix alone. */
export interface DiagnosticView {
  readonly code: string
  readonly severity: string
  readonly message: string
  readonly fixit: string
  readonly start: number
  readonly end: number
  readonly line: number
  readonly column: number
  /** The JSON path in the OQO of a validation finding, or null for a parse finding. */
  readonly location: string | null
  /** The outline address of the clause or value a validation finding is about (`[3, 1, 2]`), or null. */
  readonly path: readonly number[] | null
  /** Fixes an editor can apply (the library's `quickFixes`), empty when the fix needs a choice. */
  readonly quick_fixes: readonly OqlQuickFix[]
}

export const diagnosticView = (diagnostic: OqlDiagnostic): DiagnosticView => ({
  code: diagnostic.code,
  severity: diagnostic.severity,
  message: diagnostic.message,
  fixit: diagnostic.fix,
  start: diagnostic.span.start,
  end: diagnostic.span.end,
  line: diagnostic.line,
  column: diagnostic.column,
  location: diagnostic.path === undefined || diagnostic.path === '' ? null : diagnostic.path,
  path: diagnostic.address ?? null,
  quick_fixes: diagnostic.quickFixes ?? [],
})

const PARAMETERS = ['q', 'api_key', 'mailto']

/**
 * `GET /validate?q=<oql>`: lints OQL for an editor, always 200 whatever the text. Every finding is
 * listed with its stable code, span and fix (after a parse error the parser recovers at the next clause
 * and goes on); when the text is valid, its other forms come too.
 */
export const queryValidateHandler = (event: H3Event): unknown => {
  const parameters = readKnownParameters(rawQueryOf(event.req.url), PARAMETERS, '/validate')
  const text = parameters.get('q')?.value ?? ''
  const diagnostics = validateOql(text)
  const valid = !diagnostics.some((diagnostic) => diagnostic.severity === 'error')
  const translation = valid ? translate({ oql: text }) : undefined
  const forms = translation?.validation.valid === true ? translation : undefined
  return {
    valid: forms !== undefined,
    oql: forms?.oql ?? null,
    oql_oneline: forms?.oql_oneline ?? null,
    oqo: forms?.oqo ?? null,
    oxurl: forms?.oxurl ?? null,
    diagnostics: diagnostics.map(diagnosticView),
  }
}
