import { type EntityType, propertiesRegistry } from '@oqlkit/oqo-schema'
import type { FieldTarget } from './field-index.ts'
import type { ClauseNode, OperatorNode, VerbNode } from './oql-syntax.ts'

// Shared by the lowering and the editor context, so a clause means the same column to both.

/** The words a verb phrase is written back as, for messages. */
const VERB_WORDS: Readonly<Record<VerbNode['columnId'], string>> = {
  referenced_works: 'it cites',
  cited_by: "it's cited by",
  related_to: "it's related to",
}

/**
 * What the subject of a clause names: a verb phrase is its citation column; a field name that names
 * both a search and a value column (`name` on authors) is read by its operator.
 */
export const clauseTarget = (
  entity: EntityType,
  clause: Pick<ClauseNode, 'subject'>,
  operator: Pick<OperatorNode, 'family'> | undefined,
): FieldTarget => {
  const subject = clause.subject
  if (subject.kind === 'verb') {
    const column = propertiesRegistry.resolveColumn(entity, subject.columnId)
    return {
      word: VERB_WORDS[subject.columnId],
      columnId: subject.columnId,
      column,
      kind: 'id',
      casing: undefined,
      float: false,
      dateBounds: undefined,
      rowSubject: true,
      valueEntity: column?.valueEntity ?? 'works',
      search: undefined,
    }
  }
  const entry = subject.entry
  // Before an operator is written, the search reading is the one the word is known for (`title`).
  const wantsSearch = operator === undefined || operator.family === 'search' || operator.family === 'semantic'
  return (wantsSearch ? (entry.search ?? entry.value) : (entry.value ?? entry.search))!
}
