// Quick fixes: the edits a diagnostic's fix text describes, where the library knows them for certain
// (the field the name is closest to, the `)` the query lacks, `has` for `contains`). An editor offers
// them as actions; a fix it cannot be sure of (which of two values was meant) has none, only its text.

/** One replacement of the query text: `text` in place of `start`..`end` (UTF-16 offsets, end exclusive). */
export interface OqlTextEdit {
  readonly start: number
  readonly end: number
  readonly text: string
}

/** A fix an editor can apply: a short label for a menu, and its edits (which never overlap). */
export interface OqlQuickFix {
  /** What applying it does, e.g. `Change to "year"`, `Add the missing )`. */
  readonly label: string
  readonly edits: readonly OqlTextEdit[]
}

/**
 * A quick fix that replaces one span. The span is typed by its shape rather than as `Span`, because
 * oql-diagnostic.ts imports this file and an import back would make a cycle.
 */
export const replaceSpan = (
  span: Pick<OqlTextEdit, 'start' | 'end'>,
  text: string,
  label: string,
): OqlQuickFix => ({
  label,
  edits: [{ start: span.start, end: span.end, text }],
})

/**
 * The text with the edits applied. Edits address the original text and must not overlap; they may come
 * in any order.
 *
 * @example applyOqlEdits('works where yaer is 2020', [{ start: 12, end: 16, text: 'year' }])
 * // 'works where year is 2020'
 */
export const applyOqlEdits = (text: string, edits: readonly OqlTextEdit[]): string => {
  let result = text
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end)
  return result
}
