import type { DiagnosticSeverity, ValidationCode } from '@oqlkit/oqo-schema'
import { DEFAULT_FIXES, type OqlDiagnosticCode } from './oql-diagnostic-codes.ts'
import type { OqlQuickFix } from './oql-quick-fix.ts'

/** A range of the query text: UTF-16 offsets, `end` exclusive. */
export interface Span {
  readonly start: number
  readonly end: number
}

/**
 * A finding about OQL text. Parse codes (`OQL_…`) always point into the text; validation codes
 * (`invalid_…`) of the parsed object carry its JSON `path` and the span of the clause it came from.
 */
export interface OqlDiagnostic {
  readonly code: OqlDiagnosticCode | ValidationCode
  readonly severity: DiagnosticSeverity
  /** What is wrong, then how to fix it (the message always ends with the fix). */
  readonly message: string
  /** The fix alone. */
  readonly fix: string
  /** The offset the diagnostic points at (`span.start`). */
  readonly position: number
  readonly span: Span
  /** 1-based line and column of `position`. */
  readonly line: number
  readonly column: number
  /** For validation codes: the JSON path in the OQO (`filter_rows[0].value`). */
  readonly path?: string
  /**
   * For validation codes: the outline address of the clause or value in the printed query
   * (`[3, 1, 2]` for `3.1.2`), when the finding points at one.
   */
  readonly address?: readonly number[]
  /**
   * The fix as edits of the text, where the library knows them for certain (a misspelt field, entity
   * or code, a missing `)`, `has` for `contains`): one quick fix per alternative the fix text offers,
   * best first. Absent where the fix needs the user's judgement.
   */
  readonly quickFixes?: readonly OqlQuickFix[]
}

/** A problem found while parsing, before it is placed in the text (line and column). */
export interface ProblemReport {
  readonly code: OqlDiagnosticCode
  readonly span: Span
  /** The problem as a sentence without its fix (no final period needed). */
  readonly problem: string
  /** A fix for this site; the code's default fix otherwise. */
  readonly fix?: string
  /** The fix as edits, where it is certain. */
  readonly quickFixes?: readonly OqlQuickFix[]
}

/** 1-based line and column of an offset; `\r\n`, `\n` and `\r` end lines. */
export const lineColumnOf = (text: string, offset: number): { line: number; column: number } => {
  let line = 1
  let lineStart = 0
  const end = Math.min(offset, text.length)
  for (let index = 0; index < end; index++) {
    const char = text.charCodeAt(index)
    if (char === 10 || (char === 13 && text.charCodeAt(index + 1) !== 10)) {
      line++
      lineStart = index + 1
    }
  }
  return { line, column: end - lineStart + 1 }
}

const sentence = (text: string): string => {
  const trimmed = text.trim()
  return /[.?!]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

/** Places a problem in the text: the message is the problem followed by its fix. */
export const toDiagnostic = (text: string, report: ProblemReport): OqlDiagnostic => {
  const fix = sentence(report.fix ?? DEFAULT_FIXES[report.code])
  const { line, column } = lineColumnOf(text, report.span.start)
  const diagnostic: OqlDiagnostic = {
    code: report.code,
    severity: 'error',
    message: `${sentence(report.problem)} ${fix}`,
    fix,
    position: report.span.start,
    span: report.span,
    line,
    column,
  }
  return report.quickFixes === undefined || report.quickFixes.length === 0
    ? diagnostic
    : { ...diagnostic, quickFixes: report.quickFixes }
}
