// Colours for the OQL editor from @oqlkit/oql's own reading of the text (`highlightOql`), so a word is
// coloured as what the query makes of it: `title` is a field after `where` and a search term after
// `has`. Each span becomes a mark with the class `cm-oql-<role>`, coloured by the theme below (kept with
// the editor, so the page's stylesheet need not know the roles; colours meet WCAG AA on white).

import type { Extension } from '@codemirror/state'
import { Decoration, type DecorationSet, EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view'
import { highlightOql, type OqlHighlightRole } from '@oqlkit/oql'

const MARKS = new Map<OqlHighlightRole, Decoration>()

const markOf = (role: OqlHighlightRole): Decoration => {
  let mark = MARKS.get(role)
  if (mark === undefined) {
    mark = Decoration.mark({ class: `cm-oql-${role}` })
    MARKS.set(role, mark)
  }
  return mark
}

const decorationsOf = (view: EditorView): DecorationSet => {
  const text = view.state.doc.toString()
  // highlightOql gives spans in text order, inside the text, never overlapping: what a RangeSet needs.
  return Decoration.set(highlightOql(text).map((span) => markOf(span.role).range(span.start, span.end)))
}

const COLOURS: Readonly<Record<OqlHighlightRole, Record<string, string>>> = {
  entity: { color: '#6f42c1', fontWeight: '600' },
  corpus: { color: '#6f42c1' },
  keyword: { color: '#a626a4', fontWeight: '600' },
  connective: { color: '#a626a4', fontWeight: '600' },
  directive: { color: '#a626a4', fontWeight: '600' },
  field: { color: '#0b5cad' },
  verb: { color: '#0b5cad' },
  operator: { color: '#986801' },
  value: { color: '#1a7f37' },
  string: { color: '#1a7f37' },
  number: { color: '#b35900' },
  id: { color: '#0a7b83' },
  annotation: { color: '#6a737d', fontStyle: 'italic' },
  punctuation: { color: '#57606a' },
  // The lint underlines it; the colour says so before the lint has run.
  error: { color: '#c62828' },
}

const theme = EditorView.baseTheme(
  Object.fromEntries(Object.entries(COLOURS).map(([role, style]) => [`.cm-oql-${role}`, style])),
)

/** Recomputed on every change: a query is a line or two, and the parse takes well under a millisecond. */
export const oqlHighlighting = (): Extension => [
  theme,
  ViewPlugin.fromClass(
    class {
      decorations: DecorationSet

      constructor(view: EditorView) {
        this.decorations = decorationsOf(view)
      }

      update(update: ViewUpdate): void {
        if (update.docChanged) this.decorations = decorationsOf(update.view)
      }
    },
    { decorations: (plugin) => plugin.decorations },
  ),
]
