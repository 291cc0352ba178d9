// The OQL editor: CodeMirror 6 with the keys people expect of a code editor; Ctrl/Cmd+Enter runs the query.
// Highlighting, completion and lint all come from @oqlkit/oql running in the page (one reading of the
// text for the page and the server); completion asks the server only for names the library has no list of.
// Tab is left to the browser (no indentWithTab), so the keyboard can leave the editor as it came in.
import { autocompletion, closeCompletion } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { lintKeymap } from '@codemirror/lint'
import { EditorState } from '@codemirror/state'
import { EditorView, keymap, placeholder } from '@codemirror/view'
import { oqlCatalogCompletions, oqlLibraryCompletions } from './oql-completion-source.ts'
import { oqlHighlighting } from './oql-highlight-plugin.ts'
import { oqlLinter } from './oql-lint-source.ts'

export interface OqlEditorOptions {
  readonly text: string
  /** Ctrl/Cmd+Enter. */
  readonly onRun: () => void
  /** Every change of the text, typed or set. */
  readonly onChange?: (text: string) => void
}

export interface OqlEditor {
  readonly view: EditorView
  text(): string
  /** Replaces the whole text (as one undoable change); `onChange` hears of it. */
  setText(text: string): void
}

export const createOqlEditor = (parent: HTMLElement, options: OqlEditorOptions): OqlEditor => {
  // Running closes the completion list: the query has been chosen, and the list would cover the results.
  const run = (view: EditorView): boolean => {
    closeCompletion(view)
    options.onRun()
    return true
  }
  const changes = EditorView.updateListener.of((update) => {
    if (update.docChanged) options.onChange?.(update.state.doc.toString())
  })
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        keymap.of([{ key: 'Mod-Enter', run }]),
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap]),
        // Its keys (Ctrl+Space, arrows, Enter, Escape) come before the keymap above while the list is open.
        autocompletion({ override: [oqlLibraryCompletions, oqlCatalogCompletions], activateOnTyping: true }),
        oqlHighlighting(),
        oqlLinter(),
        EditorView.lineWrapping,
        placeholder('works where year is 2020'),
        EditorView.contentAttributes.of({ 'aria-label': 'OQL query' }),
        changes,
      ],
    }),
  })
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (text) => {
      if (text !== view.state.doc.toString())
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })
    },
  }
}
