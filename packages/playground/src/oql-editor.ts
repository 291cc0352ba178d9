// The OQL editor: CodeMirror 6 with the keys people expect of a code editor; Ctrl/Cmd+Enter runs the query.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { EditorState } from '@codemirror/state'
import { EditorView, keymap, placeholder } from '@codemirror/view'

export interface OqlEditorOptions {
  readonly text: string
  readonly onRun: () => void
}

export interface OqlEditor {
  readonly view: EditorView
  text(): string
}

export const createOqlEditor = (parent: HTMLElement, options: OqlEditorOptions): OqlEditor => {
  const run = (): boolean => {
    options.onRun()
    return true
  }
  const runKeys = keymap.of([{ key: 'Mod-Enter', run }])
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        runKeys,
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping,
        placeholder('works where year is 2020'),
        EditorView.contentAttributes.of({ 'aria-label': 'OQL query' }),
      ],
    }),
  })
  return { view, text: () => view.state.doc.toString() }
}
