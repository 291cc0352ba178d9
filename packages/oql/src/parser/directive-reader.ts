import type { GroupBy, Oqo } from '@oqlkit/oqo-schema'
import type { Span } from '../diagnostics/oql-diagnostic.ts'
import type { LoweringScope } from './lowering-scope.ts'
import { writeSampleTwiceMessage } from './oql-message-writers.ts'
import type { DirectiveNode } from './oql-syntax.ts'

// The directives after the conditions (`group by …`, `sample N seed S`) become the OQO's `group_by`,
// `sample` and `seed`. They are read apart from the conditions: they take no negation and no values
// typed by field, only field names and a number.

/** What the directives add to the OQO, and the text each part came from. */
export interface DirectiveReading {
  /** The OQO members, in the object's key order: `sample`, `seed`, then `group_by`. */
  readonly members: Pick<Oqo, 'sample' | 'seed' | 'group_by'>
  /** The span of each member, keyed as a JSON path is looked up (`sample`, `seed`, `group_by[1]`). */
  readonly spans: ReadonlyMap<string, Span>
}

/**
 * Reads the directives of a query. Grouping fields add up over several `group by`s; a second `sample`
 * is reported and ignored, as it would silently replace the first.
 */
export const readDirectives = (
  directives: readonly DirectiveNode[],
  scope: Pick<LoweringScope, 'report' | 'syntax'>,
): DirectiveReading => {
  const members: Pick<Oqo, 'sample' | 'seed' | 'group_by'> = {}
  const spans = new Map<string, Span>()
  const groupBy: GroupBy[] = []
  let sampled = false
  for (const directive of directives) {
    if (directive.kind === 'group-by') {
      if (directive.error !== undefined) scope.syntax(directive.error)
      for (const field of directive.fields) {
        if (field.kind === 'error') {
          scope.syntax(field)
          continue
        }
        // A field that names a search and a value column groups by its value column.
        const target = (field.entry.value ?? field.entry.search)!
        spans.set(`group_by[${groupBy.length}]`, field.span)
        groupBy.push({
          column_id: target.kind === 'search' ? `${target.columnId}.search` : target.columnId,
        })
      }
      continue
    }
    if (directive.error !== undefined) scope.syntax(directive.error)
    if (sampled) {
      scope.report('OQL_BAD_SAMPLE', directive.span, writeSampleTwiceMessage())
      continue
    }
    sampled = true
    if (directive.size !== undefined) {
      members.sample = directive.size.value
      spans.set('sample', directive.size.span)
    }
    if (directive.seed !== undefined) {
      members.seed = directive.seed.value
      spans.set('seed', directive.seed.span)
    }
  }
  if (groupBy.length > 0) members.group_by = groupBy
  return { members, spans }
}
