// Lint for the OQL editor: @oqlkit/oql's `validateOql` in the page (no round trip), each diagnostic with
// its message (which ends with the fix) and, where the library is sure of the fix, its quick fixes as
// actions: buttons in the tooltip, and keys in the lint panel (Ctrl/Cmd+Shift+M, then the underlined letter).

import { type Action, type Diagnostic, linter } from '@codemirror/lint'
import type { Extension } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { type OqlDiagnostic, validateOql } from '@oqlkit/oql'

const actionsOf = (diagnostic: OqlDiagnostic, linted: string): Action[] =>
  (diagnostic.quickFixes ?? []).map((quickFix) => ({
    name: quickFix.label,
    apply: (view: EditorView) => {
      // The edits address the text as it was linted; once it has changed, the next lint has fresh ones.
      if (view.state.doc.toString() !== linted) return
      view.dispatch({
        changes: quickFix.edits.map((edit) => ({ from: edit.start, to: edit.end, insert: edit.text })),
        userEvent: 'input.quickfix',
      })
    },
  }))

/** The diagnostics of a text, placed for CodeMirror (spans clamped to the text). */
export const oqlDiagnostics = (text: string): Diagnostic[] =>
  validateOql(text).map((diagnostic) => {
    const from = Math.min(diagnostic.span.start, text.length)
    const to = Math.min(Math.max(diagnostic.span.end, from), text.length)
    return {
      from,
      to,
      severity: diagnostic.severity,
      source: diagnostic.code,
      message: diagnostic.message,
      actions: actionsOf(diagnostic, text),
    }
  })

export const oqlLinter = (): Extension =>
  linter((view) => oqlDiagnostics(view.state.doc.toString()), { delay: 300 })
